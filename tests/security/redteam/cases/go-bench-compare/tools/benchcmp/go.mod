module example.invalid/benchcmp

go 1.22
