package concprod

import (
	"time"

	"boolprog/bdd"
)

// Macro steps. Where the running thread cannot be switched away from (in
// an atomic stretch, where Getafix's `atomic` or an atomic section
// forbids a switch, or at a transparent location, transparent.go) and no
// error shows, no other thread can step: the states there matter only for
// the steps the running thread takes next. The bounded search (runChained)
// therefore takes a thread's steps from a state to the states where it
// first stops again (a switch away may happen, an error shows, init has
// ended) as one macro step, and keeps only those: the running thread's
// part of its sets is then at its stops, and a context takes as many
// rings as macro steps, not steps.
//
// The states a search keeps are the same as one step at a time, less
// those in between (every state of a stop is reached at the same cost by
// the same runs), so the answers and the least bounds are the same;
// traces go through the states in between (trace.go: backward), each
// step checked against its edge as always. Options.MicroSteps turns it
// off.
//
// A macro step is taken one of two ways, with the same result. At first
// by the thread's relation, step after step, through the states in between
// (the closure in macroImage). Once a thread's macro steps have cost the
// search macroRelAfter, their relation is built (macroRel: the thread's
// relation composed with itself through the states in between until
// every path stops), within as much time again as they have cost; a build
// that runs out of time goes on from where it stopped the next time, when
// they have cost twice as much (SafeStack ..._unrolled_underapprox, whose
// threads' relations take 1.2-2.1 s to build: 43 s instead of 49 s, where
// each try started again). Then one relational product takes a macro
// step. On Getafix's SafeStack programs (atomic stretches of 5-10 steps,
// the locals' steps between them transparent) that relation has 1.8-10x
// the nodes of the thread's own, and the search at 3 rounds takes 0.27x
// the time (old/..._goto); on
// small random programs with loops inside atomic stretches building it
// takes longer than their whole search, hence the wait.

// macroRelAfter is how long a thread's macro steps run step by step before
// their relation is built, and macroRelBudget the least time a build may
// take; macroMinShare is the share of a thread's locations that must be
// inside its macro steps wherever the thread is there (transparent ones)
// for the thread to take macro steps at all (variables for the tests,
// which take macro steps everywhere and build the relations at once).
//
// Why the share: the closure does not weed out, as the search's rings do,
// the states in between that earlier macro steps passed through, and a
// relation composed of many paths is larger than the thread's own; both
// pay only where a thread spends many steps between its stops. A thread of
// Getafix's SafeStack programs has 33-43% of its locations transparent
// (and its atomic stretches besides), a thread of the large random
// programs of TestGetafixComparison 4-5% (and one or two atomic
// stretches), where macro steps took 2-3x the time of single steps.
var (
	macroRelAfter  = 10 * time.Millisecond
	macroRelBudget time.Duration
	macroMinShare  = 0.15
)

// macroSteps is a search's state for its macro steps, by actor.
type macroSteps struct {
	// inter is where a macro step of the actor goes on: no switch away is
	// possible there and no error shows (nil: the actor takes single
	// steps, macroMinShare).
	inter []*bdd.Root
	// whole is the relation of the actor's macro steps once built
	// (macroRel); nil: macroImage takes the steps one by one.
	whole [][]group
	// spent is the time the actor's macro steps have taken step by step;
	// next is when to build their relation (negative: never: it grew too
	// large).
	spent, next []time.Duration
	// partial is the build of the actor's relation so far, when a try
	// ran out of time (macroRel).
	partial     []*macroBuild
	macroNodes  int // nodes of the macro relations built
	macroBuilt  int // macro relations built
	macroTries  int // tries to build them
	macroActors int // actors that take macro steps
}

// prepareMacro computes where each actor's macro steps go on.
func (s *search) prepareMacro() {
	x, m := s.x, s.x.m
	s.inter = make([]*bdd.Root, len(s.actors))
	s.whole = make([][]group, len(s.actors))
	s.spent = make([]time.Duration, len(s.actors))
	s.next = make([]time.Duration, len(s.actors))
	s.partial = make([]*macroBuild, len(s.actors))
	for u, a := range s.actors {
		s.next[u] = macroRelAfter
		if a == nil {
			continue
		}
		stop := m.Or(s.fail.Node(), s.label[u].Node())
		if u < s.n {
			stop = m.Or(stop, s.leave[u].Node())
		} else {
			stop = m.Or(stop, x.pcIs(x.init, 0, x.done(), false))
		}
		if inside, all := s.insideShare(u, stop); float64(inside) < macroMinShare*float64(all) {
			continue // single steps: inter[u] stays nil
		}
		s.inter[u] = m.Keep(m.Not(stop))
		s.macroActors++
	}
}

// macroFor reports whether actor u takes macro steps.
func (s *search) macroFor(u int) bool { return s.macro && s.inter[u] != nil }

// insideShare returns how many of actor u's (depth, location) pairs are
// inside its macro steps in every state (no state there is in stop), and
// how many there are.
func (s *search) insideShare(u int, stop bdd.Node) (inside, all int) {
	x, m := s.x, s.x.m
	a := s.actors[u]
	for d, procs := range a.procsAt {
		for _, f := range procs {
			for _, l := range x.p.Procs[f].Locations {
				all++
				if m.And(x.at(a, d, f, l.ID), stop) == bdd.False {
					inside++
				}
			}
		}
	}
	return inside, all
}

// macroImage returns the states at which actor u's steps from src first
// stop (the states of src's image not in inter, and those reached through
// states in inter), or src's image by one step without macro steps. It
// sets s.capped where a state it passes through creates a thread past the
// limit, as the search does for the states it keeps. On a stopped manager
// it returns bdd.Invalid, on a stopped context the states found so far:
// the caller's poll says why.
func (s *search) macroImage(u int, src bdd.Node) bdd.Node {
	m := s.x.m
	if !s.macroFor(u) {
		return s.image(u, src)
	}
	if g := s.whole[u]; g != nil {
		return s.imageBy(g, src)
	}
	start := time.Now()
	img := s.image(u, src)
	inter := s.inter[u].Node()
	out := m.Ite(inter, bdd.False, img)
	front := m.And(img, inter)
	seen := front
	for front != bdd.False {
		if g := s.capGuard[u]; g != nil && !s.capped && m.And(front, g.Node()) != bdd.False {
			s.capped = true
		}
		img = s.image(u, front)
		out = m.Or(out, m.Ite(inter, bdd.False, img))
		front = m.Ite(seen, bdd.False, m.And(img, inter))
		seen = m.Or(seen, front)
		if m.Err() != nil {
			return bdd.Invalid
		}
		if s.ctx.Err() != nil {
			// Stopped: the states found so far, all reachable. The
			// caller's poll ends the search before it concludes
			// anything from them; an error among them is a real one.
			return out
		}
	}
	s.spent[u] += time.Since(start)
	if s.next[u] >= 0 && s.spent[u] >= s.next[u] {
		s.buildMacro(u)
	}
	return out
}

// buildMacro tries to build actor u's macro relation within the time its
// macro steps have taken so far; if time runs out, it tries again when
// they have taken twice as long.
func (s *search) buildMacro(u int) {
	x, m := s.x, s.x.m
	s.macroTries++
	r, ok, late := s.macroRel(u, time.Now().Add(max(s.spent[u], macroRelBudget)))
	switch {
	case ok:
		s.whole[u] = []group{x.group(r)}
		s.macroNodes += m.NodeCount(r.r)
		s.macroBuilt++
		s.next[u] = -1
	case late:
		s.next[u] = 2 * s.spent[u]
	default:
		s.next[u] = -1
	}
}

// macroRel returns the relation of actor u's macro steps: its relation
// composed through the states of inter until every path stops. It gives up
// (false) past the deadline (late: the build so far is kept in s.partial,
// and the next call goes on from it), where the relation or its frontier
// grows past a multiple of the thread's own relation or the build holds
// too many nodes, on a stopped manager, or where a thread creation lies in
// between (the search must see those states: capGuard). A build given up
// inside an operation leaves the manager as it was, its error cleared,
// unless the run itself was stopped.
func (s *search) macroRel(u int, deadline time.Time) (out rel, ok, late bool) {
	x, m := s.x, s.x.m
	if g := s.capGuard[u]; g != nil && m.And(g.Node(), s.inter[u].Node()) != bdd.False {
		return rel{}, false, false
	}
	var parts []rel
	size := 0
	for _, g := range s.groups[u] {
		parts = append(parts, rel{r: g.r.Node(), ch: g.ch})
		size += m.NodeCount(g.r.Node())
	}
	// The SafeStack threads' macro relations have up to 10x the nodes of
	// their own, their frontiers 18x; past these the products would not
	// pay. One composition can build far more nodes than it keeps (36M
	// nodes on a random program whose relations have 3,500), so the
	// manager's interrupt stops the build past 8 times the limit, or past
	// the deadline, inside an operation.
	limit := 16*size + 50000
	base := m.Stats().Nodes
	var timeUp, full bool
	m.SetInterrupt(func() bool {
		switch {
		case s.ctx.Err() != nil:
		case time.Now().After(deadline):
			timeUp = true
		case m.Stats().Nodes > base+8*limit:
			full = true
		default:
			return false
		}
		return true
	})
	defer m.SetInterrupt(func() bool { return s.ctx.Err() != nil })
	defer func() {
		if !ok && m.Err() != nil && s.ctx.Err() == nil {
			m.ClearErr() // the build's stop, or its node limit: not the run's
		}
	}()
	t := x.union(parts)
	interNext := m.Replace(s.inter[u].Node(), x.rename(t.ch, false))
	// The build so far: the paths that stopped (done), the paths going
	// on (n) and the states in between already passed (seen); resumed
	// from where the last try ran out of time, so that no try's work is
	// lost.
	done, n, seen := bdd.False, t.r, bdd.False
	if b := s.partial[u]; b != nil {
		done, n, seen = b.done.Node(), b.n.Node(), b.seen.Node()
	}
	// Its roots keep the last try's build until this one ends.
	defer s.dropPartial(u, s.partial[u])
	for n != bdd.False {
		done1 := m.Or(done, m.Ite(interNext, bdd.False, n))
		cont := m.Ite(seen, bdd.False, m.And(n, interNext))
		seen1 := m.Or(seen, cont)
		if cont == bdd.False {
			done, n = done1, bdd.False
			break
		}
		n1 := x.compose(rel{r: cont, ch: t.ch}, t).r
		switch {
		case full:
			return rel{}, false, false
		case timeUp || time.Now().After(deadline):
			if s.ctx.Err() == nil {
				if m.Err() == nil {
					done, n, seen = done1, n1, seen1 // this step ended in time
				}
				m.ClearErr()
				s.partial[u] = &macroBuild{m.Keep(done), m.Keep(n), m.Keep(seen)}
			}
			return rel{}, false, true
		case m.Err() != nil || s.ctx.Err() != nil:
			return rel{}, false, false
		case m.NodeCount(done1) > limit || m.NodeCount(n1) > 4*limit:
			return rel{}, false, false
		}
		done, n, seen = done1, n1, seen1
	}
	if m.Err() != nil {
		return rel{}, false, false
	}
	return rel{r: done, ch: t.ch}, true, false
}

// macroBuild is a macro relation's build so far (macroRel): the paths
// that stopped, the paths going on, and the states in between passed.
type macroBuild struct{ done, n, seen *bdd.Root }

// dropPartial releases old, an earlier build of actor u's relation; if it
// is still u's build so far, u has none any more.
func (s *search) dropPartial(u int, old *macroBuild) {
	if old == nil {
		return
	}
	old.done.Release()
	old.n.Release()
	old.seen.Release()
	if s.partial[u] == old {
		s.partial[u] = nil
	}
}
