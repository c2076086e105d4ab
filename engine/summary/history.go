package summary

import (
	"context"
	"slices"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/result"
)

// A history trace is the fallback when the ring search for a shortest
// trace costs too much (see Options.ShortestBudget): a trace rebuilt from
// what the reachability search itself found, one image at a time, with no
// second search. It is a real execution (concretized and replayed like a
// shortest one) but not necessarily a shortest.
//
// The search records, per location, the path edges each propagation
// added, with the propagation's number (its stamp; reach.hist). What a
// propagation adds is computed from path edges found before it, so every
// path edge e with stamp s has, among the path edges with smaller stamps,
// one of: a predecessor along an intraprocedural edge; a call site path
// edge and a callee exit path edge whose return gives e; a call site path
// edge that enters e's procedure with e (e at an entry); or e is initial
// (at main's entry). The backward walk picks, at every step, a
// predecessor of that kind with the smallest stamp it can find, so the
// stamps decrease strictly and the walk ends. A return is expanded as in
// the ring trace: the callee's exit path edge is walked back within its
// context (the Entry copies, which no step of the same level changes) to
// the callee's entry, where the call that entered it from the chosen call
// site path edge ends the level. The skeleton has the form of the ring
// trace's (tstep), and the same forward pass chooses the concrete values.

// histTrace builds a trace from the history of search r to its first error.
func histTrace(ctx context.Context, r *reach) (*result.Trace, error) {
	md := r.md
	tb := newTracer(ctx, md)
	steps, err := tb.histSkeleton(r)
	if err != nil {
		return nil, err
	}
	if err := md.m.Err(); err != nil {
		return nil, err
	}
	tr, err := tb.concretize(steps)
	if err != nil {
		return nil, err
	}
	if err := md.m.Err(); err != nil {
		return nil, err
	}
	return tr, nil
}

// earliest returns a path edge (a cube over the tracked variables) at
// (proc, loc) in f, from the history entry with the smallest stamp below
// the given one that meets f, and that stamp; False and -1 if none does.
func (tb *tracer) earliest(proc, loc int, f bdd.Node, below int64) (bdd.Node, int64) {
	if f == bdd.False || f == bdd.Invalid {
		return bdd.False, -1
	}
	m := tb.m
	for _, st := range tb.hist[proc][loc] {
		if st.stamp >= below {
			break
		}
		if c := m.And(st.r.Node(), f); c != bdd.False && c != bdd.Invalid {
			return m.SatOneCube(c, tb.md.trackedSet(tb.md.procs[proc], loc)), st.stamp
		}
	}
	return bdd.False, -1
}

// stampOf returns the stamp of path edge e (a cube) at (proc, loc), -1 if
// the history does not hold it.
func (tb *tracer) stampOf(proc, loc int, e bdd.Node) int64 {
	for _, st := range tb.hist[proc][loc] {
		if tb.m.And(st.r.Node(), e) != bdd.False {
			return st.stamp
		}
	}
	return -1
}

// hlevel is a level of the history walk: the procedure, the current
// location, path edge and stamp, and the depth. A nested level (a callee
// expanded at a return) has the call step of its caller, where the
// caller resumes, and the callee's entry path edges that the call enters
// (the level ends at one of them).
type hlevel struct {
	pi     *procInfo
	loc    int
	pe     bdd.Node
	stamp  int64
	depth  int
	nested bool
	call   tstep
	entry  bdd.Node // nested: what the call enters
	resume struct {
		loc   int
		pe    bdd.Node
		stamp int64
	}
}

// histSkeleton returns the steps of an execution to r's first error, in
// execution order, with depths (see the comment at the top of the file).
func (tb *tracer) histSkeleton(r *reach) ([]tstep, error) {
	md, m := tb.md, tb.m
	tb.hist = r.hist
	proc, loc := int(r.firstError.proc), int(r.firstError.loc)
	pi := md.procs[proc]
	if len(tb.hist[proc][loc]) == 0 {
		return nil, tb.internal("no history at the error location")
	}
	first := tb.hist[proc][loc][0]
	pe := m.SatOneCube(first.r.Node(), md.trackedSet(pi, loc))
	tb.rev = tb.rev[:0]
	if pi.proc.Locations[loc].Kind != ir.FailLoc {
		tb.rev = append(tb.rev, tstep{proc: proc, loc: loc, edge: result.NoEdge, pe: pe, exit: bdd.Invalid})
	}
	main := md.procs[md.p.Main]
	stack := []hlevel{{pi: pi, loc: loc, pe: pe, stamp: first.stamp}}
	minDepth := 0
	for {
		if err := tb.poll(); err != nil {
			return nil, err
		}
		lv := &stack[len(stack)-1]
		pi, loc, pe, s := lv.pi, lv.loc, lv.pe, lv.stamp
		proc := pi.proc.Index
		if loc == pi.proc.Entry {
			switch {
			case lv.nested:
				if m.And(pe, lv.entry) == bdd.False {
					break
				}
				// The callee's level is done: the call step, then the
				// caller goes on from the call site.
				done := *lv
				stack = stack[:len(stack)-1]
				tb.rev = append(tb.rev, done.call)
				up := &stack[len(stack)-1]
				up.loc, up.pe, up.stamp = done.resume.loc, done.resume.pe, done.resume.stamp
				continue
			case pi == main:
				if m.And(pe, main.selfLoop.Node()) == bdd.False {
					break
				}
				// An initial state: the start.
				out := tb.rev
				tb.rev = nil
				slices.Reverse(out)
				for i := range out {
					out[i].depth -= minDepth
				}
				return out, nil
			default:
				// The outermost level so far reached the entry of a
				// procedure other than main: a call site entered it.
				cs, c, st := tb.histCaller(pi, pe, s)
				if cs == nil {
					break // e was found by a step back to the entry
				}
				lv.depth--
				minDepth = min(minDepth, lv.depth)
				tb.rev = append(tb.rev, tstep{proc: cs.pi.proc.Index, loc: cs.edge.From, edge: cs.edge.ID, depth: lv.depth, pe: c, exit: bdd.Invalid})
				lv.pi, lv.loc, lv.pe, lv.stamp = cs.pi, cs.edge.From, c, st
				continue
			}
		}
		// A predecessor with the smallest stamp, along an in-edge.
		var (
			best      int64 = -1
			bestPE          = bdd.False
			bestEdge  *edgeInfo
			bestPiece bdd.Node
		)
		for _, id := range pi.proc.Locations[loc].In {
			ei := md.compile(pi.edges[id])
			u := ei.edge.From
			if pi.proc.Locations[u].Error {
				continue
			}
			below := s
			if best >= 0 {
				below = best // only a smaller stamp improves
			}
			if ei.call == nil {
				c, st := tb.earliest(proc, u, tb.preStep(ei.img.Rel(), tb.changedSets(ei), pe), below)
				if st >= 0 {
					best, bestPE, bestEdge = st, c, ei
				}
				continue
			}
			// A return: the callee's exit path edges found before e.
			q := ei.callee
			exits := tb.hist[q.proc.Index][q.proc.Exit]
			piece := bdd.False
			for _, x := range exits {
				if x.stamp >= s {
					break
				}
				piece = m.Or(piece, x.r.Node())
			}
			if piece == bdd.False || piece == bdd.Invalid {
				continue
			}
			rel := m.And(ei.cs.Lift(piece), tb.postChanged(ei))
			c, st := tb.earliest(proc, u, tb.preStep(rel, tb.changedSets(ei), pe), below)
			if st >= 0 {
				best, bestPE, bestEdge, bestPiece = st, c, ei, piece
			}
		}
		if best < 0 {
			return nil, tb.internal("no earlier predecessor of %s location %d (stamp %d)", pi.proc.Name, loc, s)
		}
		ei := bestEdge
		if ei.call == nil {
			tb.rev = append(tb.rev, tstep{proc: proc, loc: ei.edge.From, edge: ei.edge.ID, depth: lv.depth, pe: bestPE, exit: bdd.Invalid})
			lv.loc, lv.pe, lv.stamp = ei.edge.From, bestPE, best
			continue
		}
		x, ok := tb.tryCalleeExit(ei, bestPE, pe, bestPiece)
		if !ok {
			return nil, tb.internal("no exit path edge of %s matches the return", ei.callee.proc.Name)
		}
		q := ei.callee
		xs := tb.stampOf(q.proc.Index, q.proc.Exit, x)
		if xs < 0 || xs >= s {
			return nil, tb.internal("exit path edge of %s out of order", q.proc.Name)
		}
		callee := hlevel{pi: q, loc: q.proc.Exit, pe: x, stamp: xs, depth: lv.depth + 1, nested: true,
			call:  tstep{proc: proc, loc: ei.edge.From, edge: ei.edge.ID, depth: lv.depth, pe: bestPE, exit: x},
			entry: ei.cs.Enter(bestPE)}
		callee.resume.loc, callee.resume.pe, callee.resume.stamp = ei.edge.From, bestPE, best
		stack = append(stack, callee)
	}
}

// histCaller returns a call site of pi, a path edge there with the
// smallest stamp below s that enters pi with entry path edge pe, and its
// stamp; nil if none does.
func (tb *tracer) histCaller(pi *procInfo, pe bdd.Node, s int64) (*edgeInfo, bdd.Node, int64) {
	var (
		best   int64 = -1
		bestCS *edgeInfo
		bestPE = bdd.False
	)
	for _, cs := range pi.callers {
		tb.md.compile(cs)
		below := s
		if best >= 0 {
			below = best
		}
		c, st := tb.earliest(cs.pi.proc.Index, cs.edge.From, tb.preEntry(cs, pe), below)
		if st >= 0 {
			best, bestCS, bestPE = st, cs, c
		}
	}
	return bestCS, bestPE, best
}
