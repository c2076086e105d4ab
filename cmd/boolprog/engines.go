package main

import (
	"boolprog"
	"boolprog/engine"
)

// defaultEngine is the engine `check` and `bench` use without --engine.
const defaultEngine = boolprog.DefaultEngine

func engineNames() string { return engine.NamesText() }

// engineList describes the engines for `boolprog check -h`: the default
// first, then the others by name.
func engineList() string { return engine.ListText(defaultEngine) }
