package concprod

import (
	"boolprog/bdd"
	"boolprog/internal/graph"
	"boolprog/ir"
)

// Switch points. A context switch away from a thread whose next step can
// only be a local one is never needed: that step reads and writes nothing
// another thread sees, so it commutes with every step of the others. The
// search therefore switches away from a thread only where its top frame is
// not at a transparent location (Options.AllSwitchPoints turns this off).
//
// A location is transparent when it is not an error location, every edge
// leaving it is a skip, an assume or an assignment that touches no global
// and does not lead to the procedure's exit (arriving there may return
// values into the caller's globals, or end the thread), some edge leaving
// it is enabled in every state (so the thread can always move on), and it
// lies on no cycle of transparent locations (so that a thread moves on,
// by local steps alone, to a location that is not transparent).
//
// Why no error is lost, and none is found later: take a run that switches
// away from thread t at a transparent location. If t steps again later,
// its next step is local and enabled now (t's locals have not changed,
// and the step reads no global), so it can be taken before the switch
// instead; nothing another thread does in between is affected (the step
// writes no global). If t never steps again, it can take enabled local
// steps before the switch until it reaches a location that is not
// transparent; no other thread sees them. Either way the switches of the
// run stay where they were or disappear (a context left empty), and
// removing a context never adds a return to a smaller thread, so neither
// bound's cost grows; the steps of every other thread, and so the error,
// are unchanged. Runs of the reduced search are runs of the program, so
// its traces replay as any.

// localEdge reports whether edge e of proc touches only the running
// frame's locals and stays inside the procedure.
func localEdge(proc *ir.Proc, e *ir.Edge) bool {
	if e.To == proc.Exit {
		return false
	}
	switch e.Op.(type) {
	case *ir.Skip:
		return true
	case *ir.Assume, *ir.Assign:
	default:
		return false
	}
	for _, v := range ir.Reads(e.Op) {
		if v.Global {
			return false
		}
	}
	for _, v := range ir.Writes(e.Op) {
		if v.Global {
			return false
		}
	}
	return true
}

// localLocations returns, by location id, the locations of proc whose
// every leaving edge is local (localEdge), error locations and the exit
// excepted.
func localLocations(proc *ir.Proc) []bool {
	out := make([]bool, len(proc.Locations))
	for _, l := range proc.Locations {
		if l.Error || l.ID == proc.Exit || len(l.Out) == 0 {
			continue
		}
		ok := true
		for _, id := range l.Out {
			ok = ok && localEdge(proc, proc.Edges[id])
		}
		out[l.ID] = ok
	}
	return out
}

// transparent returns the states in which actor u's top frame is at a
// transparent location, and how many (depth, location) pairs those are.
func (s *search) transparent(u int) (bdd.Node, int) {
	x, m := s.x, s.x.m
	a := s.actors[u]
	type key struct{ depth, proc, loc int }
	from := make(map[key][]rel)
	for _, st := range s.steps[u] {
		e := x.p.Procs[st.proc].Edges[st.edge]
		k := key{st.depth, st.proc, e.From}
		from[k] = append(from[k], st.r)
	}
	out, count := bdd.False, 0
	for d, procs := range a.procsAt {
		for _, f := range procs {
			proc := x.p.Procs[f]
			ok := localLocations(proc)
			for id := range ok {
				if !ok[id] {
					continue
				}
				// Some leaving edge is enabled wherever the frame is here.
				r := x.union(from[key{d, f, id}])
				enabled := m.Exists(r.r, x.varSet(r.ch, true))
				ok[id] = m.And(x.at(a, d, f, id), m.Not(enabled)) == bdd.False
			}
			succ := make([][]int, len(proc.Locations))
			for _, e := range proc.Edges {
				if ok[e.From] && ok[e.To] {
					succ[e.From] = append(succ[e.From], e.To)
				}
			}
			for _, comp := range graph.SCC(succ, nil) {
				if len(comp) > 1 || selfLoop(succ, comp[0]) {
					for _, v := range comp {
						ok[v] = false
					}
				}
			}
			for id := range ok {
				if ok[id] {
					out = m.Or(out, x.at(a, d, f, id))
					count++
				}
			}
		}
	}
	return out, count
}

// selfLoop reports whether v is its own successor.
func selfLoop(succ [][]int, v int) bool {
	for _, w := range succ[v] {
		if w == v {
			return true
		}
	}
	return false
}
