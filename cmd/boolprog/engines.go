package main

import (
	"fmt"
	"strings"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/summary"
)

// engineSpec describes an engine `--engine` can name.
type engineSpec struct {
	names []string // the first is the canonical name
	doc   string
	make  func(checkOptions) engine.Engine
}

// engines lists the available engines; the first is the default.
var engines = []engineSpec{
	{
		names: []string{"summary", "bebop"},
		doc:   "Bebop: BDD path and summary edges (RHS tabulation), shortest hierarchical traces",
		make:  func(checkOptions) engine.Engine { return summary.New(summary.Options{}) },
	},
	{
		names: []string{"explicit"},
		doc:   "explicit-state tabulation over concrete valuations (the reference oracle)",
		make:  func(checkOptions) engine.Engine { return explicit.New() },
	},
}

// checkOptions are the engine-independent settings of one check.
type checkOptions struct {
	stats bool
}

func engineNames() string {
	var names []string
	for _, e := range engines {
		names = append(names, strings.Join(e.names, "|"))
	}
	return strings.Join(names, ", ")
}

func findEngine(name string) (func(checkOptions) engine.Engine, bool) {
	for _, e := range engines {
		for _, n := range e.names {
			if n == name {
				return e.make, true
			}
		}
	}
	return nil, false
}

// engineList describes the engines for `boolprog check -h`.
func engineList() string {
	var b strings.Builder
	for _, e := range engines {
		fmt.Fprintf(&b, "  %-18s %s\n", strings.Join(e.names, ", "), e.doc)
	}
	return b.String()
}
