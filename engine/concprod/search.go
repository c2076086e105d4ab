package concprod

import (
	"context"
	"fmt"
	"math"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
)

// The search. Its states are those of the product (every thread's pc and
// locals, the globals) in classes: the thread that took the last step (a
// step by another thread is a context switch), "free" (no thread has run
// yet, or Getafix's init has just returned: the next thread is a free
// choice) and "init" (Getafix's init is running alone). As in the explicit
// oracle, a step costs 1 when it is a context switch (ContextSwitches
// bound) or when it goes back to a thread with a smaller number
// (Rounds bound: round-robin over the threads in number order, contexts
// possibly empty), else 0, and the search is a 0-1 breadth-first search in
// layers of increasing cost: in each layer the rings (frontiers) of the
// cost-0 steps, new states only (semi-naive), each state at its least cost;
// the cost-1 images of a layer seed the next (run; a bounded query takes
// its layers class by class instead: runChained). The first ring that holds an
// error ends the search: its layer is the smallest bound, its ring index
// the fewest steps within it. Without a bound no step costs anything, and
// when nothing forbids a context switch (no Getafix `atomic`, no atomic
// sections) the running thread does not matter: one class.

// actor indices: the threads 0..n-1, then init (n).
// class indices: the threads 0..n-1, init (n), free (n+1).

// group is a block of a thread's transition relation: the edges that
// change the same variables, so that one relational product (AndExists
// over the changed variables' current copies) and one renaming compute
// their image.
type group struct {
	r     *bdd.Root
	ch    []bool
	cur   *bdd.VarSet
	next  *bdd.VarSet
	toCur *bdd.Pairs
	toNxt *bdd.Pairs
}

// group returns r as a block, kept, with its variable sets and renamings.
func (x *prod) group(r rel) group {
	return group{r: x.m.Keep(r.r), ch: r.ch, cur: x.varSet(r.ch, false), next: x.varSet(r.ch, true),
		toCur: x.rename(r.ch, true), toNxt: x.rename(r.ch, false)}
}

// ring is one frontier: the states first reached by one breadth-first step,
// by class.
type ring struct {
	layer int
	first bool // the first ring of its layer (the initial states, or the seeds of the cost-1 steps)
	sets  []*bdd.Root
}

// found is an error found: a set of states of one class in one ring where
// it shows, and the actor at a target label (-1: at an assertion failure).
type found struct {
	ring, class, actor, cost int
	set                      *bdd.Root
}

type search struct {
	x         *prod
	ctx       context.Context
	q         engine.Query
	rounds    bool
	unbounded bool
	// stratified: an unbounded search stratified by rounds (runChained
	// without a limit).
	stratified bool
	collapsed  bool
	// merged: an unbounded search without classes (runMerged), which
	// began at class unmergedStart.
	merged        bool
	unmergedStart int
	limit         int

	n        int // threads
	actors   []*slot
	steps    [][]step
	groups   [][]group
	noSwitch *bdd.Root
	// leave, by thread, is where a switch away from the thread may happen:
	// noSwitch, and not at a transparent location (transparent.go).
	leave []*bdd.Root
	// allSwitchPoints: switch at every location (Options.AllSwitchPoints).
	allSwitchPoints bool
	transparentLocs int // (depth, location) pairs found transparent
	fail            *bdd.Root
	label           []*bdd.Root // by actor
	capGuard        []*bdd.Root // by actor; nil: creates no thread
	initDone        *bdd.Root

	start   *bdd.Root // the initial states
	startAt int       // their class
	reach   []*bdd.Root
	rings   []ring
	capped  bool
	// clusterNodes bounds the merged relations (0: no merging).
	clusterNodes int
	// wholeThread makes a thread's relation one block where that block
	// is no larger than the blocks of the merging by size (wholeBlock);
	// set when the user did not choose the blocks' size.
	wholeThread bool
	layer       int // the layer being searched
	relNode     int // nodes of the relations
	// macro makes runChained's images whole macro steps (macro.go).
	macro bool
	macroSteps
}

func (s *search) initClass() int { return s.n }
func (s *search) free() int      { return s.n + 1 }
func (s *search) classes() int   { return s.n + 2 }

// allowed reports whether actor u may step from a state of class t.
func (s *search) allowed(t, u int) bool {
	if t == s.initClass() || u == s.initClass() {
		return t == u
	}
	return true
}

// cost is the cost of a step by actor u from class t.
func (s *search) cost(t, u int) int {
	if (s.unbounded && !s.stratified) || t >= s.n {
		return 0
	}
	if s.rounds {
		if u < t {
			return 1
		}
		return 0
	}
	if u != t {
		return 1
	}
	return 0
}

// switching reports whether a step by u from class t is a context switch
// that `atomic` or an atomic section may forbid.
func (s *search) switching(t, u int) bool { return t < s.n && u != t }

// target is the class of the states a step by actor u leads to (for
// init, the states where it has not ended).
func (s *search) target(u int) int {
	if u == s.initClass() {
		return u
	}
	if s.collapsed {
		return s.free()
	}
	return u
}

// image returns the states reached from src by one step of actor u.
func (s *search) image(u int, src bdd.Node) bdd.Node { return s.imageBy(s.groups[u], src) }

// imageBy returns the states reached from src by a step of one of gs.
func (s *search) imageBy(gs []group, src bdd.Node) bdd.Node {
	m := s.x.m
	acc := bdd.False
	for _, g := range gs {
		acc = m.Or(acc, m.AndExistsReplace(src, g.r.Node(), g.cur, g.toCur))
	}
	return acc
}

// preimage returns the states from which one step of actor u reaches a
// state of dst.
func (s *search) preimage(u int, dst bdd.Node) bdd.Node {
	m := s.x.m
	acc := bdd.False
	for _, g := range s.groups[u] {
		y := m.AndExists(m.Replace(dst, g.toNxt), g.r.Node(), g.next)
		acc = m.Or(acc, y)
	}
	return acc
}

// wholeBlock returns a thread's relation (the union of the blocks of the
// merging by size, clusters) as one block, if its BDD has no more nodes
// than those blocks counted apart.
//
// Why: each relational product walks the source set down to the
// thread's variables, so one product instead of several pays wherever
// the one block is not larger. On Getafix's SafeStack programs a thread's
// 43 groups unite into a block of about 6,300 nodes against 7,800 for its
// five blocks under 2,000 (the pc's high bits on top let edges of every
// group share their tests), and the search takes 0.7-0.8x the time; on
// the large random Getafix-style programs of TestGetafixComparison a
// thread's relation in one block has 1.8-4x the nodes of its blocks
// (63,000 against 21,000), so they keep the blocks. The union is built
// block by block and given up as soon as it outgrows them, so that the
// test costs little where it fails.
func (s *search) wholeBlock(clusters []rel) (rel, bool) {
	limit := 0
	for _, c := range clusters {
		limit += s.x.m.NodeCount(c.r)
	}
	return s.x.unionUnder(clusters, limit)
}

// prepare builds the relations, groups them, and the sets the search
// tests.
func (s *search) prepare() error {
	x, m := s.x, s.x.m
	s.n = len(x.slots)
	s.actors = append(append([]*slot(nil), x.slots...), x.init)
	s.steps = make([][]step, len(s.actors))
	s.groups = make([][]group, len(s.actors))
	s.label = make([]*bdd.Root, len(s.actors))
	s.capGuard = make([]*bdd.Root, len(s.actors))
	fail := bdd.False
	for u, a := range s.actors {
		if a == nil {
			continue
		}
		steps, err := x.steps(a)
		if err != nil {
			return err
		}
		s.steps[u] = steps
		// Edges that change the same variables share a group; groups are
		// then merged, with explicit frames, while the merged relation
		// stays under clusterNodes: each relational product traverses the
		// source set down to the thread's variables, so fewer, larger
		// products pay on large programs.
		byKey := make(map[string]int)
		var rels []rel
		for i := range steps {
			st := &steps[i]
			st.r.r = m.Keep(st.r.r).Node() // kept: traces need each edge's relation
			k := chKey(st.r.ch)
			gi, ok := byKey[k]
			if !ok {
				gi = len(rels)
				byKey[k] = gi
				rels = append(rels, rel{r: bdd.False, ch: st.r.ch})
			}
			rels[gi].r = m.Or(rels[gi].r, st.r.r)
			if err := s.poll(); err != nil {
				return err
			}
		}
		var clusters []rel
		for _, r := range rels {
			if n := len(clusters); n > 0 && s.clusterNodes > 0 {
				merged := x.union([]rel{clusters[n-1], r})
				if m.NodeCount(merged.r) <= s.clusterNodes {
					clusters[n-1] = merged
					continue
				}
			}
			clusters = append(clusters, r)
			if err := s.poll(); err != nil {
				return err
			}
		}
		if s.wholeThread && len(clusters) > 1 {
			if whole, ok := s.wholeBlock(clusters); ok {
				clusters = []rel{whole}
			}
		}
		for _, c := range clusters {
			s.groups[u] = append(s.groups[u], x.group(c))
			s.relNode += m.NodeCount(c.r)
		}
		lab := bdd.False
		creates := bdd.False
		for d, procs := range a.procsAt {
			for _, f := range procs {
				for _, l := range x.p.Procs[f].Locations {
					if !l.Error {
						continue
					}
					if l.Kind == ir.FailLoc {
						fail = m.Or(fail, x.at(a, d, f, l.ID))
					} else {
						lab = m.Or(lab, x.at(a, d, f, l.ID))
					}
				}
			}
		}
		for _, st := range steps {
			if _, ok := x.p.Procs[st.proc].Edges[st.edge].Op.(*ir.StartThread); ok {
				creates = m.Or(creates, x.at(a, st.depth, st.proc, x.p.Procs[st.proc].Edges[st.edge].From))
			}
		}
		s.label[u] = m.Keep(lab)
		if creates != bdd.False {
			var last *slot
			for _, k := range x.slots {
				if k.dynamic {
					last = k
				}
			}
			if last != nil {
				creates = m.And(creates, m.Not(x.pcIs(last, 0, x.unborn(), false)))
			}
			s.capGuard[u] = m.Keep(creates)
		}
	}
	s.fail = m.Keep(fail)
	ns := bdd.True
	if g := x.model.AtomicGlobal; g >= 0 {
		ns = m.And(ns, m.NIthvar(x.globals[g].cur))
	}
	if x.atomic != nil {
		ns = m.And(ns, m.NIthvar(x.atomic.cur))
	}
	s.noSwitch = m.Keep(ns)
	s.leave = make([]*bdd.Root, s.n)
	for u := range s.leave {
		l := ns
		if !s.allSwitchPoints && s.actors[u] != nil {
			t, k := s.transparent(u)
			l = m.And(ns, m.Not(t))
			s.transparentLocs += k
		}
		s.leave[u] = m.Keep(l)
		if err := s.poll(); err != nil {
			return err
		}
	}
	if s.macro {
		s.prepareMacro()
	}
	// The initial states.
	start := bdd.True
	initial := func(a *slot) {
		v := x.unborn()
		if !a.dynamic {
			proc := x.p.Procs[a.roots[0]]
			v = x.done()
			if proc.Entry != proc.Exit {
				v = x.val(proc.Index, proc.Entry)
			}
		}
		start = m.And(start, x.pcIs(a, 0, v, false))
		for d := 1; d < len(a.pc); d++ {
			start = m.And(start, x.pcIs(a, d, none, false))
		}
	}
	for _, a := range x.slots {
		initial(a)
	}
	if x.atomic != nil {
		start = m.And(start, m.NIthvar(x.atomic.cur))
	}
	switch {
	case x.init != nil:
		initial(x.init)
		s.initDone = m.Keep(x.pcIs(x.init, 0, x.done(), false))
		s.startAt = s.initClass()
	case len(x.p.Threads) > 0:
		s.startAt = s.free()
	default:
		s.startAt = 0
	}
	if s.collapsed && s.startAt < s.n {
		s.startAt = s.free()
	}
	s.start = m.Keep(start) // kept: a second search (byDistance) starts from it too
	return m.Err()
}

// poll reports the end of the context or the node limit.
func (s *search) poll() error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	return s.x.m.Err()
}

// run searches and returns the first error found, or nil.
func (s *search) run() (*found, error) {
	m := s.x.m
	nc := s.classes()
	s.reach = emptySets(m, nc)
	front := emptySets(m, nc)
	front[s.startAt].Set(s.start.Node())
	s.reach[s.startAt].Set(s.start.Node())
	seeds := emptySets(m, nc)
	defer releaseAll(front, seeds)
	var pending *found
	first := true
	for layer := 0; ; s.layer = layer {
		s.q.Report(result.PhaseReach, fmt.Sprintf("layer %d, %d rings, %d BDD nodes", layer, len(s.rings), m.Stats().Nodes))
		for {
			r := ring{layer: layer, first: first, sets: make([]*bdd.Root, nc)}
			for c := range r.sets {
				r.sets[c] = m.Keep(front[c].Node())
			}
			s.rings = append(s.rings, r)
			first = false
			if f := s.errorIn(len(s.rings) - 1); f != nil {
				if f.cost == layer {
					return f, nil
				}
				if pending == nil && f.cost <= s.limit {
					pending = f
				}
			}
			next := make([]bdd.Node, nc)
			for c := range next {
				next[c] = bdd.False
			}
			for u, a := range s.actors {
				if a == nil {
					continue
				}
				src := [2]bdd.Node{bdd.False, bdd.False}
				for t := 0; t < nc; t++ {
					f := front[t].Node()
					if f == bdd.False || !s.allowed(t, u) {
						continue
					}
					if s.switching(t, u) {
						f = m.And(f, s.leave[t].Node())
					}
					k := s.cost(t, u)
					src[k] = m.Or(src[k], f)
				}
				if g := s.capGuard[u]; g != nil && !s.capped {
					if m.And(m.Or(src[0], src[1]), g.Node()) != bdd.False {
						s.capped = true
					}
				}
				if src[0] != bdd.False {
					img := s.image(u, src[0])
					if u == s.initClass() {
						done := s.initDone.Node()
						next[s.free()] = m.Or(next[s.free()], m.And(img, done))
						img = m.And(img, m.Not(done))
					}
					t := s.target(u)
					next[t] = m.Or(next[t], img)
				}
				if src[1] != bdd.False && layer < s.limit {
					t := s.target(u)
					seeds[t].Set(m.Or(seeds[t].Node(), s.image(u, src[1])))
				}
			}
			any := false
			for c := range next {
				n := m.Ite(s.reach[c].Node(), bdd.False, next[c]) // next ∧ ¬reach, without building ¬reach
				front[c].Set(n)
				if n != bdd.False {
					any = true
					s.reach[c].Set(m.Or(s.reach[c].Node(), n))
				}
			}
			if err := s.poll(); err != nil {
				return nil, err
			}
			m.Safepoint()
			if !any {
				break
			}
		}
		if pending != nil {
			return pending, nil
		}
		layer++
		if layer > s.limit {
			return nil, nil
		}
		any := false
		for c := range seeds {
			n := m.Ite(s.reach[c].Node(), bdd.False, seeds[c].Node())
			front[c].Set(n)
			seeds[c].Set(bdd.False)
			if n != bdd.False {
				any = true
				s.reach[c].Set(m.Or(s.reach[c].Node(), n))
			}
		}
		if err := s.poll(); err != nil {
			return nil, err
		}
		m.Safepoint()
		if !any {
			return nil, nil
		}
		first = true
	}
}

// runChained is run for a bounded query, stratified as Getafix's
// crossproduct formula: in each layer, the classes one after the other
// (init, free, then the threads in number order), each to its fixed point
// under its own thread's relation alone (breadth-first rings), starting
// from the cost-0 images of the classes before it in the layer and the
// cost-1 images of the layer before. Every cost-0 step into a class comes
// from a class before it in that order (for rounds, a thread with a
// smaller or equal number; for context switches, the same thread), so one
// pass per layer finds every state of the layer, and each thread's
// relation is applied to whole contexts rather than to the interleaved
// frontiers of all threads.
func (s *search) runChained() (*found, error) {
	m := s.x.m
	nc := s.classes()
	s.reach = emptySets(m, nc)
	layerSet := emptySets(m, nc) // the states of each class new in the layer
	seeds := emptySets(m, nc)
	defer releaseAll(layerSet, seeds)
	seeds[s.startAt].Set(s.start.Node())
	order := []int{s.initClass(), s.free()}
	for u := 0; u < s.n; u++ {
		order = append(order, u)
	}
	actor := func(c int) int {
		if c == s.free() {
			return -1 // entered by init's end only
		}
		return c
	}
	var pending *found
	for layer := 0; ; layer++ {
		s.layer = layer
		s.q.Report(result.PhaseReach, fmt.Sprintf("layer %d, %d rings, %d BDD nodes", layer, len(s.rings), m.Stats().Nodes))
		for _, c := range order {
			u := actor(c)
			in := seeds[c].Node() // rooted by seeds[c] until front holds it
			if u >= 0 && u != s.initClass() {
				src := bdd.False
				for _, t := range order {
					if t == c {
						break
					}
					if !s.allowed(t, u) || s.cost(t, u) != 0 {
						continue
					}
					f := layerSet[t].Node()
					if s.switching(t, u) {
						f = m.And(f, s.leave[t].Node())
					}
					src = m.Or(src, f)
				}
				if g := s.capGuard[u]; g != nil && !s.capped && m.And(src, g.Node()) != bdd.False {
					s.capped = true
				}
				if src != bdd.False {
					in = m.Or(in, s.macroImage(u, src))
				}
			}
			front := m.Keep(m.Ite(s.reach[c].Node(), bdd.False, in))
			seeds[c].Set(bdd.False)
			// The class's new states, taken once its fixed point is
			// reached: one difference instead of a union per ring.
			before := m.Keep(s.reach[c].Node())
			for front.Node() != bdd.False {
				s.reach[c].Set(m.Or(s.reach[c].Node(), front.Node()))
				r := ring{layer: layer, sets: emptySets(m, nc)}
				r.sets[c].Set(front.Node())
				s.rings = append(s.rings, r)
				if f := s.errorIn(len(s.rings) - 1); f != nil {
					if f.cost == layer {
						before.Release()
						front.Release()
						return f, nil
					}
					// Shown only by a switch: the answer at the next
					// layer, unless this one finds an error.
					if pending == nil && f.cost <= s.limit {
						pending = f
					}
				}
				if u < 0 {
					break // the free class does not step by itself: its states are the threads' sources
				}
				if g := s.capGuard[u]; g != nil && !s.capped && m.And(front.Node(), g.Node()) != bdd.False {
					s.capped = true
				}
				img := s.macroImage(u, front.Node())
				if u == s.initClass() {
					done := s.initDone.Node()
					seeds[s.free()].Set(m.Or(seeds[s.free()].Node(), m.And(img, done)))
					img = m.And(img, m.Not(done))
				}
				front.Set(m.Ite(s.reach[c].Node(), bdd.False, img))
				if err := s.poll(); err != nil {
					before.Release()
					front.Release()
					return nil, err
				}
				m.Safepoint()
			}
			front.Release()
			layerSet[c].Set(m.Ite(before.Node(), bdd.False, s.reach[c].Node()))
			before.Release()
		}
		if pending != nil {
			return pending, nil
		}
		any := false
		for u := 0; u < s.n; u++ {
			src := bdd.False
			for _, t := range order {
				if !s.allowed(t, u) || s.cost(t, u) != 1 {
					continue
				}
				f := layerSet[t].Node()
				if s.switching(t, u) {
					f = m.And(f, s.leave[t].Node())
				}
				src = m.Or(src, f)
			}
			if g := s.capGuard[u]; g != nil && !s.capped && m.And(src, g.Node()) != bdd.False {
				s.capped = true // as the explicit oracle's: a creation past the limit counts even beyond the bound
			}
			if src == bdd.False || layer >= s.limit {
				continue
			}
			img := m.Ite(s.reach[u].Node(), bdd.False, s.macroImage(u, src))
			seeds[u].Set(img)
			if img != bdd.False {
				any = true
			}
		}
		for c := range layerSet {
			layerSet[c].Set(bdd.False)
		}
		if err := s.poll(); err != nil {
			return nil, err
		}
		m.Safepoint()
		if !any || layer >= s.limit {
			return nil, nil
		}
	}
}

// errorIn returns the cheapest error that ring i shows, or nil: a thread
// at an assertion failure (reached by the last step, at the ring's cost),
// or a thread at a target label that may take the next step (a final step
// of that thread, at its cost).
//
// On a stopped manager (interrupted, out of nodes) every operation gives
// bdd.Invalid, which is not bdd.False: what errorIn then finds is not an
// error, and Check, which sees the manager's error, does not take it as
// one.
func (s *search) errorIn(i int) *found {
	m := s.x.m
	r := s.rings[i]
	for c, set := range r.sets {
		if z := m.And(set.Node(), s.fail.Node()); z != bdd.False {
			return &found{ring: i, class: c, actor: -1, cost: r.layer, set: m.Keep(z)}
		}
	}
	var best *found
	for c, set := range r.sets {
		if set.Node() == bdd.False {
			continue
		}
		for u, a := range s.actors {
			if a == nil || !s.allowed(c, u) {
				continue
			}
			z := m.And(set.Node(), s.label[u].Node())
			if s.switching(c, u) {
				z = m.And(z, s.noSwitch.Node())
			}
			if z == bdd.False {
				continue
			}
			cost := r.layer + s.cost(c, u)
			if best == nil || cost < best.cost {
				best = &found{ring: i, class: c, actor: u, cost: cost, set: m.Keep(z)}
			}
		}
	}
	return best
}

// byDistance returns a search by distance (run) on s's relations, whose
// sets are new, for the errors within cost limit (an unbounded query's
// stratified search: within any).
func (s *search) byDistance(limit int) *search {
	d := *s
	d.reach, d.rings, d.capped, d.layer = nil, nil, false, 0
	d.macro = false // run takes one step at a time
	if s.stratified || s.merged {
		d.stratified, d.rounds, d.merged = false, false, false
		d.collapsed = s.x.model.AtomicGlobal < 0 && !s.x.model.AtomicSections
		if s.merged {
			d.startAt = s.unmergedStart
		}
		if d.collapsed && d.startAt < d.n {
			d.startAt = d.free()
		}
	} else {
		d.limit = limit
	}
	return &d
}

// release releases the search's sets (not the relations).
func (s *search) release() {
	for _, r := range s.reach {
		r.Release()
	}
	for _, r := range s.rings {
		for _, set := range r.sets {
			set.Release()
		}
	}
	s.reach, s.rings = nil, nil
}

// emptySets returns n new roots of the empty set.
func emptySets(m *bdd.Manager, n int) []*bdd.Root {
	sets := make([]*bdd.Root, n)
	for i := range sets {
		sets[i] = m.Keep(bdd.False)
	}
	return sets
}

// releaseAll releases the roots of the sets.
func releaseAll(sets ...[]*bdd.Root) {
	for _, rs := range sets {
		for _, r := range rs {
			r.Release()
		}
	}
}

// unlimited is the limit of an unbounded search.
const unlimited = math.MaxInt
