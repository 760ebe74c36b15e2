module example.invalid/tools/modcheck

go 1.22
