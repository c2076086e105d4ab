package concfix

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"boolprog/bdd"
	"boolprog/fix/program"
	"boolprog/ir"
	"boolprog/result"
)

// The product encoding. When no thread calls a procedure (Getafix
// convention or --threads; init may call), a thread's state is a State of
// its own procedure, and the formula tracks the product of the threads'
// states, as Getafix's own crossproduct formulas do: relation
// P<l>_<i>(a0, ..., a<n-1>) holds the states of every thread (a_j: pc and
// locals of thread j) while thread i runs context l, the shared globals
// being those of a_i (the other copies' global fields are left free, so
// that they cost no BDD nodes). No summaries, no guessed copies of the
// globals: a context runs its thread's steps to a fixed point
// (ProgramInt on a_i), and the next context starts from its end, with the
// globals moved to the copy of the thread switched to. The contexts are
// levels: for cs:K, level l is the runs with l switches and thread i in
// context l comes from level l-1 of any other thread; for rounds:R, level
// r-1 is round r, thread 0 of round r comes from thread n-1 of round r-1
// and thread i > 0 from thread i-1 of the same round (an empty context
// passes the state on). The levels are solved in order and the first
// that reaches an error is the smallest bound, as with the strata.

// productOK says the product encoding applies to m: no procedure but
// init has a call (the thread creations of the SATABS rewriting are
// assignments to its ghosts, not calls).
func (m *model) productOK() bool {
	for i, pr := range m.p.Procs {
		if i == m.p.Init {
			continue
		}
		for _, e := range pr.Edges {
			if _, ok := e.Op.(*ir.Call); ok {
				return false
			}
		}
	}
	return true
}

// Threads created at run time (the SATABS rewriting, see dynamic.go)
// start from the globals of their first context: the kind and the
// arguments of slot j are ghost globals set when slot j is created and
// never changed after, so the product takes them when it first switches
// to the thread, which is what §5.1's strata do (ThreadEntry over the
// globals of the switch). Until then slot j's state in the product is
// "unborn": the field of its own created flag, which is one of the
// globals that a thread not running otherwise leaves free, is 0, and its
// pc and locals are free. Only main starts. A switch to slot i either
// finds it born (the flag 1: its pc and locals as it left them) or
// unborn, and then, if the globals say slot i was created, starts it
// (ThreadEntry with the current globals); for rounds, the round-robin
// chain passes through a slot not created yet (the globals' flag 0) as
// an empty context: the slot stays unborn, its pc and locals free, and
// no step is taken from it (a step of slot i needs its created flag,
// which a running thread's globals hold). A thread switched out keeps
// its flag (1 once born; 0 after an empty context). A creation when
// every slot is taken goes to an overflow location, which the levels
// report as the strata do.

// bornField is the State field of slot j's created flag (SATABS
// rewriting, j >= 1), which marks an unborn slot of the product.
func (m *model) bornField(j int) string {
	return m.enc.FieldName(m.enc.Slots.Slot(ir.VarRef{Global: true, Index: m.dyn.created[j-1]}))
}

// dynSlot says thread i of the product is created at run time.
func (m *model) dynSlot(i int) bool { return m.dyn != nil && i >= 1 }

// levels returns the number of levels of the product: K+1 for cs:K, R
// for rounds:R.
func (m *model) levels() int {
	if m.rounds > 0 {
		return m.rounds
	}
	return m.k + 1
}

// prodName is the relation of level l, thread i.
func prodName(l, i int) string { return fmt.Sprintf("P%d_%d", l, i) }

// prodArg is the name of thread j's state in a product relation.
func prodArg(j int) string { return fmt.Sprintf("a%d", j) }

// prodArgs is the argument list a0..a<n-1> with thread j's replaced by
// sub (if j >= 0).
func (m *model) prodArgs(j int, sub string) string {
	var out []string
	for k := 0; k < m.n; k++ {
		if k == j {
			out = append(out, sub)
		} else {
			out = append(out, prodArg(k))
		}
	}
	return strings.Join(out, ", ")
}

// prodArgs2 is prodArgs with thread j's state replaced by sj and thread
// i's by si.
func (m *model) prodArgs2(j int, sj string, i int, si string) string {
	var out []string
	for k := 0; k < m.n; k++ {
		switch k {
		case j:
			out = append(out, sj)
		case i:
			out = append(out, si)
		default:
			out = append(out, prodArg(k))
		}
	}
	return strings.Join(out, ", ")
}

// prodSources returns the (level, thread) pairs that context (l, i) can
// follow; nil for the start.
func (m *model) prodSources(l, i int) [][2]int {
	var out [][2]int
	switch {
	case m.rounds > 0 && i > 0:
		out = append(out, [2]int{l, i - 1})
	case m.rounds > 0 && l > 0:
		out = append(out, [2]int{l - 1, m.n - 1})
	case m.rounds == 0 && l > 0:
		for j := 0; j < m.n; j++ {
			if j != i {
				out = append(out, [2]int{l - 1, j})
			}
		}
	}
	return out
}

// isStart says context (l, i) may be the first of a run: any thread's
// at level 0 (for rounds, the threads before it in the first round do
// nothing: no switch happens, and none is needed, since the threads
// start after init with no thread running, whatever Getafix's atomic
// is).
// With threads created at run time, only main starts.
func (m *model) isStart(l, i int) bool { return l == 0 && (m.dyn == nil || i == 0) }

// switchable is the condition under which thread state s may be
// switched out: not at a transient pc, and Getafix's atomic false.
func (m *model) switchable(s string) string {
	c := m.resting(s)
	if m.atomic >= 0 {
		c += fmt.Sprintf(" & %s.%s = 0", s, m.globals()[m.atomic])
	}
	return c
}

// writeProduct writes the product algorithm (see above): the thread
// entries and init's reachability as write does, then the levels, and, if
// query, the query.
func (m *model) writeProduct(w io.Writer, query bool) {
	n := m.n
	pf := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	pf("// Context-bounded reachability over the product of the %d threads' states", n)
	if m.rounds > 0 {
		pf(", %d round-robin rounds", m.rounds)
	} else {
		pf(", at most %d context switches", m.k)
	}
	pf(",\n// written by boolprog's conc-fix (no thread calls a procedure).\n\n")
	pf("enum Tid {0..%d};\n\n", max(n-1, 1))
	m.writeStart(w)
	// The threads' states one after the other, not interleaved: the
	// product of the threads' reachable states is then about the sum of
	// their sizes, where bit-by-bit interleaving makes it grow with
	// their product (SATABS Threads7, 10 threads: 469,152 peak nodes at
	// level 0 interleaved, 7,389 in sequence; rounds:2 decided in 0.2 CPU
	// s, interleaved not in 100 s). The switch's equality of the globals
	// of two threads' states far apart costs less than that: fib_4 at 4
	// rounds 0.66 CPU s instead of 1.52, fib_5 2.3 instead of 2.9.
	var params []string
	var order []string
	for j := 0; j < n; j++ {
		params = append(params, "State "+prodArg(j))
		if j > 0 {
			order = append(order, prodArg(j-1)+" < "+prodArg(j))
		}
	}
	pf("// P<l>_<i>(a0..a%d): thread i runs context l (switches, or round l+1); a_j is\n// thread j's state, the globals are a_i's.\n", n-1)
	for l := 0; l < m.levels(); l++ {
		for i := 0; i < n; i++ {
			name := prodName(l, i)
			pf("mu bool %s(%s)", name, strings.Join(params, ", "))
			if len(order) > 0 {
				pf("\n  %s", strings.Join(order, ", "))
			}
			pf("\n(\n    false\n")
			if m.isStart(l, i) {
				var fs []string
				for j := 0; j < n; j++ {
					fs = append(fs, fmt.Sprintf("ThreadEntry(%d, %s)", j, prodArg(j)))
				}
				if m.dyn != nil {
					fs = fs[:1]
					for j := 1; j < n; j++ {
						fs = append(fs, fmt.Sprintf("%s.%s = 0", prodArg(j), m.bornField(j)))
					}
				}
				pf("  | (Started(%s) & %s)\n", prodArg(i), strings.Join(fs, " & "))
			}
			// A quantified state is named after the thread whose state it
			// replaces (y_a1 for a1): fix interleaves it with the
			// parameter whose name ends the same way, so that the
			// renamings keep the order.
			for _, src := range m.prodSources(l, i) {
				j := src[1]
				y := "y_" + prodArg(j)
				kept := m.nonGlobals()
				if m.dynSlot(j) {
					kept = append(kept, m.bornField(j))
				}
				if !m.dynSlot(i) {
					pf("  | (exists State %s. (%s(%s) & %s & %s & %s))\n", y, prodName(src[0], j), m.prodArgs(j, y),
						eqFields(y, prodArg(j), kept), eqFields(y, prodArg(i), m.globals()), m.switchable(y))
					continue
				}
				// Slot i as the source left it (z), born or not.
				z := "z_" + prodArg(i)
				born := fmt.Sprintf("%s.%s = 1", z, m.bornField(i))
				if m.rounds > 0 {
					born = fmt.Sprintf("(%s | %s.%s = 0)", born, prodArg(i), m.bornField(i))
				}
				pf("  | (exists State %s, State %s. (%s(%s) & %s & %s & %s & ((%s & %s) | (%s.%s = 0 & ThreadEntry(%d, %s)))))\n",
					y, z, prodName(src[0], j), m.prodArgs2(j, y, i, z),
					eqFields(y, prodArg(j), kept), eqFields(y, prodArg(i), m.globals()), m.switchable(y),
					born, eqFields(z, prodArg(i), m.nonGlobals()), z, m.bornField(i), i, prodArg(i))
			}
			x := "x_" + prodArg(i)
			guard := ""
			if m.dynSlot(i) {
				// No step of a slot not created (an empty context).
				guard = fmt.Sprintf(" & %s.%s = 1", x, m.bornField(i))
			}
			pf("  | (exists State %s. (%s(%s) & ProgramInt(%s, %s)%s))\n);\n", x, name, m.prodArgs(i, x), x, prodArg(i), guard)
			if m.frontier {
				pf("#frontier %s;\n", name)
			}
		}
	}
	pf("\n")
	if !query {
		return
	}
	pf("(false")
	if m.init >= 0 {
		pf("\n  | (exists State u, State v. (InitReach(u, v) & Target(v)))")
	}
	for l := 0; l < m.levels(); l++ {
		for i := 0; i < n; i++ {
			born := ""
			if m.dynSlot(i) {
				born = fmt.Sprintf(" & %s.%s = 1", prodArg(i), m.bornField(i))
			}
			pf("\n  | (exists %s. (%s(%s) & Target(%s)%s))", strings.Join(params, ", "), prodName(l, i), m.prodArgs(-1, ""), prodArg(i), born)
		}
	}
	pf(");\n") // Mucke reads a query only with its semicolon
}

// watchProduct registers the callbacks of the product levels: the first
// relation whose thread reaches an error settles the answer (the levels
// are solved in order, a level's threads one after the other).
func (st *strata) watchProduct() error {
	sv, m := st.sv, st.m
	if err := st.watchInit(); err != nil {
		return err
	}
	for l := 0; l < m.levels(); l++ {
		for i := 0; i < m.n; i++ {
			l, i := l, i
			name := prodName(l, i)
			if err := sv.Track(name); err != nil {
				return err
			}
			if err := sv.OnDone(name, func() error {
				if i == m.n-1 {
					st.done = l
					if st.report != nil {
						st.report(result.PhaseReach, fmt.Sprintf("level %d of %d solved", l+1, m.levels()))
					}
				}
				errs, err := st.prodErrors(l, i)
				if err != nil {
					st.err = err
					return err
				}
				if err := st.prodOverflow(l, i); err != nil {
					st.err = err
					return err
				}
				if errs != bdd.False {
					st.found, st.foundThread = l, i
					return errFound
				}
				return nil
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

// prodErrors returns the tuples of relation (l, i) whose running thread
// is at an error location.
func (st *strata) prodErrors(l, i int) (bdd.Node, error) {
	name := prodName(l, i)
	a, err := stateVars(st.sv, st.m.enc, name, prodArg(i))
	if err != nil {
		return bdd.False, err
	}
	m := st.sv.Manager()
	out := m.And(st.sv.Value(name), st.running(i, a))
	out = m.And(out, st.rels.Target(a))
	return out, m.Err()
}

// running is "thread i, whose state is a, runs": true but for a slot
// created at run time, which must be born (an empty context of a slot
// not created has a free pc).
func (st *strata) running(i int, a program.StateVars) bdd.Node {
	if !st.m.dynSlot(i) {
		return bdd.True
	}
	b := a.Slots[st.m.enc.Slots.Slot(ir.VarRef{Global: true, Index: st.m.dyn.created[i-1]})]
	return st.sv.Manager().Assignment([]int{b}, []bool{true})
}

// prodOverflow notes whether relation (l, i)'s running thread reaches an
// overflow location: a creation with every slot taken (the SATABS
// rewriting; the thread stays there, so the running thread is the one to
// look at).
func (st *strata) prodOverflow(l, i int) error {
	d := st.m.dyn
	if d == nil || st.overflowed {
		return nil
	}
	name := prodName(l, i)
	a, err := stateVars(st.sv, st.m.enc, name, prodArg(i))
	if err != nil {
		return err
	}
	m := st.sv.Manager()
	st.overflowed = m.And(m.And(st.sv.Value(name), st.running(i, a)), st.atOverflow(a)) != bdd.False
	return nil
}

// prodBound is the bound of the error found at level l.
func prodBound(kind result.BoundKind, l int) result.Bound {
	if kind == result.Rounds {
		return result.Bound{Kind: result.Rounds, K: l + 1}
	}
	return result.Bound{Kind: result.ContextSwitches, K: l}
}

// The product trace: the error tuple, with every thread's state concrete,
// is walked back through the rounds (Layers) of its relation: a tuple of
// round L > 0 follows by one step of the running thread from a tuple of an
// earlier round of the same relation; a tuple of round 0 is the start or
// the end of a context of the level before, the thread switched from
// holding the globals. Init's steps come from InitReach as for the
// strata.

// prodTuple is a concrete product state: the running thread's state is
// whole, the others' globals are meaningless.
type prodTuple []cstate

// prodVars returns the State variables of relation (l, i)'s parameters.
func (t *tracer) prodVars(l, i int) ([]program.StateVars, error) {
	out := make([]program.StateVars, t.mod.n)
	for j := range out {
		var err error
		if out[j], err = stateVars(t.st.sv, t.enc, prodName(l, i), prodArg(j)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// prodCube is the tuple a over the variables vs: every field of thread
// whole's state, nothing of thread skip's, the pc and locals of the
// others (of a slot created at run time, its created flag, and its pc
// and locals only once born).
func (t *tracer) prodCube(vs []program.StateVars, a prodTuple, whole, skip int) bdd.Node {
	m := t.m
	out := bdd.True
	for j, v := range vs {
		if j == skip {
			continue
		}
		if j == whole {
			out = m.And(out, t.cube(v, a[j]))
			continue
		}
		var bits []int
		var vals []bool
		if t.mod.dynSlot(j) {
			s := t.bornSlot(j)
			bits, vals = append(bits, v.Slots[s]), append(vals, a[j].Vals[s])
			if !a[j].Vals[s] {
				out = m.And(out, m.Assignment(bits, vals))
				continue
			}
		}
		bits = append(bits, v.PC...)
		vals = append(vals, enumBits(len(v.PC), a[j].PC)...)
		for s := range v.Slots {
			if !t.enc.Slots.IsGlobal(s) {
				bits = append(bits, v.Slots[s])
				vals = append(vals, a[j].Vals[s])
			}
		}
		out = m.And(out, m.Assignment(bits, vals))
	}
	return out
}

// bornSlot is the slot of thread j's created flag (see bornField).
func (t *tracer) bornSlot(j int) int {
	return t.enc.Slots.Slot(ir.VarRef{Global: true, Index: t.mod.dyn.created[j-1]})
}

// switchedFrom returns the tuples of the context before a switch from
// thread j (in state y) to thread i that lead to tuple a: thread i as
// it was left, or, for a slot created at run time, unborn before its
// start or before an empty context (the formula's switch clause).
func (t *tracer) switchedFrom(a prodTuple, i, j int, y cstate) ([]prodTuple, error) {
	b := append(prodTuple(nil), a...)
	b[j] = y
	if !t.mod.dynSlot(i) {
		return []prodTuple{b}, nil
	}
	s := t.bornSlot(i)
	var out []prodTuple
	if a[i].Vals[s] {
		out = append(out, b)
	}
	start, err := t.threadEntry(i, a[i])
	if err != nil {
		return nil, err
	}
	if start || (t.mod.rounds > 0 && !a[i].Vals[s]) {
		unborn := append(prodTuple(nil), b...)
		unborn[i] = cstate{PC: a[i].PC, Vals: slices.Clone(a[i].Vals)}
		unborn[i].Vals[s] = false
		out = append(out, unborn)
	}
	return out, nil
}

// firstLayer returns the first round of relation (l, i) that holds cube,
// or -1.
func (t *tracer) firstLayer(l, i int, cube bdd.Node) int {
	for r, layer := range t.st.sv.Layers(prodName(l, i)) {
		if t.m.And(layer, cube) != bdd.False {
			return r
		}
	}
	return -1
}

// runProduct builds the trace of the error found by the product levels.
func (t *tracer) runProduct() (*result.Trace, error) {
	defer t.release()
	t.setup()
	if t.st.inInit {
		return t.initTrace()
	}
	l, i := t.st.found, t.st.foundThread
	vs, err := t.prodVars(l, i)
	if err != nil {
		return nil, err
	}
	errs, err := t.st.prodErrors(l, i)
	if err != nil {
		return nil, err
	}
	picked := t.pick(errs, vs...)
	if picked == nil {
		return nil, fmt.Errorf("conc-fix: internal error: the error of %s is gone", prodName(l, i))
	}
	a := prodTuple(picked)
	var rev []threadStep // the steps, last first
	rev = append(rev, threadStep{tstep{st: a[i], edge: result.NoEdge}, i})
	if proc, loc := t.enc.Loc(a[i].PC); t.p.Procs[proc].Locations[loc].Kind == ir.FailLoc {
		rev = rev[:0]
	}
	ctx := 0 // contexts walked, for the steps' marks (numbered backwards)
	for {
		if err := t.poll(); err != nil {
			return nil, err
		}
		if vs, err = t.prodVars(l, i); err != nil {
			return nil, err
		}
		layer := t.firstLayer(l, i, t.prodCube(vs, a, i, -1))
		if layer < 0 {
			return nil, fmt.Errorf("conc-fix: internal error: a tuple of %s on the walk back is not in it", prodName(l, i))
		}
		if layer > 0 {
			// A step of thread i from an earlier round.
			earlier := bdd.False
			for _, ly := range t.st.sv.Layers(prodName(l, i))[:layer] {
				earlier = t.m.Or(earlier, ly)
			}
			// The states x with a step to a_i, renamed into thread i's
			// variables of the relation (spare X and V are interleaved:
			// the relation's own and V are far apart).
			preds := t.m.AndExists(t.intXV, t.cube(t.V, a[i]), t.setV)
			if t.mod.dynSlot(i) {
				// The formula's guard: no step of a slot not created.
				preds = t.m.And(preds, t.m.Assignment([]int{t.X.Slots[t.bornSlot(i)]}, []bool{true}))
			}
			preds = t.m.Replace(preds, t.m.NewPairs(program.Vars(t.X), program.Vars(vs[i])))
			step := t.m.And(t.m.And(earlier, t.prodCube(vs, a, -1, i)), preds)
			if prev := t.pick(step, vs[i]); prev != nil {
				edge, err := t.internalEdge(prev[0], a[i])
				if err != nil {
					return nil, err
				}
				rev = append(rev, threadStep{tstep{st: prev[0], edge: edge, ctx: -ctx}, i})
				a[i] = prev[0]
				continue
			}
			// No step: a relation started from the levels of a solve
			// with fewer threads (see reuse.go) adds the tuples of a
			// switch in its first own round, after the carried layers.
		}
		// Round 0, or a switch's tuple in a later round: the start, or a
		// switch from the level before.
		if t.mod.isStart(l, i) {
			ok, err := t.prodStart(a, i)
			if err != nil {
				return nil, err
			}
			if ok {
				break
			}
		}
		found := false
	sources:
		for _, src := range t.mod.prodSources(l, i) {
			j := src[1]
			y := t.withGlobals(a[j], t.globalsOf(a[i]))
			if !t.switchableState(y) {
				continue
			}
			svs, err := t.prodVars(src[0], j)
			if err != nil {
				return nil, err
			}
			bs, err := t.switchedFrom(a, i, j, y)
			if err != nil {
				return nil, err
			}
			for _, b := range bs {
				if t.firstLayer(src[0], j, t.prodCube(svs, b, j, -1)) >= 0 {
					l, i, a, found = src[0], j, b, true
					break sources
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("conc-fix: internal error: no step into round %d of %s and no context before it", layer, prodName(l, i))
		}
		ctx++
	}
	var initSteps []tstep
	if t.mod.init >= 0 {
		ends, err := t.initEnds(t.globalsOf(a[i]))
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
	order := make([]threadStep, 0, len(rev))
	for k := len(rev) - 1; k >= 0; k-- {
		s := rev[k]
		s.ctx += ctx // contexts from 0, in the run's order
		order = append(order, s)
	}
	return t.trace(initSteps, order), nil
}

// prodStart says tuple a is a start of the product with thread i first:
// every thread at its entry, thread i with the globals init leaves.
func (t *tracer) prodStart(a prodTuple, i int) (bool, error) {
	if t.mod.dyn != nil {
		// Only main starts; the slots created at run time are unborn.
		for j := 1; j < len(a); j++ {
			if a[j].Vals[t.bornSlot(j)] {
				return false, nil
			}
		}
		a = a[:1]
	}
	for j := range a {
		ok, err := t.threadEntry(j, a[j])
		if err != nil || !ok {
			return false, err
		}
	}
	return t.started(a[i])
}

// switchableState says a thread may be switched out in state c (the
// formula's switchable).
func (t *tracer) switchableState(c cstate) bool {
	for _, pc := range t.mod.transientPCs() {
		if c.PC == pc {
			return false
		}
	}
	return t.mod.atomic < 0 || !c.Vals[t.enc.Slots.Slot(ir.VarRef{Global: true, Index: t.mod.atomic})]
}
