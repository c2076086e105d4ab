package concprod

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"boolprog/bdd"
	"boolprog/conc"
	"boolprog/ir"
	"boolprog/symbolic"
)

// svar is a state variable (a pc bit, a local of one depth of one thread,
// a global): its current and next copies and a third, middle copy that only
// composing relations uses. The three are adjacent in the BDD order.
type svar struct{ id, cur, next, mid int }

// slot is a thread of the product (or Getafix's init): its inlined code
// and its variables.
type slot struct {
	thread  int  // thread number (init runs as thread 0)
	init    bool // Getafix's init
	dynamic bool // created at run time: starts unborn
	codes   []*code
	offs    []int // inlined id of codes[i]'s first location
	n       int   // locations; n is "ended", n+1 "not yet created"
	pc      []svar
	locals  [][]svar // by depth, then local index
	name    string   // for messages: the procedures it runs
}

func (s *slot) done() int   { return s.n }
func (s *slot) unborn() int { return s.n + 1 }

// codeOf returns the index in s.codes of root's code, or -1.
func (s *slot) codeOf(root int) int {
	for i, c := range s.codes {
		if c.root == root {
			return i
		}
	}
	return -1
}

// at returns the code, frame and location of pc value v (< s.n).
func (s *slot) at(v int) (ci, f, loc int) {
	for ci = len(s.codes) - 1; s.offs[ci] > v; ci-- {
	}
	f, loc = s.codes[ci].where(v - s.offs[ci])
	return ci, f, loc
}

// rel is a transition relation over the current and next copies of the
// state variables; only those in ch may change (the others keep their
// values: the frame is implicit), and the relation constrains the next
// copies of those only. A changed variable the relation does not
// constrain takes any value.
type rel struct {
	r  bdd.Node
	ch []bool // by svar id
}

// prod is the encoding of a program as a product of its threads.
type prod struct {
	p       *ir.Program
	m       *bdd.Manager
	ev      *symbolic.Layout
	model   *conc.Model
	slots   []*slot // the threads, by number
	init    *slot   // Getafix's init, or nil
	globals []svar
	atomic  *svar // the owner of an atomic section is the running thread
	vars    []svar

	sets  map[string]*bdd.VarSet
	pairs map[string]*bdd.Pairs
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

// build lays out the slots' variables.
func (x *prod) build(order Order) {
	actors := x.slots
	if x.init != nil {
		actors = append([]*slot{x.init}, x.slots...)
	}
	for _, s := range actors {
		for _, c := range s.codes {
			s.n += c.n
		}
		var widths []int
		for _, c := range s.codes {
			for d, w := range c.widths {
				if d >= len(widths) {
					widths = append(widths, 0)
				}
				widths[d] = max(widths[d], w)
			}
		}
		s.locals = make([][]svar, len(widths))
		for d, w := range widths {
			s.locals[d] = make([]svar, w)
		}
	}
	pcs := func(s *slot) {
		for range max(bits.Len(uint(s.n+1)), 1) {
			s.pc = append(s.pc, x.newVar())
		}
	}
	locals := func(s *slot) {
		for _, vs := range s.locals {
			for j := range vs {
				vs[j] = x.newVar()
			}
		}
	}
	x.globals = make([]svar, len(x.p.Globals))
	globals := func() {
		for i := range x.globals {
			x.globals[i] = x.newVar()
		}
	}
	switch order {
	case OrderGlobals:
		globals()
		for _, s := range actors {
			pcs(s)
			locals(s)
		}
	case OrderAffinity:
		for _, s := range actors {
			pcs(s)
		}
		sl := symbolic.SlotsOf(x.p)
		for _, k := range symbolic.NewLayout(bdd.New(bdd.Config{InitialNodes: 64}), x.p, symbolic.OrderAffinity).Order() {
			switch {
			case sl.IsGlobal(k):
				x.globals[k] = x.newVar()
			case sl.IsLocal(k):
				j := k - sl.G
				for _, s := range actors {
					for _, vs := range s.locals {
						if j < len(vs) {
							vs[j] = x.newVar()
						}
					}
				}
			}
		}
	default:
		for _, s := range actors {
			pcs(s)
			locals(s)
		}
		globals()
	}
	if x.model.AtomicSections {
		a := x.newVar()
		x.atomic = &a
	}
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

// pcIs returns "copy c of s's pc holds v".
func (x *prod) pcIs(s *slot, v int, next bool) bdd.Node {
	vars := make([]int, len(s.pc))
	vals := make([]bool, len(s.pc))
	for b, sv := range s.pc {
		vars[b] = sv.cur
		if next {
			vars[b] = sv.next
		}
		vals[b] = v>>b&1 != 0
	}
	return x.m.Assignment(vars, vals)
}

// pcIn returns "s's current pc is one of vs".
func (x *prod) pcIn(s *slot, vs []int) bdd.Node {
	r := bdd.False
	for _, v := range vs {
		r = x.m.Or(r, x.pcIs(s, v, false))
	}
	return r
}

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
type step struct {
	from    int // pc value
	to      int // pc value after the step
	code    int // index in the slot's codes
	frame   int
	edge    int // edge id in the frame's procedure
	r       rel // with the pc (from, to) included
	endInit bool
}

// steps returns the relations of every edge of s's code. It reports an
// error for an operation the engine does not handle.
func (x *prod) steps(s *slot) ([]step, error) {
	var out []step
	for ci, c := range s.codes {
		for fi, fr := range c.frames {
			proc := x.p.Procs[fr.proc]
			for _, e := range proc.Edges {
				if e.From == proc.Exit {
					continue
				}
				r, to, err := x.edge(s, ci, fi, e)
				if err != nil {
					return nil, err
				}
				from := s.offs[ci] + c.loc(fi, e.From)
				for _, b := range s.pc {
					r.ch[b.id] = true
				}
				r.r = x.m.AndAll(r.r, x.pcIs(s, from, false), x.pcIs(s, to, true))
				out = append(out, step{from: from, to: to, code: ci, frame: fi, edge: e.ID, r: r, endInit: s.init && to == s.done()})
			}
		}
	}
	return out, nil
}

// edge returns the relation of edge e in frame fi of code ci of s (without
// the pc) and the pc value it leads to.
func (x *prod) edge(s *slot, ci, fi int, e *ir.Edge) (rel, int, error) {
	c := s.codes[ci]
	fr := c.frames[fi]
	d := fr.depth
	proc := x.p.Procs[fr.proc]
	switch op := e.Op.(type) {
	case *ir.Skip:
		r, to := x.arrive(s, ci, fi, e.To, x.ident(), nil)
		return r, to, nil
	case *ir.Assume:
		r, to := x.arrive(s, ci, fi, e.To, x.assume(s, d, op.Cond), nil)
		return r, to, nil
	case *ir.Assign:
		r, to := x.arrive(s, ci, fi, e.To, x.assign(s, d, op), nil)
		return r, to, nil
	case *ir.Return:
		if e.To != proc.Exit {
			return rel{}, 0, fmt.Errorf("%s: a return edge that does not lead to the exit", proc.Name)
		}
		r, to := x.arrive(s, ci, fi, e.To, x.ident(), op.Values)
		return r, to, nil
	case *ir.Call:
		k := c.child[[2]int{fi, e.ID}]
		callee := x.p.Procs[op.Proc]
		r := x.enter(s, d, op)
		if callee.Entry == callee.Exit {
			r = x.compose(r, x.pop(s, d+1, op, nil))
			r, to := x.arrive(s, ci, fi, e.To, r, nil)
			return r, to, nil
		}
		return r, s.offs[ci] + c.loc(k, callee.Entry), nil
	case *ir.EndThread:
		return x.free(s, 0), s.done(), nil
	case *ir.AtomicBegin, *ir.AtomicEnd:
		_, begin := op.(*ir.AtomicBegin)
		r, to := x.arrive(s, ci, fi, e.To, x.setAtomic(begin), nil)
		return r, to, nil
	case *ir.StartThread:
		r, err := x.start(s, ci, fi, op)
		if err != nil {
			return rel{}, 0, err
		}
		r, to := x.arrive(s, ci, fi, e.To, r, nil)
		return r, to, nil
	}
	return rel{}, 0, fmt.Errorf("%s (line %d): unknown operation %T", proc.Name, e.Pos.Line, e.Op)
}

// arrive completes a step that brought frame fi to location loc after
// relation r: arriving at the exit returns to the caller (rets are the
// returned values, nil for any), which may return in turn; the root frame
// returning ends the thread. It returns the step's relation and pc value.
func (x *prod) arrive(s *slot, ci, fi, loc int, r rel, rets []ir.Expr) (rel, int) {
	c := s.codes[ci]
	for {
		fr := c.frames[fi]
		proc := x.p.Procs[fr.proc]
		if loc != proc.Exit {
			return r, s.offs[ci] + c.loc(fi, loc)
		}
		if fr.parent < 0 {
			return x.compose(r, x.free(s, 0)), s.done()
		}
		caller := x.p.Procs[c.frames[fr.parent].proc]
		call := caller.Edges[fr.call].Op.(*ir.Call)
		r = x.compose(r, x.pop(s, fr.depth, call, rets))
		rets = nil
		fi, loc = fr.parent, caller.Edges[fr.call].To
	}
}

// start is the creation of a thread by start_thread op in frame fi of code
// ci of s: the first slot not yet created gets the new thread. Its
// relation changes the dynamic slots only (s's pc is set by the caller).
// Without a free slot the step has no successor (see capped).
func (x *prod) start(s *slot, ci, fi int, op *ir.StartThread) (rel, error) {
	m := x.m
	c := s.codes[ci]
	fr := c.frames[fi]
	out := x.ident()
	var dyn []*slot
	for _, k := range x.slots {
		if k.dynamic {
			dyn = append(dyn, k)
			for _, v := range k.pc {
				out.ch[v.id] = true
			}
			for _, vs := range k.locals {
				for _, v := range vs {
					out.ch[v.id] = true
				}
			}
		}
	}
	out.r = bdd.False
	cur := x.readCur(s, fr.depth)
	for i, k := range dyn {
		part := x.pcIs(k, k.unborn(), false)
		if i > 0 {
			part = m.And(part, m.Not(x.pcIs(dyn[i-1], dyn[i-1].unborn(), false)))
		}
		if op.Goto < 0 {
			callee := x.p.Procs[op.Proc]
			kc := k.codeOf(op.Proc)
			if kc < 0 {
				return rel{}, fmt.Errorf("no code for thread procedure %s", callee.Name)
			}
			to := k.done()
			if callee.Entry != callee.Exit {
				to = k.offs[kc] + k.codes[kc].loc(0, callee.Entry)
				for j, a := range op.Args {
					part = m.And(part, x.choose(k.locals[0][j], a, cur))
				}
			}
			part = m.And(part, x.pcIs(k, to, true))
		} else {
			kc := k.codeOf(c.root)
			if kc < 0 {
				return rel{}, fmt.Errorf("no code for the copy of thread procedure %s", x.p.Procs[c.root].Name)
			}
			part = m.And(part, x.pcIs(k, k.offs[kc]+k.codes[kc].loc(fi, op.Goto), true))
			for a := fi; a >= 0; a = c.frames[a].parent {
				f := c.frames[a]
				for j := range x.p.Procs[f.proc].Locals {
					from, to := s.locals[f.depth][j], k.locals[f.depth][j]
					part = m.And(part, m.Equiv(m.Ithvar(to.next), m.Ithvar(from.cur)))
				}
			}
		}
		// Every other dynamic slot keeps its variables (the creator's pc
		// is the caller's).
		for _, o := range dyn {
			if o == k {
				continue
			}
			if o != s {
				for _, v := range o.pc {
					part = m.And(part, m.Equiv(m.Ithvar(v.cur), m.Ithvar(v.next)))
				}
			}
			for _, vs := range o.locals {
				for _, v := range vs {
					part = m.And(part, m.Equiv(m.Ithvar(v.cur), m.Ithvar(v.next)))
				}
			}
		}
		out.r = m.Or(out.r, part)
	}
	return out, nil
}

// newProd builds the slots of the program's threads (each with the
// inlined code of every procedure it may run) and lays out their
// variables. It reports a *recursionError for a recursive thread.
func newProd(p *ir.Program, model *conc.Model, m *bdd.Manager, maxThreads int, order Order) (*prod, error) {
	x := &prod{p: p, m: m, ev: symbolic.Evaluator(m), model: model,
		sets: make(map[string]*bdd.VarSet), pairs: make(map[string]*bdd.Pairs)}
	codes := make(map[int]*code)
	codeOf := func(root int) (*code, error) {
		if c, ok := codes[root]; ok {
			return c, nil
		}
		c, err := inline(p, root)
		if err != nil {
			return nil, err
		}
		codes[root] = c
		return c, nil
	}
	mk := func(roots []int) (*slot, error) {
		s := &slot{}
		var names []string
		for _, r := range roots {
			c, err := codeOf(r)
			if err != nil {
				return nil, err
			}
			s.offs = append(s.offs, s.n)
			s.codes = append(s.codes, c)
			s.n += c.n
			names = append(names, p.Procs[r].Name)
		}
		s.n = 0 // build counts again
		s.name = strings.Join(names, "|")
		return s, nil
	}
	if model.Init >= 0 {
		s, err := mk([]int{model.Init})
		if err != nil {
			return nil, err
		}
		s.init = true
		x.init = s
	}
	for i, r := range model.Static {
		s, err := mk([]int{r})
		if err != nil {
			return nil, err
		}
		s.thread = i
		x.slots = append(x.slots, s)
	}
	if len(model.Sites) > 0 {
		roots, err := dynamicRoots(p, model, codeOf)
		if err != nil {
			return nil, err
		}
		for t := len(model.Static); t < maxThreads; t++ {
			s, err := mk(roots)
			if err != nil {
				return nil, err
			}
			s.thread, s.dynamic = t, true
			x.slots = append(x.slots, s)
		}
	}
	x.build(order)
	return x, nil
}

// dynamicRoots returns the procedures a thread created at run time may
// run: those start_thread names and, for `start_thread goto L`, every
// thread procedure whose code holds the statement (the new thread copies
// its creator's frames).
func dynamicRoots(p *ir.Program, model *conc.Model, codeOf func(int) (*code, error)) ([]int, error) {
	var roots []int
	add := func(r int) bool {
		if slices.Contains(roots, r) {
			return false
		}
		roots = append(roots, r)
		return true
	}
	for _, st := range model.Sites {
		if st.Op.Goto < 0 {
			add(st.Op.Proc)
		}
	}
	for changed := true; changed; {
		changed = false
		candidates := append(slices.Clone(model.Static), roots...)
		for _, r := range candidates {
			c, err := codeOf(r)
			if err != nil {
				return nil, err
			}
			for _, st := range model.Sites {
				if st.Op.Goto < 0 {
					continue
				}
				for _, f := range c.frames {
					if f.proc == st.Proc && add(r) {
						changed = true
					}
				}
			}
		}
	}
	return roots, nil
}
