package main

import (
	"errors"
	"strings"

	"boolprog/conc"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/syntax"
)

// concEngine is the engine plain `check` runs on a concurrent program
// (no --engine, no engine flag given): it deepens from 1 round up to its
// default bound, which the verdict line names ("VERIFICATION SUCCESSFUL
// up to 4 rounds").
const concEngine = "conc-eager"

// defaultConcEngine returns concEngine with its default flags.
func defaultConcEngine() (engine.Engine, error) {
	info, ok := engine.Lookup(concEngine)
	if !ok {
		return nil, errors.New("no engine " + concEngine)
	}
	return info.New()
}

// threadModel applies --threads to a lowered program and reports the
// input errors of its thread structure (mixed conventions, an undefined
// thread, a wrong `atomic`) at file:line:col.
func threadModel(name string, p *ir.Program, threads string) (*ir.Program, syntax.ErrorList) {
	wrap := func(err error) syntax.ErrorList {
		e := &syntax.Error{Filename: name, Msg: err.Error()}
		var ce *conc.Error
		if errors.As(err, &ce) {
			e.Pos, e.Msg = ce.Pos, ce.Msg
		}
		return syntax.ErrorList{e}
	}
	if threads != "" {
		q, err := conc.WithThreads(p, strings.Split(threads, ","))
		if err != nil {
			return nil, wrap(err)
		}
		p = q
	}
	if p.Concurrent {
		var ce *conc.Error
		if _, err := conc.NewModel(p, conc.Options{}); errors.As(err, &ce) {
			return nil, wrap(err)
		}
	}
	return p, nil
}
