module example.invalid/oncall

go 1.22
