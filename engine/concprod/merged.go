package concprod

import (
	"fmt"

	"boolprog/bdd"
	"boolprog/result"
)

// The unbounded search without classes. Where every thread takes macro
// steps (macro.go), every state the search keeps has each thread at a
// stop: the running thread's macro step ended where a switch away from it
// may happen (leave), an error shows, or init has ended, and every other
// thread is where it was switched away from, which leave allowed then
// and, being a matter of its own location and of the switch flags the
// running thread left clear, still allows. So which thread ran last
// does not matter to what may follow: any thread may step next. Without
// a bound the classes of runChained (the running thread) then only keep
// the same state up to once per thread; on SafeStack
// old/..._twoforloop_ori_safe the three classes' sets had 1.4M nodes in
// all where their union had 0.6M. (A thread that takes single steps
// would leave the states inside its atomic stretches in the set, from
// which no other thread may step: then the classes stay.)
//
// runMerged keeps one set, the free class, and runs the threads one
// context at a time, each to its own fixed point from the states it has
// not yet stepped from, until none has any: the same fixed point as
// runChained without a limit, so SUCCESSFUL is a proof. All its steps
// cost nothing and every ring is of layer 0: the trace (trace.go) looks
// for a state's predecessor in every ring before it.
//
// Which thread runs next: the one with the largest number among those
// with states to step from, so that a thread runs again only once every
// thread after it has nothing left to do (the order of saturation, by
// thread: in the default variable order the last thread's variables lie
// next to the globals, at the bottom). Against the threads in turn (0,
// 1, ..., n-1, again), on Getafix's SafeStack programs (conc-product
// alone, no bound, one after the other): the proofs take 0.84x the time
// (..._inlined_..._safe_freelocal 144.7 s against 172.6 s) with half
// the peak nodes, and the searches that find an error half the cache
// lookups (old/..._goto 22.2M against 44.5M); their first traces are
// longer (302 steps against 261) (bench/RESULTS.md, "Issue 25, ninth
// session"). The threads in turn took 0.63x the time of runChained
// (old/..._twoforloop_ori_safe 42.6 s against 67.4 s, the sixth
// session).

// mergeUnbounded lets an unbounded search run without classes where it
// may (a variable for the tests, which compare it with runChained).
var mergeUnbounded = true

// mergeable reports whether the unbounded search may run without classes
// (runMerged): every thread takes macro steps.
func (s *search) mergeable() bool {
	if !mergeUnbounded || !s.stratified || !s.macro {
		return false
	}
	for u := 0; u < s.n; u++ {
		if s.actors[u] != nil && !s.macroFor(u) {
			return false
		}
	}
	return true
}

// merge makes s a search without classes (runMerged): every step costs
// nothing and leads to the free class.
func (s *search) merge() {
	s.stratified, s.rounds = false, false
	s.collapsed, s.merged = true, true
	s.unmergedStart = s.startAt
	if s.startAt < s.n {
		s.startAt = s.free()
	}
}

// runMerged is the unbounded search without classes; it returns the first
// error found, or nil.
func (s *search) runMerged() (*found, error) {
	m := s.x.m
	nc := s.classes()
	s.reach = emptySets(m, nc)
	// mark[u] is the free class's states when u's last context ended: those
	// u has stepped from, or found itself.
	mark := emptySets(m, s.n)
	defer releaseAll(mark)
	free := s.free()
	// add keeps the states of set new to class c as a ring, and returns
	// them (rooted by the ring) with the error they show, if any.
	add := func(c int, set bdd.Node) (bdd.Node, *found) {
		n := m.Ite(s.reach[c].Node(), bdd.False, set)
		if n == bdd.False {
			return n, nil
		}
		s.reach[c].Set(m.Or(s.reach[c].Node(), n))
		r := ring{sets: emptySets(m, nc)}
		r.sets[c].Set(n)
		s.rings = append(s.rings, r)
		return n, s.errorIn(len(s.rings) - 1)
	}
	step := func() error {
		if err := s.poll(); err != nil {
			return err
		}
		m.Safepoint()
		return nil
	}
	entered := m.Keep(s.start.Node())
	defer entered.Release()
	if s.startAt == s.initClass() {
		// Init to its end: the states where it has ended enter the
		// free class, where the threads take over.
		init := s.initClass()
		entered.Set(bdd.False)
		front, f := add(init, s.start.Node())
		for front != bdd.False {
			if f != nil {
				return f, nil
			}
			img := s.macroImage(init, front)
			done := s.initDone.Node()
			entered.Set(m.Or(entered.Node(), m.And(img, done)))
			front, f = add(init, m.And(img, m.Not(done)))
			if err := step(); err != nil {
				return nil, err
			}
		}
	}
	if _, f := add(free, entered.Node()); f != nil {
		return f, nil
	}
	for contexts := 0; ; contexts++ {
		u := -1
		for v := s.n - 1; v >= 0; v-- {
			// mark[v] is a subset of the set: equal, v has nothing to do.
			if s.actors[v] != nil && mark[v].Node() != s.reach[free].Node() {
				u = v
				break
			}
		}
		if u < 0 {
			return nil, nil
		}
		s.layer = contexts
		s.q.Report(result.PhaseReach, fmt.Sprintf("context %d (thread %d), %d rings, %d BDD nodes", contexts, u, len(s.rings), m.Stats().Nodes))
		// Its sources: the states found since its last context ended (by
		// the others: its own it stepped from then).
		front := m.Keep(m.Ite(mark[u].Node(), bdd.False, s.reach[free].Node()))
		for front.Node() != bdd.False {
			if g := s.capGuard[u]; g != nil && !s.capped && m.And(front.Node(), g.Node()) != bdd.False {
				s.capped = true
			}
			n, f := add(free, s.macroImage(u, front.Node()))
			if f != nil {
				front.Release()
				return f, nil
			}
			front.Set(n)
			if err := step(); err != nil {
				front.Release()
				return nil, err
			}
		}
		front.Release()
		mark[u].Set(s.reach[free].Node())
	}
}
