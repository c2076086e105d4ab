package main

import (
	"context"
	"errors"
	"strings"

	"boolprog/conc"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// concEngines are the engines plain `check` runs on a concurrent program
// (no --engine, no engine flag given), in this order: the explicit
// interleaving search first, which was the fastest on every concurrent
// program we measured (the satabs-boppo tests, Getafix's fib, the
// Bluetooth models: under a second to seconds, where conc-eager took
// minutes) and whose SUCCESSFUL is a proof when it explores everything;
// if it gives up (state budget, thread limit), conc-eager, which deepens
// from 1 round up to its default bound and says so on the verdict line
// ("VERIFICATION SUCCESSFUL up to 4 rounds").
var concEngines = []string{"explicit", "conc-eager"}

// defaultConcEngine returns the engines of concEngines with their default
// flags, run one after the other.
func defaultConcEngine() (engine.Engine, error) {
	var seq fallback
	for _, name := range concEngines {
		info, ok := engine.Lookup(name)
		if !ok {
			return nil, errors.New("no engine " + name)
		}
		e, err := info.New()
		if err != nil {
			return nil, err
		}
		seq = append(seq, e)
	}
	return seq, nil
}

// fallback runs its engines in turn until one decides (Safe or Unsafe) or
// the context ends. An Unknown answer of every engine is reported with all
// their reasons, so that none is hidden.
type fallback []engine.Engine

func (f fallback) Name() string { return f[0].Name() }

func (f fallback) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	var why []string
	var res *result.Result
	for _, e := range f {
		res = engine.Run(ctx, e, p, q)
		if res.Verdict != result.Unknown || ctx.Err() != nil {
			return res, nil
		}
		why = append(why, e.Name()+": "+res.Reason)
	}
	res.Reason = strings.Join(why, "; ")
	return res, nil
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
