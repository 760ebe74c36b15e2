module example.invalid/uptimebot

go 1.22
