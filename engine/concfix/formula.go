package concfix

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"boolprog/conc"
	"boolprog/fix/program"
	"boolprog/ir"
)

// model holds what the formula of a program and a bound needs.
type model struct {
	p   *ir.Program
	enc *program.Encoding
	k   int // the context-switch bound
	n   int // threads
	// atomic is the index of Getafix's global `atomic`, or -1.
	atomic int
	// init is init's index if it has a body, else -1.
	init int
	// rounds, if positive, bounds the runs to that many round-robin
	// rounds over the threads (k is then the most switches they allow).
	rounds int
	// orig is the program checked; p is orig, or for the SATABS
	// convention its rewriting dyn.q with thread slots.
	orig *ir.Program
	dyn  *dynamic
	// product says the formula tracks the product of the threads' states
	// (see product.go) instead of §5.1's summaries.
	product bool
	// frontier asks for the semi-naive evaluation of the strata or the
	// product's relations (#frontier): a solve that starts them from
	// those of a solve with fewer threads (see reuse.go) then evaluates
	// the body over the carried tuples once, and later rounds only over
	// the tuples each round adds, where the simultaneous iteration would
	// evaluate the body over the carried tuples again in every round.
	frontier bool
}

// supported reports why p cannot be checked by conc-fix, or "" if it can:
// the Getafix convention with its fixed threads, no thread operations, no
// thread procedure called as a procedure.
func supported(p *ir.Program) string {
	if !p.Concurrent {
		return "a sequential program: conc-fix checks concurrent ones"
	}
	if len(p.Threads) == 0 {
		return "" // the SATABS convention: see newDynamic
	}
	isThread := make(map[int]bool)
	for _, t := range p.Threads {
		isThread[t] = true
	}
	if p.Init >= 0 {
		isThread[p.Init] = true
	}
	for _, proc := range p.Procs {
		for _, e := range proc.Edges {
			switch op := e.Op.(type) {
			case *ir.StartThread, *ir.EndThread, *ir.AtomicBegin, *ir.AtomicEnd:
				return fmt.Sprintf("%s (line %d): thread operations are not supported by conc-fix (the Getafix convention's `atomic` global is)", proc.Name, e.Pos.Line)
			case *ir.Call:
				if isThread[op.Proc] {
					return fmt.Sprintf("%s (line %d): a call of the thread procedure %s is not supported by conc-fix", proc.Name, e.Pos.Line, p.Procs[op.Proc].Name)
				}
			}
		}
	}
	return ""
}

// newModel returns the model of p for at most k context switches, or, if
// rounds > 0, for that many round-robin rounds (k is then ignored), with
// at most maxThreads threads (the initial ones included; 0: one more per
// creation site). A program it cannot handle gets an error that says why.
func newModel(p *ir.Program, k, rounds, maxThreads int) (*model, error) {
	if why := supported(p); why != "" {
		return nil, errors.New(why)
	}
	orig := p
	n := len(p.Threads)
	var dyn *dynamic
	if n == 0 {
		created := 0
		if maxThreads > 0 {
			if created = maxThreads - 1; created < 1 {
				return nil, fmt.Errorf("--max-threads %d: main is one thread, so the program could create none", maxThreads)
			}
		}
		cm, err := conc.NewModel(p, conc.Options{MaxThreads: created})
		if err != nil {
			return nil, err
		}
		if cm.Convention != conc.Dynamic {
			return nil, fmt.Errorf("conc-fix: no threads in the %s convention", cm.Convention)
		}
		if dyn, err = newDynamic(p, cm); err != nil {
			return nil, err
		}
		p, n = dyn.q, 1+dyn.slots
	} else if maxThreads > 0 {
		return nil, fmt.Errorf("--max-threads %d: the program's threads are fixed (%d), it creates none at run time", maxThreads, n)
	}
	if rounds > 0 {
		k = rounds*n - 1
	}
	m := &model{p: p, orig: orig, dyn: dyn, enc: program.NewEncoding(p), k: k, n: n, atomic: -1, init: -1, rounds: rounds}
	if dyn != nil {
		m.atomic = dyn.atomic
		m.product = m.productOK()
		return m, nil
	}
	for i, g := range p.Globals {
		if g == "atomic" {
			m.atomic = i
		}
	}
	if p.Init >= 0 && p.Procs[p.Init].Entry != p.Procs[p.Init].Exit {
		m.init = p.Init
	}
	m.product = m.productOK()
	return m, nil
}

// globals returns the State field names of the globals.
func (m *model) globals() []string {
	var out []string
	for i := range m.p.Globals {
		out = append(out, m.enc.FieldName(m.enc.Slots.Slot(ir.VarRef{Global: true, Index: i})))
	}
	return out
}

// nonGlobals returns the State fields that are not globals: pc, locals,
// returned values.
func (m *model) nonGlobals() []string {
	out := []string{"pc"}
	for s := 0; s < m.enc.Slots.N(); s++ {
		if !m.enc.Slots.IsGlobal(s) {
			out = append(out, m.enc.FieldName(s))
		}
	}
	return out
}

// eqFields is a = b on the given fields of a and b ("true" if none).
func eqFields(a, b string, fields []string) string {
	if len(fields) == 0 {
		return "true"
	}
	var fs []string
	for _, f := range fields {
		fs = append(fs, fmt.Sprintf("%s.%s = %s.%s", a, f, b, f))
	}
	return "(" + strings.Join(fs, " & ") + ")"
}

// eqGlob is the globals of State s equal to Glob g.
func (m *model) eqGlob(s, g string) string {
	gs := m.globals()
	if len(gs) == 0 {
		return "true"
	}
	var fs []string
	for _, f := range gs {
		fs = append(fs, fmt.Sprintf("%s.%s = %s.%s", s, f, g, f))
	}
	return "(" + strings.Join(fs, " & ") + ")"
}

// transientPCs lists the program counters at which no thread may be
// switched out: the exits of procedures that no thread starts in. In
// interp a return statement pops the frame and assigns the caller's
// targets in one step, so a called procedure's exit is never a state a
// thread rests in; the formula's Exit-then-Return is two relations, and
// a switch between them would let other threads run before the caller's
// assignment (a run interp does not have: seen as a conc-fix trace that
// did not replay, random SATABS-style program seed 249 at 2 rounds). A
// thread procedure's exit is where the thread ends, and stays
// switchable; one that is also called (the SATABS convention allows it)
// keeps that over-approximation at its exit, which the replay of every
// trace guards.
func (m *model) transientPCs() []int {
	roots := map[int]bool{}
	if m.dyn != nil {
		roots[m.dyn.q.Main] = true
		for _, k := range m.dyn.kinds {
			roots[k] = true
		}
	} else {
		for _, t := range m.p.Threads {
			roots[t] = true
		}
	}
	var pcs []int
	for i, pr := range m.p.Procs {
		if !roots[i] && i != m.p.Init {
			pcs = append(pcs, m.enc.PC(i, pr.Exit))
		}
	}
	return pcs
}

// resting is the formula "a thread may be switched out in state s" (see
// transientPCs).
func (m *model) resting(s string) string {
	var fs []string
	for _, pc := range m.transientPCs() {
		fs = append(fs, fmt.Sprintf("%s.pc = %d", s, pc))
	}
	if len(fs) == 0 {
		return "true"
	}
	return "!(" + strings.Join(fs, " | ") + ")"
}

// at is the state u at the entry of proc with the slots out of its scope
// false (as the program relations keep them).
func (m *model) at(u string, proc int) string {
	pr := m.p.Procs[proc]
	fs := []string{fmt.Sprintf("%s.pc = %d", u, m.enc.PC(proc, pr.Entry))}
	for s := 0; s < m.enc.Slots.N(); s++ {
		switch {
		case m.enc.Slots.IsLocal(s) && s-m.enc.Slots.G >= len(pr.Locals), m.enc.Slots.IsRet(s):
			fs = append(fs, fmt.Sprintf("%s.%s = 0", u, m.enc.FieldName(s)))
		}
	}
	return "(" + strings.Join(fs, " & ") + ")"
}

// reachName is the name of the relation of stratum c: the tuples with c
// context switches.
func reachName(c int) string { return fmt.Sprintf("Reach%d", c) }

// names returns prefix1..prefixN (from lo).
func names(prefix string, lo, hi int) []string {
	var out []string
	for i := lo; i <= hi; i++ {
		out = append(out, fmt.Sprintf("%s%d", prefix, i))
	}
	return out
}

// args is the Glob and Tid arguments of stratum c: g1..gc, t0..tc.
func args(c int) string {
	return strings.Join(append(names("g", 1, c), names("t", 0, c)...), ", ")
}

// params declares them.
func (m *model) params(c int) string {
	var out []string
	for _, g := range names("g", 1, c) {
		out = append(out, m.gType()+" "+g)
	}
	for _, t := range names("t", 0, c) {
		out = append(out, "Tid "+t)
	}
	return strings.Join(out, ", ")
}

// tparams declares t0..tc.
func tparams(c int) string {
	var out []string
	for _, t := range names("t", 0, c) {
		out = append(out, "Tid "+t)
	}
	return strings.Join(out, ", ")
}

// first is the condition that context c is the first of its thread.
func first(c int) string {
	out := []string{"true"}
	for r := 0; r < c; r++ {
		out = append(out, fmt.Sprintf("t%d != t%d", r, c))
	}
	return "(" + strings.Join(out, " & ") + ")"
}

// consecutive is the condition that context a is the last one of context
// b's thread before b.
func consecutive(a, b int) string {
	out := []string{fmt.Sprintf("t%d = t%d", a, b)}
	for i := a + 1; i < b; i++ {
		out = append(out, fmt.Sprintf("t%d != t%d", i, b))
	}
	return "(" + strings.Join(out, " & ") + ")"
}

// writeStart writes the thread entries (ThreadEntry), init's
// reachability (InitReach) and the start of the threads (Started).
func (m *model) writeStart(w io.Writer) {
	n := m.n
	pf := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	pf("// ThreadEntry(t, u): u is thread t's state at its start.\nbool ThreadEntry(Tid t, State u) (false")
	for i := 0; i < n; i++ {
		if m.dyn != nil {
			pf("\n  | (t = %d & %s)", i, m.dyn.threadEntry(m, i, "u"))
		} else {
			pf("\n  | (t = %d & %s)", i, m.at("u", m.p.Threads[i]))
		}
	}
	pf(");\n\n")

	if m.init >= 0 {
		pf("// InitReach: summaries of init, which runs alone before the threads.\n")
		pf("mu bool InitReach(State u, State v) u ~+ v (\n")
		pf("    (%s & u = v)\n", m.at("u", m.init))
		pf("  | (exists State x. (InitReach(u, x) & ProgramInt(x, v)))\n")
		pf("  | (exists State x, State y. (InitReach(x, y) & IntoCall(y, u) & u = v))\n")
		pf("  | (exists State x, State y, State z. (InitReach(u, x) & IntoCall(x, y) & InitReach(y, z) & Exit(z) & Return(x, z, v)))\n);\n\n")
		pf("// Started(u): u's globals are those init leaves.\nbool Started(State u) (exists State a, State b. (InitReach(a, b) & %s & b.pc = %d & %s));\n\n",
			m.at("a", m.init), m.enc.PC(m.init, m.p.Procs[m.init].Exit), eqFields("b", "u", m.globals()))
	} else if m.dyn != nil {
		pf("// Started(u): no thread created yet, no atomic section.\nbool Started(State u) %s;\n\n", m.dyn.started(m, "u"))
	} else {
		pf("bool Started(State u) (true);\n\n")
	}

}

// write writes the algorithm: the types of its own, the thread entries,
// init's reachability, the strata Reach0..Reachk (the Getafix paper's
// §5.1 Reach, one relation per number of context switches) and, if
// query, ErrorAt and the query.
func (m *model) write(w io.Writer, query bool) {
	if m.product {
		m.writeProduct(w, query)
		return
	}
	k, n := m.k, m.n
	pf := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	pf("// Context-bounded reachability (Getafix paper, section 5.1) for %d threads\n// and at most %d context switches", n, k)
	if m.rounds > 0 {
		pf(" in %d round-robin rounds", m.rounds)
	}
	pf(", written by boolprog's conc-fix.\n\n")
	pf("enum CS {0..%d};\n", max(k, 1))
	pf("enum Tid {0..%d};\n", max(n-1, 1))
	pf("class Glob {\n")
	for _, g := range m.globals() {
		pf("  bool %s;\n", g)
	}
	if len(m.globals()) == 0 {
		pf("  bool unused;\n")
	}
	pf("};\n\n")

	m.writeStart(w)

	if m.rounds > 0 {
		// Desc<c>(d, t0..tc): the schedule t0..tc goes back to a smaller
		// thread d times (each such switch starts a new round).
		pf("// Rounds: Desc<c>(d, t) says the schedule t0..tc returns to a smaller thread\n// number d times; a run of r rounds has at most r-1 such returns.\n")
		pf("bool Less(Tid a, Tid b) (false")
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				pf(" | (a = %d & b = %d)", a, b)
			}
		}
		pf(");\n")
		pf("bool Succ(CS a, CS b) (false")
		for i := 0; i < max(k, 1); i++ {
			pf(" | (a = %d & b = %d)", i, i+1)
		}
		pf(");\n")
		pf("bool Desc0(CS d, Tid t0) (d = 0);\n")
		for c := 1; c <= k; c++ {
			pf("bool Desc%d(CS d, %s) (exists CS d2. (Desc%d(d2, %s) & ((Less(t%d, t%d) & Succ(d2, d)) | (!Less(t%d, t%d) & d = d2))));\n",
				c, tparams(c), c-1, strings.Join(names("t", 0, c-1), ", "), c, c-1, c, c-1)
		}
		for c := 1; c <= k; c++ {
			pf("bool InRounds%d(%s) (false", c, tparams(c))
			for d := 0; d < m.rounds && d <= c; d++ {
				pf(" | Desc%d(%d, %s)", c, d, strings.Join(names("t", 0, c), ", "))
			}
			pf(");\n")
		}
		pf("\n")
	}

	// The strata.
	pf("// Reach<c>(u, v, ecs, g1..gc, t0..tc): a run with c context switches, the\n// i-th at globals g_i, context i run by thread t_i, brings thread t_c to v,\n// in a procedure entered at u after ecs switches. The strata depend only on\n// lower ones: each is solved once, in order.\n")
	for c := 0; c <= k; c++ {
		a := args(c)
		if c >= 1 {
			// Left<c>: some thread ends context c-1 with the globals g_c.
			pf("bool Left%d(%s) (exists State x, State y, CS e2. (%s(x, y, e2, %s) & %s & %s))", c, m.params(c), reachName(c-1), args(c-1), m.eqGlob("y", fmt.Sprintf("g%d", c)), m.resting("y"))
			if m.atomic >= 0 {
				pf(" & g%d.%s = 0", c, m.globals()[m.atomic])
			}
			if m.rounds > 0 {
				pf(" & InRounds%d(%s)", c, strings.Join(names("t", 0, c), ", "))
			}
			pf(";\n")
		}
		pf("mu bool %s(State u, State v, CS ecs, %s)\n  %s\n(\n    false\n", reachName(c), m.params(c), m.order(c))
		if c == 0 {
			pf("  | (ecs = 0 & ThreadEntry(t0, u) & Started(u) & u = v)\n")
		}
		r := reachName(c)
		pf("  | (exists State x. (%s(u, x, ecs, %s) & ProgramInt(x, v)))\n", r, a)
		pf("  | (ecs = %d & u = v & (exists State x, State y, CS e2. (%s(x, y, e2, %s) & IntoCall(y, u))))\n", c, r, a)
		for c2 := 0; c2 <= c; c2++ {
			pf("  | (exists State x, State y, State z. (%s(u, x, ecs, %s) & IntoCall(x, y) & %s(y, z, %d, %s) & Exit(z) & Return(x, z, v)))\n", reachName(c2), args(c2), r, c2, a)
		}
		if c >= 1 {
			pf("  | (Left%d(%s) & %s & (\n", c, a, m.eqGlob("v", fmt.Sprintf("g%d", c)))
			pf("        (%s & ThreadEntry(t%d, v) & u = v & ecs = %d)\n", first(c), c, c)
			for c3 := 0; c3 < c; c3++ {
				pf("      | (%s & (exists State w. (%s(u, w, ecs, %s) & %s & %s & %s)))\n", consecutive(c3, c), reachName(c3), args(c3), m.eqGlob("w", fmt.Sprintf("g%d", c3+1)), m.resting("w"), eqFields("v", "w", m.nonGlobals()))
			}
			pf("    ))\n")
		}
		pf(");\n")
		if m.frontier {
			pf("#frontier %s;\n", reachName(c))
		}
		pf("\n")
	}
	if !query {
		return
	}
	pf("// ErrorAt(cs): an error is reached after cs context switches (in init: 0).\n")
	pf("bool ErrorAt(CS cs) (false")
	for c := 0; c <= k; c++ {
		pf("\n  | (cs = %d & (exists State u, State v, CS ecs, %s. (%s(u, v, ecs, %s) & Target(v))))", c, m.params(c), reachName(c), args(c))
	}
	if m.init >= 0 {
		pf("\n  | (cs = 0 & (exists State u, State v. (InitReach(u, v) & Target(v))))")
	}
	pf(");\n\n(exists CS c. ErrorAt(c));\n")
}

// chain returns "a < b, b < c, ..." for the names given.
func chain(names ...string) []string {
	var out []string
	for i := 1; i < len(names); i++ {
		out = append(out, names[i-1]+" < "+names[i])
	}
	return out
}

// order returns the order constraints of stratum c's parameters: the two
// states on top, interleaved, then the entry's switch count, the globals
// at the switches and the schedule (measured on the Bluetooth model, 1
// adder + 1 stopper, 3 switches: 4 times faster than the schedule on
// top). The copies of the globals are interleaved bit by bit (Bluetooth
// 1+1 at 6 switches: 6.6 s instead of 8.3 s), and with many globals they
// are States interleaved with u and v (see stateCopies).
func (m *model) order(c int) string {
	gs, ts := names("g", 1, c), names("t", 0, c)
	var inter []string
	if m.stateCopies() {
		inter = append(inter, "u ~+ v")
		prev := "v"
		for _, g := range gs {
			inter = append(inter, prev+" ~+ "+g)
			prev = g
		}
		ns := append([]string{"v", "ecs"}, ts...)
		return strings.Join(append(chain(ns...), inter...), ", ")
	}
	for i := 1; i < len(gs); i++ {
		inter = append(inter, gs[i-1]+" ~+ "+gs[i])
	}
	ns := []string{"v", "ecs"}
	if len(gs) > 0 {
		ns = append(ns, gs[0])
	}
	ns = append(ns, ts...)
	return strings.Join(append(append(chain(ns...), inter...), "u ~+ v"), ", ")
}

// stateCopies says the copies of the globals are States interleaved with
// u and v rather than Globs below them. A switch equates v's globals with
// a copy, and an equality between n bits far apart is a BDD of 2^n nodes:
// with 17 globals (getafix fib_3) the States, whose other fields are
// free, solve cs:3 three times faster; with 7 (Bluetooth) the Globs are
// three times faster at cs:6, the long groups of interleaved States
// keeping u and v apart.
func (m *model) stateCopies() bool { return len(m.p.Globals) > 10 }

// gType is the type of the copies of the globals.
func (m *model) gType() string {
	if m.stateCopies() {
		return "State"
	}
	return "Glob"
}
