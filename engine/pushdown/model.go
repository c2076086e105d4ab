package pushdown

import (
	"context"
	"errors"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
	"boolprog/wpds"
)

// control is the one control state of the pushdown system.
const control wpds.State = 0

// errStop is the panic value with which the semiring aborts a saturation
// (package wpds has no context) when the context ends or the BDD node
// limit is reached; the engine recovers it and reports why.
type errStop struct{ err error }

// errTimeout stands for the end of the context.
var errTimeout = errors.New("timeout")

// ruleInfo says what a rule of the pushdown system stands for.
type ruleInfo struct {
	proc int
	edge int  // the ir edge of a step or push rule; -1 for a pop (return)
	call bool // a push rule
}

// model is a Boolean program as an extended weighted pushdown system
// (Lal's thesis §3.3): one control state; a stack symbol per location of
// every procedure; a step rule per intraprocedural edge, a push rule per
// call edge (the callee's entry on top of the return point) and a pop rule
// per exit. Weights are relations over all slots of the layout (globals,
// locals and returned values: the state of the executing frame), Cur
// copies before and Next copies after; the push rule's weight enters the
// callee, and its merge function restores the caller's locals at the
// return. No rule leaves an error location, so a run ends at the first
// error it reaches.
type model struct {
	ctx   context.Context
	p     *ir.Program
	m     *bdd.Manager
	l     *symbolic.Layout
	sr    *relSemiring
	pds   *wpds.PDS[symbolic.Rel]
	all   symbolic.Set
	base  []int // symbol of location 0 of each procedure
	rules []ruleInfo
	calls map[ruleKey]*callInfo // per push rule
	// locOf maps a symbol back to its procedure and location.
	locOf [][2]int
	// startSym and sinkSym are the artificial symbols before the entry of
	// main and after the error locations.
	startSym, sinkSym wpds.Symbol
	// fwpds: saturate with FWPDS (no witnesses) rather than with witnesses.
	fwpds bool

	allCur, allNext, allMid, allCurNext *bdd.VarSet
	curToNext, nextToCur                *bdd.Pairs
	nextToMid, midToNext                *bdd.Pairs
}

type ruleKey = wpds.RuleID

// callInfo holds the relations of a call edge.
type callInfo struct {
	call   *ir.Call
	caller *ir.Proc
	enter  symbolic.Rel // caller at the call (Cur) → callee at its entry (Next)
	// link relates the caller at the call (Cur), the callee at its exit
	// (Mid) and the caller after the return (Next): globals from the
	// callee, the caller's locals kept, the targets assigned the returned
	// values.
	link    *bdd.Root
	post    *bdd.Root    // the caller's enforce on the Next copies
	target  map[int]int  // slot -> the returned value assigned to it
	targets symbolic.Set // the slots assigned returned values
}

// relSemiring is the semiring of relations of package symbolic (the
// RelWeight of the design notes), polling the context and the node limit.
//
// The saturation keeps weights where no bdd.Root can see them, so every
// weight the semiring returns is held in a Root (one per distinct BDD:
// nodes are canonical) until the end of the run. That makes a Safepoint
// safe between two operations of a saturation (collecting only the
// temporaries inside the operations: frames, renamings, quantifications),
// which the semiring declares every safeEvery operations while gc is set.
type relSemiring struct {
	l     *symbolic.Layout
	ctx   context.Context
	polls int
	gc    bool
	kept  map[bdd.Node]*bdd.Root
}

// safeEvery is the number of operations between two Safepoints.
const safeEvery = 256

// keep roots the relation of w and returns w.
func (s *relSemiring) keep(w symbolic.Rel) symbolic.Rel {
	if w.R != bdd.Invalid && s.kept[w.R] == nil {
		s.kept[w.R] = s.l.M.Keep(w.R)
	}
	return w
}

// release frees the roots.
func (s *relSemiring) release() {
	for _, r := range s.kept {
		r.Release()
	}
	s.kept = nil
}

func (s *relSemiring) poll() {
	s.polls++
	if err := s.l.M.Err(); err != nil {
		panic(errStop{err})
	}
	// Every operation: near the node limit, each one may collect garbage
	// and take long.
	if s.ctx.Err() != nil {
		panic(errStop{errTimeout})
	}
	if s.gc && s.polls%safeEvery == 0 {
		s.l.M.Safepoint()
	}
}

func (s *relSemiring) Zero() symbolic.Rel { return s.l.Zero() }
func (s *relSemiring) One() symbolic.Rel  { return s.l.One() }

func (s *relSemiring) Extend(a, b symbolic.Rel) symbolic.Rel {
	s.poll()
	switch {
	case a.R == bdd.False || b.R == bdd.False:
		return s.l.Zero()
	case a.R == bdd.True && a.Changed.Empty():
		return b
	case b.R == bdd.True && b.Changed.Empty():
		return a
	}
	return s.keep(s.l.Extend(a, b))
}

func (s *relSemiring) Combine(a, b symbolic.Rel) symbolic.Rel {
	s.poll()
	switch {
	case a.R == bdd.False:
		return b
	case b.R == bdd.False:
		return a
	}
	return s.keep(s.l.Combine(a, b))
}

func (s *relSemiring) Equal(a, b symbolic.Rel) bool {
	if a.R == b.R && a.Changed.Equal(b.Changed) {
		return true
	}
	s.poll()
	return s.l.SameRel(a, b)
}

var _ wpds.Semiring[symbolic.Rel] = (*relSemiring)(nil)

// newModel builds the pushdown system of p in m.
func newModel(ctx context.Context, p *ir.Program, m *bdd.Manager) *model {
	l := symbolic.NewLayoutWith(m, p, symbolic.LayoutOptions{Copies: 4})
	md := &model{ctx: ctx, p: p, m: m, l: l, all: l.All(), calls: map[ruleKey]*callInfo{}}
	md.sr = &relSemiring{l: l, ctx: ctx, kept: map[bdd.Node]*bdd.Root{}}
	md.pds = wpds.New[symbolic.Rel](md.sr, 1)
	all := md.all
	md.allCur = l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: all})
	md.allNext = l.VarSet(symbolic.CopySet{Copy: symbolic.Next, Set: all})
	md.allMid = l.VarSet(symbolic.CopySet{Copy: symbolic.Mid, Set: all})
	md.allCurNext = l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: all}, symbolic.CopySet{Copy: symbolic.Next, Set: all})
	md.curToNext = l.Rename(symbolic.Cur, symbolic.Next, all)
	md.nextToCur = l.Rename(symbolic.Next, symbolic.Cur, all)
	md.nextToMid = l.Rename(symbolic.Next, symbolic.Mid, all)
	md.midToNext = l.Rename(symbolic.Mid, symbolic.Next, all)

	n := 0
	md.base = make([]int, len(p.Procs))
	for i, pr := range p.Procs {
		md.base[i] = n
		for j := range pr.Locations {
			md.locOf = append(md.locOf, [2]int{i, j})
		}
		n += len(pr.Locations)
	}
	frame := all.Minus(l.Globals()) // locals and returned values
	for _, pr := range p.Procs {
		for _, e := range pr.Edges {
			if pr.Locations[e.From].Error {
				continue // a run ends at its first error
			}
			from, to := md.sym(pr.Index, e.From), md.sym(pr.Index, e.To)
			switch op := e.Op.(type) {
			case *ir.Call:
				q := p.Procs[op.Proc]
				ci := md.newCall(op, pr, frame)
				id := md.pds.Push(control, from, control, md.sym(q.Index, q.Entry), to, ci.enter, ci.merge(md))
				md.calls[id] = ci
				md.rules = append(md.rules, ruleInfo{proc: pr.Index, edge: e.ID, call: true})
			case *ir.Skip, *ir.Assume, *ir.Assign, *ir.Return:
				md.pds.Step(control, from, control, to, md.sr.keep(l.EdgeRel(pr, op)))
				md.rules = append(md.rules, ruleInfo{proc: pr.Index, edge: e.ID})
			default:
				// Thread operations: the engine refuses concurrent
				// programs before it gets here.
				panic("pushdown: thread operation in a sequential program")
			}
		}
		md.pds.Pop(control, md.sym(pr.Index, pr.Exit), control, l.One())
		md.rules = append(md.rules, ruleInfo{proc: pr.Index, edge: -1})
	}
	// Two artificial symbols around the program: post* starts at ⟨start⟩,
	// whose rule enters main in any state, and pre* saturates from
	// ⟨sink⟩, into which every error location leads with any state. Both
	// rules weigh the relation of all pairs of states, so that the
	// weights of post* do not depend on the initial state, nor those of
	// pre* on the error state: a relation then needs BDD variables of one
	// side only where the program does not correlate the two.
	havoc := md.sr.keep(symbolic.Rel{R: bdd.True, Changed: all})
	md.startSym, md.sinkSym = wpds.Symbol(n), wpds.Symbol(n+1)
	main := p.Procs[p.Main]
	md.pds.Step(control, md.startSym, control, md.sym(main.Index, main.Entry), havoc)
	md.rules = append(md.rules, ruleInfo{proc: main.Index, edge: artificial})
	for _, pr := range p.Procs {
		for _, loc := range pr.ErrorLocations() {
			md.pds.Step(control, md.sym(pr.Index, loc), control, md.sinkSym, havoc)
			md.rules = append(md.rules, ruleInfo{proc: pr.Index, edge: artificial})
		}
	}
	return md
}

// artificial is the ruleInfo.edge of the rules of the start and sink symbols.
const artificial = -2

// sym returns the stack symbol of location loc of procedure proc.
func (md *model) sym(proc, loc int) wpds.Symbol { return wpds.Symbol(md.base[proc] + loc) }

// newCall builds the relations of call c in caller.
func (md *model) newCall(c *ir.Call, caller *ir.Proc, frame symbolic.Set) *callInfo {
	l, m := md.l, md.m
	ci := &callInfo{call: c, caller: caller}
	// Entering: the parameters take the arguments; the callee's other
	// locals (and returned values) are fresh.
	ci.enter = md.sr.keep(symbolic.Rel{R: l.CallEntry(c).R, Changed: frame})
	target := map[int]int{} // slot -> returned value assigned to it
	ci.targets = symbolic.NewSet(l.N())
	for i, t := range c.Targets {
		if !t.Discard {
			target[l.Slot(t.Var)] = i
			ci.targets.Add(l.Slot(t.Var))
		}
	}
	ci.target = target
	link := bdd.True
	for s := 0; s < l.N(); s++ {
		next := l.Lit(s, symbolic.Next)
		var from bdd.Node
		switch i, ok := target[s]; {
		case ok:
			from = l.Lit(l.Ret(i), symbolic.Mid)
		case l.IsGlobal(s):
			from = l.Lit(s, symbolic.Mid)
		default:
			from = l.Lit(s, symbolic.Cur)
		}
		link = m.And(link, m.Equiv(next, from))
	}
	ci.link = m.Keep(link)
	ci.post = m.Keep(m.Replace(l.Post(c), md.curToNext))
	return ci
}

// merge returns the merge function of the call: Merge(a, b) = a ⊗ f(b),
// where f(b) enters the callee, runs b and returns (see ret), which
// satisfies path extension.
func (ci *callInfo) merge(md *model) wpds.Merge[symbolic.Rel] {
	return func(caller, callee symbolic.Rel) symbolic.Rel {
		if caller.R == bdd.False || callee.R == bdd.False {
			return md.l.Zero()
		}
		return md.sr.Extend(caller, md.ret(ci, callee))
	}
}

// ret returns the relation of a whole call whose callee runs b (from its
// entry to its exit): the caller's state at the call (Cur) to the caller's
// state after the return (Next). Its frame stays implicit: it changes the
// globals b changes and the call's targets.
func (md *model) ret(ci *callInfo, b symbolic.Rel) symbolic.Rel {
	l, m := md.l, md.m
	y := md.sr.Extend(ci.enter, b)
	if y.R == bdd.False {
		return l.Zero()
	}
	changed := b.Changed.Inter(l.Globals()).Union(ci.targets)
	link := bdd.True
	for _, s := range changed.Elems() {
		from := l.Lit(s, symbolic.Mid)
		if i, ok := ci.target[s]; ok {
			from = l.Lit(l.Ret(i), symbolic.Mid)
		}
		link = m.And(link, m.Equiv(l.Lit(s, symbolic.Next), from))
	}
	ym := m.Replace(l.Full(y, md.all), md.nextToMid)
	z := m.AndExists(ym, link, md.allMid)
	if ci.call.Post != nil {
		z = m.And(z, m.Replace(l.Post(ci.call), l.Rename(symbolic.Cur, symbolic.Next, changed)))
	}
	return md.sr.keep(symbolic.Rel{R: z, Changed: changed})
}

// exitStates returns the callee's states at its exit (over Next copies)
// from which the return of call ci leads from the caller's state sc (at
// the call) to the caller's state x (after it).
func (md *model) exitStates(ci *callInfo, sc, x []bool) bdd.Node {
	m := md.m
	f := m.And(m.And(md.cube(symbolic.Cur, sc), ci.link.Node()), md.cube(symbolic.Next, x))
	f = m.Exists(f, md.allCurNext)
	return m.Replace(f, md.midToNext)
}

// release frees the model's roots.
func (md *model) release() {
	for _, ci := range md.calls {
		ci.link.Release()
		ci.post.Release()
	}
	md.sr.release()
}

// ---------------------------------------------------------------------------
// Concrete states: a value per slot.

// cube returns the state vals as a cube over copy c of every slot.
func (md *model) cube(c symbolic.Copy, vals []bool) bdd.Node {
	return md.l.Cube(c, md.allSlots(), vals)
}

func (md *model) allSlots() []int { return md.all.Elems() }

// pick returns one state in f (over Cur copies), preferring false, or nil.
func (md *model) pick(f bdd.Node) []bool {
	if f == bdd.False || f == bdd.Invalid {
		return nil
	}
	return md.l.Values(f, symbolic.Cur, md.allSlots())
}

// full returns w with its frame explicit over every slot.
func (md *model) full(w symbolic.Rel) bdd.Node { return md.l.Full(w, md.all) }

// image returns the states (Cur) that w leads to from the states f (Cur).
func (md *model) image(f bdd.Node, w symbolic.Rel) bdd.Node {
	m := md.m
	return m.AndExistsReplace(f, md.full(w), md.allCur, md.nextToCur)
}

// preimage returns the states (Cur) from which w leads into the states f (Cur).
func (md *model) preimage(w symbolic.Rel, f bdd.Node) bdd.Node {
	m := md.m
	return m.AndExists(md.full(w), m.Replace(f, md.curToNext), md.allNext)
}

// relates reports whether w relates s to x.
func (md *model) relates(w symbolic.Rel, s, x []bool) bool {
	m := md.m
	return m.And(m.And(md.cube(symbolic.Cur, s), md.cube(symbolic.Next, x)), md.full(w)) != bdd.False
}
