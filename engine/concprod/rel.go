package concprod

import (
	"fmt"
	"slices"
	"strings"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
)

// svar is a state variable (a pc bit, a local of one depth of one thread,
// a global): its current and next copies and a third, middle copy that only
// composing relations uses. The three are adjacent in the BDD order.
type svar struct{ id, cur, next, mid int }

// rel is a transition relation over the current and next copies of the
// state variables; only those in ch may change (the others keep their
// values: the frame is implicit), and the relation constrains the next
// copies of those only. A changed variable the relation does not
// constrain takes any value.
type rel struct {
	r  bdd.Node
	ch []bool // by svar id
}

// Order says how the state variables are ordered in the BDDs.
type Order int

const (
	// OrderThreads: each thread's pc and locals, then the globals (the
	// default: the fastest on Getafix's fib programs).
	OrderThreads Order = iota
	// OrderAffinity: every thread's pc, then the program's variables in
	// package symbolic's affinity order (variables assigned or read
	// together sit together), each local with its copies in every thread
	// and depth side by side.
	OrderAffinity
	// OrderGlobals: the globals, then each thread's pc and locals.
	OrderGlobals
)

var orderNames = [...]string{"threads", "affinity", "globals"}

// String returns "threads", "affinity" or "globals".
func (o Order) String() string {
	if o >= 0 && int(o) < len(orderNames) {
		return orderNames[o]
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// Set parses an order's name: Order is a flag.Value.
func (o *Order) Set(s string) error {
	i := slices.Index(orderNames[:], s)
	if i < 0 {
		return fmt.Errorf("unknown order %q (have %s)", s, strings.Join(orderNames[:], ", "))
	}
	*o = Order(i)
	return nil
}

// newVar creates a state variable (three adjacent BDD variables).
func (x *prod) newVar() svar {
	v := x.m.ExtVarNum(3)
	sv := svar{id: len(x.vars), cur: v, next: v + 1, mid: v + 2}
	x.vars = append(x.vars, sv)
	return sv
}

// varOf returns the state variable of v in frame depth d of slot s.
func (x *prod) varOf(s *slot, d int, v ir.VarRef) svar {
	if v.Global {
		return x.globals[v.Index]
	}
	return s.locals[d][v.Index]
}

// readCur reads every variable's current copy in depth d of s.
func (x *prod) readCur(s *slot, d int) symbolic.Reader {
	return func(v *ir.Var) int { return x.varOf(s, d, v.VarRef).cur }
}

// readNew reads the variables of ch from their next copies, the others
// from their current ones: the state after a step that changes ch.
func (x *prod) readNew(s *slot, d int, ch []bool, primedOnly bool) symbolic.Reader {
	return func(v *ir.Var) int {
		sv := x.varOf(s, d, v.VarRef)
		if ch[sv.id] && (v.Primed || !primedOnly) {
			return sv.next
		}
		return sv.cur
	}
}

func (x *prod) ident() rel { return rel{r: bdd.True, ch: make([]bool, len(x.vars))} }

// choose returns "the next copy of sv takes a value e can have".
func (x *prod) choose(sv svar, e ir.Expr, read symbolic.Reader) bdd.Node {
	if e == nil {
		return bdd.True
	}
	return x.ev.Choose(sv.next, e, read)
}

// assume is assume(cond) in depth d of s.
func (x *prod) assume(s *slot, d int, cond ir.Expr) rel {
	r := x.ident()
	r.r = x.ev.CanBeTrue(cond, x.readCur(s, d))
	return r
}

// assign is a parallel assignment with its constrain in depth d of s.
func (x *prod) assign(s *slot, d int, a *ir.Assign) rel {
	r := x.ident()
	for _, t := range a.Targets {
		r.ch[x.varOf(s, d, t).id] = true
	}
	cur := x.readCur(s, d)
	for i, t := range a.Targets {
		r.r = x.m.And(r.r, x.choose(x.varOf(s, d, t), a.Values[i], cur))
	}
	if a.Constrain != nil {
		r.r = x.m.And(r.r, x.ev.CanBeTrue(a.Constrain, x.readNew(s, d, r.ch, true)))
	}
	return r
}

// free is the relation in which the locals of s from depth d on take any
// value (their frames are gone).
func (x *prod) free(s *slot, d int) rel {
	r := x.ident()
	for _, vs := range s.locals[min(d, len(s.locals)):] {
		for _, v := range vs {
			r.ch[v.id] = true
		}
	}
	return r
}

// enter is a call from depth d of s: the callee's frame (depth d+1) gets
// the arguments in its parameters and any values in its other locals.
func (x *prod) enter(s *slot, d int, call *ir.Call) rel {
	r := x.ident()
	callee := s.locals[d+1]
	for _, v := range callee {
		r.ch[v.id] = true
	}
	cur := x.readCur(s, d)
	for j, a := range call.Args {
		r.r = x.m.And(r.r, x.choose(callee[j], a, cur))
	}
	return r
}

// pop is the return of the frame at depth d of s to its caller through
// call: the call's targets get the values rets can have (computed in the
// returning frame; nil: any values), the returning frame's locals are
// freed, and the states that violate the call's post-condition are cut.
func (x *prod) pop(s *slot, d int, call *ir.Call, rets []ir.Expr) rel {
	r := x.free(s, d)
	ret := x.readCur(s, d)
	for i, t := range call.Targets {
		if t.Discard {
			continue
		}
		sv := x.varOf(s, d-1, t.Var)
		r.ch[sv.id] = true
		var e ir.Expr
		if i < len(rets) {
			e = rets[i]
		}
		r.r = x.m.And(r.r, x.choose(sv, e, ret))
	}
	if call.Post != nil {
		r.r = x.m.And(r.r, x.ev.CanBeTrue(call.Post, x.readNew(s, d-1, r.ch, false)))
	}
	return r
}

// setAtomic sets the atomic-section flag to v.
func (x *prod) setAtomic(v bool) rel {
	r := x.ident()
	r.ch[x.atomic.id] = true
	if v {
		r.r = x.m.Ithvar(x.atomic.next)
	} else {
		r.r = x.m.NIthvar(x.atomic.next)
	}
	return r
}

// compose returns a followed by b.
func (x *prod) compose(a, b rel) rel {
	m := x.m
	var both, only []svar // changed by both; by a only
	out := x.ident()
	for _, v := range x.vars {
		switch {
		case a.ch[v.id] && b.ch[v.id]:
			both = append(both, v)
		case a.ch[v.id]:
			only = append(only, v)
		}
		out.ch[v.id] = a.ch[v.id] || b.ch[v.id]
	}
	if len(both) == 0 && len(only) == 0 {
		out.r = m.And(a.r, b.r)
		return out
	}
	// a's next copies of what b changes again become middle copies; b
	// reads those there, and what only a changes from a's next copies.
	var af, at, bf, bt []int
	var mids []int
	for _, v := range both {
		af, at = append(af, v.next), append(at, v.mid)
		bf, bt = append(bf, v.cur), append(bt, v.mid)
		mids = append(mids, v.mid)
	}
	for _, v := range only {
		bf, bt = append(bf, v.cur), append(bt, v.next)
	}
	ar, br := a.r, b.r
	if len(af) > 0 {
		ar = m.Replace(ar, m.NewPairs(af, at))
	}
	br = m.Replace(br, m.NewPairs(bf, bt))
	out.r = m.AndExists(ar, br, m.VarSet(mids...))
	return out
}

// chKey is the identity of a changed set, for grouping relations.
func chKey(ch []bool) string {
	var b strings.Builder
	for _, c := range ch {
		if c {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
	return b.String()
}

// curSet returns the (cached) set of the current copies of ch.
func (x *prod) varSet(ch []bool, next bool) *bdd.VarSet {
	key := fmt.Sprint(next, chKey(ch))
	if s, ok := x.sets[key]; ok {
		return s
	}
	var vs []int
	for _, v := range x.vars {
		if ch[v.id] {
			if next {
				vs = append(vs, v.next)
			} else {
				vs = append(vs, v.cur)
			}
		}
	}
	s := x.m.VarSet(vs...)
	x.sets[key] = s
	return s
}

// rename returns the (cached) renaming of the copies of ch: next to
// current (toCur) or current to next.
func (x *prod) rename(ch []bool, toCur bool) *bdd.Pairs {
	key := fmt.Sprint(toCur, chKey(ch))
	if p, ok := x.pairs[key]; ok {
		return p
	}
	var from, to []int
	for _, v := range x.vars {
		if ch[v.id] {
			if toCur {
				from, to = append(from, v.next), append(to, v.cur)
			} else {
				from, to = append(from, v.cur), append(to, v.next)
			}
		}
	}
	p := x.m.NewPairs(from, to)
	x.pairs[key] = p
	return p
}

// allCur is the set of every current copy.
func (x *prod) allCur() *bdd.VarSet {
	ch := make([]bool, len(x.vars))
	for i := range ch {
		ch[i] = true
	}
	return x.varSet(ch, false)
}

// step is the relation of one edge of a slot's inlined code.
