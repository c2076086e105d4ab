package summary

import (
	"context"
	"fmt"
	"slices"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/symbolic"
)

// A trace is built in two passes over the rings.
//
// Backwards (§3.2 of the paper): from one path edge of the nearest error
// ring, repeatedly find a predecessor one ring lower: along an
// intraprocedural edge (preimage by the edge's relation), through a summary
// edge (a call site ring K and an exit piece of distance D with
// K + 1 + D = the key, expanded on demand into the callee's own same-level
// path, one depth deeper), or, at the entry of a context whose key is its
// P, from a call site that entered it. The result is a skeleton: the
// locations, edges and path edges (cubes over the tracked variables) of a
// shortest execution. Each step is appended once to one buffer, in the
// order found (reverse execution order), nested calls being kept on an
// explicit stack, and the buffer is reversed once: time and memory are
// linear in the number of steps plus the depth.
//
// Forwards: choose concrete values. A path edge fixes only the tracked
// (live) variables; the others are given values that follow from the
// previous step (or false at the start), by executing each step (its
// relation, the slots it does not change keeping their values) restricted
// to the next path edge. Dead variables never influence tracked ones, so
// the restriction is always satisfiable; the engine checks it anyway and
// reports an internal error if not.
//
// Both passes poll the context and the node limit; when either strikes,
// the error is established, and the engine answers Unsafe with a cut
// trace.

// tstep is one step of the skeleton.
type tstep struct {
	proc, loc, edge int // edge: ir edge id, or result.NoEdge for a final label step
	depth           int
	pe              bdd.Node // path edge at loc (Entry copies of the interface, Cur copies of the live slots)
	exit            bdd.Node // call steps that return: the callee's exit path edge
}

// trace builds a shortest counterexample ending in h.
func (rs *rings) trace(h *hit) (*result.Trace, error) {
	tb := newTracer(rs.ctx, rs.md)
	tb.rs = rs
	steps, err := tb.skeleton(h)
	if err != nil {
		return nil, err
	}
	if err := rs.m.Err(); err != nil {
		return nil, err
	}
	tr, err := tb.concretize(steps)
	if err != nil {
		return nil, err
	}
	if err := rs.m.Err(); err != nil {
		return nil, err
	}
	return tr, nil
}

// newTracer returns a tracer for the rings or the history of md's search.
func newTracer(ctx context.Context, md *model) *tracer {
	tb := &tracer{ctx: ctx, md: md, m: md.m, postN: make(map[*edgeInfo]bdd.Node),
		postC: make(map[*edgeInfo]bdd.Node), changed: make(map[*edgeInfo]*changed), scopes: make([]*bdd.Pairs, len(md.procs)),
		states: make([]*stateVars, 2*len(md.procs))}
	tb.entryAll = md.l.VarSet(symbolic.CopySet{Copy: symbolic.Entry, Set: md.all})
	return tb
}

type tracer struct {
	ctx      context.Context
	rs       *rings        // the ring search (a shortest trace), or nil
	hist     [][][]stamped // the search's history (a history trace), or nil
	md       *model
	m        *bdd.Manager
	entryAll *bdd.VarSet
	rev      []tstep                // the skeleton being built, in reverse execution order
	postN    map[*edgeInfo]bdd.Node // postNext's cache (no Safepoint while tracing: temporaries stay valid)
	postC    map[*edgeInfo]bdd.Node // postChanged's cache
	changed  map[*edgeInfo]*changed // changedSets' cache
	scopes   []*bdd.Pairs           // curToNext per procedure, built on first use
	states   []*stateVars           // per procedure and exit or not: stateSlots
	polls    int
}

// ---------------------------------------------------------------------------
// Backwards: the skeleton

// skeleton returns the steps of a shortest execution to h, in execution
// order, with depths. Every step is appended once to one buffer, in
// reverse execution order (the search goes backwards), and the buffer is
// reversed once at the end: the cost is linear in the number of steps
// plus the depth, however deep the calls nest.
func (tb *tracer) skeleton(h *hit) ([]tstep, error) {
	md := tb.md
	pi := md.procs[h.proc]
	loc, pe, key := h.loc, h.pe, h.key
	// The key is the number of steps (less the final label step): room
	// for all of them, within reason.
	tb.rev = make([]tstep, 0, min(key+1, 1<<20))
	// Depths are relative to the level of the error while going backwards
	// (the outer levels are found one by one), and shifted at the end.
	if md.procs[h.proc].proc.Locations[h.loc].Kind != ir.FailLoc {
		tb.rev = append(tb.rev, tstep{proc: h.proc, loc: h.loc, edge: result.NoEdge, pe: h.pe, exit: bdd.Invalid})
	}
	levels := 0
	for {
		entryPE, err := tb.sameLevel(pi, loc, pe, key, -levels)
		if err != nil {
			return nil, err
		}
		levels++
		p := tb.ctxKey(pi, entryPE)
		if pi.proc.Index == md.p.Main && p == 0 {
			break
		}
		found := false
		for _, cs := range pi.callers {
			from := cs.pi.proc.Index
			f := tb.rs.ringAt(from, cs.edge.From, p-1)
			if f == bdd.False {
				continue
			}
			md.compile(cs)
			cand := tb.m.And(f, tb.preEntry(cs, entryPE))
			if cand == bdd.False || cand == bdd.Invalid {
				continue
			}
			pe2 := tb.m.SatOneCube(cand, md.trackedSet(cs.pi, cs.edge.From))
			tb.rev = append(tb.rev, tstep{proc: from, loc: cs.edge.From, edge: cs.edge.ID, depth: -levels, pe: pe2, exit: bdd.Invalid})
			pi, loc, pe, key = cs.pi, cs.edge.From, pe2, p-1
			found = true
			break
		}
		if !found {
			return nil, tb.internal("no call site enters %s at ring %d", pi.proc.Name, p)
		}
		if err := tb.poll(); err != nil {
			return nil, err
		}
	}
	out := tb.rev
	tb.rev = nil
	slices.Reverse(out)
	for i := range out {
		out[i].depth += levels - 1
	}
	return out, nil
}

// poll returns errTimeout when the context is done, and the manager's
// error if an operation failed (the node limit). It looks at the context
// only every 256 calls: the check is cheap, but the loops that call poll
// run once per step.
func (tb *tracer) poll() error {
	tb.polls++
	if tb.polls&255 == 0 && tb.ctx.Err() != nil {
		return errTimeout
	}
	return tb.m.Err()
}

// internal returns an internal error, unless an operation failed (the BDD
// node limit): a failed operation returns Invalid, which the searches see
// as "nothing found", so the manager's error is the real cause.
func (tb *tracer) internal(format string, args ...any) error {
	if err := tb.m.Err(); err != nil {
		return err
	}
	return fmt.Errorf("summary: internal error building the trace: "+format, args...)
}

// ctxKey returns P of the context of path edge pe of pi: the key of the
// context ring that holds its Entry values.
func (tb *tracer) ctxKey(pi *procInfo, pe bdd.Node) int {
	for _, cr := range tb.rs.ctxRings[pi.proc.Index] {
		if tb.m.And(pe, cr.r.Node()) != bdd.False {
			return cr.key
		}
	}
	return -1
}

// level is a same-level search in progress: the procedure, the current
// location, path edge and key, the key P of its context, and the depth.
// call is the step of the enclosing level that called this one (for a
// nested level): it is appended when the level is done, after the
// callee's steps, since the buffer is in reverse execution order.
type level struct {
	pi       *procInfo
	loc      int
	pe       bdd.Node
	key, p   int
	depth    int
	call     tstep
	resumeAt struct {
		loc int
		pe  bdd.Node
		key int
	}
}

// sameLevel appends to tb.rev, in reverse execution order, the steps of a
// shortest same-level execution from the entry of pe's context to pe at
// loc (exclusive) at the given depth, the callee's steps of every call
// expanded, and returns the path edge at the entry where it starts. The
// nested levels are kept on an explicit stack, not the Go stack: a trace
// may be deeper than recursion should go.
func (tb *tracer) sameLevel(pi *procInfo, loc int, pe bdd.Node, key, depth int) (bdd.Node, error) {
	md, m, rs := tb.md, tb.m, tb.rs
	p := tb.ctxKey(pi, pe)
	if p < 0 {
		return bdd.False, tb.internal("no context ring for a path edge of %s", pi.proc.Name)
	}
	stack := []level{{pi: pi, loc: loc, pe: pe, key: key, p: p, depth: depth}}
	for {
		lv := &stack[len(stack)-1]
		if lv.loc == lv.pi.proc.Entry && lv.key == lv.p {
			if len(stack) == 1 {
				return lv.pe, nil
			}
			// The callee's level is done: the call step, then the
			// caller goes on from the call site.
			done := *lv
			stack = stack[:len(stack)-1]
			tb.rev = append(tb.rev, done.call)
			up := &stack[len(stack)-1]
			up.loc, up.pe, up.key = done.resumeAt.loc, done.resumeAt.pe, done.resumeAt.key
			continue
		}
		if err := tb.poll(); err != nil {
			return bdd.False, err
		}
		pi, loc, pe, key, p := lv.pi, lv.loc, lv.pe, lv.key, lv.p
		proc := pi.proc.Index
		if key <= p {
			return bdd.False, tb.internal("%s: ring %d below its context's %d", pi.proc.Name, key, p)
		}
		found := false
	edges:
		for _, id := range pi.proc.Locations[loc].In {
			ei := md.compile(pi.edges[id])
			u := ei.edge.From
			if pi.proc.Locations[u].Error {
				continue
			}
			if ei.call == nil {
				f := rs.ringAt(proc, u, key-1)
				if f == bdd.False {
					continue
				}
				cand := m.And(f, tb.preStep(ei.img.Rel(), tb.changedSets(ei), pe))
				if cand == bdd.False || cand == bdd.Invalid {
					continue
				}
				pe2 := m.SatOneCube(cand, md.trackedSet(pi, u))
				tb.rev = append(tb.rev, tstep{proc: proc, loc: u, edge: id, depth: lv.depth, pe: pe2, exit: bdd.Invalid})
				lv.loc, lv.pe, lv.key = u, pe2, key-1
				found = true
				break
			}
			// A return: a call site ring K and an exit piece of distance
			// D = key-1-K.
			q := ei.callee
			for _, r := range rs.rings[proc][u] {
				if r.key > key-1 {
					break
				}
				d := key - 1 - r.key
				pc := rs.pieces[q.proc.Index][d]
				if pc == nil {
					continue
				}
				piece := pc.r.Node()
				l := ei.cs.Lift(piece)
				// The caller's enforce holds after the return: pe need
				// not show it when it reads variables dead at the
				// return point, so the predecessor must satisfy it.
				rel := m.And(l, tb.postChanged(ei))
				cand := m.And(r.r.Node(), tb.preStep(rel, tb.changedSets(ei), pe))
				if cand == bdd.False || cand == bdd.Invalid {
					continue
				}
				pe2 := m.SatOneCube(cand, md.trackedSet(pi, u))
				x, err := tb.calleeExit(ei, pe2, pe, piece)
				if err != nil {
					return bdd.False, err
				}
				qp := tb.ctxKey(q, x)
				if qp < 0 {
					return bdd.False, tb.internal("no context ring for a path edge of %s", q.proc.Name)
				}
				callee := level{pi: q, loc: q.proc.Exit, pe: x, key: qp + d, p: qp, depth: lv.depth + 1,
					call: tstep{proc: proc, loc: u, edge: id, depth: lv.depth, pe: pe2, exit: x}}
				callee.resumeAt.loc, callee.resumeAt.pe, callee.resumeAt.key = u, pe2, r.key
				stack = append(stack, callee)
				found = true
				break edges
			}
		}
		if !found {
			return bdd.False, tb.internal("no predecessor of %s location %d at ring %d", pi.proc.Name, loc, key)
		}
	}
}

// curToNext returns the renaming of the Cur copies of pi's scope to their
// Next copies, built once per procedure (used once per call in the trace).
func (tb *tracer) curToNext(pi *procInfo) *bdd.Pairs {
	i := pi.proc.Index
	if tb.scopes[i] == nil {
		tb.scopes[i] = tb.md.l.Rename(symbolic.Cur, symbolic.Next, pi.scope)
	}
	return tb.scopes[i]
}

// changed holds the variable sets and renamings of the slots an edge
// changes (an intraprocedural step's, or a return's), built once per edge:
// the layout caches them too, but under a key built from the set, too slow
// once per step.
type changed struct {
	set                  symbolic.Set
	cur, next            *bdd.VarSet
	curToNext, nextToCur *bdd.Pairs
}

func (tb *tracer) changedSets(ei *edgeInfo) *changed {
	if c := tb.changed[ei]; c != nil {
		return c
	}
	l := tb.md.l
	set := ei.relChanged
	if ei.call != nil {
		set = ei.cs.Changed()
	}
	c := &changed{
		set:       set,
		cur:       l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: set}),
		next:      l.VarSet(symbolic.CopySet{Copy: symbolic.Next, Set: set}),
		curToNext: l.Rename(symbolic.Cur, symbolic.Next, set),
		nextToCur: l.Rename(symbolic.Next, symbolic.Cur, set),
	}
	tb.changed[ei] = c
	return c
}

// preStep returns the path edges from which relation r, which may change
// the slots of ch (its Next copies) and keeps every other slot (an
// implicit frame: see symbolic.Rel), leads to pe. Only the changed slots
// are renamed and quantified, so a step costs time in what it changes,
// not in the width of the scope.
func (tb *tracer) preStep(r bdd.Node, ch *changed, pe bdd.Node) bdd.Node {
	if ch.set.Empty() {
		return tb.m.And(r, pe)
	}
	return tb.m.AndExists(r, tb.m.Replace(pe, ch.curToNext), ch.next)
}

// preEntry returns the caller's states (Cur copies) at call site cs from
// which the call enters the callee with the entry path edge pe.
func (tb *tracer) preEntry(cs *edgeInfo, pe bdd.Node) bdd.Node {
	l, m := tb.md.l, tb.m
	q := cs.callee.proc
	params, others := symbolic.NewSet(l.N()), symbolic.NewSet(l.N())
	for j := range q.Locals {
		if j < q.Params {
			params.Add(l.Local(j))
		} else {
			others.Add(l.Local(j))
		}
	}
	for i := 0; i < l.R; i++ {
		others.Add(l.Ret(i))
	}
	pc := m.Exists(m.Exists(pe, tb.entryAll), l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: others}))
	pn := m.Replace(pc, l.Rename(symbolic.Cur, symbolic.Next, params))
	return m.AndExists(l.CallEntry(cs.call).R, pn, l.VarSet(symbolic.CopySet{Copy: symbolic.Next, Set: params}))
}

// calleeExit returns an exit path edge x of the piece such that the call
// from pe2 (at the call site) returns through x to pe (at the return point).
func (tb *tracer) calleeExit(ei *edgeInfo, pe2, pe, piece bdd.Node) (bdd.Node, error) {
	x, ok := tb.tryCalleeExit(ei, pe2, pe, piece)
	if !ok {
		return bdd.False, tb.internal("no exit path edge of %s matches the return", ei.callee.proc.Name)
	}
	return x, nil
}

// tryCalleeExit is calleeExit, with false if no exit path edge matches.
func (tb *tracer) tryCalleeExit(ei *edgeInfo, pe2, pe, piece bdd.Node) (bdd.Node, bool) {
	md, m, l := tb.md, tb.m, tb.md.l
	q := ei.callee
	// The contexts the call enters from pe2.
	ctx := m.AndExists(m.Exists(pe2, tb.entryAll), ei.cs.Bind(), l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: md.all}))
	cand := m.And(piece, ctx)
	// Rename the reported values to the caller's Next copies and match them
	// with pe's values.
	y := cand
	src, dst, out := ei.cs.Out()
	if out != nil {
		y = m.Replace(y, out)
	}
	// After the return: pe's values, the caller's unchanged values from
	// pe2, and the caller's enforce.
	toNext := tb.curToNext(ei.pi)
	peN := m.Exists(m.Replace(pe, toNext), tb.entryAll)
	kept := m.Exists(m.Replace(m.Exists(pe2, tb.entryAll), toNext), l.VarSet(symbolic.CopySet{Copy: symbolic.Next, Set: ei.cs.Changed()}))
	z := m.And(m.And(y, peN), m.And(kept, tb.postNext(ei)))
	dstSet, srcSet := symbolic.NewSet(l.N()), symbolic.NewSet(l.N())
	for i := range dst {
		dstSet.Add(dst[i])
		srcSet.Add(src[i])
	}
	pre := q.scope.Minus(srcSet)
	one := m.SatOneCube(z, l.VarSet(
		symbolic.CopySet{Copy: symbolic.Entry, Set: q.iface},
		symbolic.CopySet{Copy: symbolic.Next, Set: dstSet},
		symbolic.CopySet{Copy: symbolic.Cur, Set: pre}))
	if one == bdd.False || one == bdd.Invalid {
		return bdd.False, false
	}
	if len(src) > 0 {
		one = m.Replace(one, l.RenameSlots(symbolic.Next, symbolic.Cur, dst, src))
	}
	x := m.SatOneCube(m.And(piece, one), md.trackedSet(q, q.proc.Exit))
	if x == bdd.False || x == bdd.Invalid {
		return bdd.False, false
	}
	return x, true
}

// postChanged returns the post-condition of call ei (the caller's
// enforce) on the state after the return, with an implicit frame: the
// slots the return changes are read from their Next copies, the others
// from their Cur copies.
func (tb *tracer) postChanged(ei *edgeInfo) bdd.Node {
	if r, ok := tb.postC[ei]; ok {
		return r
	}
	r := tb.m.Replace(tb.md.l.Post(ei.call), tb.md.l.Rename(symbolic.Cur, symbolic.Next, ei.cs.Changed()))
	tb.postC[ei] = r
	return r
}

// postNext returns the post-condition of call ei (the caller's enforce)
// over the Next copies: the state after the return.
func (tb *tracer) postNext(ei *edgeInfo) bdd.Node {
	if r, ok := tb.postN[ei]; ok {
		return r
	}
	r := tb.m.Replace(tb.md.l.Post(ei.call), tb.curToNext(ei.pi))
	tb.postN[ei] = r
	return r
}

// ---------------------------------------------------------------------------
// Forwards: concrete values

// frame is a pending call during concretization.
type frame struct {
	vals []bool
	step *tstep
	ei   *edgeInfo
}

// concretize chooses concrete values for the skeleton and returns the trace.
func (tb *tracer) concretize(steps []tstep) (*result.Trace, error) {
	md, m, l := tb.md, tb.m, tb.md.l
	if len(steps) == 0 {
		return nil, tb.internal("empty skeleton")
	}
	cur := func(pe bdd.Node) bdd.Node { return m.Exists(pe, tb.entryAll) }
	first := &steps[0]
	main := md.procs[first.proc]
	vals := make([]bool, l.N())
	if err := tb.choose(vals, cur(first.pe), tb.stateSlots(main, first.loc)); err != nil {
		return nil, err
	}
	var stack []frame
	tr := &result.Trace{Steps: make([]result.Step, 0, len(steps))}
	// inPE: the values are known to lie in the step's path edge, because
	// they were chosen in it; after a return they are checked.
	inPE := true
	for i := range steps {
		if err := tb.poll(); err != nil {
			return nil, err
		}
		st := &steps[i]
		pi := md.procs[st.proc]
		if !inPE && m.And(tb.cube(pi, st.loc, vals), cur(st.pe)) == bdd.False {
			return nil, tb.internal("step %d: values leave the path edge", i+1)
		}
		inPE = true
		tr.Steps = append(tr.Steps, tb.step(pi, st, vals))
		if i == len(steps)-1 {
			break
		}
		next := &steps[i+1]
		ei := md.compile(pi.edges[st.edge])
		proc, loc := pi, ei.edge.To
		if ei.call != nil {
			q := ei.callee
			stack = append(stack, frame{vals: slices.Clone(vals), step: st, ei: ei})
			target := next.pe
			if q.proc.Entry == q.proc.Exit {
				target, inPE = st.exit, false
			}
			nv, err := tb.enter(ei, vals, cur(target))
			if err != nil {
				return nil, err
			}
			vals, proc, loc = nv, q, q.proc.Entry
		} else {
			target := next.pe
			if loc == pi.proc.Exit {
				if len(stack) == 0 {
					return nil, tb.internal("step %d returns from main", i+1)
				}
				target, inPE = stack[len(stack)-1].step.exit, false
			}
			nv, err := tb.post(pi, ei, vals, cur(target))
			if err != nil {
				return nil, err
			}
			vals = nv
		}
		// Returns: arriving at an exit pops a frame, possibly several.
		for loc == proc.proc.Exit && len(stack) > 0 {
			fr := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			nv := slices.Clone(fr.vals)
			for g := 0; g < l.G; g++ {
				nv[g] = vals[g]
			}
			for k, t := range fr.ei.call.Targets {
				if !t.Discard {
					nv[l.Slot(t.Var)] = vals[l.Ret(k)]
				}
			}
			caller := fr.ei.pi
			proc, loc = caller, fr.ei.edge.To
			if m.And(tb.cube(caller, loc, nv), l.Post(fr.ei.call)) == bdd.False {
				return nil, tb.internal("step %d: the return violates the caller's enforce", i+1)
			}
			vals = nv
		}
		if proc.proc.Index != next.proc || loc != next.loc {
			return nil, tb.internal("step %d leads to %s location %d, the next step is at %s location %d",
				i+1, proc.proc.Name, loc, md.procs[next.proc].proc.Name, next.loc)
		}
	}
	return tr, nil
}

// stateVars are the slots whose values a state of a procedure holds
// (globals and locals, and the returned values at the exit), with their
// Cur copies as BDD variables, sorted (the order SatOne reports).
type stateVars struct {
	slots []int
	vars  []int       // vars[i]: Cur copy of slots[i]
	vs    *bdd.VarSet // the same variables
	at    []int       // at[i]: index of vars[i] in vs.Vars()
	buf   []bool      // scratch for cube
}

// stateSlots returns the state variables of pi at loc, built once per
// procedure (one set for the exit, one for the other locations).
func (tb *tracer) stateSlots(pi *procInfo, loc int) *stateVars {
	k := 2 * pi.proc.Index
	exit := loc == pi.proc.Exit
	if exit {
		k++
	}
	if sv := tb.states[k]; sv != nil {
		return sv
	}
	l := tb.md.l
	sv := &stateVars{}
	for _, s := range pi.scope.Elems() {
		if !l.IsRet(s) || exit {
			sv.slots = append(sv.slots, s)
			sv.vars = append(sv.vars, l.Var(s, symbolic.Cur))
		}
	}
	sv.vs = tb.m.VarSet(sv.vars...)
	sorted := sv.vs.Vars()
	sv.at = make([]int, len(sv.vars))
	for i, v := range sv.vars {
		sv.at[i], _ = slices.BinarySearch(sorted, v)
	}
	sv.buf = make([]bool, len(sv.vars))
	tb.states[k] = sv
	return sv
}

// cube returns the concrete state vals of pi at loc as a cube over Cur.
func (tb *tracer) cube(pi *procInfo, loc int, vals []bool) bdd.Node {
	sv := tb.stateSlots(pi, loc)
	for i, s := range sv.slots {
		sv.buf[i] = vals[s]
	}
	return tb.m.Assignment(sv.vars, sv.buf)
}

// choose sets vals on the slots of sv to one assignment of f (over Cur
// copies), preferring false.
func (tb *tracer) choose(vals []bool, f bdd.Node, sv *stateVars) error {
	v := tb.m.SatOne(f, sv.vs)
	if v == nil {
		return tb.internal("no values satisfy the next path edge")
	}
	for i, s := range sv.slots {
		vals[s] = v[sv.at[i]]
	}
	return nil
}

// post executes an intraprocedural edge from vals and returns a successor
// state in target.
func (tb *tracer) post(pi *procInfo, ei *edgeInfo, vals []bool, target bdd.Node) ([]bool, error) {
	m := tb.m
	ch := tb.changedSets(ei)
	img := m.And(tb.cube(pi, ei.edge.From, vals), ei.img.Rel())
	if !ch.set.Empty() {
		img = m.Exists(img, ch.cur)
		img = m.Replace(img, ch.nextToCur)
	}
	img = m.And(img, target)
	nv := slices.Clone(vals)
	if err := tb.choose(nv, img, tb.stateSlots(pi, ei.edge.To)); err != nil {
		return nil, fmt.Errorf("%w (%s line %d)", err, pi.proc.Name, ei.edge.Pos.Line)
	}
	return nv, nil
}

// enter executes a call edge from the caller's vals and returns a state at
// the callee's entry in target.
func (tb *tracer) enter(ei *edgeInfo, vals []bool, target bdd.Node) ([]bool, error) {
	m, l := tb.m, tb.md.l
	pi, q := ei.pi, ei.callee
	s := tb.cube(pi, ei.edge.From, vals)
	locals := tb.md.all.Minus(tb.md.glob) // the caller's locals leave scope
	rel := l.CallEntry(ei.call)
	img := m.AndExists(s, rel.R, l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: locals}))
	if !rel.Changed.Empty() {
		img = m.Replace(img, l.Rename(symbolic.Next, symbolic.Cur, rel.Changed))
	}
	img = m.And(img, target)
	nv := slices.Clone(vals)
	for i := l.G; i < l.N(); i++ {
		nv[i] = false
	}
	if err := tb.choose(nv, img, tb.stateSlots(q, q.proc.Entry)); err != nil {
		return nil, fmt.Errorf("%w (call of %s)", err, q.proc.Name)
	}
	return nv, nil
}

// step renders a skeleton step with concrete values, through the one step
// constructor of every engine (result.NewStep: text, position and choice
// mark from the ir).
func (tb *tracer) step(pi *procInfo, st *tstep, vals []bool) result.Step {
	p, l := tb.md.p, tb.md.l
	values := result.ValuesOf(p, pi.proc, func(v ir.VarRef) bool { return vals[l.Slot(v)] })
	return result.NewStep(p, pi.proc, st.loc, st.edge, values, st.depth, 0)
}
