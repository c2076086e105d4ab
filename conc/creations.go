package conc

import (
	"boolprog/internal/graph"
	"boolprog/ir"
)

// unbounded is what creationBound returns for a program whose runs can
// create any number of threads.
const unbounded = -1

// creationCap bounds the counts creationBound computes: a program that may
// create more threads than this is as good as unbounded.
const creationCap = 1 << 20

// creationBound returns the most threads that a run of the program
// started at the procedures roots creates, counting the threads those
// threads create in turn, or unbounded when a creation lies on a cycle of
// control (a loop, or a recursion of procedures that create threads). It
// is an upper bound: each path of each procedure is counted as if every
// branch could be taken, whatever the values.
func creationBound(p *ir.Program, roots []int) int {
	cb := &creations{p: p, procs: make([]*procCreations, len(p.Procs)), creates: createsThreads(p)}
	total := 0
	for _, r := range roots {
		n := cb.from(r, -1)
		if n == unbounded {
			return unbounded
		}
		total = min(total+n, creationCap)
	}
	if total >= creationCap {
		return unbounded
	}
	return total
}

// createsThreads reports, for each procedure, whether running it may
// create a thread: a StartThread edge in it or in a procedure it calls,
// transitively.
func createsThreads(p *ir.Program) []bool {
	out := make([]bool, len(p.Procs))
	callers := make([][]int, len(p.Procs))
	var work []int
	for _, pr := range p.Procs {
		for _, e := range pr.Edges {
			switch op := e.Op.(type) {
			case *ir.Call:
				callers[op.Proc] = append(callers[op.Proc], pr.Index)
			case *ir.StartThread:
				if !out[pr.Index] {
					out[pr.Index] = true
					work = append(work, pr.Index)
				}
			}
		}
	}
	for len(work) > 0 {
		q := work[len(work)-1]
		work = work[:len(work)-1]
		for _, c := range callers[q] {
			if !out[c] {
				out[c] = true
				work = append(work, c)
			}
		}
	}
	return out
}

// creations computes creationBound.
type creations struct {
	p       *ir.Program
	procs   []*procCreations
	creates []bool
}

// procCreations holds, for one procedure, the components of its control
// flow graph and the count from each (-2: not computed, -3: being
// computed).
type procCreations struct {
	comp  []int // location → component
	comps [][]int
	count []int
}

const (
	notComputed = -2
	inProgress  = -3
)

// from returns the most creations of a run of procedure proc from
// location loc (-1: its entry) to anywhere, or unbounded.
func (cb *creations) from(proc, loc int) int {
	pr := cb.p.Procs[proc]
	if !cb.creates[proc] {
		return 0
	}
	pc := cb.procs[proc]
	if pc == nil {
		succ := make([][]int, len(pr.Locations))
		for _, e := range pr.Edges {
			succ[e.From] = append(succ[e.From], e.To)
		}
		pc = &procCreations{comp: make([]int, len(pr.Locations)), comps: graph.SCC(succ, nil)}
		for c, locs := range pc.comps {
			for _, l := range locs {
				pc.comp[l] = c
			}
		}
		pc.count = make([]int, len(pc.comps))
		for c := range pc.count {
			pc.count[c] = notComputed
		}
		cb.procs[proc] = pc
	}
	if loc < 0 {
		loc = pr.Entry
	}
	return cb.comp(proc, pc, pc.comp[loc])
}

// comp returns the most creations from component c of procedure proc.
func (cb *creations) comp(proc int, pc *procCreations, c int) int {
	switch pc.count[c] {
	case inProgress:
		// A cycle through a thread started with goto (or a recursion
		// of procedures that create threads): no bound.
		return unbounded
	case notComputed:
	default:
		return pc.count[c]
	}
	pc.count[c] = inProgress
	pr := cb.p.Procs[proc]
	best := 0
	for _, l := range pc.comps[c] {
		for _, id := range pr.Locations[l].Out {
			e := pr.Edges[id]
			w := 0
			switch op := e.Op.(type) {
			case *ir.Call:
				w = cb.from(op.Proc, -1)
			case *ir.StartThread:
				if op.Goto >= 0 {
					w = cb.from(proc, op.Goto)
				} else {
					w = cb.from(op.Proc, -1)
				}
				if w != unbounded {
					w++
				}
			}
			if w == unbounded {
				pc.count[c] = unbounded
				return unbounded
			}
			inside := pc.comp[e.To] == c
			if inside {
				if w > 0 {
					// Creations on a loop.
					pc.count[c] = unbounded
					return unbounded
				}
				continue
			}
			rest := cb.comp(proc, pc, pc.comp[e.To])
			if rest == unbounded {
				pc.count[c] = unbounded
				return unbounded
			}
			best = max(best, min(w+rest, creationCap))
		}
	}
	pc.count[c] = best
	return best
}
