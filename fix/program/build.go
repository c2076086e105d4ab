package program

import (
	"boolprog/ir"
)

// The relations are built once, generically, over an algebra of formulas,
// so that the BDDs the engines give the solver and the text that --emit
// writes come from the same code and cannot disagree.

// algebra is a representation of formulas over the bits of states, named
// by small integers (the states of one relation: its parameters).
type algebra[F any] interface {
	tru() F
	fls() F
	and(fs ...F) F
	or(fs ...F) F
	not(f F) F
	equiv(a, b F) F
	// lit is the bit of slot s of state st.
	lit(st, s int) F
	// pcIs says the program counter of state st is pc.
	pcIs(st, pc int) F
	// poss returns where expression e can be true and where it can be
	// false (every * an independent choice, see symbolic.Layout.Poss),
	// reading each variable from the state read gives.
	poss(e ir.Expr, read func(v *ir.Var) (st, s int)) (t, f F)
}

// builder builds the program's relations in an algebra.
type builder[F any] struct {
	enc *Encoding
	a   algebra[F]
	// failed, if not nil, reports that the algebra has failed (a BDD
	// manager interrupted or out of nodes): the loops over edges end
	// early, since every later operation fails too, and the caller reads
	// the failure.
	failed func() bool
}

// stop reports whether building should end (see failed).
func (b *builder[F]) stop() bool { return b.failed != nil && b.failed() }

func (b *builder[F]) slotOf(v ir.VarRef) int { return b.enc.Slots.Slot(v) }

// reading reads every variable from state st.
func (b *builder[F]) reading(st int) func(v *ir.Var) (int, int) {
	return func(v *ir.Var) (int, int) { return st, b.slotOf(v.VarRef) }
}

// choose says slot s of state to takes a value e can have.
func (b *builder[F]) choose(to, s int, e ir.Expr, read func(v *ir.Var) (int, int)) F {
	a := b.a
	t, f := a.poss(e, read)
	v := a.lit(to, s)
	return a.or(a.and(v, t), a.and(a.not(v), f))
}

// pcSet is the set of states st whose program counter is one of pcs.
func (b *builder[F]) pcSet(st int, pcs []int) F {
	var fs []F
	for _, pc := range pcs {
		fs = append(fs, b.a.pcIs(st, pc))
	}
	return b.a.or(fs...)
}

// Entry holds at the entries of the procedures.
func (b *builder[F]) entry(st int) F {
	var pcs []int
	for i, pr := range b.enc.Prog.Procs {
		pcs = append(pcs, b.enc.PC(i, pr.Entry))
	}
	return b.pcSet(st, pcs)
}

// exit holds at the exits of the procedures.
func (b *builder[F]) exit(st int) F {
	var pcs []int
	for i, pr := range b.enc.Prog.Procs {
		pcs = append(pcs, b.enc.PC(i, pr.Exit))
	}
	return b.pcSet(st, pcs)
}

// target holds at the error locations.
func (b *builder[F]) target(st int) F {
	var pcs []int
	for i, pr := range b.enc.Prog.Procs {
		for _, l := range pr.ErrorLocations() {
			pcs = append(pcs, b.enc.PC(i, l))
		}
	}
	return b.pcSet(st, pcs)
}

// outOfScope says the slots of st that proc does not have are false:
// locals beyond its own, and every returned value.
func (b *builder[F]) outOfScope(st int, proc *ir.Proc) F {
	sl := b.enc.Slots
	var fs []F
	for j := len(proc.Locals); j < sl.L; j++ {
		fs = append(fs, b.a.not(b.a.lit(st, sl.Local(j))))
	}
	for i := 0; i < sl.R; i++ {
		fs = append(fs, b.a.not(b.a.lit(st, sl.Ret(i))))
	}
	return b.a.and(fs...)
}

// init holds in the initial states: main's entry, any globals and locals
// of main.
func (b *builder[F]) init(st int) F {
	p := b.enc.Prog
	if p.Main < 0 {
		return b.a.fls()
	}
	main := p.Procs[p.Main]
	return b.a.and(b.a.pcIs(st, b.enc.PC(p.Main, main.Entry)), b.outOfScope(st, main))
}

// callEdges calls f for every call edge of the program.
func (b *builder[F]) callEdges(f func(proc int, e *ir.Edge, c *ir.Call)) {
	for i, pr := range b.enc.Prog.Procs {
		for _, e := range pr.Edges {
			if b.stop() {
				return
			}
			if c, ok := e.Op.(*ir.Call); ok {
				f(i, e, c)
			}
		}
	}
}

// across relates a call's location to its return point.
func (b *builder[F]) across(x, v int) F {
	var fs []F
	b.callEdges(func(proc int, e *ir.Edge, _ *ir.Call) {
		fs = append(fs, b.a.and(b.a.pcIs(x, b.enc.PC(proc, e.From)), b.a.pcIs(v, b.enc.PC(proc, e.To))))
	})
	return b.a.or(fs...)
}

// internal relates x to v by one intraprocedural edge (every edge but
// calls).
func (b *builder[F]) internal(x, v int) F {
	var fs []F
	for i, pr := range b.enc.Prog.Procs {
		for _, e := range pr.Edges {
			if b.stop() {
				return b.a.fls()
			}
			if _, ok := e.Op.(*ir.Call); ok {
				continue
			}
			fs = append(fs, b.edge(i, e, x, v))
		}
	}
	return b.a.or(fs...)
}

// edge is the relation of one intraprocedural edge of procedure proc, from
// state x to state v, with its locations and its frame.
func (b *builder[F]) edge(proc int, e *ir.Edge, x, v int) F {
	a, sl := b.a, b.enc.Slots
	pr := b.enc.Prog.Procs[proc]
	changed := make([]bool, sl.N())
	fs := []F{a.pcIs(x, b.enc.PC(proc, e.From)), a.pcIs(v, b.enc.PC(proc, e.To))}
	cur := b.reading(x)
	switch op := e.Op.(type) {
	case *ir.Assume:
		t, _ := a.poss(op.Cond, cur)
		fs = append(fs, t)
	case *ir.Assign:
		for i, t := range op.Targets {
			s := b.slotOf(t)
			changed[s] = true
			fs = append(fs, b.choose(v, s, op.Values[i], cur))
		}
		if op.Constrain != nil {
			t, _ := a.poss(op.Constrain, func(w *ir.Var) (int, int) {
				s := b.slotOf(w.VarRef)
				if w.Primed && changed[s] {
					return v, s
				}
				return x, s
			})
			fs = append(fs, t)
		}
	case *ir.Return:
		for i, val := range op.Values {
			changed[sl.Ret(i)] = true
			fs = append(fs, b.choose(v, sl.Ret(i), val, cur))
		}
	}
	if e.To == pr.Exit {
		// Arriving at the exit other than by a return gives any returned
		// values (see package ir).
		for i := 0; i < pr.Returns; i++ {
			changed[sl.Ret(i)] = true
		}
	}
	for s := 0; s < sl.N(); s++ {
		if !changed[s] {
			fs = append(fs, a.equiv(a.lit(v, s), a.lit(x, s)))
		}
	}
	return a.and(fs...)
}

// intoCall relates a call's state x to the callee's entry state y:
// globals passed, parameters bound to the arguments, the callee's other
// locals any value.
func (b *builder[F]) intoCall(x, y int) F {
	var fs []F
	b.callEdges(func(proc int, e *ir.Edge, c *ir.Call) {
		fs = append(fs, b.a.and(b.a.pcIs(x, b.enc.PC(proc, e.From)), b.enter(c, x, y)))
	})
	return b.a.or(fs...)
}

// enter is the part of intoCall after the caller's location.
func (b *builder[F]) enter(c *ir.Call, x, y int) F {
	a, sl := b.a, b.enc.Slots
	q := b.enc.Prog.Procs[c.Proc]
	fs := []F{a.pcIs(y, b.enc.PC(c.Proc, q.Entry))}
	for g := 0; g < sl.G; g++ {
		fs = append(fs, a.equiv(a.lit(y, g), a.lit(x, g)))
	}
	for j, arg := range c.Args {
		fs = append(fs, b.choose(y, sl.Local(j), arg, b.reading(x)))
	}
	fs = append(fs, b.outOfScope(y, q))
	return a.and(fs...)
}

// targets returns, for a call, the slot that receives each returned value
// (-1 for none).
func (b *builder[F]) targets(c *ir.Call) map[int]int {
	to := map[int]int{}
	for i, t := range c.Targets {
		if !t.Discard {
			to[b.slotOf(t.Var)] = i
		}
	}
	return to
}

// ret relates a call's state x, the callee's exit state z and the state v
// at the return point. It is retA ∧ retB, split as the paper's §4.2 does.
func (b *builder[F]) ret(x, z, v int) F {
	var fs []F
	b.callEdges(func(proc int, e *ir.Edge, c *ir.Call) {
		fs = append(fs, b.a.and(b.retA1(proc, e, c, x, z, v), b.retB1(proc, e, c, x, z, v)))
	})
	return b.a.or(fs...)
}

// retA is the part of a return that concerns the caller: x is a call,
// zs's program counter the callee's exit, v at the return point with the
// caller's locals (those the call does not assign).
func (b *builder[F]) retA(x, zs, v int) F {
	var fs []F
	b.callEdges(func(proc int, e *ir.Edge, c *ir.Call) { fs = append(fs, b.retA1(proc, e, c, x, zs, v)) })
	return b.a.or(fs...)
}

// retB is the part of a return that concerns the callee: xs's program
// counter is the call, z the callee's exit, v has z's globals and the
// returned values where the call assigns them, and satisfies the
// caller's enforce.
func (b *builder[F]) retB(xs, z, v int) F {
	var fs []F
	b.callEdges(func(proc int, e *ir.Edge, c *ir.Call) { fs = append(fs, b.retB1(proc, e, c, xs, z, v)) })
	return b.a.or(fs...)
}

func (b *builder[F]) retA1(proc int, e *ir.Edge, c *ir.Call, x, zs, v int) F {
	a, sl := b.a, b.enc.Slots
	q := b.enc.Prog.Procs[c.Proc]
	to := b.targets(c)
	fs := []F{a.pcIs(x, b.enc.PC(proc, e.From)), a.pcIs(zs, b.enc.PC(c.Proc, q.Exit)), a.pcIs(v, b.enc.PC(proc, e.To))}
	for j := 0; j < sl.L; j++ {
		if _, ok := to[sl.Local(j)]; !ok {
			fs = append(fs, a.equiv(a.lit(v, sl.Local(j)), a.lit(x, sl.Local(j))))
		}
	}
	return a.and(fs...)
}

func (b *builder[F]) retB1(proc int, e *ir.Edge, c *ir.Call, xs, z, v int) F {
	a, sl := b.a, b.enc.Slots
	q := b.enc.Prog.Procs[c.Proc]
	to := b.targets(c)
	fs := []F{a.pcIs(xs, b.enc.PC(proc, e.From)), a.pcIs(z, b.enc.PC(c.Proc, q.Exit))}
	for g := 0; g < sl.G; g++ {
		if i, ok := to[g]; ok {
			fs = append(fs, a.equiv(a.lit(v, g), a.lit(z, sl.Ret(i))))
		} else {
			fs = append(fs, a.equiv(a.lit(v, g), a.lit(z, g)))
		}
	}
	for j := 0; j < sl.L; j++ {
		if i, ok := to[sl.Local(j)]; ok {
			fs = append(fs, a.equiv(a.lit(v, sl.Local(j)), a.lit(z, sl.Ret(i))))
		}
	}
	for i := 0; i < sl.R; i++ {
		fs = append(fs, a.not(a.lit(v, sl.Ret(i))))
	}
	if c.Post != nil {
		t, _ := a.poss(c.Post, b.reading(v))
		fs = append(fs, t)
	}
	return a.and(fs...)
}
