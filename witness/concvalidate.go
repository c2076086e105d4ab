package witness

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"boolprog/bdd"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/syntax"
)

// The validation of a concurrent program's correctness witness: it
// enumerates the configurations (or thread states) that the invariants
// admit, within a budget, and checks each with the concrete successor
// function of package interp, sharing nothing with any engine.

// cset is the set of configurations (or thread states) that a witness's
// invariants admit, each with the invariant that admits it.
type cset struct {
	p     *ir.Program
	index map[string]int // key of a configuration (Running forgotten) -> invariant
	list  []interp.Config
	from  []int // the invariant of each configuration of list
}

// admit adds the configurations of invariant i: the valuations of f over
// v's slots, at the resolved stacks.
func (cs *cset) admit(m *bdd.Manager, f bdd.Node, v *vars, stacks []frames, atomic, running int, init bool, i int) {
	all := make([]int, v.n())
	for j := range all {
		all[j] = j
	}
	m.AllSat(f, m.VarSet(all...))(func(vals []bool) bool {
		c := interp.Config{Globals: slices.Clone(vals[:len(cs.p.Globals)]), Running: running, Atomic: atomic, Init: init}
		for t, fs := range stacks {
			var top *interp.Frame
			if len(fs) > 0 {
				top = fs.build(cs.p, vals, v.frames[t])
			}
			c.Threads = append(c.Threads, top)
		}
		k := c.Key()
		if _, ok := cs.index[k]; !ok {
			cs.index[k] = i
			cs.list = append(cs.list, c)
			cs.from = append(cs.from, i)
		}
		return true
	})
}

// tupleKey is the configKey of the configurations at the given stacks.
func tupleKey(p *ir.Program, stacks []frames, atomic, running int, init bool) string {
	c := interp.Config{Atomic: atomic, Running: running, Init: init}
	for _, fs := range stacks {
		var top *interp.Frame
		if len(fs) > 0 {
			vals := make([]bool, 0)
			first := make([]int, len(fs))
			for d, f := range fs {
				first[d] = len(vals)
				vals = append(vals, make([]bool, len(p.Procs[f.proc].Locals))...)
			}
			top = fs.build(p, vals, first)
		}
		c.Threads = append(c.Threads, top)
	}
	return configKey(c)
}

// count returns the number of valuations of f over v's slots, capped.
func count(m *bdd.Manager, f bdd.Node, v *vars) float64 {
	all := make([]int, v.n())
	for j := range all {
		all[j] = j
	}
	return m.SatCount(f, m.VarSet(all...))
}

// validateConcurrent checks a correctness witness of a concurrent program:
// configuration invariants (validateConfigs) or thread invariants
// (validateThreads).
func validateConcurrent(ctx context.Context, p *ir.Program, w *Witness, opts Options) *Outcome {
	switch {
	case len(w.Invariants) > 0 || len(w.Contracts) > 0:
		return &Outcome{Verdict: Rejected, Reason: "the witness is for another program: its invariants and contracts speak of one thread, and the program is concurrent"}
	case len(w.Configurations) > 0 && len(w.ThreadInvariants) > 0:
		return rejectAt(w.ThreadInvariants[0].Pos, "a witness has configuration invariants or thread invariants, not both")
	}
	budget := opts.MaxConfigs
	if budget <= 0 {
		budget = DefaultMaxConfigs
	}
	m := bdd.New(bdd.Config{MaxNodes: opts.MaxNodes, InitialNodes: 1 << 12, Reorder: bdd.ReorderOff})
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	var o *Outcome
	if len(w.ThreadInvariants) > 0 {
		o = validateThreads(ctx, p, m, w, budget)
	} else {
		o = validateConfigs(ctx, p, m, w, budget)
	}
	if o.Verdict != Rejected && m.Err() != nil {
		o.Verdict, o.Reason = Unknown, m.Err().Error()
	}
	if o.Verdict == Unknown && ctx.Err() != nil {
		o.Reason = "timeout"
	}
	return o
}

// formulaBDD parses an invariant's formula over v's slots and builds its
// BDD.
func formulaBDD(m *bdd.Manager, p *ir.Program, v *vars, src string, pos syntax.Pos, where string) (bdd.Node, *Outcome) {
	f, err := parseFormula(src, scope{p: p, slots: v})
	if err != nil {
		return bdd.False, formulaOutcome(err, pos, "invariant "+where)
	}
	if n := v.n(); m.VarNum() < n {
		m.ExtVarNum(n - m.VarNum())
	}
	return f.bdd(m, func(a atom) int { return a.ret }), nil
}

// tooMany is the rejection of an invariant that admits more
// configurations than the budget.
func tooMany(pos syntax.Pos, what string, n float64, budget int) *Outcome {
	return rejectAt(pos, "the invariants admit more than %d configurations (%s alone admits %.0f): too many to check by enumeration (raise --max-configs)", budget, what, n)
}

// validateConfigs checks configuration invariants: every initial
// configuration is admitted, no admitted configuration is at an error,
// and every successor of an admitted configuration (interp.Successors,
// with any live thread free to step) is admitted.
func validateConfigs(ctx context.Context, p *ir.Program, m *bdd.Manager, w *Witness, budget int) *Outcome {
	cs := &cset{p: p, index: map[string]int{}}
	tuples := map[string]bool{} // the configKeys of the invariants' tuples
	total := 0.0
	for i := range w.Configurations {
		inv := &w.Configurations[i]
		if ctx.Err() != nil {
			return &Outcome{Verdict: Unknown}
		}
		stacks := make([]frames, len(inv.Threads))
		for t, s := range inv.Threads {
			fs, why := resolveStack(p, s)
			if why != "" {
				return rejectAt(inv.ThreadsPos, "invariant at %s: thread %d: %s", inv.Tuple(), t, why)
			}
			stacks[t] = fs
		}
		// A thread that ends inside its atomic section still owns it
		// (the program is stuck): the owner may have ended.
		if inv.Atomic >= len(inv.Threads) {
			return rejectAt(inv.Pos, "invariant at %s: there is no thread %d to own the atomic section", inv.Tuple(), inv.Atomic)
		}
		running := inv.Running
		switch {
		case running >= len(inv.Threads):
			return rejectAt(inv.Pos, "invariant at %s: no thread %d ran last", inv.Tuple(), running)
		case !runningMatters(p):
			running = -1 // any thread may step next anyway
		}
		procs := make([][]int, len(stacks))
		for t, fs := range stacks {
			procs[t] = fs.procs()
		}
		v := newVars(p, procs, func(i int) string { return threadPrefix + strconv.Itoa(i) })
		f, bad := formulaBDD(m, p, v, inv.Value, inv.ValuePos, "at "+inv.Tuple())
		if bad != nil {
			return bad
		}
		n := count(m, f, v)
		if total += n; total > float64(budget) {
			return tooMany(inv.Pos, "the invariant at "+inv.Tuple(), n, budget)
		}
		cs.admit(m, f, v, stacks, inv.Atomic, running, inv.Init, i)
		tuples[tupleKey(p, stacks, inv.Atomic, running, inv.Init)] = true
	}
	// describe says why configuration c is not admitted.
	describe := func(c interp.Config) string {
		tuple := (&ConfigInvariant{Atomic: c.Atomic, Running: c.Running, Init: c.Init}).withThreads(p, c).Tuple()
		if tuples[configKey(c)] {
			return fmt.Sprintf("the invariant at %s does not hold in it", tuple)
		}
		return fmt.Sprintf("no invariant is at %s", tuple)
	}
	inits, err := interp.Initials(p)
	if err != nil {
		return &Outcome{Verdict: Unknown, Reason: err.Error()}
	}
	for _, c := range inits {
		c = forget(p, c)
		if _, ok := cs.index[c.Key()]; !ok {
			return &Outcome{Verdict: Rejected, Reason: fmt.Sprintf("the initial configuration %s is not admitted: %s", c.String(p), describe(c))}
		}
	}
	work := 0
	for j, c := range cs.list {
		work++
		if work%256 == 0 && ctx.Err() != nil {
			return &Outcome{Verdict: Unknown, Work: work}
		}
		inv := &w.Configurations[cs.from[j]]
		if why := errorIn(p, c); why != "" {
			return withWork(work, rejectAt(inv.Pos, "the invariant at %s admits the configuration %s, where %s", inv.Tuple(), c.String(p), why))
		}
		trs, err := interp.SuccessorsContext(ctx, p, c)
		if err != nil {
			return &Outcome{Verdict: Unknown, Work: work, Reason: err.Error()}
		}
		for _, tr := range trs {
			n := forget(p, tr.Next)
			edge := p.Procs[c.Threads[tr.Thread].Proc].Edges[tr.Edge]
			if why := errorIn(p, n); why != "" {
				return withWork(work, rejectAt(inv.Pos, "the invariant at %s admits the configuration %s, from which thread %d's step %s leads to an error: %s", inv.Tuple(), c.String(p), tr.Thread, edge.Text, why))
			}
			if _, ok := cs.index[n.Key()]; !ok {
				return withWork(work, rejectAt(inv.Pos, "the invariant at %s admits the configuration %s, from which thread %d's step %s leads to %s, which is not admitted: %s", inv.Tuple(), c.String(p), tr.Thread, edge.Text, n.String(p), describe(n)))
			}
		}
	}
	return &Outcome{Verdict: Confirmed, Work: work}
}

// withThreads sets the invariant's stacks to those of c.
func (c *ConfigInvariant) withThreads(p *ir.Program, cf interp.Config) *ConfigInvariant {
	for _, top := range cf.Threads {
		c.Threads = append(c.Threads, stackOf(p, top))
	}
	return c
}

// validateThreads checks thread invariants (see the package doc): every
// thread of every initial configuration is admitted; no admitted thread
// state is at an error; every step of an admitted state (alone, with any
// atomic section ignored) leads to admitted states, its own and those of
// the threads it starts; and when a step from an admitted state changes
// the globals, every admitted state with the same globals is admitted with
// the new ones too.
func validateThreads(ctx context.Context, p *ir.Program, m *bdd.Manager, w *Witness, budget int) *Outcome {
	cs := &cset{p: p, index: map[string]int{}}
	stacks := map[string]bool{} // the configKeys of the invariants' stacks
	total := 0.0
	for i := range w.ThreadInvariants {
		inv := &w.ThreadInvariants[i]
		if len(inv.Stack) == 0 {
			return rejectAt(inv.Pos, "a thread invariant at an ended thread")
		}
		fs, why := resolveStack(p, inv.Stack)
		if why != "" {
			return rejectAt(inv.Pos, "thread invariant at %s: %s", inv.where(), why)
		}
		v := newVars(p, [][]int{fs.procs()}, func(int) string { return threadPrefix })
		f, bad := formulaBDD(m, p, v, inv.Value, inv.ValuePos, "at "+inv.where())
		if bad != nil {
			return bad
		}
		n := count(m, f, v)
		if total += n; total > float64(budget) {
			return rejectAt(inv.Pos, "the thread invariants admit more than %d thread states (the one at %s alone admits %.0f): too many to check by enumeration (raise --max-configs)", budget, inv.where(), n)
		}
		cs.admit(m, f, v, []frames{fs}, -1, -1, inv.Init, i)
		stacks[tupleKey(p, []frames{fs}, -1, -1, inv.Init)] = true
	}
	state := func(g []bool, top *interp.Frame, init bool) interp.Config {
		return interp.Config{Globals: g, Threads: []*interp.Frame{top}, Running: -1, Atomic: -1, Init: init}
	}
	describe := func(s interp.Config) string {
		st := (&ThreadInvariant{Stack: stackOf(p, s.Threads[0]), Init: s.Init}).where()
		if stacks[configKey(s)] {
			return fmt.Sprintf("the invariant at %s does not hold in it", st)
		}
		return fmt.Sprintf("no thread invariant is at %s", st)
	}
	admitted := func(s interp.Config) bool {
		_, ok := cs.index[s.Key()]
		return ok
	}
	inits, err := interp.Initials(p)
	if err != nil {
		return &Outcome{Verdict: Unknown, Reason: err.Error()}
	}
	for _, c := range inits {
		for t, f := range c.Threads {
			if s := state(c.Globals, f, c.Init); f != nil && !admitted(s) {
				return &Outcome{Verdict: Rejected, Reason: fmt.Sprintf("thread %d of the initial configuration %s, in the state %s, is not admitted: %s", t, c.String(p), stateText(p, s), describe(s))}
			}
		}
	}
	// The steps of each state; the changes of the globals, by globals.
	effects := map[string][][]bool{}
	cause := map[string]int{} // globals before > after -> the state whose step made it
	work := 0
	for j, s := range cs.list {
		work++
		if work%256 == 0 && ctx.Err() != nil {
			return &Outcome{Verdict: Unknown, Work: work}
		}
		inv := &w.ThreadInvariants[cs.from[j]]
		if why := errorIn(p, s); why != "" {
			return withWork(work, rejectAt(inv.Pos, "the invariant at %s admits the thread state %s, where %s", inv.where(), stateText(p, s), theThread(why)))
		}
		trs, err := interp.SuccessorsContext(ctx, p, s)
		if err != nil {
			return &Outcome{Verdict: Unknown, Work: work, Reason: err.Error()}
		}
		for _, tr := range trs {
			n := tr.Next
			edge := p.Procs[s.Threads[0].Proc].Edges[tr.Edge].Text
			if why := errorIn(p, n); why != "" {
				return withWork(work, rejectAt(inv.Pos, "the invariant at %s admits the thread state %s, whose step %s leads to an error: %s", inv.where(), stateText(p, s), edge, theThread(why)))
			}
			for t, f := range n.Threads {
				if f == nil {
					continue
				}
				if ns := state(n.Globals, f, n.Init); !admitted(ns) {
					what := "leads to"
					if t > 0 {
						what = "starts a thread in"
					}
					return withWork(work, rejectAt(inv.Pos, "the invariant at %s admits the thread state %s, whose step %s %s %s, which is not admitted: %s", inv.where(), stateText(p, s), edge, what, stateText(p, ns), describe(ns)))
				}
			}
			gk, nk := globKey(s.Globals), globKey(n.Globals)
			if gk != nk && !s.Init { // init runs alone
				if _, ok := cause[gk+">"+nk]; !ok {
					cause[gk+">"+nk] = j
					effects[gk] = append(effects[gk], n.Globals)
				}
			}
		}
	}
	// Interference: another thread's step changes the globals.
	for j, s := range cs.list {
		if s.Init {
			continue // init runs alone
		}
		gk := globKey(s.Globals)
		for _, g := range effects[gk] {
			work++
			if ns := state(g, s.Threads[0], false); !admitted(ns) {
				o := cs.list[cause[gk+">"+globKey(g)]]
				inv := &w.ThreadInvariants[cs.from[j]]
				return withWork(work, rejectAt(inv.Pos, "the invariant at %s admits the thread state %s, which another thread's step from %s turns into %s, which is not admitted: %s", inv.where(), stateText(p, s), stateText(p, o), stateText(p, ns), describe(ns)))
			}
		}
	}
	return &Outcome{Verdict: Confirmed, Work: work}
}

// stateText shows a thread state: the globals, then the thread's frames
// from the bottom, e.g. "g=1 | main@7 | f@3 x=0".
func stateText(p *ir.Program, s interp.Config) string {
	text := s.String(p)
	if i := strings.Index(text, " || t0: "); i >= 0 {
		text = text[:i] + " | " + text[i+len(" || t0: "):]
	}
	return strings.TrimPrefix(text, " | ")
}

// theThread rewrites errorIn's reason about a thread state's only thread.
func theThread(why string) string {
	why = strings.Replace(why, "thread 0's", "the thread's", 1)
	return strings.Replace(why, "thread 0 is", "the thread is", 1)
}

// withWork records the work done before a rejection.
func withWork(work int, o *Outcome) *Outcome {
	o.Work = work
	return o
}

// where names the thread invariant's stack, and init's.
func (t *ThreadInvariant) where() string {
	if t.Init {
		return t.Stack.String() + " (init)"
	}
	return t.Stack.String()
}
