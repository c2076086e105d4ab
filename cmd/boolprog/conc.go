package main

import (
	"strings"

	"boolprog/internal/threads"
	"boolprog/ir"
	"boolprog/syntax"
)

// threadModel applies --threads (a comma-separated list of procedures) to
// a lowered program and reports the input errors of its thread structure
// (mixed conventions, an undefined thread, a wrong `atomic`) at
// file:line:col.
func threadModel(name string, p *ir.Program, list string) (*ir.Program, syntax.ErrorList) {
	var names []string
	if list != "" {
		names = strings.Split(list, ",")
	}
	return threads.Apply(name, p, names)
}
