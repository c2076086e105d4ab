// Package dataflow runs interprocedural data-flow analyses of Boolean
// programs on the weighted pushdown library wpds, to show that the library
// serves analysis as well as reachability (Lal's thesis, §2.4 and ch. 3).
//
// PossiblyUninitialised computes, for every location of a sequential
// program, the variables that may hold an uninitialised value there: those
// that some interprocedurally valid path from the program's start reaches
// without an initialisation since the variable's scope began. Globals start
// uninitialised; a procedure's locals start uninitialised on each entry
// except its parameters. An Assign initialises each target, except that
// assigning '*' (as 'x := *', 'decl x' and 'dead x' do) makes it
// uninitialised; a call initialises the variables that receive its
// results. Conditions are not evaluated: every path of the control-flow
// graph counts, as in classical data-flow analysis.
//
// The encoding is the textbook one: one control state, a stack symbol per
// location, a step rule per intraprocedural edge and a push rule per call
// (⟨entry of the callee, return point⟩), a pop rule at each exit. The
// weights are gen/kill transformers (wpds.BitVector) over one bit per
// global and one per local slot of the current frame. The push rules carry
// a merge function (an extended WPDS, thesis §3.1): after the call, the
// globals come from the callee and the locals from the caller, as they
// were at the call. post* from the start of main and, per location, the
// path summary over every stack give the answer.
package dataflow

import (
	"fmt"

	"boolprog/ir"
	"boolprog/wpds"
)

// Facts is a set of variables: bit i of Globals is Program.Globals[i], bit
// i of Locals the procedure's Locals[i].
type Facts struct {
	Globals, Locals uint64
}

// Result is the answer of PossiblyUninitialised.
type Result struct {
	prog *ir.Program
	// at[proc][loc] is the set at the location; reach says whether the
	// location is reachable at all.
	at    [][]Facts
	reach [][]bool
	// Stats are the counts of the saturation.
	Stats wpds.Stats
}

// At returns the variables possibly uninitialised at location loc of
// procedure proc, and whether the location is reachable (if not, the set
// is empty).
func (r *Result) At(proc, loc int) (Facts, bool) {
	return r.at[proc][loc], r.reach[proc][loc]
}

// Names returns the names of the variables of f in procedure proc:
// globals first.
func (r *Result) Names(proc int, f Facts) []string {
	var out []string
	for i, g := range r.prog.Globals {
		if f.Globals&(1<<uint(i)) != 0 {
			out = append(out, g)
		}
	}
	for i, l := range r.prog.Procs[proc].Locals {
		if f.Locals&(1<<uint(i)) != 0 {
			out = append(out, l)
		}
	}
	return out
}

// Options tune the analysis.
type Options struct {
	// FWPDS solves with path expressions instead of chaotic saturation.
	FWPDS bool
}

// encoding maps the program to bits and symbols.
type encoding struct {
	prog      *ir.Program
	nglobals  int
	localBits uint64 // the bits of local slots
	sym       [][]wpds.Symbol
}

func (e *encoding) bit(v ir.VarRef) uint64 {
	if v.Global {
		return 1 << uint(v.Index)
	}
	return 1 << uint(e.nglobals+v.Index)
}

// PossiblyUninitialised analyses a sequential program. It fails on a
// concurrent program, a program without main, and one whose globals and
// largest frame need more than 64 bits.
func PossiblyUninitialised(p *ir.Program, opt Options) (*Result, error) {
	if p.Concurrent {
		return nil, fmt.Errorf("dataflow: concurrent programs are not supported")
	}
	if p.Main < 0 {
		return nil, fmt.Errorf("dataflow: the program has no main")
	}
	maxLocals := 0
	for _, pr := range p.Procs {
		maxLocals = max(maxLocals, len(pr.Locals))
	}
	if len(p.Globals)+maxLocals > 64 {
		return nil, fmt.Errorf("dataflow: %d globals and %d locals need more than 64 bits", len(p.Globals), maxLocals)
	}
	e := &encoding{prog: p, nglobals: len(p.Globals)}
	for i := 0; i < maxLocals; i++ {
		e.localBits |= 1 << uint(e.nglobals+i)
	}
	n := 0
	for _, pr := range p.Procs {
		syms := make([]wpds.Symbol, len(pr.Locations))
		for i := range syms {
			syms[i] = wpds.Symbol(n)
			n++
		}
		e.sym = append(e.sym, syms)
	}
	bv := wpds.BitVector{}
	pds := wpds.New[wpds.GenKill](bv, 1)
	for pi, pr := range p.Procs {
		for _, ed := range pr.Edges {
			from, to := e.sym[pi][ed.From], e.sym[pi][ed.To]
			switch op := ed.Op.(type) {
			case *ir.Assign:
				var gen, kill uint64
				for i, t := range op.Targets {
					if ir.IsNondet(op.Values[i]) {
						gen |= e.bit(t)
					} else {
						kill |= e.bit(t)
					}
				}
				pds.Step(0, from, 0, to, bv.Fn(kill, gen))
			case *ir.Call:
				callee := p.Procs[op.Proc]
				// On entry the callee's locals are uninitialised but
				// its parameters.
				var params uint64
				for i := 0; i < callee.Params; i++ {
					params |= e.bit(ir.VarRef{Index: i})
				}
				enter := bv.Fn(e.localBits, e.localBits&^params)
				var targets uint64
				for _, t := range op.Targets {
					if !t.Discard {
						targets |= e.bit(t.Var)
					}
				}
				pds.Push(0, from, 0, e.sym[op.Proc][callee.Entry], to, enter, e.merge(enter, bv.Fn(targets, 0)))
			default:
				pds.Step(0, from, 0, to, bv.One())
			}
		}
		pds.Pop(0, e.sym[pi][pr.Exit], 0, bv.One())
	}
	start := wpds.NewSet(1)
	if err := start.AddConfig(wpds.Config{State: 0, Stack: []wpds.Symbol{e.sym[p.Main][p.Procs[p.Main].Entry]}}); err != nil {
		return nil, err
	}
	a, err := wpds.Poststar(pds, start, wpds.Options{FWPDS: opt.FWPDS})
	if err != nil {
		return nil, err
	}
	top := a.TopSummaries(0) // per location, over every stack of callers
	all := ^uint64(0)        // at the start everything is uninitialised
	res := &Result{prog: p, Stats: a.Stats()}
	for pi, pr := range p.Procs {
		at := make([]Facts, len(pr.Locations))
		reach := make([]bool, len(pr.Locations))
		for li := range pr.Locations {
			w, ok := top[e.sym[pi][li]]
			if !ok {
				continue
			}
			reach[li] = true
			x := bv.Apply(w, all)
			at[li] = Facts{
				Globals: x & (1<<uint(e.nglobals) - 1),
				Locals:  (x >> uint(e.nglobals)) & (1<<uint(len(pr.Locals)) - 1),
			}
		}
		res.at = append(res.at, at)
		res.reach = append(res.reach, reach)
	}
	return res, nil
}

// merge returns the merge function of a call (Lal's thesis §3.1.1): the
// caller's weight up to the call, then (for the globals) the callee's
// entry and body, and for the locals nothing, as the caller's frame was
// suspended; then the call's result targets. It satisfies path extension
// because gen/kill transformers act on each bit alone.
func (e *encoding) merge(enter, ret wpds.GenKill) wpds.Merge[wpds.GenKill] {
	bv := wpds.BitVector{}
	return func(caller, callee wpds.GenKill) wpds.GenKill {
		if caller.Bottom || callee.Bottom {
			return bv.Zero()
		}
		z := bv.Extend(bv.Extend(caller, enter), callee)
		l := e.localBits
		mixed := bv.Fn(z.Kill&^l|caller.Kill&l, z.Gen&^l|caller.Gen&l)
		return bv.Extend(mixed, ret)
	}
}
