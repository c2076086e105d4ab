package concfix

import (
	"context"
	"fmt"
	"slices"

	"boolprog/bdd"
	"boolprog/fix/program"
	"boolprog/ir"
	"boolprog/result"
)

// The trace is built from the rounds (fix's Layers) of the strata, with
// concrete states all the way; the explicit oracle takes no part.
//
// An error tuple of the smallest stratum c* is picked with concrete
// values of everything: the schedule t0..tc* and the globals g1..gc* at
// the switches. With those fixed, the threads are independent: thread j
// runs in the contexts i with t_i = j, each starting with the globals
// g_i (context 0: those init leaves) and ending with g_{i+1}. So each
// thread's part is walked back on its own, the strata restricted to the
// chosen schedule and globals and renamed into spare states U, V (a
// family per stratum c and entry count ecs = e): the error tuple for the
// thread of context c*, and for every other thread a tuple of its last
// context i that ends with the globals g_{i+1} (one exists: the switch
// into context i+1 needed it). A tuple of stratum c, round L comes from
// tuples of rounds before L of the same stratum, or of lower strata:
//
//   - internal step: (u, x) then x -> v;
//   - return: (u, x) of stratum c2 <= c, the call x -> y, and the callee
//     (y, z) with ecs = c2 of stratum c, z at its exit;
//   - switch back: (u, w) of the thread's previous context c3, w the
//     state it was switched out in (globals g_{c3+1}), v = w with g_c;
//   - starts (u = v, ecs = c): the thread's first context (its entry,
//     globals g_c; context 0: init's result), or a call from a tuple of
//     stratum c.
//
// Every step of the walk is tagged with the context it runs in; the
// trace then lists init's steps, then context by context the steps of
// its thread, a switch marked where the thread changes.

// cstate is a concrete state (program.Concrete).
type cstate = program.Concrete

// fam names a family of tuples: stratum c, entry count e; c = -1 is
// init's summaries.
type fam struct{ c, e int }

var initFam = fam{-1, 0}

type family struct {
	layers []bdd.Node // over U, V
	prefix []bdd.Node // prefix[L]: the union of layers < L
}

func (f *family) full() bdd.Node { return f.prefix[len(f.layers)] }

// tstep is a step of a thread: the state before it, the edge taken
// (NoEdge for the final arrival at a target label), the call depth
// (relative to the walk's start) and the context it runs in (-1: init).
type tstep struct {
	st    cstate
	edge  int
	depth int
	ctx   int
}

type tracer struct {
	ctx  context.Context
	st   *strata
	m    *bdd.Manager
	rels *program.Relations
	enc  *program.Encoding
	p    *ir.Program
	mod  *model

	U, V, X, Y, Z              program.StateVars
	setU, setV, setX, setZV    *bdd.VarSet
	setXYZ                     *bdd.VarSet
	vx, xToV, uvYZ, yToU, yToV *bdd.Pairs
	intXV, intoXY, intoYU      bdd.Node
	retXZV, exitV              bdd.Node
	edges                      map[[2]int]bdd.Node

	cstar      int
	errU, errV cstate // the error tuple
	errE       int
	g          [][]bool // g[i]: the globals at switch i (1 <= i <= cstar)
	t          []int    // t[i]: the thread of context i
	fams       map[fam]*family
	roots      []*bdd.Root
}

func newTracer(ctx context.Context, st *strata) *tracer {
	return &tracer{ctx: ctx, st: st, m: st.sv.Manager(), rels: st.rels, enc: st.m.enc, p: st.m.p, mod: st.m,
		edges: map[[2]int]bdd.Node{}, fams: map[fam]*family{}}
}

func (t *tracer) keep(n bdd.Node) bdd.Node {
	t.roots = append(t.roots, t.m.Keep(n))
	return n
}

func (t *tracer) release() {
	for _, r := range t.roots {
		r.Release()
	}
	t.roots = nil
}

func (t *tracer) poll() error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	return t.m.Err()
}

func (t *tracer) setup() {
	m, rels := t.m, t.rels
	t.U, t.V, t.X, t.Y, t.Z = rels.Space(0), rels.Space(1), rels.Space(2), rels.Space(3), rels.Space(4)
	pairs := func(from, to []program.StateVars) *bdd.Pairs {
		return m.NewPairs(program.Vars(from...), program.Vars(to...))
	}
	t.vx = pairs([]program.StateVars{t.V}, []program.StateVars{t.X})
	t.xToV = pairs([]program.StateVars{t.X}, []program.StateVars{t.V})
	t.uvYZ = pairs([]program.StateVars{t.U, t.V}, []program.StateVars{t.Y, t.Z})
	t.yToU = pairs([]program.StateVars{t.Y}, []program.StateVars{t.U})
	t.yToV = pairs([]program.StateVars{t.Y}, []program.StateVars{t.V})
	t.setU, t.setV, t.setX = m.VarSet(program.Vars(t.U)...), m.VarSet(program.Vars(t.V)...), m.VarSet(program.Vars(t.X)...)
	t.setZV, t.setXYZ = m.VarSet(program.Vars(t.Z, t.V)...), m.VarSet(program.Vars(t.X, t.Y, t.Z)...)
	t.intXV = t.keep(rels.Internal(t.X, t.V))
	t.intoXY = t.keep(rels.IntoCall(t.X, t.Y))
	t.intoYU = t.keep(rels.IntoCall(t.Y, t.U))
	t.retXZV = t.keep(rels.Return(t.X, t.Z, t.V))
	t.exitV = t.keep(rels.Exit(t.V))
}

// cube is the assignment of concrete state c to the variables of st.
func (t *tracer) cube(st program.StateVars, c cstate) bdd.Node {
	return st.Cube(t.m, c)
}

// globalsCube is the assignment of the globals g to st's global slots.
func (t *tracer) globalsCube(st program.StateVars, g []bool) bdd.Node {
	var vs []int
	for i := range g {
		vs = append(vs, st.Slots[t.enc.Slots.Slot(ir.VarRef{Global: true, Index: i})])
	}
	return t.m.Assignment(vs, g)
}

// globalsOf returns the globals of a concrete state.
func (t *tracer) globalsOf(c cstate) []bool {
	g := make([]bool, len(t.p.Globals))
	for i := range g {
		g[i] = c.Vals[t.enc.Slots.Slot(ir.VarRef{Global: true, Index: i})]
	}
	return g
}

// withGlobals returns c with the globals g.
func (t *tracer) withGlobals(c cstate, g []bool) cstate {
	d := cstate{PC: c.PC, Vals: slices.Clone(c.Vals)}
	for i, v := range g {
		d.Vals[t.enc.Slots.Slot(ir.VarRef{Global: true, Index: i})] = v
	}
	return d
}

// atEntry is "st at proc's entry, the slots out of its scope false" (the
// formula's m.at).
func (t *tracer) atEntry(st program.StateVars, proc int) bdd.Node {
	pr := t.p.Procs[proc]
	vs := slices.Clone(st.PC)
	vals := enumBits(len(st.PC), t.enc.PC(proc, pr.Entry))
	sl := t.enc.Slots
	for s := 0; s < sl.N(); s++ {
		if sl.IsLocal(s) && s-sl.G >= len(pr.Locals) || sl.IsRet(s) {
			vs = append(vs, st.Slots[s])
			vals = append(vals, false)
		}
	}
	return t.m.Assignment(vs, vals)
}

// pick returns one assignment of f to the states sts (program.Pick).
func (t *tracer) pick(f bdd.Node, sts ...program.StateVars) []cstate {
	return program.Pick(t.m, f, sts...)
}

// bitsOf reads the enum (most significant bit first) or bool vector of
// bits from an assignment.
func bitsOf(at map[int]bool, bits []int) (int, []bool) {
	n, vals := 0, make([]bool, len(bits))
	for i, b := range bits {
		vals[i] = at[b]
		n <<= 1
		if at[b] {
			n |= 1
		}
	}
	return n, vals
}

// family returns (building it on first use) the tuples of family f, the
// layers of its stratum restricted to the chosen schedule, globals and
// entry count, renamed into U, V. The layers keep the stratum's
// numbering, so that the families of one stratum compare rounds.
func (t *tracer) family(f fam) (*family, error) {
	if fm := t.fams[f]; fm != nil {
		return fm, nil
	}
	sv, m := t.st.sv, t.m
	rel := "InitReach"
	if f.c >= 0 {
		rel = reachName(f.c)
	}
	u, err := stateVars(sv, t.enc, rel, "u")
	if err != nil {
		return nil, err
	}
	v, err := stateVars(sv, t.enc, rel, "v")
	if err != nil {
		return nil, err
	}
	cube, fixed := bdd.True, []int(nil)
	if f.c >= 0 {
		set := func(name string, vals []bool) error {
			bits, err := sv.Bits(rel, name)
			if err != nil {
				return err
			}
			cube = m.And(cube, m.Assignment(bits, vals))
			fixed = append(fixed, bits...)
			return nil
		}
		ecs, err := sv.Bits(rel, "ecs")
		if err != nil {
			return nil, err
		}
		if err := set("ecs", enumBits(len(ecs), f.e)); err != nil {
			return nil, err
		}
		for i := 1; i <= f.c; i++ {
			fields, all, err := t.gBits(rel, i)
			if err != nil {
				return nil, err
			}
			cube = m.And(cube, m.Assignment(fields, t.g[i]))
			fixed = append(fixed, all...)
		}
		for i := 0; i <= f.c; i++ {
			bits, err := sv.Bits(rel, fmt.Sprintf("t%d", i))
			if err != nil {
				return nil, err
			}
			if err := set(fmt.Sprintf("t%d", i), enumBits(len(bits), t.t[i])); err != nil {
				return nil, err
			}
		}
	}
	toUV := m.NewPairs(program.Vars(u, v), program.Vars(t.U, t.V))
	fixedSet := m.VarSet(fixed...)
	fm := &family{}
	seen := bdd.False
	for _, l := range sv.Layers(rel) {
		if len(fixed) > 0 {
			l = m.AndExists(l, cube, fixedSet)
		}
		l = m.Replace(l, toUV)
		fm.prefix = append(fm.prefix, t.keep(seen))
		fm.layers = append(fm.layers, t.keep(l))
		seen = m.Or(seen, l)
	}
	fm.prefix = append(fm.prefix, t.keep(seen))
	if err := m.Err(); err != nil {
		return nil, err
	}
	t.fams[f] = fm
	return fm, nil
}

// layerOf returns the round of (u, v) in family f (-1: none).
func (t *tracer) layerOf(fm *family, u, v cstate) int {
	c := t.m.And(t.cube(t.U, u), t.cube(t.V, v))
	n := len(fm.layers)
	if t.m.And(fm.prefix[n], c) == bdd.False {
		return -1
	}
	lo, hi := 0, n-1
	for lo < hi {
		mid := (lo + hi) / 2
		if t.m.And(fm.prefix[mid+1], c) != bdd.False {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// fromU returns the states x with (u, x) in set (over U, V), over X.
func (t *tracer) fromU(u cstate, set bdd.Node) bdd.Node {
	return t.m.AndExistsReplace(set, t.cube(t.U, u), t.setU, t.vx)
}

// across returns the tuples (x, y, z, v) over X, Y, Z, V of a return to
// a state in vs: (u, x) in callers, IntoCall(x, y), (y, z) in callees
// with z an exit, Return(x, z, v).
func (t *tracer) across(u cstate, callers, callees, vs bdd.Node) bdd.Node {
	m := t.m
	ret := m.And(t.retXZV, vs)
	a := m.And(t.fromU(u, callers), t.intoXY)
	a = m.And(a, m.Exists(ret, t.setZV))
	if a == bdd.False {
		return bdd.False
	}
	ys := m.Exists(a, t.setX)
	yz := m.And(m.And(callees, m.Replace(ys, t.yToU)), t.exitV)
	yz = m.Replace(yz, t.uvYZ)
	return m.And(m.And(a, yz), ret)
}

// internalEdge returns an edge that takes x to v in one internal step.
func (t *tracer) internalEdge(x, v cstate) (int, error) {
	proc, loc := t.enc.Loc(x.PC)
	pr := t.p.Procs[proc]
	c := t.m.And(t.cube(t.X, x), t.cube(t.V, v))
	for _, id := range pr.Locations[loc].Out {
		e := pr.Edges[id]
		if _, ok := e.Op.(*ir.Call); ok {
			continue
		}
		key := [2]int{proc, id}
		r, ok := t.edges[key]
		if !ok {
			r = t.keep(t.rels.Edge(proc, e, t.X, t.V))
			t.edges[key] = r
		}
		if t.m.And(r, c) != bdd.False {
			return id, nil
		}
	}
	return -1, fmt.Errorf("conc-fix: internal error: no edge from pc %d to pc %d", x.PC, v.PC)
}

// callEdge returns the call edge leaving the location of c.
func (t *tracer) callEdge(c cstate) int {
	proc, loc := t.enc.Loc(c.PC)
	pr := t.p.Procs[proc]
	for _, id := range pr.Locations[loc].Out {
		if _, ok := pr.Edges[id].Op.(*ir.Call); ok {
			return id
		}
	}
	return -1
}

// firstCtx says context c is the first of its thread; prevCtx returns
// the thread's context before c.
func (t *tracer) firstCtx(c int) bool { return t.prevCtx(c) < 0 }

func (t *tracer) prevCtx(c int) int {
	for r := c - 1; r >= 0; r-- {
		if t.t[r] == t.t[c] {
			return r
		}
	}
	return -1
}

// walk returns the steps from entry u to v (excluded) of the procedure
// of tuple (u, v) in family f, at call depth depth, and the family of the
// tuple (u, u) where the walk ends.
func (t *tracer) walk(u, v cstate, f fam, depth int) ([]tstep, fam, error) {
	var rev [][]tstep
	out := func() []tstep {
		var o []tstep
		for i := len(rev) - 1; i >= 0; i-- {
			o = append(o, rev[i]...)
		}
		return o
	}
	for {
		if err := t.poll(); err != nil {
			return nil, f, err
		}
		m := t.m
		m.Safepoint()
		if u.Equal(v) && (f.c < 0 || f.e == f.c) {
			return out(), f, nil
		}
		fm, err := t.family(f)
		if err != nil {
			return nil, f, err
		}
		L := t.layerOf(fm, u, v)
		if L < 0 {
			return nil, f, fmt.Errorf("conc-fix: internal error: a tuple of the walk is in no round of stratum %d", f.c)
		}
		pf := fm.prefix[L]
		cv := t.cube(t.V, v)
		// An internal step from an earlier tuple.
		pre := m.AndExistsReplace(t.intXV, cv, t.setV, t.xToV)
		if s := t.pick(m.And(m.And(pf, t.cube(t.U, u)), pre), t.V); s != nil {
			x := s[0]
			e, err := t.internalEdge(x, v)
			if err != nil {
				return nil, f, err
			}
			rev = append(rev, []tstep{{st: x, edge: e, depth: depth, ctx: f.c}})
			v = x
			continue
		}
		// A return: the caller's tuple of stratum c2 <= c.
		found := false
		lo, hi := f.e, f.c
		if f.c < 0 {
			lo, hi = -1, -1
		}
		for c2 := lo; c2 <= hi && !found; c2++ {
			callers := pf
			calleeFam := f
			if f.c >= 0 {
				calleeFam = fam{f.c, c2}
				if c2 < f.c {
					cf, err := t.family(fam{c2, f.e})
					if err != nil {
						return nil, f, err
					}
					callers = cf.full()
				}
			}
			cfm, err := t.family(calleeFam)
			if err != nil {
				return nil, f, err
			}
			s := t.pick(t.across(u, callers, cfm.prefix[L], cv), t.X, t.Y, t.Z)
			if s == nil {
				continue
			}
			x, y, z := s[0], s[1], s[2]
			inner, _, err := t.walk(y, z, calleeFam, depth+1)
			if err != nil {
				return nil, f, err
			}
			callCtx := c2
			if f.c < 0 {
				callCtx = -1
			}
			rev = append(rev, append([]tstep{{st: x, edge: t.callEdge(x), depth: depth, ctx: callCtx}}, inner...))
			v = x
			if f.c >= 0 {
				f = fam{c2, f.e}
			}
			found = true
		}
		if found {
			continue
		}
		// A switch back to the thread: its state when it was switched
		// out at the end of its previous context.
		if f.c >= 1 && !t.firstCtx(f.c) && slices.Equal(t.globalsOf(v), t.g[f.c]) {
			c3 := t.prevCtx(f.c)
			w := t.withGlobals(v, t.g[c3+1])
			pf, err := t.family(fam{c3, f.e})
			if err != nil {
				return nil, f, err
			}
			if t.layerOf(pf, u, w) >= 0 {
				v, f = w, fam{c3, f.e}
				continue
			}
		}
		return nil, f, fmt.Errorf("conc-fix: internal error: no derivation of a tuple of stratum %d (ecs %d)", f.c, f.e)
	}
}

// isStart says (u, u) of family f is the start of its thread (or of
// init), not a procedure entered by a call.
func (t *tracer) isStart(u cstate, f fam) (bool, error) {
	switch {
	case f.c < 0:
		return t.m.And(t.atEntry(t.U, t.mod.init), t.cube(t.U, u)) != bdd.False, nil
	case f.c == 0:
		ok, err := t.threadEntry(t.t[0], u)
		if !ok || err != nil {
			return false, err
		}
		return t.started(u)
	default:
		if !t.firstCtx(f.c) || !slices.Equal(t.globalsOf(u), t.g[f.c]) {
			return false, nil
		}
		return t.threadEntry(t.t[f.c], u)
	}
}

// threadEntry says u is the start of thread j (the formula's
// ThreadEntry, read from the solver).
func (t *tracer) threadEntry(j int, u cstate) (bool, error) {
	sv := t.st.sv
	tb, err := sv.Bits("ThreadEntry", "t")
	if err != nil {
		return false, err
	}
	ub, err := stateVars(sv, t.enc, "ThreadEntry", "u")
	if err != nil {
		return false, err
	}
	c := t.m.And(t.m.Assignment(tb, enumBits(len(tb), j)), t.cube(ub, u))
	return t.m.And(sv.Value("ThreadEntry"), c) != bdd.False, nil
}

// initEnds returns init's summaries from its entry to its exit with the
// globals g, over U, V.
func (t *tracer) initEnds(g []bool) (bdd.Node, error) {
	fm, err := t.family(initFam)
	if err != nil {
		return bdd.False, err
	}
	m := t.m
	pr := t.p.Procs[t.mod.init]
	at := m.And(t.atEntry(t.U, t.mod.init), m.Assignment(t.V.PC, enumBits(len(t.V.PC), t.enc.PC(t.mod.init, pr.Exit))))
	return m.And(m.And(fm.full(), at), t.globalsCube(t.V, g)), nil
}

// started says u's globals are those init leaves.
func (t *tracer) started(u cstate) (bool, error) {
	if t.mod.init < 0 {
		sv := t.st.sv
		ub, err := stateVars(sv, t.enc, "Started", "u")
		if err != nil {
			return false, err
		}
		return t.m.And(sv.Value("Started"), t.cube(ub, u)) != bdd.False, nil
	}
	ends, err := t.initEnds(t.globalsOf(u))
	return ends != bdd.False, err
}

// threadPath returns the steps of a thread (or init) from its start to
// state v of tuple (u, v) in family f, the depths absolute, and the
// state it starts in.
func (t *tracer) threadPath(u, v cstate, f fam, final []tstep) ([]tstep, cstate, error) {
	seg, f, err := t.walk(u, v, f, 0)
	if err != nil {
		return nil, u, err
	}
	segs := [][]tstep{append(seg, final...)}
	for level := 1; ; level++ {
		ok, err := t.isStart(u, f)
		if err != nil {
			return nil, u, err
		}
		if ok {
			break
		}
		fm, err := t.family(f)
		if err != nil {
			return nil, u, err
		}
		L := t.layerOf(fm, u, u)
		if L < 0 {
			return nil, u, fmt.Errorf("conc-fix: internal error: an entry tuple is in no round")
		}
		// Entered by a call from a tuple (x, y) of the same stratum.
		ys := t.m.AndExists(t.intoYU, t.cube(t.U, u), t.setU)
		ys = t.m.Replace(ys, t.yToV)
		fams := []fam{f}
		if f.c >= 0 {
			fams = nil
			for e2 := 0; e2 <= f.c; e2++ {
				fams = append(fams, fam{f.c, e2})
			}
		}
		var s []cstate
		var cf fam
		for _, g := range fams {
			gm, err := t.family(g)
			if err != nil {
				return nil, u, err
			}
			if s = t.pick(t.m.And(gm.prefix[L], ys), t.U, t.V); s != nil {
				cf = g
				break
			}
		}
		if s == nil {
			return nil, u, fmt.Errorf("conc-fix: internal error: no call enters a procedure of stratum %d", f.c)
		}
		x, y := s[0], s[1]
		seg, f2, err := t.walk(x, y, cf, -level)
		if err != nil {
			return nil, u, err
		}
		ctx := f.c
		segs = append(segs, append(seg, tstep{st: y, edge: t.callEdge(y), depth: -level, ctx: ctx}))
		u, f = x, f2
	}
	shift := len(segs) - 1
	var out []tstep
	for i := len(segs) - 1; i >= 0; i-- {
		for _, s := range segs[i] {
			s.depth += shift
			out = append(out, s)
		}
	}
	return out, u, nil
}

// resting is the states over st in which a thread may be switched out
// (the formula's resting: not at the exit of a called procedure).
func (t *tracer) resting(st program.StateVars) bdd.Node {
	m := t.m
	transient := bdd.False
	for _, pc := range t.mod.transientPCs() {
		transient = m.Or(transient, m.Assignment(st.PC, enumBits(len(st.PC), pc)))
	}
	return m.Not(transient)
}

// finalStep is the arrival at a target label (none after a failing
// assertion, whose edge was the last step).
func (t *tracer) finalStep(v cstate, ctx int) []tstep {
	proc, loc := t.enc.Loc(v.PC)
	if t.p.Procs[proc].Locations[loc].Kind == ir.FailLoc {
		return nil
	}
	return []tstep{{st: v, edge: result.NoEdge, ctx: ctx}}
}

// run builds the trace.
func (t *tracer) run() (*result.Trace, error) {
	defer t.release()
	t.setup()
	if t.st.inInit {
		return t.initTrace()
	}
	if err := t.pickError(); err != nil {
		return nil, err
	}
	c := t.cstar
	paths := map[int][]tstep{}
	var start0 cstate
	// The thread of the last context: to the error.
	u, v, e := t.errU, t.errV, t.errE
	steps, su, err := t.threadPath(u, v, fam{c, e}, t.finalStep(v, c))
	if err != nil {
		return nil, err
	}
	paths[t.t[c]] = steps
	if t.t[0] == t.t[c] {
		start0 = su
	}
	// Every other thread: to the end of its last context.
	for i := c - 1; i >= 0; i-- {
		j := t.t[i]
		if _, ok := paths[j]; ok {
			continue
		}
		var s []cstate
		var f fam
		for e := 0; e <= i && s == nil; e++ {
			fm, err := t.family(fam{i, e})
			if err != nil {
				return nil, err
			}
			s = t.pick(t.m.And(t.m.And(fm.full(), t.globalsCube(t.V, t.g[i+1])), t.resting(t.V)), t.U, t.V)
			f = fam{i, e}
		}
		if s == nil {
			return nil, fmt.Errorf("conc-fix: internal error: no tuple of context %d ends with the globals of switch %d", i, i+1)
		}
		steps, su, err := t.threadPath(s[0], s[1], f, nil)
		if err != nil {
			return nil, err
		}
		paths[j] = steps
		if t.t[0] == j {
			start0 = su
		}
	}
	var initSteps []tstep
	if t.mod.init >= 0 {
		ends, err := t.initEnds(t.globalsOf(start0))
		if err != nil {
			return nil, err
		}
		s := t.pick(ends, t.U, t.V)
		if s == nil {
			return nil, fmt.Errorf("conc-fix: internal error: no run of init leaves the first thread's globals")
		}
		if initSteps, _, err = t.threadPath(s[0], s[1], initFam, nil); err != nil {
			return nil, err
		}
	}
	var order []threadStep
	for i := 0; i <= c; i++ {
		for _, s := range paths[t.t[i]] {
			if s.ctx == i {
				order = append(order, threadStep{s, t.t[i]})
			}
		}
	}
	return t.trace(initSteps, order), nil
}

// initTrace is the trace of an error in init.
func (t *tracer) initTrace() (*result.Trace, error) {
	fm, err := t.family(initFam)
	if err != nil {
		return nil, err
	}
	s := t.pick(t.m.And(fm.full(), t.rels.Target(t.V)), t.U, t.V)
	if s == nil {
		return nil, fmt.Errorf("conc-fix: internal error: init's error is gone")
	}
	steps, _, err := t.threadPath(s[0], s[1], initFam, t.finalStep(s[1], -1))
	if err != nil {
		return nil, err
	}
	return t.trace(steps, nil), nil
}

type threadStep struct {
	tstep
	thread int
}

// gBits returns the bits of the globals' fields of copy g<i> of relation
// rel, in the globals' order, and all the bits of g<i>.
func (t *tracer) gBits(rel string, i int) (fields, all []int, err error) {
	name := fmt.Sprintf("g%d", i)
	if all, err = t.st.sv.Bits(rel, name); err != nil {
		return nil, nil, err
	}
	for _, f := range t.mod.globals() {
		b, err := t.st.sv.Bits(rel, name, f)
		if err != nil {
			return nil, nil, err
		}
		fields = append(fields, b...)
	}
	return fields, all, nil
}

// pickError picks the error tuple of the smallest stratum: its schedule,
// globals at the switches, entry count and states.
func (t *tracer) pickError() error {
	st, sv := t.st, t.st.sv
	c := st.found
	rel := reachName(c)
	errs, err := st.errors(c)
	if err != nil {
		return err
	}
	if st.restrict != nil {
		errs = t.m.And(errs, st.restrict.Node())
	}
	u, err := stateVars(sv, t.enc, rel, "u")
	if err != nil {
		return err
	}
	v, err := stateVars(sv, t.enc, rel, "v")
	if err != nil {
		return err
	}
	ecs, err := sv.Bits(rel, "ecs")
	if err != nil {
		return err
	}
	all := append(program.Vars(u, v), ecs...)
	gbits := make([][]int, c+1)
	tbits := make([][]int, c+1)
	for i := 1; i <= c; i++ {
		var whole []int
		if gbits[i], whole, err = t.gBits(rel, i); err != nil {
			return err
		}
		all = append(all, whole...)
	}
	for i := 0; i <= c; i++ {
		if tbits[i], err = sv.Bits(rel, fmt.Sprintf("t%d", i)); err != nil {
			return err
		}
		all = append(all, tbits[i]...)
	}
	set := t.m.VarSet(all...)
	vals := t.m.SatOne(errs, set)
	if vals == nil {
		return fmt.Errorf("conc-fix: internal error: stratum %d has no error tuple", c)
	}
	at := map[int]bool{}
	for i, b := range set.Vars() {
		at[b] = vals[i]
	}
	state := func(sv program.StateVars) cstate {
		pc, _ := bitsOf(at, sv.PC)
		_, slots := bitsOf(at, sv.Slots)
		return cstate{PC: pc, Vals: slots}
	}
	t.cstar = c
	t.errU, t.errV = state(u), state(v)
	t.errE, _ = bitsOf(at, ecs)
	t.g = make([][]bool, c+1)
	t.t = make([]int, c+1)
	for i := 1; i <= c; i++ {
		_, t.g[i] = bitsOf(at, gbits[i])
	}
	for i := 0; i <= c; i++ {
		t.t[i], _ = bitsOf(at, tbits[i])
	}
	return nil
}

// trace lists init's steps (thread 0), then the threads' steps in their
// contexts' order, each switch marked; it ends at the first error.
func (t *tracer) trace(initSteps []tstep, order []threadStep) *result.Trace {
	all := make([]threadStep, 0, len(initSteps)+len(order))
	for _, s := range initSteps {
		all = append(all, threadStep{s, 0})
	}
	all = append(all, order...)
	tr := &result.Trace{}
	running := -1
	for _, s := range all {
		proc, loc := t.enc.Loc(s.st.PC)
		pr := t.p.Procs[proc]
		l := pr.Locations[loc]
		if l.Error && l.Kind != ir.FailLoc {
			s.edge = result.NoEdge
		}
		// The steps are the original program's (the SATABS rewriting
		// keeps locations, edges and variables' indices).
		op := t.mod.orig.Procs[proc]
		values := result.ValuesOf(t.mod.orig, op, func(v ir.VarRef) bool { return s.st.Vals[t.enc.Slots.Slot(v)] })
		step := result.NewStep(t.mod.orig, op, loc, s.edge, values, s.depth, s.thread)
		if s.ctx >= 0 {
			step.Switch = running >= 0 && running != s.thread
			running = s.thread
		}
		tr.Steps = append(tr.Steps, step)
		if s.edge == result.NoEdge || pr.Locations[pr.Edges[s.edge].To].Kind == ir.FailLoc {
			break
		}
	}
	return tr
}
