package summary

import (
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
// shortest execution.
//
// Forwards: choose concrete values. A path edge fixes only the tracked
// (live) variables; the others are given values that follow from the
// previous step (or false at the start), by executing each step with the
// full semantics (explicit frames) restricted to the next path edge. Dead
// variables never influence tracked ones, so the restriction is always
// satisfiable; the engine checks it anyway and reports an internal error
// if not.

// tstep is one step of the skeleton.
type tstep struct {
	proc, loc, edge int // edge: ir edge id, or result.NoEdge for a final label step
	depth           int
	pe              bdd.Node // path edge at loc (Entry copies of the interface, Cur copies of the live slots)
	exit            bdd.Node // call steps that return: the callee's exit path edge
}

// trace builds a shortest counterexample ending in h.
func (rs *rings) trace(h *hit) (*result.Trace, error) {
	tb := &tracer{rs: rs, md: rs.md, m: rs.m}
	tb.entryAll = rs.md.l.VarSet(symbolic.CopySet{Copy: symbolic.Entry, Set: rs.md.all})
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

type tracer struct {
	rs       *rings
	md       *model
	m        *bdd.Manager
	entryAll *bdd.VarSet
}

// ---------------------------------------------------------------------------
// Backwards: the skeleton

// skeleton returns the steps of a shortest execution to h, in execution
// order, with depths.
func (tb *tracer) skeleton(h *hit) ([]tstep, error) {
	md := tb.md
	pi := md.procs[h.proc]
	loc, pe, key := h.loc, h.pe, h.key
	var levels [][]tstep // innermost first
	var calls []tstep    // calls[i] enters levels[i] from levels[i+1]
	for {
		steps, entryPE, err := tb.sameLevel(pi, loc, pe, key, 0)
		if err != nil {
			return nil, err
		}
		levels = append(levels, steps)
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
			calls = append(calls, tstep{proc: from, loc: cs.edge.From, edge: cs.edge.ID, pe: pe2, exit: bdd.Invalid})
			pi, loc, pe, key = cs.pi, cs.edge.From, pe2, p-1
			found = true
			break
		}
		if !found {
			return nil, tb.internal("no call site enters %s at ring %d", pi.proc.Name, p)
		}
	}
	var out []tstep
	n := len(levels)
	for i := n - 1; i >= 0; i-- {
		d := n - 1 - i
		for _, s := range levels[i] {
			s.depth += d
			out = append(out, s)
		}
		if i > 0 {
			c := calls[i-1]
			c.depth = d
			out = append(out, c)
		}
	}
	if md.procs[h.proc].proc.Locations[h.loc].Kind != ir.FailLoc {
		out = append(out, tstep{proc: h.proc, loc: h.loc, edge: result.NoEdge, depth: n - 1, pe: h.pe, exit: bdd.Invalid})
	}
	return out, nil
}

func (tb *tracer) internal(format string, args ...any) error {
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

// sameLevel returns the steps of a shortest same-level execution from the
// entry of pe's context to pe at loc (exclusive), at the given depth, and
// the path edge at the entry where it starts.
func (tb *tracer) sameLevel(pi *procInfo, loc int, pe bdd.Node, key, depth int) ([]tstep, bdd.Node, error) {
	md, m, rs := tb.md, tb.m, tb.rs
	proc := pi.proc.Index
	p := tb.ctxKey(pi, pe)
	if p < 0 {
		return nil, bdd.False, tb.internal("no context ring for a path edge of %s", pi.proc.Name)
	}
	var rev []tstep
	for !(loc == pi.proc.Entry && key == p) {
		if key <= p {
			return nil, bdd.False, tb.internal("%s: ring %d below its context's %d", pi.proc.Name, key, p)
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
				cand := m.And(f, tb.preStep(pi, md.l.Full(md.l.EdgeRel(pi.proc, ei.edge.Op), pi.scope), pe))
				if cand == bdd.False || cand == bdd.Invalid {
					continue
				}
				pe2 := m.SatOneCube(cand, md.trackedSet(pi, u))
				rev = append(rev, tstep{proc: proc, loc: u, edge: id, depth: depth, pe: pe2, exit: bdd.Invalid})
				loc, pe, key = u, pe2, key-1
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
				l := md.lift(ei, piece)
				// The caller's enforce holds after the return: pe need
				// not show it when it reads variables dead at the
				// return point, so the predecessor must satisfy it.
				full := m.And(md.l.Full(symbolic.Rel{R: l, Changed: ei.changed}, pi.scope), tb.postNext(ei))
				cand := m.And(r.r.Node(), tb.preStep(pi, full, pe))
				if cand == bdd.False || cand == bdd.Invalid {
					continue
				}
				pe2 := m.SatOneCube(cand, md.trackedSet(pi, u))
				x, err := tb.calleeExit(ei, pe2, pe, piece)
				if err != nil {
					return nil, bdd.False, err
				}
				sub, _, err := tb.sameLevel(q, q.proc.Exit, x, tb.ctxKey(q, x)+d, depth+1)
				if err != nil {
					return nil, bdd.False, err
				}
				for i := len(sub) - 1; i >= 0; i-- {
					rev = append(rev, sub[i])
				}
				rev = append(rev, tstep{proc: proc, loc: u, edge: id, depth: depth, pe: pe2, exit: x})
				loc, pe, key = u, pe2, r.key
				found = true
				break edges
			}
		}
		if !found {
			return nil, bdd.False, tb.internal("no predecessor of %s location %d at ring %d", pi.proc.Name, loc, key)
		}
		if err := m.Err(); err != nil {
			return nil, bdd.False, err
		}
	}
	slices.Reverse(rev)
	return rev, pe, nil
}

// preStep returns the path edges of pi from which the full relation full
// (over Cur and Next copies of pi's scope) leads to pe.
func (tb *tracer) preStep(pi *procInfo, full, pe bdd.Node) bdd.Node {
	l := tb.md.l
	peN := tb.m.Replace(pe, l.Rename(symbolic.Cur, symbolic.Next, pi.scope))
	return tb.m.AndExists(full, peN, l.VarSet(symbolic.CopySet{Copy: symbolic.Next, Set: pi.scope}))
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
	md, m, l := tb.md, tb.m, tb.md.l
	q := ei.callee
	// The contexts the call enters from pe2.
	ctx := m.AndExists(m.Exists(pe2, tb.entryAll), ei.bind.Node(), l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: md.all}))
	cand := m.And(piece, ctx)
	// Rename the reported values to the caller's Next copies and match them
	// with pe's values.
	y := cand
	src, dst := ei.outSrc, ei.outDst
	if ei.outPairs != nil {
		y = m.Replace(y, ei.outPairs)
	}
	// After the return: pe's values, the caller's unchanged values from
	// pe2, and the caller's enforce.
	toNext := l.Rename(symbolic.Cur, symbolic.Next, ei.pi.scope)
	peN := m.Exists(m.Replace(pe, toNext), tb.entryAll)
	kept := m.Exists(m.Replace(m.Exists(pe2, tb.entryAll), toNext), l.VarSet(symbolic.CopySet{Copy: symbolic.Next, Set: ei.changed}))
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
		return bdd.False, tb.internal("no exit path edge of %s matches the return", q.proc.Name)
	}
	if len(src) > 0 {
		one = m.Replace(one, l.RenameSlots(symbolic.Next, symbolic.Cur, dst, src))
	}
	x := m.SatOneCube(m.And(piece, one), md.trackedSet(q, q.proc.Exit))
	if x == bdd.False || x == bdd.Invalid {
		return bdd.False, tb.internal("no exit path edge of %s matches the return", q.proc.Name)
	}
	return x, nil
}

// postNext returns the post-condition of call ei (the caller's enforce)
// over the Next copies: the state after the return.
func (tb *tracer) postNext(ei *edgeInfo) bdd.Node {
	l := tb.md.l
	return tb.m.Replace(l.Post(ei.call), l.Rename(symbolic.Cur, symbolic.Next, ei.pi.scope))
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
	for i := range steps {
		st := &steps[i]
		pi := md.procs[st.proc]
		if m.And(tb.cube(pi, st.loc, vals), cur(st.pe)) == bdd.False {
			return nil, tb.internal("step %d: values leave the path edge", i+1)
		}
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
				target = st.exit
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
				target = stack[len(stack)-1].step.exit
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

// stateSlots returns the slots whose values a state of pi at loc holds:
// globals and locals, and the returned values at the exit.
func (tb *tracer) stateSlots(pi *procInfo, loc int) []int {
	l := tb.md.l
	var out []int
	for _, s := range pi.scope.Elems() {
		if !l.IsRet(s) || loc == pi.proc.Exit {
			out = append(out, s)
		}
	}
	return out
}

// cube returns the concrete state vals of pi at loc as a cube over Cur.
func (tb *tracer) cube(pi *procInfo, loc int, vals []bool) bdd.Node {
	slots := tb.stateSlots(pi, loc)
	v := make([]bool, len(slots))
	for i, s := range slots {
		v[i] = vals[s]
	}
	return tb.md.l.Cube(symbolic.Cur, slots, v)
}

// choose sets vals on slots to one assignment of f (over Cur copies).
func (tb *tracer) choose(vals []bool, f bdd.Node, slots []int) error {
	v := tb.md.l.Values(f, symbolic.Cur, slots)
	if v == nil {
		return tb.internal("no values satisfy the next path edge")
	}
	for i, s := range slots {
		vals[s] = v[i]
	}
	return nil
}

// post executes an intraprocedural edge from vals and returns a successor
// state in target.
func (tb *tracer) post(pi *procInfo, ei *edgeInfo, vals []bool, target bdd.Node) ([]bool, error) {
	m, l := tb.m, tb.md.l
	full := l.Full(l.EdgeRel(pi.proc, ei.edge.Op), pi.scope)
	s := tb.cube(pi, ei.edge.From, vals)
	img := m.AndExists(s, full, l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: pi.scope}))
	img = m.Replace(img, l.Rename(symbolic.Next, symbolic.Cur, pi.scope))
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

// step renders a skeleton step with concrete values.
func (tb *tracer) step(pi *procInfo, st *tstep, vals []bool) result.Step {
	p, l := tb.md.p, tb.md.l
	proc := pi.proc
	loc := proc.Locations[st.loc]
	rs := result.Step{
		Proc:  proc.Name,
		Loc:   loc.ID,
		Edge:  st.edge,
		Line:  loc.Pos.Line,
		Col:   loc.Pos.Col,
		Text:  loc.Text,
		Depth: st.depth,
	}
	if st.edge != result.NoEdge {
		rs.Text = proc.Edges[st.edge].Text
	}
	rs.Values = make([]result.Value, 0, len(p.Globals)+len(proc.Locals))
	for i, name := range p.Globals {
		rs.Values = append(rs.Values, result.Value{Name: name, Value: vals[i]})
	}
	for j, name := range proc.Locals {
		rs.Values = append(rs.Values, result.Value{Name: name, Value: vals[l.Local(j)]})
	}
	return rs
}
