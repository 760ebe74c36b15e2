module github.com/vendorcheck/go-module-vendor-check

go 1.21
