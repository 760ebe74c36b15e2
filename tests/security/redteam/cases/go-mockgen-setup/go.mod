module mockdemo.example/app

go 1.22

require go.uber.org/mock v0.4.0
