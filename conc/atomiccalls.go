package conc

import (
	"fmt"
	"slices"
	"strings"

	"boolprog/ir"
)

// AtomicPrefix starts the names of the procedures whose calls run
// atomically (AtomicCalls): SV-COMP's convention for C, where a function
// named __VERIFIER_atomic_* runs without a context switch, and which
// front ends such as CSeq keep when they abstract such a program into a
// Boolean one. (Getafix's translator runs every call as one step.)
const AtomicPrefix = "__VERIFIER_atomic_"

// AtomicCalls returns a copy of the concurrent program p in which every
// call of a procedure named AtomicPrefix+... runs atomically: no other
// thread steps from the call until the callee has returned. The result's
// AtomicCalls counts the calls so made atomic; where p calls such
// procedures but they cannot be made atomic exactly, p is returned as it
// is, with AtomicCallsWhy saying why. A program that is not concurrent or
// calls no such procedure is returned as it is.
//
// In the Getafix convention (and with threads named on the command line)
// the global `atomic` forbids switches, so a call A --f()--> B becomes
//
//	A --atomic := T, where atomic was F--> A1 --f()--> B1 --atomic := F--> B
//	A --assume(atomic)--> A2 --f()--> B
//
// (the second for a call already inside an atomic stretch, which the
// call must not end); without a global `atomic` the convention has no
// way to forbid a switch, and nothing changes; nor does a call whose
// callee sets `atomic` itself (a helper that takes the flag for its
// caller), which the flag's clearing would undo. With start_thread and
// ASYNC_n the calls are wrapped in atomic_begin and atomic_end, which do
// not nest: that is done only where no section can be open at the call
// (the program has none of its own, and no atomic procedure calls one,
// itself or through others).
func AtomicCalls(p *ir.Program) (*ir.Program, error) {
	if !p.Concurrent {
		return p, nil
	}
	var sites []site
	for _, pr := range p.Procs {
		for _, e := range pr.Edges {
			if c, ok := e.Op.(*ir.Call); ok && strings.HasPrefix(p.Procs[c.Proc].Name, AtomicPrefix) {
				sites = append(sites, site{pr.Index, e.ID})
			}
		}
	}
	if len(sites) == 0 {
		return p, nil
	}
	unchanged := func(why string) (*ir.Program, error) {
		q := *p
		q.AtomicCalls, q.AtomicCallsWhy = 0, why
		return &q, nil
	}
	b := ir.Edit(p)
	if len(p.Threads) > 0 {
		g := -1
		for i, name := range p.Globals {
			if name == "atomic" {
				g = i
			}
		}
		if g < 0 {
			return unchanged("the program has no global `atomic`, which alone forbids context switches in its convention")
		}
		atomic := ir.VarRef{Global: true, Index: g}
		// A call that sets `atomic` itself, in the callee (a helper such
		// as __VERIFIER_atomic_begin that takes the flag for its caller)
		// or by its results, keeps its own way: clearing the flag after
		// it would undo what it does.
		sets := setters(p, atomic)
		kept := sites[:0]
		for _, s := range sites {
			e := p.Procs[s.proc].Edges[s.edge]
			c := e.Op.(*ir.Call)
			if !sets[c.Proc] && !slices.ContainsFunc(c.Targets, func(t ir.Target) bool { return !t.Discard && t.Var == atomic }) {
				kept = append(kept, s)
			}
		}
		if len(kept) == 0 {
			return unchanged("each call sets `atomic` itself")
		}
		sites = kept
		for _, s := range sites {
			pb := b.ProcAt(s.proc)
			e := *b.Program().Procs[s.proc].Edges[s.edge]
			wrap(pb, s.proc, e,
				&ir.Assign{Targets: []ir.VarRef{atomic}, Values: []ir.Expr{ir.True}, Constrain: &ir.Not{X: &ir.Var{VarRef: atomic}}}, "atomic := T",
				&ir.Assign{Targets: []ir.VarRef{atomic}, Values: []ir.Expr{ir.False}}, "atomic := F")
			inside := pb.Loc(ir.Location{Kind: ir.StmtLoc, Pos: e.Pos, Text: e.Text, Origin: ir.SyntheticOrigin(s.proc)})
			pb.Edge(ir.Edge{From: e.From, To: inside, Op: &ir.Assume{Cond: &ir.Var{VarRef: atomic}},
				Pos: e.Pos, Text: "assume(atomic)", Origin: ir.SyntheticOrigin(s.proc)})
			pb.Edge(ir.Edge{From: inside, To: e.To, Op: e.Op, Pos: e.Pos, Text: e.Text, Origin: e.Origin})
		}
	} else {
		if why := sectionsMayNest(p); why != "" {
			return unchanged(why)
		}
		for _, s := range sites {
			e := *b.Program().Procs[s.proc].Edges[s.edge]
			wrap(b.ProcAt(s.proc), s.proc, e, &ir.AtomicBegin{}, "atomic_begin", &ir.AtomicEnd{}, "atomic_end")
		}
	}
	q, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("conc.AtomicCalls: %w", err)
	}
	q.AtomicCalls, q.AtomicCallsWhy = len(sites), ""
	return q, nil
}

// setters returns, by procedure, whether a run of it may assign v, in an
// assignment of its own or of a procedure it calls (results included).
func setters(p *ir.Program, v ir.VarRef) []bool {
	sets := make([]bool, len(p.Procs))
	for changed := true; changed; {
		changed = false
		for _, pr := range p.Procs {
			if sets[pr.Index] {
				continue
			}
			for _, e := range pr.Edges {
				var yes bool
				switch op := e.Op.(type) {
				case *ir.Assign:
					yes = slices.Contains(op.Targets, v)
				case *ir.Call:
					yes = sets[op.Proc] || v.Global && slices.ContainsFunc(op.Targets, func(t ir.Target) bool { return !t.Discard && t.Var == v })
				}
				if yes {
					sets[pr.Index], changed = true, true
					break
				}
			}
		}
	}
	return sets
}

// wrap puts the call edge e of procedure proc between the operations begin
// and end: e does begin, into a new location from which the call goes to
// another, where end leads to e's target. The call keeps e's origin.
func wrap(pb *ir.ProcBuilder, proc int, e ir.Edge, begin ir.Op, beginText string, end ir.Op, endText string) {
	enter := pb.Loc(ir.Location{Kind: ir.StmtLoc, Pos: e.Pos, Text: e.Text, Origin: ir.SyntheticOrigin(proc)})
	ret := pb.Loc(ir.Location{Kind: ir.StmtLoc, Pos: e.Pos, Text: endText, Origin: ir.SyntheticOrigin(proc)})
	pb.SetOp(e.ID, begin)
	pb.SetText(e.ID, beginText)
	pb.Retarget(e.ID, enter)
	pb.Edge(ir.Edge{From: enter, To: ret, Op: e.Op, Pos: e.Pos, Text: e.Text, Origin: e.Origin})
	pb.Edge(ir.Edge{From: ret, To: e.To, Op: end, Pos: e.Pos, Text: endText, Origin: ir.SyntheticOrigin(proc)})
}

// site is a call edge.
type site struct{ proc, edge int }

// sectionsMayNest says why atomic_begin and atomic_end around the calls of
// atomic procedures could nest in p (they do not: an inner atomic_end
// would end the outer section), or "" if they cannot.
func sectionsMayNest(p *ir.Program) string {
	for _, pr := range p.Procs {
		for _, e := range pr.Edges {
			switch e.Op.(type) {
			case *ir.AtomicBegin, *ir.AtomicEnd:
				return fmt.Sprintf("the program has atomic sections of its own (%s, line %d), which do not nest", pr.Name, e.Pos.Line)
			}
		}
	}
	// The procedures an atomic procedure runs, itself or through others.
	seen := make([]bool, len(p.Procs))
	var work []int
	for _, pr := range p.Procs {
		if strings.HasPrefix(pr.Name, AtomicPrefix) {
			seen[pr.Index] = true
			work = append(work, pr.Index)
		}
	}
	for len(work) > 0 {
		pr := p.Procs[work[len(work)-1]]
		work = work[:len(work)-1]
		for _, e := range pr.Edges {
			c, ok := e.Op.(*ir.Call)
			if !ok {
				continue
			}
			if strings.HasPrefix(p.Procs[c.Proc].Name, AtomicPrefix) {
				return fmt.Sprintf("%s calls %s (line %d): the atomic sections would nest", pr.Name, p.Procs[c.Proc].Name, e.Pos.Line)
			}
			if !seen[c.Proc] {
				seen[c.Proc] = true
				work = append(work, c.Proc)
			}
		}
	}
	return ""
}
