package conc

import (
	"fmt"

	"boolprog/ir"
)

// fill copies the original procedure of clone c: its locations, and each
// edge once per round, guarded by the round (the code of thread i in
// round r reads and writes the shared state of round r); eager adds at
// each location the ends of the context, and records errors.
func (bd *builder) fill(c *clone) {
	p := bd.p
	orig := p.Procs[c.key.proc]
	pb := c.pb
	thread := c.key.thread
	inInit := thread < 0
	// Errors are reached at once where every state is reachable: in init
	// (before any guess) and in the lazy program.
	realErrors := inInit || bd.lazy
	// Counting contexts, the errors of the lazy threads are reached
	// through a gate: an edge to the error label, if the error's context
	// fits the limit (gate).
	gated := bd.lazy && !inInit && bd.counting() && bd.goal == GoalError
	c.locs = make([]int, len(orig.Locations))
	for _, l := range orig.Locations {
		kind := l.Kind
		var labels []string
		if kind == ir.FailLoc && (!(realErrors && bd.goal == GoalError) || gated) {
			kind = ir.StmtLoc
		}
		if realErrors && bd.goal == GoalError && l.Error && l.Kind == ir.StmtLoc && !gated {
			labels = []string{bd.target}
		}
		c.locs[l.ID] = pb.Loc(ir.Location{Kind: kind, Pos: l.Pos, Text: l.Text, Labels: labels,
			Origin: ir.Origin{Proc: orig.Index, Loc: l.ID, Edge: -1, Thread: max(thread, 0), Round: -1}})
	}
	if c.key.from >= 0 {
		pb.SetEntry(c.locs[c.key.from])
	} else {
		pb.SetEntry(c.locs[orig.Entry])
	}
	pb.SetExit(c.locs[orig.Exit])

	for _, l := range orig.Locations {
		if l.Kind == ir.ExitLoc || l.Kind == ir.FailLoc {
			if l.Kind == ir.FailLoc && !realErrors && bd.goal == GoalError {
				bd.recordError(c, l)
			}
			if l.Kind == ir.FailLoc && gated {
				bd.gate(c, l)
			}
			continue
		}
		if l.Error && bd.goal == GoalError {
			if !realErrors {
				bd.recordError(c, l)
			}
			if gated {
				bd.gate(c, l)
			}
			continue // the error is reached on arrival
		}
		if !inInit {
			bd.switchEdges(pb, thread, c.locs[l.ID])
		}
		for _, id := range l.Out {
			e := orig.Edges[id]
			if inInit {
				bd.copyEdge(c, e, 1, nil)
				continue
			}
			for r := 1; r <= bd.K; r++ {
				bd.copyEdge(c, e, r, bd.kEq(r))
			}
		}
	}
}

// gate adds (lazy, counting contexts) at the copy of error location l the
// edge to the error label, open if the error's context (the running one,
// which counts as non-empty) fits the limit.
func (bd *builder) gate(c *clone, l *ir.Location) {
	pb := c.pb
	z := pb.Loc(ir.Location{Kind: ir.StmtLoc, Text: "skip", Labels: []string{bd.target}, Origin: syn})
	if l.Kind == ir.FailLoc {
		// The step into the copy of l is the failing one.
		edge(pb, c.locs[l.ID], z, assume(bd.ctrBelow()), "the error")
		return
	}
	id := pb.Edge(ir.Edge{From: c.locs[l.ID], To: z, Op: assume(bd.ctrBelow()), Text: "error reached", Pos: l.Pos,
		Origin: ir.Origin{Proc: c.key.proc, Loc: l.ID, Edge: -1, Thread: c.key.thread, Round: -1}})
	bd.seq.errRecords[[2]int{c.index, id}] = true
}

// recordError adds (eager) at the copy of error location l the step that
// records the error and its round and ends the thread.
func (bd *builder) recordError(c *clone, l *ir.Location) {
	pb := c.pb
	for r := 1; r <= bd.K; r++ {
		targets, values, cons := bd.errorRound(r)
		targets = append([]ir.VarRef{bd.err}, targets...)
		values = append([]ir.Expr{ir.True}, values...)
		if bd.m.AtomicSections {
			targets = append(targets, bd.own)
			values = append(values, ir.False)
		}
		id := pb.Edge(ir.Edge{From: c.locs[l.ID], To: bd.abort(c), Op: &ir.Assign{Targets: targets, Values: values,
			Constrain: and(bd.kEq(r), not(vr(bd.err)), not(vr(bd.ovf)), cons)}, Text: "error reached", Pos: l.Pos,
			Origin: ir.Origin{Proc: c.key.proc, Loc: l.ID, Edge: -1, Thread: c.key.thread, Round: r}})
		if l.Kind != ir.FailLoc {
			bd.seq.errRecords[[2]int{c.index, id}] = true
		}
	}
}

// errorRound returns (eager) how an error (or overflow) in round r
// records its round: assigned, or, counting contexts, checked against the
// guess made at the start.
func (bd *builder) errorRound(r int) ([]ir.VarRef, []ir.Expr, ir.Expr) {
	if bd.counting() {
		return nil, nil, eqBits(bd.errR, r-1)
	}
	return cloneRefs(bd.errR), constBits(bd.kbit, r-1), ir.True
}

// abort returns (eager) the location of clone c that ends its thread
// after an error: the remaining rounds are skipped and the next threads
// run, only to confirm the guesses of the rounds before the error.
func (bd *builder) abort(c *clone) int {
	if c.abort >= 0 {
		return c.abort
	}
	pb := c.pb
	c.abort = simple(pb, "")
	a2 := simple(pb, "")
	// The context of the error counts (counting contexts): it has the
	// error's step.
	var ts []ir.VarRef
	var vs []ir.Expr
	var cons ir.Expr
	if bd.counting() {
		ts, vs, cons = bd.count(ir.True)
	}
	edge(pb, c.abort, a2, &ir.Assign{Targets: append(cloneRefs(bd.k), ts...), Values: append(constBits(bd.kbit, bd.K-1), vs...), Constrain: cons}, "skip the remaining rounds")
	edge(pb, a2, a2, call(bd.yieldProc[c.key.thread]), "the next thread")
	return c.abort
}

// temp returns clone c's j-th temporary local (a returned value bound for
// a global).
func (bd *builder) temp(c *clone, j int) ir.VarRef {
	for len(c.temps) <= j {
		c.temps = append(c.temps, c.pb.Local(fmt.Sprintf("#ret%d", len(c.temps))))
	}
	return c.temps[j]
}

// copyEdge adds the copy of edge e for round r, guarded by guard (nil in
// init, which runs once, before the rounds, in the state of round 1).
func (bd *builder) copyEdge(c *clone, e *ir.Edge, r int, guard ir.Expr) {
	pb := c.pb
	thread := c.key.thread
	round := r
	if thread < 0 {
		round = 0
	}
	origin := ir.Origin{Proc: c.key.proc, Loc: -1, Edge: e.ID, Thread: max(thread, 0), Round: round}
	sh := bd.shared(r)
	from, to := c.locs[e.From], c.locs[e.To]
	g := func(x ir.Expr) ir.Expr {
		if guard == nil {
			return x
		}
		return and(guard, x)
	}
	constrain := func(x ir.Expr) ir.Expr {
		y := g(x)
		if isConst(y, true) {
			return nil
		}
		return y
	}
	// Counting contexts, every step of a thread marks its context as
	// non-empty.
	mark := bd.counting() && thread >= 0
	var markT []ir.VarRef
	var markV []ir.Expr
	if mark {
		markT, markV = []ir.VarRef{bd.nonempty}, []ir.Expr{ir.True}
	}
	// guarded is the step that takes place where x holds (and marks the
	// context).
	guarded := func(x ir.Expr) ir.Op {
		if mark {
			return &ir.Assign{Targets: markT, Values: markV, Constrain: constrain(x)}
		}
		return assume(g(x))
	}
	add := func(from, to int, op ir.Op) {
		pb.Edge(ir.Edge{From: from, To: to, Op: op, Pos: e.Pos, Text: e.Text, Origin: origin})
	}
	// split returns where an operation that cannot carry the guard
	// starts: after an Assume of the guard.
	split := func() int {
		if guard == nil && !mark {
			return from
		}
		mid := simple(pb, "")
		edge(pb, from, mid, guarded(ir.True), fmt.Sprintf("round %d", r))
		return mid
	}
	ref := func(v ir.VarRef) ir.VarRef {
		if v.Global {
			return sh[v.Index]
		}
		return v
	}
	exprs := func(es []ir.Expr) []ir.Expr {
		out := make([]ir.Expr, len(es))
		for i, x := range es {
			out[i] = subst(x, sh)
		}
		return out
	}
	switch op := e.Op.(type) {
	case *ir.Skip:
		if guard == nil && !mark {
			add(from, to, &ir.Skip{})
		} else {
			add(from, to, guarded(ir.True))
		}
	case *ir.Assume:
		add(from, to, guarded(subst(op.Cond, sh)))
	case *ir.Assign:
		targets := make([]ir.VarRef, len(op.Targets))
		for i, t := range op.Targets {
			targets[i] = ref(t)
		}
		var cons ir.Expr = ir.True
		if op.Constrain != nil {
			cons = subst(op.Constrain, sh)
		}
		add(from, to, &ir.Assign{Targets: append(targets, markT...), Values: append(exprs(op.Values), markV...), Constrain: constrain(cons)})
	case *ir.Call:
		src := split()
		callee := bd.cloneOf(thread, op.Proc, -1)
		targets := make([]ir.Target, len(op.Targets))
		var globals []ir.VarRef // original globals assigned from temporaries
		var temps []ir.VarRef
		for i, t := range op.Targets {
			targets[i] = t
			if !t.Discard && t.Var.Global {
				tmp := bd.temp(c, len(temps))
				temps = append(temps, tmp)
				globals = append(globals, t.Var)
				targets[i] = ir.Target{Var: tmp}
			}
		}
		dst := to
		if len(globals) > 0 || op.Post != nil {
			dst = simple(pb, "")
			// The call returns in whatever round the callee ended
			// in: the results and the caller's enforce go to that
			// round's state.
			rounds := []int{1}
			if thread >= 0 {
				rounds = rounds[:0]
				for r2 := 1; r2 <= bd.K; r2++ {
					rounds = append(rounds, r2)
				}
			}
			for _, r2 := range rounds {
				sh2 := bd.shared(r2)
				var guard2 ir.Expr = ir.True
				if thread >= 0 {
					guard2 = bd.kEq(r2)
				}
				var post ir.Expr = ir.True
				if op.Post != nil {
					post = subst(op.Post, sh2)
				}
				if len(globals) == 0 {
					edge(pb, dst, to, assume(and(guard2, post)), "after the call")
					continue
				}
				ts := make([]ir.VarRef, len(globals))
				vs := make([]ir.Expr, len(globals))
				for i, gv := range globals {
					ts[i] = sh2[gv.Index]
					vs[i] = vr(temps[i])
				}
				cons := and(guard2, primeAll(post))
				if isConst(cons, true) {
					cons = nil
				}
				edge(pb, dst, to, &ir.Assign{Targets: ts, Values: vs, Constrain: cons}, "after the call")
			}
		}
		add(src, dst, &ir.Call{Proc: callee.index, Args: exprs(op.Args), Targets: targets})
	case *ir.Return:
		add(split(), to, &ir.Return{Values: exprs(op.Values)})
	case *ir.StartThread:
		bd.creation(c, e, op, r, origin, markT, markV)
	case *ir.EndThread:
		src := split()
		if thread < 0 {
			// init ends: the threads start.
			add(src, src, call(bd.afterInit()))
			return
		}
		add(src, src, call(bd.endProc[thread]))
	case *ir.AtomicBegin, *ir.AtomicEnd:
		_, begin := op.(*ir.AtomicBegin)
		add(from, to, &ir.Assign{Targets: append([]ir.VarRef{bd.own}, markT...), Values: append([]ir.Expr{constant(begin)}, markV...), Constrain: constrain(ir.True)})
	default:
		panic(fmt.Sprintf("conc: unknown operation %T", op))
	}
}

// afterInit returns the procedure that starts the threads after init.
func (bd *builder) afterInit() int {
	return bd.afterInitProc
}

// creation adds the copies for round r of the thread creation e: the
// next thread number (the shared counter, part of the shared state) gets
// its record — created, the round, how it starts, its arguments — or, with
// every slot taken, the overflow.
func (bd *builder) creation(c *clone, e *ir.Edge, op *ir.StartThread, r int, origin ir.Origin, markT []ir.VarRef, markV []ir.Expr) {
	pb := c.pb
	sh := bd.shared(r)
	var cnt []ir.VarRef
	if bd.cntBits > 0 {
		cnt = sh[bd.cntOff : bd.cntOff+bd.cntBits]
	}
	from, to := c.locs[e.From], c.locs[e.To]
	key := [2]int{op.Proc, op.Goto}
	var args []ir.Expr
	if op.Goto >= 0 {
		key = [2]int{c.key.proc, op.Goto}
		for j := range bd.p.Procs[c.key.proc].Locals {
			args = append(args, vr(ir.VarRef{Index: j}))
		}
	} else {
		for _, a := range op.Args {
			args = append(args, subst(a, sh))
		}
	}
	kind := bd.kindOf[key]
	first := len(bd.m.Static)
	addEdge := func(op ir.Op, slot int) {
		id := pb.Edge(ir.Edge{From: from, To: to, Op: op, Pos: e.Pos, Text: e.Text, Origin: origin})
		bd.seq.creations[[2]int{c.index, id}] = slot
	}
	// create adds the creation of the thread of slot, where cons holds;
	// the counters' targets and values come with it.
	create := func(slot int, cons ir.Expr, cts []ir.VarRef, cvs []ir.Expr) {
		targets := append(cloneRefs(cts), bd.created[slot])
		values := append(cloneExprs(cvs), ir.True)
		targets = append(targets, bd.cround[slot]...)
		values = append(values, constBits(bd.kbit, r-1)...)
		if len(bd.kinds) > 1 {
			targets = append(targets, bd.ckind[slot]...)
			values = append(values, constBits(len(bd.ckind[slot]), kind)...)
		}
		targets = append(targets, bd.cargs[slot][:len(args)]...)
		values = append(values, args...)
		targets = append(targets, markT...)
		values = append(values, markV...)
		if !bd.lazy {
			addEdge(&ir.Assign{Targets: targets, Values: values, Constrain: cons}, slot)
			return
		}
		// Lazy: the context's first run writes the record; a replay
		// must create the same thread.
		addEdge(&ir.Assign{Targets: targets, Values: values, Constrain: and(cons, bd.tgtEq(r))}, slot)
		same := []ir.Expr{cons, bd.tgtAbove(r), vr(bd.created[slot]), eqBits(bd.cround[slot], r-1)}
		if len(bd.kinds) > 1 {
			same = append(same, eqBits(bd.ckind[slot], kind))
		}
		rt := append(append(cloneRefs(cts), bd.cargs[slot][:len(args)]...), markT...)
		rv := append(append(cloneExprs(cvs), args...), markV...)
		for j := range args {
			a := bd.cargs[slot][j]
			same = append(same, eq(primed(a), vr(a)))
		}
		addEdge(&ir.Assign{Targets: rt, Values: rv, Constrain: and(same...)}, slot)
	}
	// The creation counter's values (none without the counter: no run
	// creates more threads than the limit).
	type count struct {
		cons ir.Expr
		ts   []ir.VarRef
		vs   []ir.Expr
	}
	counts := []count{{ir.True, nil, nil}}
	if bd.cntBits > 0 {
		counts = counts[:0]
		for n := 0; n < bd.m.MaxThreads; n++ {
			counts = append(counts, count{eqBits(cnt, n), cloneRefs(cnt), constBits(bd.cntBits, n+1)})
		}
	}
	for n, cc := range counts {
		cons := and(bd.kEq(r), cc.cons)
		if bd.rcBits == 0 {
			// The n-th thread created takes slot n.
			create(first+n, cons, cc.ts, cc.vs)
			continue
		}
		// The thread takes the next free slot (counted by rc) or,
		// with fewer slots than threads, none, and then never steps.
		rc := sh[bd.rcOff : bd.rcOff+bd.rcBits]
		if bd.compact() {
			addEdge(assign(append(cloneRefs(cc.ts), markT...), append(cloneExprs(cc.vs), markV...), cons), -1)
		}
		free := bd.n - first
		if bd.cntBits > 0 {
			free = min(free, n+1)
		}
		for s := 0; s < free; s++ {
			create(first+s, and(cons, eqBits(rc, s)), append(cloneRefs(cc.ts), rc...), append(cloneExprs(cc.vs), constBits(bd.rcBits, s+1)...))
		}
	}
	if bd.goal != GoalOverflow || bd.cntBits == 0 {
		return // the run is cut: the engines ask about it separately (or no run is)
	}
	full := and(bd.kEq(r), eqBits(cnt, bd.m.MaxThreads))
	if bd.lazy {
		z := pb.Loc(ir.Location{Kind: ir.StmtLoc, Text: "skip", Labels: []string{bd.target}, Origin: syn})
		if bd.counting() {
			full = and(full, bd.ctrBelow())
		}
		edge(pb, from, z, assume(full), "one thread too many")
		return
	}
	targets, values, rcons := bd.errorRound(r)
	targets = append([]ir.VarRef{bd.ovf}, targets...)
	values = append([]ir.Expr{ir.True}, values...)
	if bd.m.AtomicSections {
		targets = append(targets, bd.own)
		values = append(values, ir.False)
	}
	edge(pb, from, bd.abort(c), &ir.Assign{Targets: targets, Values: values, Constrain: and(full, not(vr(bd.err)), not(vr(bd.ovf)), rcons)}, "one thread too many")
}
