package summary

import (
	"container/heap"
	"context"
	"fmt"
	"slices"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
)

// maxTraceLen bounds the length of a counterexample the engine will build.
// Distances in Boolean programs with recursion can grow exponentially with
// the program; beyond this bound the verdict is known but the trace cannot
// be printed, and the engine says so (Unknown with a reason).
const maxTraceLen = 50_000_000

// rings is the search for a shortest counterexample (the rings of the
// Bebop paper's §3.2). The key of a path edge of a context c is
// P(c) + D: P(c) is the length of a shortest execution from an initial
// state of main to the entry of c, D the length of a shortest execution of
// c's procedure from its entry to the path edge (same level: calls
// expanded, returning not counted). Keys are processed in increasing order,
// like Dijkstra's algorithm:
//
//   - an intraprocedural step adds 1;
//   - a call adds 1 to enter the callee, whose new contexts get P = key+1;
//   - a return to a call site whose path edge has key K, through an exit
//     path edge with same-level distance D, gives K + 1 + D.
//
// D of an exit path edge is its key minus P of its context, so exits are
// split by context ring into pieces of equal D. No relaxation lowers a key
// below the one being processed (a return lands at K + 1 + D ≥ the key of
// the exit, with equality when the call site is the one that first entered
// the context), so every ring is final when processed, and the first
// error ring found gives a shortest counterexample. Keys at the current
// ring can still be produced while it is processed (returns), so a ring is
// processed until nothing new arrives.
type rings struct {
	md  *model
	ctx context.Context
	m   *bdd.Manager

	reached [][]*bdd.Root
	rings   [][][]ring // per procedure and location: finalized rings, increasing keys
	pending map[int]map[locRef]*bdd.Root
	keys    intHeap

	ctxRings [][]ring // per procedure: contexts (Entry copies) first entered at each key
	allCtx   []*bdd.Root
	pieces   []map[int]*piece // per procedure: exit path edges by same-level distance
	dists    [][]int          // per procedure: the distances of pieces, increasing
	lifts    map[liftKey]*liftEntry

	cur      int
	queue    []locRef
	inQueue  map[locRef]bool
	hits     []locRef
	keysDone int
	err      error

	curAll *bdd.VarSet // Cur copies of every slot
}

type ring struct {
	key int
	r   *bdd.Root
}

type piece struct {
	r       *bdd.Root
	version int
}

type liftKey struct {
	ei *edgeInfo
	d  int
}

type liftEntry struct {
	version int
	r       *bdd.Root
}

// hit is the nearest error found: its location, key and one path edge.
type hit struct {
	proc, loc, key int
	pe             bdd.Node
}

func newRings(ctx context.Context, md *model) *rings {
	n := len(md.procs)
	rs := &rings{
		md: md, ctx: ctx, m: md.m,
		reached:  make([][]*bdd.Root, n),
		rings:    make([][][]ring, n),
		pending:  make(map[int]map[locRef]*bdd.Root),
		ctxRings: make([][]ring, n),
		allCtx:   make([]*bdd.Root, n),
		pieces:   make([]map[int]*piece, n),
		dists:    make([][]int, n),
		lifts:    make(map[liftKey]*liftEntry),
		inQueue:  make(map[locRef]bool),
		curAll:   md.l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: md.all}),
	}
	for i, pi := range md.procs {
		k := len(pi.proc.Locations)
		rs.reached[i] = make([]*bdd.Root, k)
		rs.rings[i] = make([][]ring, k)
		rs.allCtx[i] = md.m.Keep(bdd.False)
		rs.pieces[i] = make(map[int]*piece)
	}
	return rs
}

// ringAt returns the finalized ring of a location at key, or False.
func (rs *rings) ringAt(proc, loc, key int) bdd.Node {
	rr := rs.rings[proc][loc]
	i, ok := slices.BinarySearchFunc(rr, key, func(r ring, k int) int { return r.key - k })
	if !ok {
		return bdd.False
	}
	return rr[i].r.Node()
}

// push adds path edges s at a location to the ring of the given key.
func (rs *rings) push(key int, lr locRef, s bdd.Node) {
	m := rs.m
	if s == bdd.False || s == bdd.Invalid {
		return
	}
	if key < rs.cur {
		rs.err = fmt.Errorf("summary: internal error: ring %d produced while processing ring %d", key, rs.cur)
		return
	}
	if key > maxTraceLen {
		rs.err = errTooLong
		return
	}
	pend := rs.pending[key]
	if pend == nil {
		pend = make(map[locRef]*bdd.Root)
		rs.pending[key] = pend
		heap.Push(&rs.keys, key)
	}
	if x := pend[lr]; x != nil {
		x.Set(m.Or(x.Node(), s))
	} else {
		pend[lr] = m.Keep(s)
	}
	if key == rs.cur && !rs.inQueue[lr] {
		rs.inQueue[lr] = true
		rs.queue = append(rs.queue, lr)
	}
}

var errTooLong = fmt.Errorf("the shortest counterexample has more than %d steps", maxTraceLen)

// run processes rings in increasing key order until one reaches an error
// location, and returns the nearest error (nil if none is reachable).
func (rs *rings) run() (*hit, error) {
	md, m := rs.md, rs.m
	main := md.procs[md.p.Main]
	rs.ctxRings[md.p.Main] = []ring{{0, m.Keep(bdd.True)}}
	rs.allCtx[md.p.Main].Set(bdd.True)
	rs.cur = -1
	rs.push(0, locRef{int32(md.p.Main), int32(main.proc.Entry)}, main.selfLoop.Node())
	steps := 0
	for rs.keys.Len() > 0 {
		key := heap.Pop(&rs.keys).(int)
		pend := rs.pending[key]
		rs.cur = key
		rs.queue = rs.queue[:0]
		clear(rs.inQueue)
		for lr := range pend {
			rs.queue = append(rs.queue, lr)
			rs.inQueue[lr] = true
		}
		slices.SortFunc(rs.queue, func(a, b locRef) int {
			if a.proc != b.proc {
				return int(a.proc - b.proc)
			}
			return int(a.loc - b.loc)
		})
		for len(rs.queue) > 0 {
			lr := rs.queue[0]
			rs.queue = rs.queue[1:]
			delete(rs.inQueue, lr)
			x := pend[lr]
			delete(pend, lr)
			if x == nil {
				continue
			}
			steps++
			if steps&255 == 1 && rs.ctx.Err() != nil { // from the first step: a spent budget stops at once
				return nil, errTimeout
			}
			rs.finalize(lr, x.Node())
			x.Release()
			if rs.err != nil {
				return nil, rs.err
			}
			if err := m.Err(); err != nil {
				return nil, err
			}
			m.Safepoint()
		}
		delete(rs.pending, key)
		rs.keysDone++
		if len(rs.hits) > 0 {
			return rs.nearest(key), nil
		}
	}
	return nil, nil
}

// nearest picks the error to report among those reached at key: a failing
// assertion (whose last step reaches it) before a target label (reached
// at key, with one more step at the label), then the first found.
func (rs *rings) nearest(key int) *hit {
	md := rs.md
	best := rs.hits[0]
	for _, h := range rs.hits {
		if md.procs[h.proc].proc.Locations[h.loc].Kind == ir.FailLoc &&
			md.procs[best.proc].proc.Locations[best.loc].Kind != ir.FailLoc {
			best = h
			break
		}
	}
	proc, loc := int(best.proc), int(best.loc)
	pe := md.m.SatOneCube(rs.ringAt(proc, loc, key), md.trackedSet(md.procs[proc], loc))
	return &hit{proc: proc, loc: loc, key: key, pe: pe}
}

// finalize moves the new part of s into the ring of the current key and
// processes it.
func (rs *rings) finalize(lr locRef, s bdd.Node) {
	md, m := rs.md, rs.m
	proc, loc := int(lr.proc), int(lr.loc)
	old := bdd.False
	if x := rs.reached[proc][loc]; x != nil {
		old = x.Node()
	}
	f := diff(m, s, old)
	if f == bdd.False || f == bdd.Invalid {
		return
	}
	if x := rs.reached[proc][loc]; x != nil {
		x.Set(m.Or(old, f))
	} else {
		rs.reached[proc][loc] = m.Keep(f)
	}
	rr := rs.rings[proc][loc]
	if n := len(rr); n > 0 && rr[n-1].key == rs.cur {
		rr[n-1].r.Set(m.Or(rr[n-1].r.Node(), f))
	} else {
		rs.rings[proc][loc] = append(rr, ring{rs.cur, m.Keep(f)})
	}
	pi := md.procs[proc]
	if pi.proc.Locations[loc].Error {
		rs.hits = append(rs.hits, lr)
		return
	}
	if loc == pi.proc.Exit {
		rs.exit(pi, f)
		return
	}
	for _, id := range pi.proc.Locations[loc].Out {
		ei := md.compile(pi.edges[id])
		to := locRef{lr.proc, int32(ei.edge.To)}
		if ei.call == nil {
			rs.push(rs.cur+1, to, ei.img.Apply(f))
			continue
		}
		rs.call(ei, f, to)
	}
}

// call processes path edges f at a call site: enter the callee (new
// contexts get P = key+1) and return through every piece of its exit.
func (rs *rings) call(ei *edgeInfo, f bdd.Node, to locRef) {
	m := rs.m
	q := ei.callee
	qi := q.proc.Index
	e := ei.cs.Enter(f)
	if e != bdd.False {
		ctx := m.Exists(e, rs.curAll)
		if nw := diff(m, ctx, rs.allCtx[qi].Node()); nw != bdd.False && nw != bdd.Invalid {
			rs.ctxRings[qi] = append(rs.ctxRings[qi], ring{rs.cur + 1, m.Keep(nw)})
			rs.allCtx[qi].Set(m.Or(rs.allCtx[qi].Node(), nw))
		}
		rs.push(rs.cur+1, locRef{int32(qi), int32(q.proc.Entry)}, e)
	}
	for _, d := range rs.dists[qi] {
		rs.push(rs.cur+1+d, to, ei.cs.Join(f, rs.lift(ei, d)))
	}
}

// lift returns the summary edges of call site ei for the callee's exit
// piece of distance d (cached until the piece grows).
func (rs *rings) lift(ei *edgeInfo, d int) bdd.Node {
	pc := rs.pieces[ei.callee.proc.Index][d]
	k := liftKey{ei, d}
	if le := rs.lifts[k]; le != nil && le.version == pc.version {
		return le.r.Node()
	}
	l := ei.cs.Lift(pc.r.Node())
	if le := rs.lifts[k]; le != nil {
		le.r.Set(l)
		le.version = pc.version
	} else {
		rs.lifts[k] = &liftEntry{version: pc.version, r: rs.m.Keep(l)}
	}
	return l
}

// exit processes path edges f at the exit of pi: split them by context
// ring into pieces of same-level distance, and return each piece to every
// call site ring of every caller.
func (rs *rings) exit(pi *procInfo, f bdd.Node) {
	md, m := rs.md, rs.m
	qi := pi.proc.Index
	for _, cr := range rs.ctxRings[qi] {
		if cr.key > rs.cur {
			break
		}
		part := m.And(f, cr.r.Node())
		if part == bdd.False || part == bdd.Invalid {
			continue
		}
		d := rs.cur - cr.key
		if pc := rs.pieces[qi][d]; pc != nil {
			pc.r.Set(m.Or(pc.r.Node(), part))
			pc.version++
		} else {
			rs.pieces[qi][d] = &piece{r: m.Keep(part)}
			i, _ := slices.BinarySearch(rs.dists[qi], d)
			rs.dists[qi] = slices.Insert(rs.dists[qi], i, d)
		}
		for _, cs := range pi.callers {
			from := cs.pi.proc.Index
			rr := rs.rings[from][cs.edge.From]
			if len(rr) == 0 {
				continue
			}
			md.compile(cs)
			l := cs.cs.Lift(part)
			if l == bdd.False {
				continue
			}
			to := locRef{int32(from), int32(cs.edge.To)}
			for _, r := range rr {
				rs.push(r.key+1+d, to, cs.cs.Join(r.r.Node(), l))
			}
		}
	}
}

// release frees the roots of the search.
func (rs *rings) release() {
	for i := range rs.reached {
		for k := range rs.reached[i] {
			if x := rs.reached[i][k]; x != nil {
				x.Release()
			}
			for _, r := range rs.rings[i][k] {
				r.r.Release()
			}
		}
		for _, r := range rs.ctxRings[i] {
			r.r.Release()
		}
		rs.allCtx[i].Release()
		for _, pc := range rs.pieces[i] {
			pc.r.Release()
		}
	}
	for _, pend := range rs.pending {
		for _, x := range pend {
			x.Release()
		}
	}
	for _, le := range rs.lifts {
		le.r.Release()
	}
}

// intHeap is a min-heap of ints.
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
