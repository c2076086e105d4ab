package fixpoint

import (
	"context"
	"errors"
	"fmt"

	"boolprog/bdd"
	"boolprog/fix/program"
	"boolprog/ir"
	"boolprog/result"
)

// A trace is found backwards through the rounds of the summary relation,
// with concrete states all the way. The rounds are renamed into spare
// states of the manager (program.Relations.Space): U and V hold a pair (u, v) of
// the relation (u the entry state of v's procedure), X, Y and Z the
// states of a derivation: a pair (u, v) of round k comes
//
//   - from Init(u) with u = v (the start), or from a call: u = v is an
//     entry and a pair (x, y) of an earlier round has IntoCall(y, u);
//   - from a pair (u, x) by an internal step x -> v, where (u, x) is of an
//     earlier round or, for efopt, of the same round, one internal step
//     nearer to pairs of earlier rounds;
//   - across a call: pairs (u, x) and (y, z) of earlier rounds with
//     IntoCall(x, y), Exit(z) and Return(x, z, v).
//
// Each pair's round is smaller than the one it explains (or, within a
// round, its distance by internal steps is), so the walk ends. The steps
// are built with result.NewStep from the concrete states, every value
// known.

// errNoError says that the rounds hold no error state.
var errNoError = errors.New("fixpoint: the summary relation holds no error state")

// cstate is a concrete state (fixpoint.Concrete).
type cstate = program.Concrete

type tracer struct {
	ctx    context.Context
	r      *run
	m      *bdd.Manager
	rels   *program.Relations
	enc    *program.Encoding
	layers []bdd.Node // over U, V
	prefix []bdd.Node // prefix[k]: the union of layers < k, over U, V
	track  string

	U, V, X, Y, Z program.StateVars
	vx, uvYZ      *bdd.Pairs // V -> X; U, V -> Y, Z
	yToU, yToV    *bdd.Pairs
	xToV          *bdd.Pairs // X -> V
	setU, setV    *bdd.VarSet
	setX, setXYZ  *bdd.VarSet
	setZV         *bdd.VarSet
	intXV         bdd.Node
	intoXY        bdd.Node
	intoYU        bdd.Node
	retXZV        bdd.Node
	exitV         bdd.Node
	initU         bdd.Node
	edges         map[[2]int]bdd.Node
	roots         []*bdd.Root
}

func newTracer(ctx context.Context, r *run, track string) *tracer {
	return &tracer{ctx: ctx, r: r, m: r.sv.Manager(), rels: r.rels, enc: r.enc, track: track, edges: map[[2]int]bdd.Node{}}
}

func (t *tracer) pairs(from, to []program.StateVars) *bdd.Pairs {
	return t.m.NewPairs(program.Vars(from...), program.Vars(to...))
}

// setup renames the rounds into U, V and builds the relations over the
// spare states.
func (t *tracer) setup() error {
	m, rels := t.m, t.rels
	t.U, t.V, t.X, t.Y, t.Z = rels.Space(0), rels.Space(1), rels.Space(2), rels.Space(3), rels.Space(4)
	params, err := t.r.sv.Params(t.track)
	if err != nil {
		return err
	}
	// The summary relation is (u, v) or, for efopt, (fr, u, v): its last
	// two parameters are the pair; a bool before them must be true.
	if len(params) < 2 {
		return fmt.Errorf("fixpoint: %s has %d parameters", t.track, len(params))
	}
	su, err := t.r.stateVars(t.track, params[len(params)-2])
	if err != nil {
		return err
	}
	sv, err := t.r.stateVars(t.track, params[len(params)-1])
	if err != nil {
		return err
	}
	fix := bdd.True
	var extra []int
	for _, p := range params[:len(params)-2] {
		b, err := t.r.sv.Bits(t.track, p)
		if err != nil {
			return err
		}
		for _, v := range b {
			fix = m.And(fix, m.Ithvar(v))
			extra = append(extra, v)
		}
	}
	toUV := t.pairs([]program.StateVars{su, sv}, []program.StateVars{t.U, t.V})
	var seen bdd.Node = bdd.False
	for _, l := range t.r.sv.Layers(t.track) {
		if len(extra) > 0 {
			l = m.AndExists(l, fix, m.VarSet(extra...))
		}
		l = m.Replace(l, toUV)
		l = m.And(l, m.Not(seen)) // efopt: (true, .) pairs are new once
		if l == bdd.False {
			continue
		}
		t.prefix = append(t.prefix, t.keep(seen))
		t.layers = append(t.layers, t.keep(l))
		seen = m.Or(seen, l)
	}
	t.prefix = append(t.prefix, t.keep(seen))
	t.vx = t.pairs([]program.StateVars{t.V}, []program.StateVars{t.X})
	t.xToV = t.pairs([]program.StateVars{t.X}, []program.StateVars{t.V})
	t.uvYZ = t.pairs([]program.StateVars{t.U, t.V}, []program.StateVars{t.Y, t.Z})
	t.yToU = t.pairs([]program.StateVars{t.Y}, []program.StateVars{t.U})
	t.yToV = t.pairs([]program.StateVars{t.Y}, []program.StateVars{t.V})
	t.setU, t.setV = m.VarSet(program.Vars(t.U)...), m.VarSet(program.Vars(t.V)...)
	t.setX, t.setZV, t.setXYZ = m.VarSet(program.Vars(t.X)...), m.VarSet(program.Vars(t.Z, t.V)...), m.VarSet(program.Vars(t.X, t.Y, t.Z)...)
	t.intXV = t.keep(rels.Internal(t.X, t.V))
	t.intoXY = t.keep(rels.IntoCall(t.X, t.Y))
	t.intoYU = t.keep(rels.IntoCall(t.Y, t.U))
	t.retXZV = t.keep(rels.Return(t.X, t.Z, t.V))
	t.exitV = t.keep(rels.Exit(t.V))
	t.initU = t.keep(rels.Init(t.U))
	return m.Err()
}

func (t *tracer) poll() error {
	if err := t.ctx.Err(); err != nil {
		return err
	}
	return t.m.Err()
}

// cube is the assignment of concrete state c to the variables of st.
func (t *tracer) cube(st program.StateVars, c cstate) bdd.Node {
	return st.Cube(t.m, c)
}

// pick returns one assignment of f to the states sts (fixpoint.Pick).
func (t *tracer) pick(f bdd.Node, sts ...program.StateVars) []cstate {
	return program.Pick(t.m, f, sts...)
}

// layerOf returns the round of pair (u, v): the first layer holding it,
// found by bisection over the prefixes (prefix[k+1] holds the pairs of
// rounds up to k).
func (t *tracer) layerOf(u, v cstate) int {
	c := t.m.And(t.cube(t.U, u), t.cube(t.V, v))
	n := len(t.layers)
	if t.m.And(t.prefix[n], c) == bdd.False {
		return -1
	}
	lo, hi := 0, n-1 // the round is in [lo, hi]
	for lo < hi {
		mid := (lo + hi) / 2
		if t.m.And(t.prefix[mid+1], c) != bdd.False {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// keep roots n for the tracer's life: the walk calls Safepoint between
// steps.
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

// fromU returns the states x with (u, x) in prefix k, over X.
func (t *tracer) fromU(u cstate, k int) bdd.Node {
	return t.m.AndExistsReplace(t.prefix[k], t.cube(t.U, u), t.setU, t.vx)
}

// calleePairs returns the pairs (y, z) of prefix k with y in ys (over Y)
// and z an exit, over Y, Z. Only the small set ys is renamed onto the
// pairs' variables, never the whole prefix.
func (t *tracer) calleePairs(ys bdd.Node, k int) bdd.Node {
	m := t.m
	p := m.And(t.prefix[k], m.Replace(ys, t.yToU))
	p = m.And(p, t.exitV)
	return m.Replace(p, t.uvYZ)
}

// across returns the returns to states in vs (over V; True for any) from
// pairs (u, x) and (y, z) of prefix k: the tuples (x, y, z, v) over X, Y,
// Z, V.
func (t *tracer) across(u cstate, k int, vs bdd.Node) bdd.Node {
	m := t.m
	ret := m.And(t.retXZV, vs)
	a := m.And(t.fromU(u, k), t.intoXY)
	a = m.And(a, m.Exists(ret, t.setZV))
	if a == bdd.False {
		return bdd.False
	}
	yz := t.calleePairs(m.Exists(a, t.setX), k)
	return m.And(m.And(a, yz), ret)
}

// callers returns the pairs (x, y) of prefix k with IntoCall(y, u), over
// U, V.
func (t *tracer) callers(u cstate, k int) bdd.Node {
	m := t.m
	ys := m.AndExists(t.intoYU, t.cube(t.U, u), t.setU) // over Y
	return m.And(t.prefix[k], m.Replace(ys, t.yToV))
}

// direct returns the states w (over V) such that (u, w) follows in one
// step from pairs of prefix k.
func (t *tracer) direct(u cstate, k int) bdd.Node {
	m := t.m
	d := m.AndExists(t.fromU(u, k), t.intXV, t.setX)
	d = m.Or(d, m.Exists(t.across(u, k, bdd.True), t.setXYZ))
	// u = w: the start, or entered by a call.
	if m.And(t.initU, t.cube(t.U, u)) != bdd.False || t.callers(u, k) != bdd.False {
		d = m.Or(d, t.cube(t.V, u))
	}
	return d
}

// run builds the trace.
func (t *tracer) run() (*result.Trace, error) {
	defer t.release()
	if err := t.setup(); err != nil {
		return nil, err
	}
	target := t.rels.Target(t.V)
	k, u, v := -1, cstate{}, cstate{}
	for i, l := range t.layers {
		if s := t.pick(t.m.And(l, target), t.U, t.V); s != nil {
			k, u, v = i, s[0], s[1]
			break
		}
	}
	if k < 0 {
		return nil, errNoError
	}
	// Segments from the error outwards; each is one procedure's part, the
	// next one its caller's (ending with the call).
	var segs [][]tstep
	seg, err := t.path(u, v, k, 0)
	if err != nil {
		return nil, err
	}
	p := t.enc.Prog
	if proc, loc := t.enc.Loc(v.PC); p.Procs[proc].Locations[loc].Kind != ir.FailLoc {
		seg = append(seg, tstep{st: v, edge: result.NoEdge})
	}
	segs = append(segs, seg)
	for level := 1; ; level++ {
		ku := t.layerOf(u, u)
		if ku < 0 {
			return nil, fmt.Errorf("fixpoint: internal error: the entry pair is in no round")
		}
		if t.m.And(t.initU, t.cube(t.U, u)) != bdd.False {
			break
		}
		// Entered by a call from a pair (x, y) of an earlier round.
		s := t.pick(t.callers(u, ku), t.U, t.V)
		if s == nil {
			return nil, fmt.Errorf("fixpoint: internal error: no call enters %v", u)
		}
		x, y := s[0], s[1]
		kx := t.layerOf(x, y)
		seg, err := t.path(x, y, kx, -level)
		if err != nil {
			return nil, err
		}
		seg = append(seg, tstep{st: y, edge: t.callEdge(y), depth: -level})
		segs = append(segs, seg)
		u = x
	}
	shift := len(segs) - 1
	tr := &result.Trace{}
	for i := len(segs) - 1; i >= 0; i-- {
		for _, s := range segs[i] {
			// The walk may pass another error location on its way (the
			// pairs of a round are explained by any earlier pairs): the
			// trace ends at the first.
			proc, loc := t.enc.Loc(s.st.PC)
			pr := p.Procs[proc]
			if pr.Locations[loc].Error && pr.Locations[loc].Kind != ir.FailLoc {
				s.edge = result.NoEdge
			}
			tr.Steps = append(tr.Steps, t.step(s, shift))
			if s.edge == result.NoEdge || pr.Locations[pr.Edges[s.edge].To].Kind == ir.FailLoc {
				return tr, nil
			}
		}
	}
	return tr, nil
}

// tstep is a step: the state before it, the edge taken (NoEdge for the
// final arrival at a target label) and the call depth.
type tstep struct {
	st    cstate
	edge  int
	depth int
}

func (t *tracer) step(s tstep, shift int) result.Step {
	p := t.enc.Prog
	proc, loc := t.enc.Loc(s.st.PC)
	pr := p.Procs[proc]
	values := result.ValuesOf(p, pr, func(v ir.VarRef) bool { return s.st.Vals[t.enc.Slots.Slot(v)] })
	return result.NewStep(p, pr, loc, s.edge, values, s.depth+shift, 0)
}

// callEdge returns the call edge leaving the location of c.
func (t *tracer) callEdge(c cstate) int {
	proc, loc := t.enc.Loc(c.PC)
	pr := t.enc.Prog.Procs[proc]
	for _, id := range pr.Locations[loc].Out {
		if _, ok := pr.Edges[id].Op.(*ir.Call); ok {
			return id
		}
	}
	return -1
}

// internalEdge returns an edge that takes x to v in one internal step.
func (t *tracer) internalEdge(x, v cstate) (int, error) {
	proc, loc := t.enc.Loc(x.PC)
	pr := t.enc.Prog.Procs[proc]
	c := t.m.And(t.cube(t.X, x), t.cube(t.V, v))
	for _, id := range pr.Locations[loc].Out {
		e := pr.Edges[id]
		if _, ok := e.Op.(*ir.Call); ok {
			continue
		}
		key := [2]int{proc, id}
		r, ok := t.edges[key]
		if !ok {
			r = t.rels.Edge(proc, e, t.X, t.V)
			t.edges[key] = t.keep(r)
		}
		if t.m.And(r, c) != bdd.False {
			return id, nil
		}
	}
	return -1, fmt.Errorf("fixpoint: internal error: no edge from pc %d to pc %d", x.PC, v.PC)
}

// path returns the steps from entry state u to state v (excluded), given
// that (u, v) is a pair of round k, at call depth depth.
func (t *tracer) path(u, v cstate, k, depth int) ([]tstep, error) {
	var rev [][]tstep // pieces in reverse order
	for !u.Equal(v) {
		if err := t.poll(); err != nil {
			return nil, err
		}
		// No node is live here but the rooted ones: the temporaries of
		// earlier steps may go.
		t.m.Safepoint()
		m := t.m
		cv := t.cube(t.V, v)
		// An internal step from an earlier pair? The predecessors of v
		// (a small set, over X) are renamed onto V and met with the
		// pairs of u in prefix k.
		pre := m.AndExistsReplace(t.intXV, cv, t.setV, t.xToV)
		if s := t.pick(m.And(m.And(t.prefix[k], t.cube(t.U, u)), pre), t.V); s != nil {
			x := s[0]
			e, err := t.internalEdge(x, v)
			if err != nil {
				return nil, err
			}
			rev = append(rev, []tstep{{st: x, edge: e, depth: depth}})
			v, k = x, t.layerOf(u, x)
			continue
		}
		// Across a call.
		if s := t.pick(t.across(u, k, cv), t.X, t.Y, t.Z); s != nil {
			x, y, z := s[0], s[1], s[2]
			inner, err := t.path(y, z, t.layerOf(y, z), depth+1)
			if err != nil {
				return nil, err
			}
			piece := append([]tstep{{st: x, edge: t.callEdge(x), depth: depth}}, inner...)
			rev = append(rev, piece)
			v, k = x, t.layerOf(u, x)
			continue
		}
		// efopt: v follows by internal steps from pairs of round k that
		// follow directly. Search backwards from v within the round, then
		// step forwards from the nearest such pair.
		if k >= 0 {
			w, chain, err := t.chain(u, v, k, t.direct(u, k))
			if err != nil {
				return nil, err
			}
			var piece []tstep
			prev := w
			for _, next := range chain {
				e, err := t.internalEdge(prev, next)
				if err != nil {
					return nil, err
				}
				piece = append(piece, tstep{st: prev, edge: e, depth: depth})
				prev = next
			}
			rev = append(rev, piece)
			v = w
			continue
		}
		return nil, fmt.Errorf("fixpoint: internal error: no derivation of a pair of round %d", k)
	}
	var out []tstep
	for i := len(rev) - 1; i >= 0; i-- {
		out = append(out, rev[i]...)
	}
	return out, nil
}

// chain finds, for a pair (u, v) of round k that does not follow directly
// from earlier rounds, a state w such that (u, w) does (d: those w) and a
// shortest chain of internal steps w -> ... -> v within round k; it
// returns w and the states after it, v last.
func (t *tracer) chain(u, v cstate, k int, d bdd.Node) (cstate, []cstate, error) {
	m := t.m
	cu := t.cube(t.U, u)
	round := m.AndExists(t.layers[k], cu, t.setU) // over V
	levels := []bdd.Node{t.cube(t.V, v)}
	seen := levels[0]
	for {
		if err := t.poll(); err != nil {
			return cstate{}, nil, err
		}
		last := levels[len(levels)-1]
		// Predecessors of last by an internal step, within the round.
		pre := m.AndExists(t.intXV, last, t.setV)  // over X
		pre = m.And(m.Replace(pre, t.xToV), round) // over V
		pre = m.And(pre, m.Not(seen))
		if pre == bdd.False {
			return cstate{}, nil, fmt.Errorf("fixpoint: internal error: a pair of round %d follows from nothing", k)
		}
		levels = append(levels, pre)
		seen = m.Or(seen, pre)
		if s := t.pick(m.And(pre, d), t.V); s != nil {
			// Forwards from w, one level nearer v at each step.
			w := s[0]
			var chain []cstate
			cur := w
			for i := len(levels) - 2; i >= 0; i-- {
				post := m.AndExists(t.cube(t.X, cur), t.intXV, t.setX) // over V
				n := t.pick(m.And(post, levels[i]), t.V)
				if n == nil {
					return cstate{}, nil, fmt.Errorf("fixpoint: internal error: broken chain in round %d", k)
				}
				cur = n[0]
				chain = append(chain, cur)
			}
			return w, chain, nil
		}
	}
}
