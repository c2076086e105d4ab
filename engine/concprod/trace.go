package concprod

import (
	"errors"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/result"
)

// Traces. From one concrete state where the error shows, the trace goes
// back ring by ring: a predecessor of a state of ring i is in an earlier
// ring of the same layer by a cost-0 step or in a ring of the layer before
// by a cost-1 step (the nearest such ring first: with the breadth-first
// search of an unbounded query, ring i-1, for the fewest steps).
// The class of a state says which thread stepped last, so each backward
// step is one thread's preimage intersected with the ring; one concrete
// predecessor is picked, and the edge that relates the two is found among
// that thread's edges from the predecessor's location. Where the rings
// hold macro steps (macro.go), a backward step is a macro step: the
// thread's preimages are taken again through the states in between
// (backward) until one meets the ring, and the steps from there are
// picked forward, one concrete state each. Every state is concrete (all
// variables valued), so the steps state every value and interp.Replay
// checks them as they are.

// tstep is a step of the trace being built: the actor, the step's index in
// its steps (-1: the final arrival at a target label) and the state
// before it.
type tstep struct {
	actor, step   int
	before, after []bool
}

// values returns the value of every state variable's current copy in the
// concrete state (a cube over all current copies) c.
func (s *search) values(c bdd.Node) []bool {
	m := s.x.m
	out := make([]bool, len(s.x.vars))
	for i, v := range s.x.vars {
		out[i] = m.And(c, m.Ithvar(v.cur)) != bdd.False
	}
	return out
}

// pcOf returns the pc value of depth d of slot a in valuation vals.
func pcOf(a *slot, d int, vals []bool) int {
	v := 0
	for b, sv := range a.pc[d] {
		if vals[sv.id] {
			v |= 1 << b
		}
	}
	return v
}

// topOf returns the depth of a's top frame in valuation vals.
func topOf(a *slot, vals []bool) int {
	d := len(a.pc) - 1
	for d > 0 && pcOf(a, d, vals) == none {
		d--
	}
	return d
}

// trace builds the trace of f.
func (s *search) trace(f *found) (*result.Trace, error) {
	x, m := s.x, s.x.m
	all := x.allCur()
	cur := m.Keep(m.SatOneCube(f.set.Node(), all))
	defer cur.Release()
	var rev []tstep
	if f.actor >= 0 {
		v := s.values(cur.Node())
		rev = append(rev, tstep{actor: f.actor, step: -1, before: v, after: v})
	}
	ri, class := f.ring, f.class
	for !(ri == 0) {
		if err := s.poll(); err != nil {
			return nil, err
		}
		r := s.rings[ri]
		backs := make(map[int]*backward)
		ok := false
	search:
		for j := ri - 1; j >= 0 && s.rings[j].layer >= r.layer-1; j-- {
			want := r.layer - s.rings[j].layer
			for u, a := range s.actors {
				if a == nil {
					continue
				}
				if u == s.initClass() {
					if class != s.initClass() && class != s.free() {
						continue
					}
				} else if s.target(u) != class {
					continue
				}
				b, known := backs[u]
				if !known {
					b = &backward{s: s, u: u, b: []bdd.Node{cur.Node()}, seen: cur.Node()}
					backs[u] = b
				}
				for k := 1; b.has(k); k++ {
					pre := b.p[k-1]
					for t := 0; t < s.classes(); t++ {
						if !s.allowed(t, u) || s.cost(t, u) != want {
							continue
						}
						y := m.And(pre, s.rings[j].sets[t].Node())
						if s.switching(t, u) {
							y = m.And(y, s.noSwitch.Node())
						}
						if y == bdd.False {
							continue
						}
						yc := m.SatOneCube(y, all)
						steps, err := b.path(yc, k)
						if err != nil {
							return nil, err
						}
						rev = append(rev, steps...)
						cur.Set(yc)
						ri, class = j, t
						ok = true
						break search
					}
				}
			}
		}
		if !ok {
			return nil, errors.New("trace: no predecessor in the rings")
		}
		m.Safepoint()
	}
	if err := s.repair(rev); err != nil {
		return nil, err
	}
	// Forward, with the context switches marked.
	running := 0 // thread 0 runs first: main, or Getafix's init
	if x.init == nil && len(x.p.Threads) > 0 {
		running = -1 // Getafix's threads without init: a free choice
	}
	tr := &result.Trace{}
	for i := len(rev) - 1; i >= 0; i-- {
		ts := rev[i]
		a := s.actors[ts.actor]
		var st result.Step
		if ts.step < 0 {
			st = s.stepAt(a, ts.before, result.NoEdge)
		} else {
			st = s.stepAt(a, ts.before, s.steps[ts.actor][ts.step].edge)
		}
		st.Switch = running >= 0 && running != a.thread
		running = a.thread
		if a.init && ts.after != nil && pcOf(a, 0, ts.after) == x.done() {
			running = -1 // init has returned: the next thread is a free choice
		}
		tr.Steps = append(tr.Steps, st)
	}
	return tr, nil
}

// backward is the states from which actor u reaches a concrete state b[0]
// of the trace: p[k-1] those k steps before it, passing on the way only
// through states where a macro step goes on (search.inter), of which b[k]
// are those first k steps before it. Without macro steps only p[0] is
// asked for: the rings then hold every state of a run.
type backward struct {
	s    *search
	u    int
	p, b []bdd.Node
	seen bdd.Node
}

// has reports whether p[k-1] exists, computing it if need be.
func (w *backward) has(k int) bool {
	s, m := w.s, w.s.x.m
	for len(w.p) < k {
		last := w.b[len(w.b)-1]
		if last == bdd.False || (len(w.p) > 0 && !s.macroFor(w.u)) {
			return false
		}
		pre := s.preimage(w.u, last)
		w.p = append(w.p, pre)
		if s.macroFor(w.u) {
			nb := m.Ite(w.seen, bdd.False, m.And(pre, s.inter[w.u].Node()))
			w.seen = m.Or(w.seen, nb)
			w.b = append(w.b, nb)
		} else {
			w.b = append(w.b, bdd.False)
		}
	}
	return true
}

// path returns the k steps of actor u from the concrete state y (in
// p[k-1]) to b[0], last first, as the trace collects them.
func (w *backward) path(y bdd.Node, k int) ([]tstep, error) {
	s, m := w.s, w.s.x.m
	all := s.x.allCur()
	var fwd []tstep
	z := y
	for i := k - 1; i >= 0; i-- {
		next := w.b[0]
		if i > 0 {
			next = m.SatOneCube(m.And(s.image(w.u, z), w.b[i]), all)
		}
		e, err := s.edgeBetween(w.u, z, next)
		if err != nil {
			return nil, err
		}
		fwd = append(fwd, tstep{actor: w.u, step: e, before: s.values(z), after: s.values(next)})
		z = next
	}
	rev := make([]tstep, len(fwd))
	for i, st := range fwd {
		rev[len(fwd)-1-i] = st
	}
	return rev, nil
}

// edgeBetween returns the index of the step of actor u that leads from
// concrete state y to concrete state z.
func (s *search) edgeBetween(u int, y, z bdd.Node) (int, error) {
	x, m := s.x, s.x.m
	yv, zv := s.values(y), s.values(z)
	a := s.actors[u]
	d := topOf(a, yv)
	pc := pcOf(a, d, yv)
	for k, st := range s.steps[u] {
		if st.depth != d || st.from != pc {
			continue
		}
		same := true
		for i, c := range st.r.ch {
			if !c && yv[i] != zv[i] {
				same = false
				break
			}
		}
		if !same {
			continue
		}
		zn := m.Replace(z, x.rename(st.r.ch, false))
		if m.AndAll(y, zn, st.r.r) != bdd.False {
			return k, nil
		}
	}
	return 0, errors.New("trace: no edge between two consecutive states")
}

// stepAt describes actor a's top frame in valuation vals, about to take
// edge, as a trace step.
func (s *search) stepAt(a *slot, vals []bool, edge int) result.Step {
	x := s.x
	d := topOf(a, vals)
	f, loc := x.where(pcOf(a, d, vals))
	proc := x.p.Procs[f]
	get := func(v ir.VarRef) bool { return vals[x.varOf(a, d, v).id] }
	return result.NewStep(x.p, proc, loc, edge, result.ValuesOf(x.p, proc, get), d, a.thread)
}
