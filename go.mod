module boolprog

go 1.22
