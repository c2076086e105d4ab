package program

import (
	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
)

// Relations builds the BDDs of a program's relations (the Getafix paper's
// §4 interface) over any BDD variables: each method takes the StateVars
// of the states it relates, so the same relation can be built over the
// parameters of any formula's relation (fix.Solver.Bits) — for instance
// over one of several copies of the globals. Every relation is exact: the
// frame (the slots an edge does not change keep their value) is explicit.
//
// NewRelations creates a symbolic.Layout in the manager to evaluate
// expressions (its variables come after the manager's current ones and
// are otherwise unused).
type Relations struct {
	Enc   *Encoding
	M     *bdd.Manager
	lay   *symbolic.Layout
	b     builder[bdd.Node]
	alg   *bddAlg
	space []StateVars
}

// spareCopies is the number of states in the layout that Space hands out.
const spareCopies = 5

// NewRelations returns a builder of enc's relations in m.
func NewRelations(m *bdd.Manager, enc *Encoding) *Relations {
	lay := symbolic.NewLayout(m, enc.Prog, symbolic.OrderAffinity)
	r := &Relations{Enc: enc, M: m, lay: lay}
	r.alg = &bddAlg{m: m, lay: lay}
	// Once m fails (interrupted, out of nodes) every operation returns
	// bdd.Invalid at once: the rest of a relation is not built.
	r.b = builder[bdd.Node]{enc: enc, a: r.alg, failed: func() bool { return m.Err() != nil }}
	return r
}

// Space returns the StateVars of spare state i (0 <= i < 5): new
// variables of the manager (created on the first call, after the
// manager's current ones) in the order of State in formulas, the five
// states interleaved: the pc bits on top, most significant first, then
// the slots in the encoding's order. Renaming a State parameter of a
// formula's relation into a spare state thus keeps the relative order.
// They give room for computations of the caller's own, such as traces.
func (r *Relations) Space(i int) StateVars {
	if r.space == nil {
		enc := r.Enc
		next := r.M.ExtVarNum(spareCopies * (enc.PCBits + enc.Slots.N()))
		r.space = make([]StateVars, spareCopies)
		for c := range r.space {
			r.space[c] = StateVars{PC: make([]int, enc.PCBits), Slots: make([]int, enc.Slots.N())}
		}
		for b := 0; b < enc.PCBits; b++ {
			for c := range r.space {
				r.space[c].PC[b] = next
				next++
			}
		}
		for _, s := range enc.Order {
			for c := range r.space {
				r.space[c].Slots[s] = next
				next++
			}
		}
	}
	return r.space[i]
}

// with runs f with the states sts numbered 0, 1, ... in the algebra.
func (r *Relations) with(sts []StateVars, f func() bdd.Node) bdd.Node {
	r.alg.sts = sts
	defer func() { r.alg.sts = nil }()
	return f()
}

// Entry holds where the program counter u.PC is a procedure's entry (u.Slots
// is not read).
func (r *Relations) Entry(u StateVars) bdd.Node {
	return r.with([]StateVars{u}, func() bdd.Node { return r.b.entry(0) })
}

// Exit holds where the program counter is a procedure's exit.
func (r *Relations) Exit(u StateVars) bdd.Node {
	return r.with([]StateVars{u}, func() bdd.Node { return r.b.exit(0) })
}

// Target holds where the program counter is an error location.
func (r *Relations) Target(u StateVars) bdd.Node {
	return r.with([]StateVars{u}, func() bdd.Node { return r.b.target(0) })
}

// Init holds in the initial states: main's entry, any values of the
// globals and of main's locals, the other slots false.
func (r *Relations) Init(u StateVars) bdd.Node {
	return r.with([]StateVars{u}, func() bdd.Node { return r.b.init(0) })
}

// Across relates the program counter of each call to its return point.
func (r *Relations) Across(x, v StateVars) bdd.Node {
	return r.with([]StateVars{x, v}, func() bdd.Node { return r.b.across(0, 1) })
}

// Internal (the paper's ProgramInt) relates x to v by one edge that is not
// a call.
func (r *Relations) Internal(x, v StateVars) bdd.Node {
	return r.with([]StateVars{x, v}, func() bdd.Node { return r.b.internal(0, 1) })
}

// Edge is the relation of one intraprocedural edge (not a call) of
// procedure proc.
func (r *Relations) Edge(proc int, e *ir.Edge, x, v StateVars) bdd.Node {
	return r.with([]StateVars{x, v}, func() bdd.Node { return r.b.edge(proc, e, 0, 1) })
}

// IntoCall relates a state at a call to the callee's entry state.
func (r *Relations) IntoCall(x, y StateVars) bdd.Node {
	return r.with([]StateVars{x, y}, func() bdd.Node { return r.b.intoCall(0, 1) })
}

// Return relates a state x at a call, the callee's exit state z and the
// state v at the return point.
func (r *Relations) Return(x, z, v StateVars) bdd.Node {
	return r.with([]StateVars{x, z, v}, func() bdd.Node { return r.b.ret(0, 1, 2) })
}

// ReturnA is the caller's part of Return (x, the program counter of zs,
// v): Return(x, z, v) = ReturnA(x, z, v) ∧ ReturnB(x, z, v), and ReturnA
// reads only the program counter of zs.
func (r *Relations) ReturnA(x, zs, v StateVars) bdd.Node {
	return r.with([]StateVars{x, zs, v}, func() bdd.Node { return r.b.retA(0, 1, 2) })
}

// ReturnB is the callee's part of Return (the program counter of xs, z,
// v); it reads only the program counter of xs.
func (r *Relations) ReturnB(xs, z, v StateVars) bdd.Node {
	return r.with([]StateVars{xs, z, v}, func() bdd.Node { return r.b.retB(0, 1, 2) })
}

// bddAlg is the algebra of BDDs over the states in sts.
type bddAlg struct {
	m   *bdd.Manager
	lay *symbolic.Layout
	sts []StateVars
}

func (a *bddAlg) tru() bdd.Node { return bdd.True }
func (a *bddAlg) fls() bdd.Node { return bdd.False }

func (a *bddAlg) and(fs ...bdd.Node) bdd.Node {
	// From the last: the frame equalities at the end are over the lower
	// variables, so the conjunction grows from the bottom.
	r := bdd.True
	for i := len(fs) - 1; i >= 0; i-- {
		r = a.m.And(fs[i], r)
	}
	return r
}

func (a *bddAlg) or(fs ...bdd.Node) bdd.Node {
	// Pairwise, as a balanced tree: a long flat chain would rebuild the
	// growing disjunction once per operand.
	if len(fs) == 0 {
		return bdd.False
	}
	for len(fs) > 1 {
		var next []bdd.Node
		for i := 0; i+1 < len(fs); i += 2 {
			next = append(next, a.m.Or(fs[i], fs[i+1]))
		}
		if len(fs)%2 == 1 {
			next = append(next, fs[len(fs)-1])
		}
		fs = next
	}
	return fs[0]
}

func (a *bddAlg) not(f bdd.Node) bdd.Node      { return a.m.Not(f) }
func (a *bddAlg) equiv(x, y bdd.Node) bdd.Node { return a.m.Equiv(x, y) }
func (a *bddAlg) lit(st, s int) bdd.Node       { return a.m.Ithvar(a.sts[st].Slots[s]) }

func (a *bddAlg) pcIs(st, pc int) bdd.Node {
	bits := a.sts[st].PC
	vals := make([]bool, len(bits))
	for i := range bits {
		vals[i] = pc>>(len(bits)-1-i)&1 == 1
	}
	return a.m.Assignment(bits, vals)
}

func (a *bddAlg) poss(e ir.Expr, read func(v *ir.Var) (int, int)) (bdd.Node, bdd.Node) {
	return a.lay.Poss(e, func(v *ir.Var) int {
		st, s := read(v)
		return a.sts[st].Slots[s]
	})
}
