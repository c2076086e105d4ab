package concfix

import (
	"fmt"
	"io"
	"strings"

	"boolprog/engine/fixpoint"
	"boolprog/ir"
)

// model holds what the formula of a program and a bound needs.
type model struct {
	p   *ir.Program
	enc *fixpoint.Encoding
	k   int // the context-switch bound
	n   int // threads
	// atomic is the index of Getafix's global `atomic`, or -1.
	atomic int
	// init is init's index if it has a body, else -1.
	init int
}

// supported reports why p cannot be checked by conc-fix, or "" if it can:
// the Getafix convention with its fixed threads, no thread operations, no
// thread procedure called as a procedure.
func supported(p *ir.Program) string {
	if !p.Concurrent {
		return "a sequential program: conc-fix checks concurrent ones"
	}
	if len(p.Threads) == 0 {
		return "threads created at run time (start_thread, ASYNC_): conc-fix handles the fixed threads of the Getafix convention only"
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

func newModel(p *ir.Program, k int) *model {
	m := &model{p: p, enc: fixpoint.NewEncoding(p), k: k, n: len(p.Threads), atomic: -1, init: -1}
	for i, g := range p.Globals {
		if g == "atomic" {
			m.atomic = i
		}
	}
	if p.Init >= 0 && p.Procs[p.Init].Entry != p.Procs[p.Init].Exit {
		m.init = p.Init
	}
	return m
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

func (m *model) gs() string {
	var out []string
	for i := 1; i <= m.k; i++ {
		out = append(out, fmt.Sprintf("g%d", i))
	}
	return strings.Join(out, ", ")
}

func (m *model) ts() string {
	var out []string
	for i := 0; i <= m.k; i++ {
		out = append(out, fmt.Sprintf("t%d", i))
	}
	return strings.Join(out, ", ")
}

// args is the Glob and Tid arguments every application of Reach repeats.
func (m *model) args() string {
	if m.k == 0 {
		return m.ts()
	}
	return m.gs() + ", " + m.ts()
}

// params declares them.
func (m *model) params() string {
	var out []string
	for i := 1; i <= m.k; i++ {
		out = append(out, fmt.Sprintf("Glob g%d", i))
	}
	for i := 0; i <= m.k; i++ {
		out = append(out, fmt.Sprintf("Tid t%d", i))
	}
	return strings.Join(out, ", ")
}

// write writes the algorithm: the types of its own, the relations of the
// thread structure, init's reachability, Reach (the Getafix paper's §5.1)
// and the query.
func (m *model) write(w io.Writer) {
	k, n := m.k, m.n
	pf := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	pf("// Context-bounded reachability (Getafix paper, section 5.1) for %d threads\n// and at most %d context switches, written by boolprog's conc-fix.\n\n", n, k)
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

	pf("// ThreadEntry(t, u): u is thread t's state at its start.\nbool ThreadEntry(Tid t, State u) (false")
	for i, proc := range m.p.Threads {
		pf("\n  | (t = %d & %s)", i, m.at("u", proc))
	}
	pf(");\n\n")

	// The order of consecutive bounds, and the schedule's relations.
	pf("bool CSLe(CS a, CS b) (false")
	for i := 0; i <= k; i++ {
		for j := i; j <= k; j++ {
			pf(" | (a = %d & b = %d)", i, j)
		}
	}
	pf(");\n")
	pf("bool CSSucc(CS a, CS b) (false")
	for i := 0; i < k; i++ {
		pf(" | (a = %d & b = %d)", i, i+1)
	}
	pf(");\n\n")

	pf("// First(cs, t): context cs is the first of its thread.\nbool First(CS cs, %s) (false", m.params())
	for i := 1; i <= k; i++ {
		pf("\n  | (cs = %d", i)
		for r := 0; r < i; r++ {
			pf(" & t%d != t%d", r, i)
		}
		pf(")")
	}
	pf(");\n\n")

	pf("// Consecutive(a, b, t): context a is the last one of b's thread before b.\nbool Consecutive(CS a, CS b, %s) (false", m.params())
	for a := 0; a <= k; a++ {
		for b := a + 1; b <= k; b++ {
			pf("\n  | (a = %d & b = %d & t%d = t%d", a, b, a, b)
			for i := a + 1; i < b; i++ {
				pf(" & t%d != t%d", i, b)
			}
			pf(")")
		}
	}
	pf(");\n\n")

	pf("// EntryOf(cs, t, u): u is the start of the thread of context cs.\nbool EntryOf(CS cs, %s, State u) (false", m.params())
	for i := 0; i <= k; i++ {
		pf("\n  | (cs = %d & ThreadEntry(t%d, u))", i, i)
	}
	pf(");\n\n")

	pf("// SwitchAt(cs, y, v, g): context cs starts with the globals g_cs, those\n// of y (the state left) and v (the state entered).\nbool SwitchAt(CS cs, State y, State v, %s) (false", m.params())
	for i := 1; i <= k; i++ {
		pf("\n  | (cs = %d & %s & %s", i, m.eqGlob("y", fmt.Sprintf("g%d", i)), m.eqGlob("v", fmt.Sprintf("g%d", i)))
		if m.atomic >= 0 {
			pf(" & g%d.%s = 0", i, m.globals()[m.atomic])
		}
		pf(")")
	}
	pf(");\n\n")

	pf("// LeftAt(a, w, g): w has the globals of the switch that ends context a.\nbool LeftAt(CS a, State w, %s) (false", m.params())
	for i := 0; i < k; i++ {
		pf("\n  | (a = %d & %s)", i, m.eqGlob("w", fmt.Sprintf("g%d", i+1)))
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
	} else {
		pf("bool Started(State u) (true);\n\n")
	}

	order := m.order()
	a := m.args()
	pf("// Reach(u, v, ecs, cs, g, t): a run with cs context switches, the i-th at\n// globals g_i, context i run by thread t_i, brings thread t_cs to v, in a\n// procedure entered at u after ecs switches.\n")
	pf("mu bool Reach(State u, State v, CS ecs, CS cs, %s)\n  %s\n(\n", m.params(), order)
	pf("    (cs = 0 & ecs = 0 & EntryOf(cs, %s, u) & Started(u) & u = v)\n", a)
	pf("  | (exists State x. (Reach(u, x, ecs, cs, %s) & ProgramInt(x, v)))\n", a)
	pf("  | (exists State x, State y, CS e2. (Reach(x, y, e2, cs, %s) & IntoCall(y, u) & ecs = cs & u = v))\n", a)
	pf("  | (exists State x, State y, State z, CS c2. (Reach(u, x, ecs, c2, %s) & IntoCall(x, y) & Reach(y, z, c2, cs, %s) & Exit(z) & Return(x, z, v) & CSLe(c2, cs)))\n", a, a)
	if k > 0 {
		pf("  | (exists State x, State y, CS e2, CS c2. (Reach(x, y, e2, c2, %s) & CSSucc(c2, cs) & SwitchAt(cs, y, v, %s))\n", a, a)
		pf("       & First(cs, %s) & EntryOf(cs, %s, v) & u = v & ecs = cs)\n", a, a)
		pf("  | ((exists State x, State y, CS e2, CS c2. (Reach(x, y, e2, c2, %s) & CSSucc(c2, cs) & SwitchAt(cs, y, v, %s)))\n", a, a)
		pf("       & !First(cs, %s)\n", a)
		pf("       & (exists State w, CS c3. (Reach(u, w, ecs, c3, %s) & Consecutive(c3, cs, %s) & LeftAt(c3, w, %s) & %s)))\n", a, a, a, eqFields("v", "w", m.nonGlobals()))
	}
	pf(");\n\n")

	pf("// ErrorAt(cs): an error is reached after cs context switches (in init: 0).\n")
	pf("bool ErrorAt(CS cs) ((exists State u, State v, CS ecs, %s. (Reach(u, v, ecs, cs, %s) & Target(v)))", m.params(), a)
	if m.init >= 0 {
		pf("\n  | (cs = 0 & (exists State u, State v. (InitReach(u, v) & Target(v))))")
	}
	pf(");\n\n(exists CS c. ErrorAt(c))\n")
}

// chain returns "a < b, b < c, ..." for the names given.
func chain(names ...string) []string {
	var out []string
	for i := 1; i < len(names); i++ {
		out = append(out, names[i-1]+" < "+names[i])
	}
	return out
}

// order returns the order constraints of Reach's parameters.
func (m *model) order() string {
	var ts, gs []string
	for i := 0; i <= m.k; i++ {
		ts = append(ts, fmt.Sprintf("t%d", i))
	}
	for i := 1; i <= m.k; i++ {
		gs = append(gs, fmt.Sprintf("g%d", i))
	}
	// The two states on top, interleaved, then the switch counters, the
	// globals at the switches and the schedule: measured on the Bluetooth
	// model (1 adder + 1 stopper, 3 switches), 4 times faster than the
	// schedule on top.
	names := append(append([]string{"v", "cs", "ecs"}, gs...), ts...)
	return strings.Join(append(chain(names...), "u ~+ v"), ", ")
}
