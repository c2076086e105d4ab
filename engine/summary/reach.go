package summary

import (
	"context"
	"fmt"
	"math"

	"boolprog/analysis"
	"boolprog/bdd"
)

// reach is the worklist algorithm of the Bebop paper's Figure 3: path edges
// per location, summary edges per call site, Join, SelfLoop and Lift, with
// two refinements that do not change what is computed: a location's
// successors are computed from the path edges that are new since it was
// last processed (its delta) rather than from all of them, and the summary
// edges of a call site are created when the call site is first reached.
type reach struct {
	md    *model
	ctx   context.Context
	pe    [][]*bdd.Root // PathEdges per procedure and location (nil: empty)
	delta [][]*bdd.Root // path edges not yet processed
	work  workHeap      // callees first
	up    workHeap      // callers first; used when alternate
	rank  [][]int32     // per procedure: reverse postorder index of each location
	prank []int         // per procedure: rank in the call graph (callees first)

	// alternate: take locations from work and from up in turn (see
	// Worklist); turn says which is next.
	alternate, turn bool

	errorFound bool
	firstError locRef // the first error location reached
	stopEarly  bool   // stop as soon as an error location is reached
	progress   func(detail string)
	iterations int64

	// hist, if not nil, is the search's history: per procedure and
	// location, the new path edges of every propagation, stamped in the
	// order they were found (see history.go). events numbers them.
	hist   [][][]stamped
	events int64
}

// stamped is the part of a location's path edges that one propagation
// added, with the number of that propagation: everything a propagation
// reads was found by an earlier one, so every path edge has a
// predecessor (or a call site, or the initial state) with a smaller
// stamp.
type stamped struct {
	stamp int64
	r     *bdd.Root
}

// locRef names a location of a procedure.
type locRef struct{ proc, loc int32 }

func newReach(ctx context.Context, md *model, all, history bool, progress func(detail string)) *reach {
	r := &reach{md: md, ctx: ctx, stopEarly: !all, progress: progress}
	n := len(md.procs)
	r.pe = make([][]*bdd.Root, n)
	r.delta = make([][]*bdd.Root, n)
	r.work.in = make([][]bool, n)
	r.up.in = make([][]bool, n)
	if history {
		r.hist = make([][][]stamped, n)
	}
	// Procedures callees first (components of the call graph in reverse
	// topological order), so that their summaries grow before the callers
	// consume them, merging many small deltas into few large ones; and
	// within a procedure in reverse postorder, so that a location comes
	// after its predecessors in the same pass and merges their deltas.
	// To the first error, callers first in turn with that (Worklist:
	// callees first alone makes every caller wait for every context of
	// its callees).
	r.rank = analysis.Of(md.an, analysis.RPO).Rank
	r.prank = analysis.Of(md.an, analysis.SCC).Rank
	switch md.opts.Worklist {
	case WorklistAlternate:
		r.alternate = true
	case WorklistAuto:
		r.alternate = !all
	}
	for i, pi := range md.procs {
		k := len(pi.proc.Locations)
		r.pe[i] = make([]*bdd.Root, k)
		r.delta[i] = make([]*bdd.Root, k)
		r.work.in[i] = make([]bool, k)
		r.up.in[i] = make([]bool, k)
		if history {
			r.hist[i] = make([][]stamped, k)
		}
	}
	return r
}

// workHeap is a worklist: locations ordered by a key (the procedure's
// rank, then reverse postorder within the procedure), each at most once.
// Once matters with two heaps (Worklist alternate): a location processed
// from one heap stays in the other, stale, until that heap hands it out;
// in a loop whose head always comes first in one heap, the stale entries
// of the body piled up there, one per turn of the loop (a 40-bit counter
// grew the heap by 20 MB a second, past any memory limit), where now the
// entry already there stands for the location again.
type workHeap struct {
	items []workItem
	in    [][]bool // per procedure and location: in items
	peak  int      // the most items it held
}

type workItem struct {
	key int64
	lr  locRef
}

func (h *workHeap) Len() int { return len(h.items) }

// push adds lr with key, unless it is in the heap already (its key is
// the same: a location's key does not change).
func (h *workHeap) push(key int64, lr locRef) {
	if h.in[lr.proc][lr.loc] {
		return
	}
	h.in[lr.proc][lr.loc] = true
	h.items = append(h.items, workItem{key, lr})
	h.peak = max(h.peak, len(h.items))
	i := len(h.items) - 1
	for i > 0 {
		p := (i - 1) / 2
		if h.items[p].key <= h.items[i].key {
			break
		}
		h.items[p], h.items[i] = h.items[i], h.items[p]
		i = p
	}
}

func (h *workHeap) pop() locRef {
	top := h.items[0].lr
	h.in[top.proc][top.loc] = false
	n := len(h.items) - 1
	h.items[0] = h.items[n]
	h.items = h.items[:n]
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && h.items[l].key < h.items[m].key {
			m = l
		}
		if r < n && h.items[r].key < h.items[m].key {
			m = r
		}
		if m == i {
			break
		}
		h.items[i], h.items[m] = h.items[m], h.items[i]
		i = m
	}
	return top
}

// pathEdges returns PathEdges(loc).
func (r *reach) pathEdges(proc, loc int) bdd.Node {
	if x := r.pe[proc][loc]; x != nil {
		return x.Node()
	}
	return bdd.False
}

// propagate is Propagate of Figure 3: add p to PathEdges(loc) and schedule
// the location if something is new.
func (r *reach) propagate(proc, loc int, p bdd.Node) {
	m := r.md.m
	if p == bdd.False || p == bdd.Invalid {
		return
	}
	old := r.pathEdges(proc, loc)
	nw := diff(m, p, old)
	if nw == bdd.False || nw == bdd.Invalid {
		return
	}
	if x := r.pe[proc][loc]; x != nil {
		x.Set(m.Or(old, nw))
	} else {
		r.pe[proc][loc] = m.Keep(nw)
	}
	if r.hist != nil {
		r.events++
		r.hist[proc][loc] = append(r.hist[proc][loc], stamped{r.events, m.Keep(nw)})
	}
	if r.md.procs[proc].proc.Locations[loc].Error {
		if !r.errorFound {
			r.firstError = locRef{int32(proc), int32(loc)}
		}
		r.errorFound = true
		return // executions stop at an error: nothing to propagate
	}
	if d := r.delta[proc][loc]; d != nil {
		d.Set(m.Or(d.Node(), nw))
	} else {
		r.delta[proc][loc] = m.Keep(nw)
	}
	lr := locRef{int32(proc), int32(loc)}
	r.work.push(int64(r.prank[proc])<<32|int64(r.rank[proc][loc]), lr)
	if r.alternate {
		// The same location in the other order. Whichever heap hands
		// it out first processes its delta; the other's entry is then
		// stale (no delta) and skipped, or, if new path edges came
		// meanwhile, processes those.
		// The rank negated: a negative high half still orders int64
		// keys by it, then by the reverse postorder below.
		r.up.push(int64(-r.prank[proc])<<32|int64(r.rank[proc][loc]), lr)
	}
}

// next returns the next location with a delta to process, false when there
// is none: from the callees-first heap, or with alternate from each heap
// in turn (the other one when the heap whose turn it is is empty).
func (r *reach) next() (locRef, bool) {
	for r.work.Len() > 0 || r.up.Len() > 0 {
		h := &r.work
		if r.alternate && (r.turn && r.up.Len() > 0 || r.work.Len() == 0) {
			h = &r.up
		}
		lr := h.pop()
		if r.delta[lr.proc][lr.loc] == nil {
			continue // stale: the other heap's entry was processed
		}
		r.turn = !r.turn
		return lr, true
	}
	return locRef{}, false
}

// run computes the path edges reachable from the entry of main, stopping at
// the first error unless all reachable states were asked for. It returns
// a non-nil error for a cancelled context or the BDD node limit.
func (r *reach) run() error {
	md := r.md
	m := md.m
	main := md.procs[md.p.Main]
	r.propagate(md.p.Main, main.proc.Entry, main.selfLoop.Node())
	for {
		if r.errorFound && r.stopEarly {
			break
		}
		if r.iterations&255 == 0 {
			if err := r.ctx.Err(); err != nil {
				return errTimeout
			}
			if r.iterations&4095 == 0 && r.iterations > 0 {
				r.progress(fmt.Sprintf("%d iterations, %d in the worklist, %d BDD nodes", r.iterations, r.work.Len(), m.Stats().Nodes))
			}
		}
		if err := m.Err(); err != nil {
			return err
		}
		lr, ok := r.next()
		if !ok {
			break
		}
		proc, loc := int(lr.proc), int(lr.loc)
		d := r.delta[proc][loc]
		r.delta[proc][loc] = nil
		r.iterations++
		r.process(proc, loc, d.Node())
		d.Release() // only now: the delta must survive collections in process
		m.Safepoint()
	}
	return m.Err()
}

// process handles the new path edges delta at a location.
func (r *reach) process(proc, loc int, delta bdd.Node) {
	md := r.md
	m := md.m
	pi := md.procs[proc]
	l := pi.proc.Locations[loc]
	if loc == pi.proc.Exit {
		// Exit: lift the new path edges to every call site that has
		// been reached, and join them with the call site's path edges.
		for _, cs := range pi.callers {
			if cs.summary == nil {
				continue // not reached yet: its summary is made on first use
			}
			s := cs.cs.Lift(delta)
			nw := diff(m, s, cs.summary.Node())
			if nw == bdd.False || nw == bdd.Invalid {
				continue
			}
			cs.summary.Set(m.Or(cs.summary.Node(), nw))
			caller := cs.pi.proc.Index
			r.propagate(caller, cs.edge.To, cs.cs.Join(r.pathEdges(caller, cs.edge.From), nw))
		}
		return
	}
	for _, id := range l.Out {
		ei := md.compile(pi.edges[id])
		if ei.call == nil {
			r.propagate(proc, ei.edge.To, ei.img.Apply(delta))
			continue
		}
		q := ei.callee
		if ei.summary == nil {
			ei.summary = m.Keep(ei.cs.Lift(r.pathEdges(q.proc.Index, q.proc.Exit)))
		}
		r.propagate(q.proc.Index, q.proc.Entry, ei.cs.Enter(delta))
		if s := ei.summary.Node(); s != bdd.False {
			r.propagate(proc, ei.edge.To, ei.cs.Join(delta, s))
		}
	}
}

// stats counts the path edges (pairs of an entry valuation of the
// interface and a valuation of the tracked variables, summed over
// locations), the summary tuples (path edges at exits) and the reached
// locations.
func (r *reach) stats() (pathEdges, summaries, locations int64) {
	md := r.md
	var pe, su float64
	// Many locations hold the same BDD over the same variables (T(N)
	// repeats its levels): count each pair once.
	type key struct {
		n  bdd.Node
		vs *bdd.VarSet
	}
	memo := make(map[key]float64)
	for i, pi := range md.procs {
		for loc, x := range r.pe[i] {
			if x == nil {
				continue
			}
			locations++
			k := key{x.Node(), md.trackedSet(pi, loc)}
			c, ok := memo[k]
			if !ok {
				c = md.m.SatCount(k.n, k.vs)
				memo[k] = c
			}
			pe += c
			if loc == pi.proc.Exit {
				su += c
			}
		}
	}
	return satInt(pe), satInt(su), locations
}

func satInt(f float64) int64 {
	if f >= math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(f)
}

// release frees the roots of the search, except its history.
func (r *reach) release() {
	for i := range r.pe {
		for k := range r.pe[i] {
			if x := r.pe[i][k]; x != nil {
				x.Release()
				r.pe[i][k] = nil
			}
			if x := r.delta[i][k]; x != nil {
				x.Release()
				r.delta[i][k] = nil
			}
		}
	}
}

// releaseHistory frees the roots of the history.
func (r *reach) releaseHistory() {
	for i := range r.hist {
		for k := range r.hist[i] {
			for _, st := range r.hist[i][k] {
				st.r.Release()
			}
			r.hist[i][k] = nil
		}
	}
	r.hist = nil
}

// diff returns p ∧ ¬old, the part of p not yet in old, as ¬(p → old):
// negating the (usually small) result rather than old, which grows with
// the search, keeps the cost proportional to the new part.
func diff(m *bdd.Manager, p, old bdd.Node) bdd.Node {
	if old == bdd.False {
		return p
	}
	return m.Not(m.Imp(p, old))
}
