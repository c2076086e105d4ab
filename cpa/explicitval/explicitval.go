// Package explicitval is the explicit-value analysis of Boolean programs
// for package cpa: each variable in scope is ⊥, 0, 1 or ⊤ (the constant
// propagation of Beyer, Gulwani & Schmidt over the Boolean domain), and a
// precision says which variables are tracked (the others stay ⊤).
//
// The transfer is exact on the sets it represents: a state stands for the
// product of its variables' values, and where an edge reads a tracked
// variable that is ⊤ the state is first split into the states with that
// variable 0 and 1, so that conditions, assignments and constrains are
// evaluated on known values. Nondeterministic values (`*`, an undecided
// schoose, fresh locals) are ⊤, independent of everything: a product again.
// With every variable tracked and merge-sep, the analysis is therefore
// explicit-state model checking (sound and complete); with merge-join it
// is constant propagation, which over-approximates.
//
// Concretize replays an abstract counterexample path with every variable
// tracked: it decides whether the path is feasible, builds a concrete trace
// (every value stated) that interp.Replay accepts, and otherwise names the
// edge where the path fails, which CEGAR (package cegar) uses to refine
// the precision.
package explicitval

import (
	"fmt"

	"boolprog/cpa"
	"boolprog/ir"
	"boolprog/syntax"
)

// Val is the abstract value of one variable.
type Val uint8

// The values: ⊥ (no value: the state is empty), 0, 1 and ⊤ (either).
const (
	Bot Val = iota
	F
	T
	Top
)

// String returns ⊥, 0, 1 or ⊤.
func (v Val) String() string { return [...]string{"⊥", "0", "1", "⊤"}[v] }

func of(b bool) Val {
	if b {
		return T
	}
	return F
}

// State is an explicit-value state of one frame: the values of the
// globals, then the locals of Proc, then Proc's returned values (set by a
// return statement on its way to the exit, ⊤ otherwise).
type State struct {
	Proc int
	V    []Val
}

// Precision is the set of tracked variables: globals by index, locals by
// procedure and index. A nil *Precision tracks everything.
type Precision struct {
	G []bool
	L [][]bool
}

// NewPrecision returns a precision of p that tracks nothing.
func NewPrecision(p *ir.Program) *Precision {
	pr := &Precision{G: make([]bool, len(p.Globals)), L: make([][]bool, len(p.Procs))}
	for i, proc := range p.Procs {
		pr.L[i] = make([]bool, len(proc.Locals))
	}
	return pr
}

// Tracks reports whether v of procedure proc is tracked.
func (pr *Precision) Tracks(proc int, v ir.VarRef) bool {
	if pr == nil {
		return true
	}
	if v.Global {
		return pr.G[v.Index]
	}
	return pr.L[proc][v.Index]
}

// Add tracks v of procedure proc and reports whether it was new.
func (pr *Precision) Add(proc int, v ir.VarRef) bool {
	if pr.Tracks(proc, v) {
		return false
	}
	if v.Global {
		pr.G[v.Index] = true
	} else {
		pr.L[proc][v.Index] = true
	}
	return true
}

// Count returns the number of tracked variables.
func (pr *Precision) Count() int {
	n := 0
	for _, b := range pr.G {
		if b {
			n++
		}
	}
	for _, l := range pr.L {
		for _, b := range l {
			if b {
				n++
			}
		}
	}
	return n
}

// Clone returns a copy of pr.
func (pr *Precision) Clone() *Precision {
	if pr == nil {
		return nil
	}
	c := &Precision{G: append([]bool(nil), pr.G...), L: make([][]bool, len(pr.L))}
	for i, l := range pr.L {
		c.L[i] = append([]bool(nil), l...)
	}
	return c
}

// Analysis is the explicit-value component.
type Analysis struct {
	P *ir.Program
	// Prec is the initial precision (nil: every variable tracked).
	Prec *Precision
	// MaxSplit bounds the number of ⊤ variables one edge may split on
	// (default 16): beyond it Post fails rather than enumerate.
	MaxSplit int
}

// Name returns "explicitval".
func (a *Analysis) Name() string { return "explicitval" }

// MustAgree is false: merge-agree joins explicit values.
func (a *Analysis) MustAgree() bool { return false }

func (a *Analysis) top(proc int) *State {
	pr := a.P.Procs[proc]
	v := make([]Val, len(a.P.Globals)+len(pr.Locals)+pr.Returns)
	for i := range v {
		v[i] = Top
	}
	return &State{Proc: proc, V: v}
}

// Initial returns ⊤ for every variable of main.
func (a *Analysis) Initial(c *cpa.CFA) cpa.State { return a.top(c.Prog.Main) }

// InitialPrecision returns Prec.
func (a *Analysis) InitialPrecision(*cpa.CFA) cpa.Precision { return a.Prec }

// LessOrEqual is the pointwise order ⊥ ⊑ 0, 1 ⊑ ⊤.
func (a *Analysis) LessOrEqual(x, y cpa.State) bool {
	sx, sy := x.(*State), y.(*State)
	if sx.Proc != sy.Proc {
		return false
	}
	for i, v := range sx.V {
		if w := sy.V[i]; v != w && v != Bot && w != Top {
			return false
		}
	}
	return true
}

// Join is the pointwise join.
func (a *Analysis) Join(x, y cpa.State) cpa.State {
	sx, sy := x.(*State), y.(*State)
	out := &State{Proc: sx.Proc, V: make([]Val, len(sx.V))}
	for i, v := range sx.V {
		w := sy.V[i]
		switch {
		case v == w || w == Bot:
			out.V[i] = v
		case v == Bot:
			out.V[i] = w
		default:
			out.V[i] = Top
		}
	}
	return out
}

// Key returns the values as a string.
func (a *Analysis) Key(x cpa.State) string {
	s := x.(*State)
	b := make([]byte, len(s.V))
	for i, v := range s.V {
		b[i] = '0' + byte(v)
	}
	return fmt.Sprintf("%d:%s", s.Proc, b)
}

// Adjust forgets the values of untracked variables: the precision
// adjustment of the paper.
func (a *Analysis) Adjust(x cpa.State, prec cpa.Precision) cpa.State {
	pr, _ := prec.(*Precision)
	if pr == nil {
		return x
	}
	s := x.(*State)
	var out *State
	ng := len(a.P.Globals)
	nl := len(a.P.Procs[s.Proc].Locals)
	for i, v := range s.V {
		if v == Top || i >= ng+nl {
			continue
		}
		var ref ir.VarRef
		if i < ng {
			ref = ir.VarRef{Global: true, Index: i}
		} else {
			ref = ir.VarRef{Index: i - ng}
		}
		if pr.Tracks(s.Proc, ref) {
			continue
		}
		if out == nil {
			out = &State{Proc: s.Proc, V: append([]Val(nil), s.V...)}
		}
		out.V[i] = Top
	}
	if out == nil {
		return x
	}
	return out
}

func (a *Analysis) slot(proc int, v ir.VarRef) int {
	if v.Global {
		return v.Index
	}
	return len(a.P.Globals) + v.Index
}

func (a *Analysis) retSlot(proc, i int) int {
	return len(a.P.Globals) + len(a.P.Procs[proc].Locals) + i
}

// eval evaluates e three-valued: old reads unprimed variables, cur primed
// ones.
func eval(e ir.Expr, read func(v *ir.Var) Val) Val {
	switch e := e.(type) {
	case *ir.Const:
		return of(e.Value)
	case *ir.Nondet:
		return Top
	case *ir.Var:
		return read(e)
	case *ir.Not:
		switch eval(e.X, read) {
		case T:
			return F
		case F:
			return T
		case Bot:
			return Bot
		}
		return Top
	case *ir.Bin:
		x, y := eval(e.X, read), eval(e.Y, read)
		if x == Bot || y == Bot {
			return Bot
		}
		if x != Top && y != Top {
			return of(ir.ApplyOp(e.Op, x == T, y == T))
		}
		switch e.Op {
		case syntax.And:
			if x == F || y == F {
				return F
			}
		case syntax.Or:
			if x == T || y == T {
				return T
			}
		case syntax.Implies:
			if x == F || y == T {
				return T
			}
		}
		return Top
	case *ir.Schoose:
		p, n := eval(e.Pos, read), eval(e.Neg, read)
		switch {
		case p == T:
			return T
		case p == F && n == T:
			return F
		}
		return Top
	}
	panic(fmt.Sprintf("explicitval: unknown expression %T", e))
}

// reader returns the read function of eval over the frame of proc: old for
// unprimed variables, new for primed ones (nil: old).
func (a *Analysis) reader(proc int, old, new *State) func(v *ir.Var) Val {
	return func(v *ir.Var) Val {
		if v.Primed && new != nil {
			return new.V[a.slot(proc, v.VarRef)]
		}
		return old.V[a.slot(proc, v.VarRef)]
	}
}

// split returns the states that together are s, with every tracked ⊤
// variable of reads known.
func (a *Analysis) split(s *State, reads []ir.VarRef, pr *Precision) ([]*State, error) {
	var slots []int
	for _, v := range reads {
		if k := a.slot(s.Proc, v); s.V[k] == Top && pr.Tracks(s.Proc, v) {
			slots = append(slots, k)
		}
	}
	if len(slots) == 0 {
		return []*State{s}, nil
	}
	max := a.MaxSplit
	if max == 0 {
		max = 16
	}
	if len(slots) > max {
		return nil, fmt.Errorf("explicitval: an edge reads %d unknown variables (at most %d are split)", len(slots), max)
	}
	out := make([]*State, 0, 1<<len(slots))
	for m := 0; m < 1<<len(slots); m++ {
		n := &State{Proc: s.Proc, V: append([]Val(nil), s.V...)}
		for j, k := range slots {
			n.V[k] = of(m>>j&1 == 1)
		}
		out = append(out, n)
	}
	return out, nil
}

// step is one outcome of an edge: the split state it starts from (pre)
// and the state it leads to (post).
type step struct{ pre, post *State }

// post computes the outcomes of the Intra edge e from s.
func (a *Analysis) post(s *State, e *cpa.Edge, pr *Precision) ([]step, error) {
	switch op := e.IR.Op.(type) {
	case *ir.Assume:
		pieces, err := a.split(s, ir.Reads(op), pr)
		if err != nil {
			return nil, err
		}
		var out []step
		for _, q := range pieces {
			if eval(op.Cond, a.reader(s.Proc, q, nil)) != F {
				out = append(out, step{q, q})
			}
		}
		return out, nil
	case *ir.Assign:
		return a.assign(s, op.Targets, op.Values, op.Constrain, ir.Reads(op), pr, nil)
	case *ir.Return:
		proc := a.P.Procs[s.Proc]
		rets := make([]int, proc.Returns)
		for i := range rets {
			rets[i] = a.retSlot(s.Proc, i)
		}
		return a.assign(s, nil, op.Values, nil, ir.Reads(op), pr, rets)
	case *ir.Skip, *ir.StartThread, *ir.EndThread, *ir.AtomicBegin, *ir.AtomicEnd:
		return []step{{s, s}}, nil
	}
	return nil, fmt.Errorf("explicitval: no intraprocedural transfer for %T", e.IR.Op)
}

// assign computes targets := values [constrain c]; rawSlots, if set, are
// the target slots instead (returned values, always tracked).
func (a *Analysis) assign(s *State, targets []ir.VarRef, values []ir.Expr, c ir.Expr, reads []ir.VarRef, pr *Precision, rawSlots []int) ([]step, error) {
	pieces, err := a.split(s, reads, pr)
	if err != nil {
		return nil, err
	}
	slots := rawSlots
	tracked := make([]bool, len(values))
	if slots == nil {
		slots = make([]int, len(targets))
		for i, t := range targets {
			slots[i] = a.slot(s.Proc, t)
			tracked[i] = pr.Tracks(s.Proc, t)
		}
	} else {
		for i := range tracked {
			tracked[i] = true
		}
	}
	var out []step
	for _, q := range pieces {
		n := &State{Proc: s.Proc, V: append([]Val(nil), q.V...)}
		rd := a.reader(s.Proc, q, nil)
		for i, v := range values {
			if i >= len(slots) {
				break
			}
			if tracked[i] {
				n.V[slots[i]] = eval(v, rd)
			} else {
				n.V[slots[i]] = Top
			}
		}
		if c == nil {
			out = append(out, step{q, n})
			continue
		}
		// Enumerate the tracked targets left ⊤ that the constrain reads
		// primed, so that the result is a union of products again.
		primed := make(map[int]bool)
		ir.Vars(c, func(v *ir.Var) {
			if v.Primed {
				primed[a.slot(s.Proc, v.VarRef)] = true
			}
		})
		var free []int
		for i, k := range slots {
			if tracked[i] && n.V[k] == Top && primed[k] {
				free = append(free, k)
			}
		}
		if len(free) > 16 {
			return nil, fmt.Errorf("explicitval: a constrain over %d unknown targets", len(free))
		}
		for m := 0; m < 1<<len(free); m++ {
			x := n
			if len(free) > 0 {
				x = &State{Proc: s.Proc, V: append([]Val(nil), n.V...)}
				for j, k := range free {
					x.V[k] = of(m>>j&1 == 1)
				}
			}
			if eval(c, a.reader(s.Proc, q, x)) != F {
				out = append(out, step{q, x})
			}
		}
	}
	return out, nil
}

func posts(st []step) []cpa.State {
	out := make([]cpa.State, len(st))
	for i, s := range st {
		out[i] = s.post
	}
	return out
}

func prec(p cpa.Precision) *Precision {
	pr, _ := p.(*Precision)
	return pr
}

// Post is the transfer along an Intra edge.
func (a *Analysis) Post(x cpa.State, e *cpa.Edge, p cpa.Precision) ([]cpa.State, error) {
	st, err := a.post(x.(*State), e, prec(p))
	return posts(st), err
}

// Split splits the caller's state on the tracked ⊤ variables the
// arguments read, so that each piece's entry state determines the
// parameters and the caller's other locals stay independent of the call.
func (a *Analysis) Split(x cpa.State, call *cpa.Edge, p cpa.Precision) []cpa.State {
	op := call.CallOp()
	var reads []ir.VarRef
	for _, arg := range op.Args {
		reads = append(reads, ir.Reads(&ir.Assume{Cond: arg})...)
	}
	pieces, err := a.split(x.(*State), reads, prec(p))
	if err != nil {
		// Too many to split: the unsplit state is sound, only less
		// precise.
		return []cpa.State{x}
	}
	out := make([]cpa.State, len(pieces))
	for i, q := range pieces {
		out[i] = q
	}
	return out
}

// Enter binds the parameters; the callee's other locals are ⊤.
func (a *Analysis) Enter(x cpa.State, call *cpa.Edge, p cpa.Precision) ([]cpa.State, error) {
	return []cpa.State{a.enter(x.(*State), call, prec(p))}, nil
}

func (a *Analysis) enter(q *State, call *cpa.Edge, pr *Precision) *State {
	op := call.CallOp()
	n := a.top(op.Proc)
	copy(n.V, q.V[:len(a.P.Globals)])
	rd := a.reader(q.Proc, q, nil)
	for i, arg := range op.Args {
		if pr.Tracks(op.Proc, ir.VarRef{Index: i}) {
			n.V[len(a.P.Globals)+i] = eval(arg, rd)
		}
	}
	return n
}

// Combine returns the caller's state after the call: the callee's globals,
// the caller's locals, the returned values assigned, the caller's enforce
// (the call's Post) assumed.
func (a *Analysis) Combine(caller, exit cpa.State, ret *cpa.Edge, p cpa.Precision) ([]cpa.State, error) {
	st, err := a.combine(caller.(*State), exit.(*State), ret, prec(p))
	return posts(st), err
}

func (a *Analysis) combine(q, x *State, ret *cpa.Edge, pr *Precision) ([]step, error) {
	op := ret.CallOp()
	ng := len(a.P.Globals)
	n := &State{Proc: q.Proc, V: append([]Val(nil), q.V...)}
	copy(n.V, x.V[:ng])
	for i, t := range op.Targets {
		if t.Discard {
			continue
		}
		k := a.slot(q.Proc, t.Var)
		if pr.Tracks(q.Proc, t.Var) {
			n.V[k] = x.V[a.retSlot(x.Proc, i)]
		} else {
			n.V[k] = Top
		}
	}
	if op.Post == nil {
		return []step{{x, n}}, nil
	}
	pieces, err := a.split(n, ir.Reads(&ir.Assume{Cond: op.Post}), pr)
	if err != nil {
		return nil, err
	}
	var out []step
	for _, m := range pieces {
		if eval(op.Post, a.reader(q.Proc, m, nil)) != F {
			out = append(out, step{x, m})
		}
	}
	return out, nil
}

// Strengthen refines s with the assumptions other components' states make
// about globals (an observer's guard): a ⊤ becomes the assumed value; a
// known value that contradicts one makes the product impossible.
func (a *Analysis) Strengthen(x cpa.State, others []cpa.State, _ *cpa.Edge) (cpa.State, bool) {
	s := x.(*State)
	out := s
	for _, o := range others {
		as, ok := o.(cpa.Assuming)
		if !ok {
			continue
		}
		for _, l := range as.Assumed() {
			switch v := out.V[l.Global]; {
			case v == Top:
				if out == s {
					out = &State{Proc: s.Proc, V: append([]Val(nil), s.V...)}
				}
				out.V[l.Global] = of(l.Value)
			case v != of(l.Value):
				return nil, false
			}
		}
	}
	return out, true
}

// GlobalValue returns the value of global i and whether it is known.
func (s *State) GlobalValue(i int) (value, known bool) {
	switch s.V[i] {
	case T:
		return true, true
	case F:
		return false, true
	}
	return false, false
}
