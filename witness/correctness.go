package witness

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/symbolic"
	"boolprog/syntax"
)

// FromReachable returns the correctness witness of a safe program. Of a
// sequential one: the invariants and contracts of the summary engine's
// path edges (engine.ReachableSetter, of the first registered engine that
// implements it, with q's BDD node limit, 0 for the default, and q's cache
// of p's analyses, the check's, or nil), as irredundant sums of products. Of a concurrent one:
// FromConcurrent's, with its default limit. It fails if an error is
// reachable, or at a limit.
func FromReachable(ctx context.Context, p *ir.Program, meta Metadata, q engine.Query) (*Witness, error) {
	if p.Concurrent {
		return FromConcurrent(ctx, p, meta, 0)
	}
	for _, proc := range p.Procs {
		for g := range p.Globals {
			if shadowed(p, proc, g) {
				return nil, fmt.Errorf("%s: local %s hides the global of the same name, which an invariant could not name", proc.Name, p.Globals[g])
			}
		}
	}
	rset, ok := engine.Implementing[engine.ReachableSetter]()
	if !ok {
		return nil, errors.New("no registered engine computes the reachable sets of a sequential program (engine.ReachableSetter)")
	}
	rs, err := rset.ReachableSets(ctx, p, q)
	if err != nil {
		return nil, err
	}
	defer rs.Release()
	l := rs.Layout()
	m := l.M
	type place struct {
		slot int
		copy symbolic.Copy
	}
	byVar := map[int]place{}
	for s := 0; s < l.N(); s++ {
		for _, c := range []symbolic.Copy{symbolic.Entry, symbolic.Cur} {
			byVar[l.Var(s, c)] = place{s, c}
		}
	}
	namer := func(proc *ir.Proc, entryPlain bool) func(int) string {
		return func(v int) string {
			pl := byVar[v]
			switch {
			case l.IsRet(pl.slot):
				return resultText(pl.slot - l.G - l.L)
			case l.IsGlobal(pl.slot):
				return varText(p, proc, ir.VarRef{Global: true, Index: pl.slot}, pl.copy == symbolic.Entry && !entryPlain)
			}
			return varText(p, proc, ir.VarRef{Index: pl.slot - l.G}, pl.copy == symbolic.Entry && !entryPlain)
		}
	}
	w := &Witness{Kind: Correctness, Metadata: meta}
	for _, proc := range p.Procs {
		name := namer(proc, false)
		// A variable that still has its entry value is written x = \old(x).
		var pairs [][2]int
		for s := 0; s < l.G+proc.Params; s++ {
			pairs = append(pairs, [2]int{l.Var(s, symbolic.Cur), l.Var(s, symbolic.Entry)})
		}
		// Locations at the same place (none in a lowered program, as a
		// rule) share one invariant: the union.
		type at struct{ line, col int }
		order := []at{}
		sets := map[at]bdd.Node{}
		for _, loc := range proc.Locations {
			if loc.Kind == ir.FailLoc {
				continue // the assertion's failure: no state, by the checks of the edges into it
			}
			k := at{loc.Pos.Line, loc.Pos.Col}
			if _, ok := sets[k]; !ok {
				order = append(order, k)
				sets[k] = bdd.False
			}
			sets[k] = m.Or(sets[k], rs.At(proc.Index, loc.ID))
		}
		for _, k := range order {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("the invariants: %w", context.Cause(ctx))
			}
			v, err := coverText(m, sets[k], pairs, name)
			if err != nil {
				return nil, fmt.Errorf("%s line %d: %w", proc.Name, k.line, err)
			}
			w.Invariants = append(w.Invariants, Invariant{
				Location: Location{File: p.File, Line: k.line, Col: k.col, Function: proc.Name},
				Value:    v,
			})
		}
		// The contract: the contexts at the entry (Entry copies, named
		// plainly), and the exit's path edges.
		entry := rs.At(proc.Index, proc.Entry)
		req := m.Exists(entry, l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: l.All()}))
		r, err := coverText(m, req, nil, namer(proc, true))
		if err != nil {
			return nil, fmt.Errorf("requires of %s: %w", proc.Name, err)
		}
		e, err := coverText(m, rs.At(proc.Index, proc.Exit), pairs, name)
		if err != nil {
			return nil, fmt.Errorf("ensures of %s: %w", proc.Name, err)
		}
		w.Contracts = append(w.Contracts, Contract{
			Function: proc.Name,
			Location: Location{File: p.File, Line: proc.Pos.Line, Col: proc.Pos.Col, Function: proc.Name},
			Requires: r,
			Ensures:  e,
		})
	}
	return w, nil
}

// checker validates a correctness witness with its own BDDs.
type checker struct {
	p    *ir.Program
	l    *symbolic.Layout
	m    *bdd.Manager
	inv  [][]bdd.Node // per procedure and location; FailLocs False
	req  []bdd.Node   // per procedure, over the Entry copies of its interface
	ens  []bdd.Node   // per procedure: Entry copies of the interface, Cur of globals and returned values
	ifc  []symbolic.Set
	work int
	// where each invariant and contract came from, for messages
	invPos [][]Invariant
	conPos []Contract
}

// ValidateCorrectness checks that the invariants and contracts of w are
// inductive for p (see the package doc), with BDDs of its own. A location
// without an invariant has T; a function without a contract has requires
// T and ensures T.
func ValidateCorrectness(ctx context.Context, p *ir.Program, w *Witness, opts Options) (out *Outcome) {
	if w.Kind != Correctness {
		return &Outcome{Verdict: Rejected, Reason: "not a correctness witness"}
	}
	if p.Concurrent {
		return validateConcurrent(ctx, p, w, opts)
	}
	if len(w.Configurations) > 0 || len(w.ThreadInvariants) > 0 {
		return &Outcome{Verdict: Rejected, Reason: "the witness is for another program: its invariants speak of threads, and the program is sequential"}
	}
	locs := 0
	for _, pr := range p.Procs {
		locs += len(pr.Locations)
	}
	// Small programs need small tables; the table doubles on demand.
	m := bdd.New(bdd.Config{MaxNodes: opts.MaxNodes, InitialNodes: min(max(locs*16, 1<<10), 1<<16), Reorder: bdd.ReorderOff})
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	l := symbolic.NewLayoutWith(m, p, symbolic.LayoutOptions{Order: symbolic.OrderDeclaration, Copies: 4})
	ck := &checker{p: p, l: l, m: m}
	defer func() {
		if out != nil && out.Verdict != Rejected && m.Err() != nil {
			out.Verdict, out.Reason = Unknown, m.Err().Error()
		}
	}()
	if o := ck.load(w); o != nil {
		return o
	}
	o := ck.check(ctx)
	o.Work = ck.work
	return o
}

// bddOf builds the BDD of a formula: a variable now is its slot's copy
// cur, \old(x) its Entry copy, \resultI the Cur copy of returned value I.
func (ck *checker) bddOf(f *formula, cur symbolic.Copy) bdd.Node {
	l := ck.l
	return f.bdd(ck.m, func(a atom) int {
		switch a.kind {
		case atomOld:
			return l.Var(l.Slot(a.ref), symbolic.Entry)
		case atomResult:
			return l.Var(l.Ret(a.ret), symbolic.Cur)
		}
		return l.Var(l.Slot(a.ref), cur)
	})
}

// parse parses a formula of the witness, mapping its errors to a position
// in the witness file.
func (ck *checker) parse(src string, sc scope, pos syntax.Pos, what string) (*formula, *Outcome) {
	f, err := parseFormula(src, sc)
	if err != nil {
		return nil, formulaOutcome(err, pos, what)
	}
	return f, nil
}

func (ck *checker) load(w *Witness) *Outcome {
	p, l, m := ck.p, ck.l, ck.m
	n := len(p.Procs)
	ck.inv = make([][]bdd.Node, n)
	ck.invPos = make([][]Invariant, n)
	ck.req = make([]bdd.Node, n)
	ck.ens = make([]bdd.Node, n)
	ck.ifc = make([]symbolic.Set, n)
	given := make([][]bool, n)
	for i, proc := range p.Procs {
		ck.inv[i] = make([]bdd.Node, len(proc.Locations))
		ck.invPos[i] = make([]Invariant, len(proc.Locations))
		given[i] = make([]bool, len(proc.Locations))
		for _, loc := range proc.Locations {
			ck.inv[i][loc.ID] = bdd.True
			if loc.Kind == ir.FailLoc {
				ck.inv[i][loc.ID] = bdd.False
			}
		}
		ck.req[i], ck.ens[i] = bdd.True, bdd.True
		ifc := l.Globals()
		for j := 0; j < proc.Params; j++ {
			ifc.Add(l.Local(j))
		}
		ck.ifc[i] = ifc
	}
	for _, inv := range w.Invariants {
		proc, locs, why := resolveLocation(p, inv.Location)
		if why != "" {
			return rejectAt(inv.Pos, "invariant at %s: %s", inv.Location, why)
		}
		results := 0
		for _, id := range locs {
			if proc.Locations[id].Exit {
				results = proc.Returns
			}
		}
		f, bad := ck.parse(inv.Value, scope{p: p, proc: proc, old: true, results: results}, inv.ValuePos, "invariant at "+inv.Location.String())
		if bad != nil {
			return bad
		}
		b := ck.bddOf(f, symbolic.Cur)
		for _, id := range locs {
			if !given[proc.Index][id] {
				given[proc.Index][id] = true
				ck.inv[proc.Index][id] = bdd.False
				ck.invPos[proc.Index][id] = inv
			}
			ck.inv[proc.Index][id] = m.Or(ck.inv[proc.Index][id], b)
		}
	}
	ck.conPos = make([]Contract, n)
	seen := make([]bool, n)
	for _, c := range w.Contracts {
		proc := p.Proc(c.Function)
		if proc == nil {
			return rejectAt(c.Pos, "contract of %s: the program has no function %q", c.Function, c.Function)
		}
		if seen[proc.Index] {
			return rejectAt(c.Pos, "a second contract of %s", proc.Name)
		}
		seen[proc.Index] = true
		ck.conPos[proc.Index] = c
		rf, bad := ck.parse(c.Requires, scope{p: p, proc: proc}, c.RequiresPos, "requires of "+proc.Name)
		if bad != nil {
			return bad
		}
		var local string
		for _, a := range rf.atoms {
			if !a.ref.Global && a.ref.Index >= proc.Params && local == "" {
				local = a.name
			}
		}
		if local != "" {
			return rejectAt(c.RequiresPos, "requires of %s: %s is not a parameter: a precondition names globals and parameters", proc.Name, local)
		}
		ck.req[proc.Index] = ck.bddOf(rf, symbolic.Entry)
		ef, bad := ck.parse(c.Ensures, scope{p: p, proc: proc, old: true, results: proc.Returns}, c.EnsuresPos, "ensures of "+proc.Name)
		if bad != nil {
			return bad
		}
		for _, a := range ef.atoms {
			if a.kind == atomCur && !a.ref.Global && local == "" {
				local = a.name
			}
		}
		if local != "" {
			return rejectAt(c.EnsuresPos, "ensures of %s: %s is a local: a postcondition names globals, returned values and \\old values", proc.Name, local)
		}
		ck.ens[proc.Index] = ck.bddOf(ef, symbolic.Cur)
	}
	return nil
}

// implies reports whether a ⇒ b, counting the check.
func (ck *checker) implies(a, b bdd.Node) bool {
	ck.work++
	return ck.m.Imp(a, b) == bdd.True
}

// example describes one state of f over the slots of proc (Cur copies),
// e.g. "g=1 h=0", for a message.
func (ck *checker) example(f bdd.Node, proc *ir.Proc, withRets bool) string {
	l := ck.l
	var slots []int
	var names []string
	for g := range ck.p.Globals {
		slots = append(slots, g)
		names = append(names, ir.IdentText(ck.p.Globals[g]))
	}
	for j, name := range proc.Locals {
		slots = append(slots, l.Local(j))
		names = append(names, ir.IdentText(name))
	}
	if withRets {
		for i := 0; i < proc.Returns; i++ {
			slots = append(slots, l.Ret(i))
			names = append(names, resultText(i))
		}
	}
	vals := l.Values(f, symbolic.Cur, slots)
	if vals == nil {
		return ""
	}
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(names[i])
		if v {
			b.WriteString("=1")
		} else {
			b.WriteString("=0")
		}
	}
	return b.String()
}

func (ck *checker) where(proc *ir.Proc, loc int) string {
	x := proc.Locations[loc]
	what := x.Text
	switch {
	case x.Exit:
		what = "exit"
	case x.Kind == ir.FailLoc:
		what = "failure of the assertion"
	}
	return fmt.Sprintf("%s %d:%d (%s)", proc.Name, x.Pos.Line, x.Pos.Col, what)
}

// fail is a rejection at a location, with an example state of bad.
func (ck *checker) fail(proc *ir.Proc, loc int, bad bdd.Node, format string, args ...any) *Outcome {
	msg := fmt.Sprintf(format, args...)
	if ex := ck.example(bad, proc, proc.Locations[loc].Exit); ex != "" {
		msg += ", e.g. " + ex
	}
	return rejectAt(ck.invPos[proc.Index][loc].Pos, "%s", msg)
}

func (ck *checker) check(ctx context.Context) *Outcome {
	p, l, m := ck.p, ck.l, ck.m
	for _, proc := range p.Procs {
		i := proc.Index
		locals := symbolic.NewSet(l.N())
		for j := range proc.Locals {
			locals.Add(l.Local(j))
		}
		rets := symbolic.NewSet(l.N())
		for r := 0; r < proc.Returns; r++ {
			rets.Add(l.Ret(r))
		}
		// The error locations are unreachable.
		for _, loc := range proc.Locations {
			if loc.Error && loc.Kind != ir.FailLoc && !ck.implies(ck.inv[i][loc.ID], bdd.False) {
				return ck.fail(proc, loc.ID, ck.inv[i][loc.ID], "the invariant at the error location %s holds in some state", ck.where(proc, loc.ID))
			}
		}
		// Entering: main from every state, any function from its
		// requires; the entry invariant holds.
		eq := l.Equal(symbolic.Entry, symbolic.Cur, ck.ifc[i])
		start := m.And(ck.req[i], eq)
		if i == p.Main {
			start = eq
		}
		if bad := m.And(start, m.Not(ck.inv[i][proc.Entry])); bad != bdd.False {
			ck.work++
			what := "its requires"
			if i == p.Main {
				what = "an initial state"
			}
			return ck.fail(proc, proc.Entry, bad, "the entry invariant of %s does not hold in %s", proc.Name, what)
		}
		ck.work++
		// The exit invariant implies the ensures.
		exit := m.Exists(ck.inv[i][proc.Exit], l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: locals}))
		if !ck.implies(exit, ck.ens[i]) {
			return ck.fail(proc, proc.Exit, m.And(exit, m.Not(ck.ens[i])), "the exit invariant of %s does not imply its ensures", proc.Name)
		}
		for _, e := range proc.Edges {
			if ctx.Err() != nil {
				return &Outcome{Verdict: Unknown, Reason: "timeout"}
			}
			from := ck.inv[i][e.From]
			var img bdd.Node
			switch op := e.Op.(type) {
			case *ir.Call:
				var o *Outcome
				img, o = ck.call(proc, e, op, from)
				if o != nil {
					return o
				}
			case *ir.Skip, *ir.Assume, *ir.Assign, *ir.Return:
				rel := l.EdgeRel(proc, op)
				img = m.AndExists(from, rel.R, l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: rel.Changed}))
				if !rel.Changed.Empty() {
					img = m.Replace(img, l.Rename(symbolic.Next, symbolic.Cur, rel.Changed))
				}
			default:
				return &Outcome{Verdict: Rejected, Reason: fmt.Sprintf("%s: a thread operation in a sequential program", ck.where(proc, e.From))}
			}
			to := ck.inv[i][e.To]
			if e.To == proc.Exit {
				img = m.Exists(img, l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: locals}))
			} else {
				img = m.Exists(img, l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: rets}))
			}
			if !ck.implies(img, to) {
				bad := m.And(img, m.Not(to))
				if proc.Locations[e.To].Kind == ir.FailLoc {
					return ck.fail(proc, e.From, bad, "the invariant at %s lets the assertion fail", ck.where(proc, e.From))
				}
				return ck.fail(proc, e.To, bad, "the edge %s from %s leaves the invariant at %s", e.Text, ck.where(proc, e.From), ck.where(proc, e.To))
			}
		}
	}
	return &Outcome{Verdict: Confirmed}
}

// call checks that a call from states inv enters the callee's requires,
// and returns the states after the return through the callee's ensures.
func (ck *checker) call(proc *ir.Proc, e *ir.Edge, c *ir.Call, inv bdd.Node) (bdd.Node, *Outcome) {
	p, l, m := ck.p, ck.l, ck.m
	q := p.Procs[c.Proc]
	all := l.All()
	// The caller's context is not the callee's: set it aside in Mid.
	// Here the callee's entry values are Entry copies.
	bind := l.Bind(c, ck.ifc[q.Index])
	ctx := m.Exists(inv, l.VarSet(symbolic.CopySet{Copy: symbolic.Entry, Set: all}))
	pre := m.AndExists(ctx, bind, l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: all}))
	if !ck.implies(pre, ck.req[q.Index]) {
		bad := m.And(pre, m.Not(ck.req[q.Index]))
		msg := fmt.Sprintf("the call %s at %s does not satisfy the requires of %s", e.Text, ck.where(proc, e.From), q.Name)
		if ex := ck.example(m.Replace(bad, l.Rename(symbolic.Entry, symbolic.Cur, ck.ifc[q.Index])), q, false); ex != "" {
			msg += ", e.g. " + ex
		}
		pos := ck.conPos[q.Index].Pos
		if !pos.IsValid() {
			pos = ck.invPos[proc.Index][e.From].Pos
		}
		return bdd.False, rejectAt(pos, "%s", msg)
	}
	// The return: the callee's entry values in Mid, its exit values
	// (globals and returned values) in Next.
	mid := symbolic.Mid
	bindMid := m.Replace(bind, l.Rename(symbolic.Entry, mid, ck.ifc[q.Index]))
	exitSet := l.Globals()
	for r := 0; r < q.Returns; r++ {
		exitSet.Add(l.Ret(r))
	}
	ens := m.Replace(ck.ens[q.Index], l.Rename(symbolic.Entry, mid, ck.ifc[q.Index]))
	ens = m.Replace(ens, l.Rename(symbolic.Cur, symbolic.Next, exitSet))
	x := m.AndExists(m.And(inv, bindMid), ens, l.VarSet(symbolic.CopySet{Copy: mid, Set: all}))
	// Assign the returned values to the targets.
	changed := l.Globals()
	for r, t := range c.Targets {
		if t.Discard {
			continue
		}
		s := l.Slot(t.Var)
		if l.IsGlobal(s) {
			x = m.Exists(x, l.VarSet(symbolic.CopySet{Copy: symbolic.Next, Set: single(l, s)}))
		}
		x = m.And(x, m.Equiv(l.Lit(s, symbolic.Next), l.Lit(l.Ret(r), symbolic.Next)))
		changed.Add(s)
	}
	rets := symbolic.NewSet(l.N())
	for r := 0; r < l.R; r++ {
		rets.Add(l.Ret(r))
	}
	x = m.Exists(x, l.VarSet(symbolic.CopySet{Copy: symbolic.Next, Set: rets.Minus(changed)}))
	x = m.Exists(x, l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: changed}))
	x = m.Replace(x, l.Rename(symbolic.Next, symbolic.Cur, changed))
	return m.And(x, l.Post(c)), nil
}

func single(l *symbolic.Layout, s int) symbolic.Set {
	set := symbolic.NewSet(l.N())
	set.Add(s)
	return set
}
