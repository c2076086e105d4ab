module boolprog/bench

go 1.22

require (
	boolprog v0.0.0
	github.com/dalzilio/rudd v1.1.1-0.20230806153452-9e08a6ea8170
)

replace boolprog => ../
