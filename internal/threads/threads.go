// Package threads applies the user's thread list to a lowered program and
// reports the input errors of its thread structure, for the command's
// --threads and the Go API's Options.Threads alike.
package threads

import (
	"errors"

	"boolprog/conc"
	"boolprog/ir"
	"boolprog/syntax"
)

// Apply runs the procedures names as the threads of p (a name may repeat;
// none: p as it is), makes the calls of __VERIFIER_atomic_* procedures of
// a concurrent program atomic if atomicCalls is set (conc.AtomicCalls),
// and checks the thread structure of a concurrent program (mixed
// conventions, an undefined thread, a wrong `atomic`). Its errors are
// diagnostics of the file name, at the position conc gives.
func Apply(name string, p *ir.Program, names []string, atomicCalls bool) (*ir.Program, syntax.ErrorList) {
	wrap := func(err error) syntax.ErrorList {
		e := &syntax.Error{Filename: name, Msg: err.Error()}
		var ce *conc.Error
		if errors.As(err, &ce) {
			e.Pos, e.Msg = ce.Pos, ce.Msg
		}
		return syntax.ErrorList{e}
	}
	if len(names) > 0 {
		q, err := conc.WithThreads(p, names)
		if err != nil {
			return nil, wrap(err)
		}
		p = q
	}
	if p.Concurrent && atomicCalls {
		q, err := conc.AtomicCalls(p)
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
