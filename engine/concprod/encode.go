package concprod

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"

	"boolprog/bdd"
	"boolprog/conc"
	"boolprog/ir"
	"boolprog/symbolic"
)

// slot is a thread of the product (or Getafix's init): the procedures it
// may run at each depth and its variables.
type slot struct {
	thread  int  // thread number (init runs as thread 0)
	init    bool // Getafix's init
	dynamic bool // created at run time: starts unborn
	roots   []int
	procsAt [][]int  // by depth (depths)
	pc      [][]svar // by depth, then bit
	locals  [][]svar // by depth, then local index
}

// prod is the encoding of a program as a product of its threads.
//
// A pc holds a location of any procedure, numbered program-wide
// (locBase), or none (0: the frame is not active), or, at depth 0, done
// (the thread has ended) or unborn (not yet created).
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
	locBase []int // by procedure: the pc value of its location 0
	nvals   int   // pc values: none, the locations, done, unborn

	sets  map[string]*bdd.VarSet
	pairs map[string]*bdd.Pairs
	exits map[[4]int]rel // (slot, depth, proc, realRels) → arriving at the exit without returned values

	// dead, if set, frees the locals dead where their frame arrives
	// (deadlocals.go); realRels builds the real relations instead, for
	// the repair of traces.
	dead     *deadLocals
	realRels bool
}

const none = 0

func (x *prod) done() int   { return x.nvals - 2 }
func (x *prod) unborn() int { return x.nvals - 1 }

// val returns the pc value of location loc of procedure proc.
func (x *prod) val(proc, loc int) int { return x.locBase[proc] + loc }

// where returns the procedure and location of pc value v (a location).
func (x *prod) where(v int) (proc, loc int) {
	proc = sort.Search(len(x.locBase), func(i int) bool { return x.locBase[i] > v }) - 1
	return proc, v - x.locBase[proc]
}

// build lays out the slots' variables.
func (x *prod) build(order Order) {
	x.locBase = make([]int, len(x.p.Procs))
	n := 1
	for i, pr := range x.p.Procs {
		x.locBase[i] = n
		n += len(pr.Locations)
	}
	x.nvals = n + 2
	width := max(bits.Len(uint(x.nvals-1)), 1)
	actors := x.slots
	if x.init != nil {
		actors = append([]*slot{x.init}, x.slots...)
	}
	for _, s := range actors {
		s.pc = make([][]svar, len(s.procsAt))
		s.locals = make([][]svar, len(s.procsAt))
		for d, procs := range s.procsAt {
			s.pc[d] = make([]svar, width)
			w := 0
			for _, f := range procs {
				w = max(w, len(x.p.Procs[f].Locals))
			}
			s.locals[d] = make([]svar, w)
		}
	}
	// A pc's bits go most significant first. Locations are numbered
	// procedure by procedure in program order, so the high bits say which
	// procedure, and which stretch of it, a frame is in, and the low bits
	// where within it. A block of the relation (most of its edges leave
	// one stretch of the code) then fixes the top bits it tests, and the
	// relational product leaves the set's other stretches at the first
	// levels of the pc instead of at its last; and the bits that hardly
	// change (a thread's procedures share their high bits) sit where they
	// cost one node each. Measured against least significant first:
	// conc-product at rounds:3 on Getafix's SafeStack programs 0.66-0.81x
	// the time, and on the large random Getafix-style programs of
	// TestGetafixComparison 0.66-0.95x where the search takes over half a
	// second (bench/RESULTS.md).
	pcs := func(s *slot) {
		for _, bs := range s.pc {
			for b := len(bs) - 1; b >= 0; b-- {
				bs[b] = x.newVar()
			}
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

// pcIs returns "the current (or next) pc of depth d of s holds v".
func (x *prod) pcIs(s *slot, d, v int, next bool) bdd.Node {
	bs := s.pc[d]
	vars := make([]int, len(bs))
	vals := make([]bool, len(bs))
	for b, sv := range bs {
		vars[b] = sv.cur
		if next {
			vars[b] = sv.next
		}
		vals[b] = v>>b&1 != 0
	}
	return x.m.Assignment(vars, vals)
}

// top returns "the frame of depth d of s is the top one" (the one below
// is not active).
func (x *prod) top(s *slot, d int) bdd.Node {
	if d+1 < len(s.pc) {
		return x.pcIs(s, d+1, none, false)
	}
	return bdd.True
}

// at returns "s's top frame is at location loc of proc, at depth d".
func (x *prod) at(s *slot, d, proc, loc int) bdd.Node {
	return x.m.And(x.pcIs(s, d, x.val(proc, loc), false), x.top(s, d))
}

// guard is the relation that changes nothing where b holds.
func (x *prod) guard(b bdd.Node) rel {
	r := x.ident()
	r.r = b
	return r
}

// setPC is the relation that sets the pc of depth d of s to v.
func (x *prod) setPC(s *slot, d, v int) rel {
	r := x.ident()
	for _, b := range s.pc[d] {
		r.ch[b.id] = true
	}
	r.r = x.pcIs(s, d, v, true)
	return r
}

// same returns "the next copy of every variable of vs equals its current
// one".
func (x *prod) same(vs []svar) bdd.Node {
	m := x.m
	r := bdd.True
	for _, v := range vs {
		r = m.And(r, m.Equiv(m.Ithvar(v.cur), m.Ithvar(v.next)))
	}
	return r
}

// union returns the relation of the steps of any of alts.
func (x *prod) union(alts []rel) rel {
	out, _ := x.unionUnder(alts, -1)
	return out
}

// unionUnder is union, given up (false) as soon as the union's BDD has
// more than limit nodes (limit < 0: no limit).
func (x *prod) unionUnder(alts []rel, limit int) (rel, bool) {
	out := x.ident()
	out.r = bdd.False
	for _, a := range alts {
		for i, c := range a.ch {
			out.ch[i] = out.ch[i] || c
		}
	}
	for _, a := range alts {
		var frame []svar
		for _, v := range x.vars {
			if out.ch[v.id] && !a.ch[v.id] {
				frame = append(frame, v)
			}
		}
		out.r = x.m.Or(out.r, x.m.And(a.r, x.same(frame)))
		if limit >= 0 && x.m.NodeCount(out.r) > limit {
			return rel{}, false
		}
	}
	return out, true
}

// seq composes rels in order.
func (x *prod) seq(rels ...rel) rel {
	out := rels[0]
	for _, r := range rels[1:] {
		out = x.compose(out, r)
	}
	return out
}

// endThread is the end of thread s: its pc becomes done, its frames and
// locals go.
func (x *prod) endThread(s *slot) rel {
	r := x.free(s, 0)
	r = x.compose(r, x.setPC(s, 0, x.done()))
	for d := 1; d < len(s.pc); d++ {
		r = x.compose(r, x.setPC(s, d, none))
	}
	return r
}

// step is the relation of one edge of a procedure at one depth of a slot.
type step struct {
	depth, proc, edge int
	from              int // pc value
	r                 rel
}

// steps returns the relations of every edge of every procedure at every
// depth of s.
func (x *prod) steps(s *slot) ([]step, error) {
	var out []step
	for d, procs := range s.procsAt {
		for _, f := range procs {
			proc := x.p.Procs[f]
			for _, e := range proc.Edges {
				if e.From == proc.Exit {
					continue
				}
				r, err := x.edge(s, d, proc, e)
				if err != nil {
					return nil, err
				}
				out = append(out, step{depth: d, proc: f, edge: e.ID, from: x.val(f, e.From), r: r})
			}
		}
	}
	return out, nil
}

// edge returns the relation of edge e of proc at depth d of s.
func (x *prod) edge(s *slot, d int, proc *ir.Proc, e *ir.Edge) (rel, error) {
	g := x.guard(x.at(s, d, proc.Index, e.From))
	to := func(r rel) rel { return x.seq(g, r, x.arrive(s, d, proc, e.To, nil)) }
	switch op := e.Op.(type) {
	case *ir.Skip:
		return to(x.ident()), nil
	case *ir.Assume:
		return to(x.assume(s, d, op.Cond)), nil
	case *ir.Assign:
		return to(x.assign(s, d, op)), nil
	case *ir.AtomicBegin:
		return to(x.setAtomic(true)), nil
	case *ir.AtomicEnd:
		return to(x.setAtomic(false)), nil
	case *ir.Return:
		if e.To != proc.Exit {
			return rel{}, fmt.Errorf("%s: a return edge that does not lead to the exit", proc.Name)
		}
		return x.compose(g, x.arrive(s, d, proc, e.To, op.Values)), nil
	case *ir.Call:
		if len(proc.Locations[e.From].Out) != 1 {
			return rel{}, fmt.Errorf("%s (line %d): a call statement with other edges", proc.Name, e.Pos.Line)
		}
		callee := x.p.Procs[op.Proc]
		r := x.compose(g, x.enter(s, d, op))
		if callee.Entry == callee.Exit {
			return x.seq(r, x.pop(s, d+1, op, nil), x.arrive(s, d, proc, e.To, nil)), nil
		}
		return x.freeDead(x.compose(r, x.setPC(s, d+1, x.val(op.Proc, callee.Entry))), s, d+1, callee, callee.Entry), nil
	case *ir.EndThread:
		return x.compose(g, x.endThread(s)), nil
	case *ir.StartThread:
		st, err := x.start(s, d, proc, op)
		if err != nil {
			return rel{}, err
		}
		return to(st), nil
	}
	return rel{}, fmt.Errorf("%s (line %d): unknown operation %T", proc.Name, e.Pos.Line, e.Op)
}

// arrive is the rest of a step whose frame of depth d (running proc)
// arrives at location loc: it stays there, or, at the exit, returns to its
// caller (rets are the returned values, nil for any), which may return in
// turn; the frame of depth 0 returning ends the thread.
func (x *prod) arrive(s *slot, d int, proc *ir.Proc, loc int, rets []ir.Expr) rel {
	if loc != proc.Exit {
		return x.freeDead(x.setPC(s, d, x.val(proc.Index, loc)), s, d, proc, loc)
	}
	if d == 0 {
		return x.endThread(s)
	}
	key := [4]int{slices.Index(x.slots, s), d, proc.Index, 0}
	if x.realRels {
		key[3] = 1
	}
	if rets == nil {
		if r, ok := x.exits[key]; ok {
			return r
		}
	}
	var alts []rel
	for _, q := range s.procsAt[d-1] {
		caller := x.p.Procs[q]
		for _, c := range caller.Edges {
			call, ok := c.Op.(*ir.Call)
			if !ok || call.Proc != proc.Index {
				continue
			}
			alts = append(alts, x.seq(
				x.guard(x.pcIs(s, d-1, x.val(q, c.From), false)),
				x.pop(s, d, call, rets),
				x.setPC(s, d, none),
				x.arrive(s, d-1, caller, c.To, nil)))
		}
	}
	r := x.union(alts)
	if rets == nil {
		x.exits[key] = r
	}
	return r
}

// start is the creation of a thread by start_thread op in the frame of
// depth d of s (running proc): the first slot not yet created gets the new
// thread. Its relation changes the dynamic slots only (s's pc is set by
// the caller). Without a free slot the step has no successor (see
// search.capped).
func (x *prod) start(s *slot, d int, proc *ir.Proc, op *ir.StartThread) (rel, error) {
	m := x.m
	out := x.ident()
	var dyn []*slot
	for _, k := range x.slots {
		if k.dynamic {
			dyn = append(dyn, k)
			for _, vs := range k.pc {
				for _, v := range vs {
					out.ch[v.id] = true
				}
			}
			for _, vs := range k.locals {
				for _, v := range vs {
					out.ch[v.id] = true
				}
			}
		}
	}
	out.r = bdd.False
	cur := x.readCur(s, d)
	for i, k := range dyn {
		part := x.pcIs(k, 0, x.unborn(), false)
		if i > 0 {
			part = m.And(part, m.Not(x.pcIs(dyn[i-1], 0, x.unborn(), false)))
		}
		newTop := 0
		if op.Goto < 0 {
			callee := x.p.Procs[op.Proc]
			v := x.done()
			if callee.Entry != callee.Exit {
				v = x.val(op.Proc, callee.Entry)
				for j, a := range op.Args {
					part = m.And(part, x.choose(k.locals[0][j], a, cur))
				}
			}
			part = m.And(part, x.pcIs(k, 0, v, true))
		} else {
			if d >= len(k.pc) {
				return rel{}, fmt.Errorf("%s: start_thread goto at depth %d, beyond the new thread's frames", proc.Name, d)
			}
			newTop = d
			part = m.And(part, x.pcIs(k, d, x.val(proc.Index, op.Goto), true))
			for dd := 0; dd <= d; dd++ {
				if dd < d {
					for b := range k.pc[dd] {
						part = m.And(part, m.Equiv(m.Ithvar(k.pc[dd][b].next), m.Ithvar(s.pc[dd][b].cur)))
					}
				}
				for j := 0; j < min(len(k.locals[dd]), len(s.locals[dd])); j++ {
					part = m.And(part, m.Equiv(m.Ithvar(k.locals[dd][j].next), m.Ithvar(s.locals[dd][j].cur)))
				}
			}
		}
		for dd := newTop + 1; dd < len(k.pc); dd++ {
			part = m.And(part, x.pcIs(k, dd, none, true))
		}
		for _, o := range dyn {
			if o == k {
				continue
			}
			for _, vs := range o.pc {
				part = m.And(part, x.same(vs))
			}
			for _, vs := range o.locals {
				part = m.And(part, x.same(vs))
			}
		}
		out.r = m.Or(out.r, part)
	}
	return out, nil
}

// newProd builds the slots of the program's threads and lays out their
// variables. It reports a *recursionError for a recursive thread.
func newProd(p *ir.Program, model *conc.Model, m *bdd.Manager, maxThreads int, order Order) (*prod, error) {
	x := &prod{p: p, m: m, ev: symbolic.Evaluator(m), model: model,
		sets: make(map[string]*bdd.VarSet), pairs: make(map[string]*bdd.Pairs), exits: make(map[[4]int]rel)}
	mk := func(roots []int) (*slot, error) {
		at, err := depths(p, roots)
		if err != nil {
			return nil, err
		}
		return &slot{roots: roots, procsAt: at}, nil
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
		roots, err := dynamicRoots(p, model)
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
// run from its bottom frame: those start_thread names and, for
// `start_thread goto L`, every thread procedure from which the statement
// can be reached (the new thread copies its creator's frames).
func dynamicRoots(p *ir.Program, model *conc.Model) ([]int, error) {
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
		for _, r := range append(slices.Clone(model.Static), roots...) {
			at, err := depths(p, []int{r})
			if err != nil {
				return nil, err
			}
			for _, st := range model.Sites {
				if st.Op.Goto < 0 {
					continue
				}
				for _, procs := range at {
					if slices.Contains(procs, st.Proc) && add(r) {
						changed = true
					}
				}
			}
		}
	}
	return roots, nil
}
