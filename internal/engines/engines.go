// Package engines is the one list of engines that boolprog's tools offer
// (the command and the Go API each import it, so that an engine added here
// is in both) and their default choice: DefaultEngine for a sequential
// program and, for a concurrent one, the engines of Concurrent run one
// after the other until one decides.
package engines

import (
	"context"
	"errors"
	"strings"

	"boolprog/engine"
	_ "boolprog/engine/conc"     // registers conc-eager and conc-lazy
	_ "boolprog/engine/concfix"  // registers conc-fix
	_ "boolprog/engine/concprod" // registers conc-product
	_ "boolprog/engine/cpa"      // registers the cpa engine
	_ "boolprog/engine/explicit" // registers the explicit engine
	_ "boolprog/engine/fixpoint" // registers the ef and efopt engines
	_ "boolprog/engine/pushdown" // registers the post* and pre* engines
	_ "boolprog/engine/summary"  // registers the summary engine
	"boolprog/ir"
	"boolprog/result"
)

// Default is the engine that runs on a sequential program when the user
// names none.
const Default = "summary"

// Concurrent are the engines that run on a concurrent program when the
// user names no engine and sets no engine flag, in this order: the
// explicit interleaving search first, which was the fastest on every
// concurrent program we measured (the satabs-boppo tests, Getafix's fib,
// the Bluetooth models: under a second to seconds, where conc-eager took
// minutes) and whose SUCCESSFUL is a proof when it explores everything;
// if it gives up (state budget, thread limit), conc-eager, which deepens
// from 1 round up to its default bound and says so on the verdict line
// ("VERIFICATION SUCCESSFUL up to 4 rounds").
var Concurrent = []string{"explicit", "conc-eager"}

// ConcurrentDefault returns the engines of Concurrent with their default
// flags, run one after the other (a Fallback).
func ConcurrentDefault() (engine.Engine, error) {
	var seq Fallback
	for _, name := range Concurrent {
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

// ConcurrentIgnores names the setting of q that an engine of Concurrent
// would ignore, so that the caller refuses it rather than drop a limit the
// user set: "max-nodes" (explicit, tried first, uses no BDDs) or "all"
// (they stop at the first error); "" if there is none.
func ConcurrentIgnores(q engine.Query) string {
	for _, name := range Concurrent {
		info, _ := engine.Lookup(name)
		switch {
		case q.MaxNodes > 0 && !info.NodeLimited:
			return "max-nodes"
		case q.AllReachable && !info.AllReachable:
			return "all"
		}
	}
	return ""
}

// Fallback runs its engines in turn until one decides (Safe or Unsafe) or
// the context ends. An Unknown answer of every engine is reported with all
// their reasons, so that none is hidden. It has at least one engine.
type Fallback []engine.Engine

// Name is the name of the first engine.
func (f Fallback) Name() string { return f[0].Name() }

// Check runs the engines in turn; the result is that of the last one run.
func (f Fallback) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
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
