package concprod

import (
	"errors"

	"boolprog/analysis"
	"boolprog/bdd"
	"boolprog/ir"
)

// Dead locals. A local of a frame that is dead where the frame is (no
// path from there reads it before writing it: package analysis's
// liveness) cannot change what the thread does, so states that differ
// only in it have the same futures. The relations therefore free such a
// local whenever a frame arrives at a location where it is dead (its next
// value is any value, as the locals of a popped frame are): the sets then
// do not depend on it, and the stale values that every thread would
// otherwise carry (a copy of the shared stack's head read three blocks
// ago, say) no longer multiply the product's states. On Getafix's
// SafeStack programs this halves the peak BDD (Options.KeepDeadLocals
// turns it off; bench/RESULTS.md has the figures).
//
// Answers and bounds are unchanged: the reduced states are the real ones
// with dead values forgotten, and a step's guard, the values it computes
// and where it goes read only live values. Traces are built in the
// reduced states and then given the real values (repair): forward from
// the initial state, each step's own relation, not the reduced one (built
// then, for the steps of the trace only), gives the values of the locals
// dead after it, from the real values before it; every other value is the
// reduced state's.
//
// The liveness is package analysis's ThreadLiveness, which the explicit
// engine's deadness shares: exact for a frame's locals, unless a
// `start_thread goto` copies a frame into a new thread; then no local is
// freed (newDeadLocals returns nil).
type deadLocals struct {
	live  *analysis.Live
	slots analysis.Slots
}

// newDeadLocals returns the liveness the reduction needs, or nil for a
// program with `start_thread goto`.
func newDeadLocals(p *ir.Program, an *analysis.Cache) *deadLocals {
	tl := analysis.Of(an, analysis.ThreadLiveness)
	if tl.CopiesFrames {
		return nil
	}
	return &deadLocals{live: tl.Live, slots: analysis.SlotsOf(p)}
}

// dead reports whether local j of a frame of proc at location loc cannot
// matter (j past proc's locals: an unused slot of a wider frame).
func (d *deadLocals) dead(proc *ir.Proc, loc, j int) bool {
	return j >= len(proc.Locals) || !d.live.Live[proc.Index][loc].Has(d.slots.Local(j))
}

// freeDead returns r followed by the freeing of the locals of the frame
// of depth d of s that are dead at location loc of proc, where r leaves
// the frame (r itself when the reduction is off, while the real relations
// are built for a trace's repair, or when nothing there is dead).
func (x *prod) freeDead(r rel, s *slot, d int, proc *ir.Proc, loc int) rel {
	if x.dead == nil || x.realRels {
		return r
	}
	k := x.ident()
	any := false
	for j, v := range s.locals[d] {
		if x.dead.dead(proc, loc, j) {
			k.ch[v.id] = true
			any = true
		}
	}
	if !any {
		return r
	}
	return x.compose(r, k)
}

// deadIn returns, by state variable, whether it is a local that cannot
// matter in the valuation vals: a local of a frame that is not active, or
// dead where its frame is.
func (s *search) deadIn(vals []bool) []bool {
	x := s.x
	out := make([]bool, len(x.vars))
	for _, a := range s.actors {
		if a == nil {
			continue
		}
		for d, vs := range a.locals {
			pc := pcOf(a, d, vals)
			located := pc != none && pc < x.done()
			var proc *ir.Proc
			loc := 0
			if located {
				f, l := x.where(pc)
				proc, loc = x.p.Procs[f], l
			}
			for j, v := range vs {
				out[v.id] = !located || x.dead.dead(proc, loc, j)
			}
		}
	}
	return out
}

// repair gives the steps of a trace built in the reduced states (rev, the
// last step first) the real values of the locals the reduction freed.
func (s *search) repair(rev []tstep) error {
	if s.x.dead == nil || len(rev) == 0 {
		return nil
	}
	x, m := s.x, s.x.m
	// The real relations, by actor and step: built here, used until the
	// end of the repair, which takes no Safepoint. So are the real exits
	// that arrive caches: they go with them.
	rels := make(map[[2]int]rel)
	defer func() {
		for k := range x.exits {
			if k[3] == 1 {
				delete(x.exits, k)
			}
		}
	}()
	real := rev[len(rev)-1].before // the initial state: its locals are any values
	for i := len(rev) - 1; i >= 0; i-- {
		ts := &rev[i]
		ts.before = real
		if ts.step < 0 {
			ts.after = real
			continue
		}
		key := [2]int{ts.actor, ts.step}
		full, ok := rels[key]
		if !ok {
			st := s.steps[ts.actor][ts.step]
			proc := x.p.Procs[st.proc]
			x.realRels = true
			r, err := x.edge(s.actors[ts.actor], st.depth, proc, proc.Edges[st.edge])
			x.realRels = false
			if err != nil {
				return err
			}
			full, rels[key] = r, r
		}
		dead := s.deadIn(ts.after)
		// The real state before, the reduced values after of what the step
		// changes and matters after it; the rest it changes is chosen.
		var vars []int
		var vals []bool
		var free []bool
		for j, v := range x.vars {
			vars, vals = append(vars, v.cur), append(vals, real[j])
			if !full.ch[j] {
				continue
			}
			if dead[j] {
				if free == nil {
					free = make([]bool, len(x.vars))
				}
				free[j] = true
				continue
			}
			vars, vals = append(vars, v.next), append(vals, ts.after[j])
		}
		cond := m.And(m.Assignment(vars, vals), full.r)
		if cond == bdd.False {
			return errors.New("trace: a step of the reduced states has no real counterpart")
		}
		next := append([]bool(nil), real...)
		for j := range x.vars {
			if full.ch[j] && !dead[j] {
				next[j] = ts.after[j]
			}
		}
		if free != nil {
			c := m.SatOneCube(cond, x.varSet(free, true))
			for j, v := range x.vars {
				if free[j] {
					next[j] = m.And(c, m.Ithvar(v.next)) != bdd.False
				}
			}
		}
		ts.after = next
		real = next
		if err := s.poll(); err != nil {
			return err
		}
	}
	return nil
}
