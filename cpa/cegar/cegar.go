// Package cegar is counterexample-guided abstraction refinement over the
// precision of the explicit-value analysis (package explicitval): start by
// tracking no variable, run the CPA algorithm, replay the abstract
// counterexample with every variable tracked (explicitval.Concretize); if
// no execution follows it, track the variables its infeasibility needs
// (Refine) and run again from scratch.
package cegar

import (
	"context"
	"errors"
	"fmt"

	"boolprog/cpa"
	"boolprog/cpa/explicitval"
	"boolprog/ir"
	"boolprog/result"
)

// Options configure Check.
type Options struct {
	// Build returns the analysis for a precision (nil: track everything),
	// with its explicit-value component using that precision.
	Build func(prec *explicitval.Precision) (cpa.Analysis, error)
	// Run configures each run of the CPA algorithm.
	Run cpa.Options
	// MaxRefinements bounds the refinements; 0 means 100.
	MaxRefinements int
	// Initial is the precision to start from; nil starts with none
	// tracked.
	Initial *explicitval.Precision
}

// Outcome is what Check found.
type Outcome struct {
	// Trace is the concrete counterexample, if an error is reachable.
	Trace *result.Trace
	// Reached is the last run's reached set (with no target: the proof).
	Reached *cpa.Reached
	// Refinements counts the refinements made; Tracked is the number of
	// variables tracked in the end.
	Refinements int
	Tracked     int
	// States is the number of ARG nodes over all runs.
	States int
	// GaveUp is set (with the reason) when the refinements ran out.
	GaveUp string
}

// Check runs the CEGAR loop on the program of cfa.
func Check(ctx context.Context, cfa *cpa.CFA, opts Options) (*Outcome, error) {
	max := opts.MaxRefinements
	if max == 0 {
		max = 100
	}
	prec := opts.Initial
	if prec == nil {
		prec = explicitval.NewPrecision(cfa.Prog)
	}
	out := &Outcome{}
	for {
		a, err := opts.Build(prec)
		if err != nil {
			return nil, err
		}
		r, err := cpa.Run(ctx, a, cfa, opts.Run)
		if r != nil {
			out.States += r.Nodes
			out.Reached = r
		}
		if err != nil {
			return out, err
		}
		out.Tracked = trackedCount(cfa.Prog, prec)
		if r.Target == nil {
			return out, nil
		}
		path := cpa.Path(cfa, r.Target)
		tr, err := explicitval.Concretize(ctx, cfa, path)
		var inf *explicitval.Infeasible
		switch {
		case err == nil:
			out.Trace = tr
			return out, nil
		case !errors.As(err, &inf):
			return out, err
		}
		if out.Refinements >= max {
			out.GaveUp = fmt.Sprintf("no counterexample or proof after %d refinements", max)
			return out, nil
		}
		if prec == nil || Refine(cfa, path, inf.Fail, prec) == 0 {
			if prec == nil {
				return out, fmt.Errorf("cegar: an infeasible counterexample with every variable tracked")
			}
			prec = nil // nothing new to learn from the path: track everything
		}
		out.Refinements++
	}
}

func trackedCount(p *ir.Program, prec *explicitval.Precision) int {
	if prec == nil {
		n := len(p.Globals)
		for _, pr := range p.Procs {
			n += len(pr.Locals)
		}
		return n
	}
	return prec.Count()
}

// varKey names a variable of the path's dependency analysis: a global
// (proc -1), a local of a procedure, or a returned value (ret).
type varKey struct {
	proc, idx int
	ret       bool
}

func keyOf(proc int, v ir.VarRef) varKey {
	if v.Global {
		return varKey{proc: -1, idx: v.Index}
	}
	return varKey{proc: proc, idx: v.Index}
}

// Refine adds to prec the variables the infeasibility of path at edge
// fail depends on: those the failing edge reads, then, going backwards
// along the path, those read by the assignments, returns, arguments and
// conditions that involve them (a dependency closure along the path). If
// that adds nothing, it adds every variable the path reads. It returns the
// number of variables added.
func Refine(cfa *cpa.CFA, path []*cpa.Edge, fail int, prec *explicitval.Precision) int {
	need := make(map[varKey]bool)
	addReads := func(proc int, op ir.Op) {
		for _, v := range ir.Reads(op) {
			need[keyOf(proc, v)] = true
		}
	}
	anyNeeded := func(proc int, vs []ir.VarRef) bool {
		for _, v := range vs {
			if need[keyOf(proc, v)] {
				return true
			}
		}
		return false
	}
	e := path[fail]
	switch e.Kind {
	case cpa.Intra:
		addReads(e.From.Proc, e.IR.Op)
	case cpa.Return:
		if post := e.CallOp().Post; post != nil {
			addReads(e.To.Proc, &ir.Assume{Cond: post})
		}
	}
	for j := fail - 1; j >= 0; j-- {
		e := path[j]
		proc := e.From.Proc
		switch e.Kind {
		case cpa.Intra:
			switch op := e.IR.Op.(type) {
			case *ir.Assign:
				if anyNeeded(proc, op.Targets) {
					addReads(proc, op)
				}
			case *ir.Assume:
				if anyNeeded(proc, ir.Reads(op)) {
					addReads(proc, op)
				}
			case *ir.Return:
				for i := range op.Values {
					if need[varKey{proc: proc, idx: i, ret: true}] {
						addReads(proc, &ir.Assume{Cond: op.Values[i]})
					}
				}
			}
		case cpa.Return:
			op := e.CallOp()
			caller := e.To.Proc
			for i, t := range op.Targets {
				if !t.Discard && need[keyOf(caller, t.Var)] {
					need[varKey{proc: e.From.Proc, idx: i, ret: true}] = true
				}
			}
			if op.Post != nil && anyNeeded(caller, ir.Reads(&ir.Assume{Cond: op.Post})) {
				addReads(caller, &ir.Assume{Cond: op.Post})
			}
		case cpa.Call:
			op := e.CallOp()
			for i, arg := range op.Args {
				if need[varKey{proc: op.Proc, idx: i}] {
					addReads(proc, &ir.Assume{Cond: arg})
				}
			}
		}
	}
	added := 0
	for k := range need {
		if k.ret {
			continue
		}
		v := ir.VarRef{Global: k.proc < 0, Index: k.idx}
		if prec.Add(k.proc, v) {
			added++
		}
	}
	if added > 0 {
		return added
	}
	for _, e := range path {
		proc := e.From.Proc
		var reads []ir.VarRef
		switch e.Kind {
		case cpa.Intra:
			reads = ir.Reads(e.IR.Op)
		case cpa.Call, cpa.Return:
			reads = ir.Reads(e.IR.Op)
			proc = e.Caller
		}
		for _, v := range reads {
			if prec.Add(proc, v) {
				added++
			}
		}
	}
	return added
}
