// Package bddcpa is the BDD analysis of Boolean programs for package cpa:
// an abstract state is a set of valuations of the variables in scope, a
// BDD over the Cur copies of the slots of a symbolic.Layout. Sets join
// without loss (union), so merge-join is as exact as merge-sep here, and
// the transfer relations are package symbolic's edge relations.
//
// Calls: Split cuts the caller's set by the values of the caller's locals
// (one piece per valuation that occurs), so that Combine, which keeps the
// piece's locals and takes the globals and returned values from the
// callee's exit set, loses nothing; Enter binds the parameters and leaves
// the callee's other locals free. With block summaries per entry set
// (cpa.Summaries, PerEntry) the analysis is exact.
package bddcpa

import (
	"fmt"

	"boolprog/bdd"
	"boolprog/cpa"
	"boolprog/ir"
	"boolprog/symbolic"
)

// MaxPieces bounds the pieces Split makes; beyond it the caller's set is
// not split (sound, but no longer exact).
const MaxPieces = 1 << 12

// Analysis is the BDD component.
type Analysis struct {
	P *ir.Program
	M *bdd.Manager
	L *symbolic.Layout

	images map[*ir.Edge]*symbolic.Image
	enters map[*ir.Edge]*symbolic.Image
	// Unsplit is set when Split gave up splitting (MaxPieces).
	Unsplit bool
}

// New returns the BDD analysis of p with a new manager limited to
// maxNodes nodes (0: the manager's default).
func New(p *ir.Program, maxNodes int) *Analysis {
	m := bdd.New(bdd.Config{MaxNodes: maxNodes})
	return &Analysis{P: p, M: m, L: symbolic.NewLayout(m, p, symbolic.OrderAffinity),
		images: make(map[*ir.Edge]*symbolic.Image), enters: make(map[*ir.Edge]*symbolic.Image)}
}

// Release releases the compiled images.
func (a *Analysis) Release() {
	for _, im := range a.images {
		im.Release()
	}
	for _, im := range a.enters {
		im.Release()
	}
}

// State is a set of valuations of the scope of procedure Proc (Cur
// copies).
type State struct {
	Proc int
	S    bdd.Node
}

// Name returns "bdd".
func (a *Analysis) Name() string { return "bdd" }

// MustAgree is false: merge-agree joins BDD states.
func (a *Analysis) MustAgree() bool { return false }

// Initial is every valuation of main's scope.
func (a *Analysis) Initial(c *cpa.CFA) cpa.State { return &State{Proc: c.Prog.Main, S: bdd.True} }

// InitialPrecision returns nil.
func (a *Analysis) InitialPrecision(*cpa.CFA) cpa.Precision { return nil }

// LessOrEqual is set inclusion.
func (a *Analysis) LessOrEqual(x, y cpa.State) bool {
	sx, sy := x.(*State), y.(*State)
	return sx.Proc == sy.Proc && a.M.And(sx.S, a.M.Not(sy.S)) == bdd.False
}

// Join is union.
func (a *Analysis) Join(x, y cpa.State) cpa.State {
	sx, sy := x.(*State), y.(*State)
	return &State{Proc: sx.Proc, S: a.M.Or(sx.S, sy.S)}
}

// Key is the BDD's node (canonical).
func (a *Analysis) Key(x cpa.State) string {
	s := x.(*State)
	return fmt.Sprintf("%d:%d", s.Proc, s.S)
}

func (a *Analysis) check(n bdd.Node) error {
	if err := a.M.Err(); err != nil {
		return err
	}
	if n == bdd.Invalid {
		return bdd.ErrNodeLimit
	}
	return nil
}

func (a *Analysis) state(proc int, n bdd.Node) ([]cpa.State, error) {
	if err := a.check(n); err != nil {
		return nil, err
	}
	if n == bdd.False {
		return nil, nil
	}
	return []cpa.State{&State{Proc: proc, S: n}}, nil
}

// Post is the image along an Intra edge.
func (a *Analysis) Post(x cpa.State, e *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	s := x.(*State)
	switch e.IR.Op.(type) {
	case *ir.StartThread, *ir.EndThread, *ir.AtomicBegin, *ir.AtomicEnd:
		return []cpa.State{s}, nil
	}
	im, ok := a.images[e.IR]
	if !ok {
		proc := a.P.Procs[e.From.Proc]
		im = a.L.NewImage(symbolic.ImageSpec{Rel: a.L.EdgeRel(proc, e.IR.Op), Drop: symbolic.NewSet(a.L.N()), Keep: a.L.ScopeOf(proc)})
		a.images[e.IR] = im
	}
	return a.state(s.Proc, im.Apply(s.S))
}

// localSlots returns the slots of proc's locals.
func (a *Analysis) localSlots(proc int) []int {
	out := make([]int, len(a.P.Procs[proc].Locals))
	for j := range out {
		out[j] = a.L.Local(j)
	}
	return out
}

func (a *Analysis) set(slots []int) symbolic.Set {
	s := symbolic.NewSet(a.L.N())
	for _, x := range slots {
		s.Add(x)
	}
	return s
}

// nonLocals returns the globals and returned-value slots.
func (a *Analysis) nonLocals() symbolic.Set {
	s := symbolic.NewSet(a.L.N())
	for i := 0; i < a.L.G; i++ {
		s.Add(i)
	}
	for i := 0; i < a.L.R; i++ {
		s.Add(a.L.Ret(i))
	}
	return s
}

// Split returns one piece per valuation of the caller's locals.
func (a *Analysis) Split(x cpa.State, _ *cpa.Edge, _ cpa.Precision) []cpa.State {
	s := x.(*State)
	m := a.M
	slots := a.localSlots(s.Proc)
	if len(slots) == 0 {
		return []cpa.State{s}
	}
	rest := m.Exists(s.S, a.L.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: a.nonLocals()}))
	var out []cpa.State
	for rest != bdd.False && rest != bdd.Invalid {
		if len(out) == MaxPieces {
			a.Unsplit = true
			return []cpa.State{s}
		}
		vals := a.L.Values(rest, symbolic.Cur, slots)
		cube := a.L.Cube(symbolic.Cur, slots, vals)
		out = append(out, &State{Proc: s.Proc, S: m.And(s.S, cube)})
		rest = m.And(rest, m.Not(cube))
	}
	return out
}

// Enter binds the callee's parameters; its other locals and returned
// values are free.
func (a *Analysis) Enter(x cpa.State, call *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	s := x.(*State)
	im, ok := a.enters[call.IR]
	if !ok {
		op := call.CallOp()
		rel := a.L.CallEntry(op)
		drop := symbolic.NewSet(a.L.N())
		for j := 0; j < a.L.L; j++ {
			drop.Add(a.L.Local(j))
		}
		for i := 0; i < a.L.R; i++ {
			drop.Add(a.L.Ret(i))
		}
		im = a.L.NewImage(symbolic.ImageSpec{Rel: rel, Drop: drop, Keep: rel.Changed})
		a.enters[call.IR] = im
	}
	return a.state(call.To.Proc, im.Apply(s.S))
}

// Combine keeps the caller's locals (from the piece), takes the globals
// and returned values from the exit set, assigns the returned values to
// the call's targets and assumes the call's post-condition.
func (a *Analysis) Combine(caller, exit cpa.State, ret *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	q, x := caller.(*State), exit.(*State)
	m, l := a.M, a.L
	op := ret.CallOp()
	cur := func(set symbolic.Set) *bdd.VarSet { return l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: set}) }
	allLocals := symbolic.NewSet(l.N())
	for j := 0; j < l.L; j++ {
		allLocals.Add(l.Local(j))
	}
	exitPart := m.Exists(x.S, cur(allLocals))
	callerLocals := m.Exists(q.S, cur(a.nonLocals()))
	y := m.And(exitPart, callerLocals)
	var src, dst []int
	for i, t := range op.Targets {
		if !t.Discard {
			src = append(src, l.Ret(i))
			dst = append(dst, l.Slot(t.Var))
		}
	}
	if len(dst) > 0 {
		rel := bdd.True
		for i := range src {
			rel = m.And(rel, m.Equiv(l.Lit(dst[i], symbolic.Next), l.Lit(src[i], symbolic.Cur)))
		}
		y = m.AndExists(y, rel, cur(a.set(dst)))
		y = m.Replace(y, l.RenameSlots(symbolic.Next, symbolic.Cur, dst, dst))
	}
	rets := symbolic.NewSet(l.N())
	for i := 0; i < l.R; i++ {
		rets.Add(l.Ret(i))
	}
	y = m.Exists(y, cur(rets))
	y = m.And(y, l.Post(op))
	return a.state(q.Proc, y)
}
