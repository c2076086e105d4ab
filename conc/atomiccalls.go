package conc

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"boolprog/analysis"
	"boolprog/internal/graph"
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
// is, with AtomicCallsWhy saying why. A program that is not concurrent,
// calls no such procedure, or whose thread structure is ill-formed
// (NewModel's *Error, for the caller to report) is returned as it is.
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
	m, err := NewModel(p, Options{})
	var ill *Error
	switch {
	case errors.As(err, &ill):
		return p, nil // an ill-formed thread structure: the caller's NewModel reports it
	case err != nil:
		return unchanged(err.Error())
	}
	an := analysis.NewCache(p)
	b := ir.Edit(p)
	if m.Convention != Dynamic {
		if m.AtomicGlobal < 0 {
			return unchanged("the program has no global `atomic`, which alone forbids context switches in its convention")
		}
		atomic := ir.VarRef{Global: true, Index: m.AtomicGlobal}
		// A call that sets `atomic` itself, in the callee (a helper such
		// as __VERIFIER_atomic_begin that takes the flag for its caller)
		// or by its results, keeps its own way: clearing the flag after
		// it would undo what it does.
		mod := analysis.Of(an, analysis.ModRef).Mod
		kept := sites[:0]
		for _, s := range sites {
			e := p.Procs[s.proc].Edges[s.edge]
			if !mod[e.Op.(*ir.Call).Proc].Has(atomic.Index) && !slices.Contains(ir.Writes(e.Op), atomic) {
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
		if m.AtomicSections {
			return unchanged("the program has atomic sections of its own, which do not nest")
		}
		if why := callsNest(p, analysis.Of(an, analysis.CallGraph)); why != "" {
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

// callsNest says where an atomic procedure calls one, itself or through
// others (atomic_begin and atomic_end around both calls would nest, and
// the inner atomic_end end the outer section), or "" if none does.
func callsNest(p *ir.Program, calls *analysis.Calls) string {
	atomic := func(i int) bool { return strings.HasPrefix(p.Procs[i].Name, AtomicPrefix) }
	for _, pr := range p.Procs {
		if !atomic(pr.Index) {
			continue
		}
		for _, v := range graph.Postorder(calls.Callees, pr.Index) {
			for _, c := range calls.Callees[v] {
				if atomic(c) {
					return fmt.Sprintf("%s calls %s, in a run of %s: the atomic sections would nest", p.Procs[v].Name, p.Procs[c].Name, pr.Name)
				}
			}
		}
	}
	return ""
}
