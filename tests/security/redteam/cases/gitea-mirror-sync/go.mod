module example.invalid/gmsync

go 1.22
