package gen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"boolprog/internal/testflags"
	"boolprog/sema"
	"boolprog/syntax"
)

// parseCheck parses src in the CProver dialect, checks it, and returns the
// file and its printed form.
func parseCheck(t *testing.T, name, src string) (*syntax.File, string, syntax.ErrorList) {
	t.Helper()
	f, err := syntax.ParseFile(name, []byte(src), syntax.CProver)
	if err != nil {
		t.Fatalf("%s: parse: %v\n%s", name, err, numbered(src))
	}
	_, errs, warns := sema.Check(f)
	if len(errs) > 0 {
		t.Fatalf("%s: check: %v\n%s", name, errs, numbered(src))
	}
	var b bytes.Buffer
	if err := syntax.Fprint(&b, f); err != nil {
		t.Fatalf("%s: print: %v", name, err)
	}
	return f, b.String(), warns
}

func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

func TestRandomValid(t *testing.T) {
	n := testflags.N(200, 400, 2000, 2000)
	for seed := int64(0); seed < int64(n); seed++ {
		name := fmt.Sprintf("seed%d.bp", seed)
		src := Random(seed, Options{})
		_, p1, _ := parseCheck(t, name, src)
		_, p2, _ := parseCheck(t, name+"(printed)", p1)
		if p1 != p2 {
			t.Fatalf("%s: print/parse round trip differs:\n--- first\n%s\n--- second\n%s", name, p1, p2)
		}
	}
}

func TestRandomDeterministic(t *testing.T) {
	for _, opt := range []Options{{}, {Globals: 5, Procs: 6, Depth: 3}} {
		distinct := map[string]bool{}
		for seed := int64(-5); seed < 50; seed++ {
			a, b := Random(seed, opt), Random(seed, opt)
			if a != b {
				t.Fatalf("seed %d, %+v: two calls differ", seed, opt)
			}
			distinct[a] = true
		}
		if len(distinct) != 55 {
			t.Errorf("%+v: 55 seeds gave only %d distinct programs", opt, len(distinct))
		}
	}
}

// TestRandomDialects checks that the generated text means the same under
// both precedence dialects: it parses to trees that print identically.
func TestRandomDialects(t *testing.T) {
	for seed := int64(0); seed < 300; seed++ {
		src := []byte(Random(seed, Options{}))
		var out [2]bytes.Buffer
		for i, d := range []syntax.Dialect{syntax.CProver, syntax.Getafix} {
			f, err := syntax.ParseFile("x.bp", src, d)
			if err != nil {
				t.Fatalf("seed %d, %v: %v", seed, d, err)
			}
			if err := syntax.Fprint(&out[i], f); err != nil {
				t.Fatal(err)
			}
		}
		if out[0].String() != out[1].String() {
			t.Fatalf("seed %d: the dialects read different trees:\n%s\n---\n%s", seed, out[0].String(), out[1].String())
		}
	}
}

// TestRandomOptions checks other sizes and every omitted feature: the
// programs stay valid and the omitted feature does not appear.
func TestRandomOptions(t *testing.T) {
	all := Recursion | Goto | NondetGoto | While | Constrain | Schoose | Nondet |
		Enforce | Assume | Assert | Dead | ErrorLabel | MultiReturn | Elsif
	for _, tc := range []struct {
		name   string
		opt    Options
		absent []string // substrings that must not appear
	}{
		{"tiny", Options{Globals: 1, MaxLocals: 1, Procs: 1, Stmts: 1, Depth: 1}, nil},
		{"no-vars", Options{Globals: -1, MaxLocals: -1}, []string{"decl"}},
		{"flat", Options{Depth: -1}, []string{"if ", "while ", "goto"}},
		{"big", Options{Globals: 4, MaxLocals: 6, Procs: 8, Stmts: 10, Depth: 3}, nil},
		{"no-goto", Options{Omit: Goto}, []string{"goto"}},
		{"no-while", Options{Omit: While}, []string{"while"}},
		{"no-constrain", Options{Omit: Constrain}, []string{"constrain", "'"}},
		{"no-schoose", Options{Omit: Schoose}, []string{"schoose"}},
		{"no-nondet", Options{Omit: Nondet}, []string{"*"}},
		{"no-enforce", Options{Omit: Enforce}, []string{"enforce"}},
		{"no-assume", Options{Omit: Assume}, []string{"assume"}},
		{"no-assert", Options{Omit: Assert}, []string{"assert"}},
		{"no-dead", Options{Omit: Dead}, []string{"dead"}},
		{"no-error-label", Options{Omit: ErrorLabel}, []string{"SLIC_ERROR"}},
		{"no-multi-return", Options{Omit: MultiReturn}, []string{"bool<"}},
		{"no-elsif", Options{Omit: Elsif}, []string{"elsif"}},
		{"no-errors", Options{Omit: Assert | ErrorLabel}, []string{"assert", "SLIC_ERROR"}},
		{"nothing", Options{Omit: all}, []string{"goto", "while", "constrain", "schoose", "*", "enforce",
			"assume", "assert", "dead", "SLIC_ERROR", "bool<", "elsif"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for seed := int64(0); seed < 150; seed++ {
				src := Random(seed, tc.opt)
				f, _, _ := parseCheck(t, fmt.Sprintf("%s-%d.bp", tc.name, seed), src)
				for _, a := range tc.absent {
					if strings.Contains(src, a) {
						t.Fatalf("seed %d: %q appears:\n%s", seed, a, src)
					}
				}
				if tc.opt.Omit&Recursion != 0 {
					for i, p := range f.Procs {
						syntax.Inspect(p, func(n syntax.Node) bool {
							if c, ok := n.(*syntax.CallStmt); ok && procIndex(f, c.Proc.Name) <= i {
								t.Fatalf("seed %d: %s calls %s", seed, p.Name.Name, c.Proc.Name)
							}
							return true
						})
					}
				}
			}
		})
	}
}

func procIndex(f *syntax.File, name string) int {
	for i, p := range f.Procs {
		if p.Name.Name == name {
			return i
		}
	}
	return -1
}

// TestRandomCoverage checks over many seeds with the default options that
// every feature occurs, and that at most 10 variables are in scope
// anywhere; it logs how often each feature occurs.
func TestRandomCoverage(t *testing.T) {
	const n = 1000
	counts := map[string]int{}
	feats := []string{"recursion", "self recursion", "mutual recursion", "forward goto", "backward goto", "goto L1, L2",
		"while", "elsif", "else", "constrain", "schoose", "*", "enforce", "assume", "assert", "dead",
		"SLIC_ERROR", "bool<2>", "_ discard", "params", "return e", "early return"}
	maxScope := 0
	for seed := int64(0); seed < n; seed++ {
		prog := build(seed, Options{})
		src := prog.String()
		f, _, _ := parseCheck(t, "x.bp", src)
		_, scope := scopeCounts(f)
		maxScope = max(maxScope, scope)
		has := map[string]bool{}
		for _, k := range []string{"while", "elsif", "else", "constrain", "schoose", "*", "enforce",
			"assume", "assert", "dead", "SLIC_ERROR", "bool<2>"} {
			has[k] = strings.Contains(src, k)
		}
		for i, p := range prog.procs {
			has["params"] = has["params"] || len(p.params) > 0
			var order []*st
			var walk func(ss []*st, top bool)
			walk = func(ss []*st, top bool) {
				for k, s := range ss {
					order = append(order, s)
					switch s.kind {
					case sCall:
						if s.callee == i {
							has["self recursion"] = true
						}
						if s.callee < i && reaches(prog, s.callee, i) {
							has["mutual recursion"] = true
						}
						if s.callee <= i {
							has["recursion"] = true
						}
						for _, l := range s.lhs {
							has["_ discard"] = has["_ discard"] || l == "_"
						}
					case sReturn:
						has["return e"] = has["return e"] || len(s.results) > 0
						has["early return"] = has["early return"] || !top || k < len(ss)-1
					case sGoto:
						has["goto L1, L2"] = has["goto L1, L2"] || len(s.targets) > 1
					}
					walk(s.then, false)
					walk(s.els, false)
					walk(s.body, false)
				}
			}
			walk(p.body, true)
			pos := map[*st]int{}
			for k, s := range order {
				pos[s] = k
			}
			for _, s := range order {
				if s.kind == sGoto {
					for _, tg := range s.targets {
						if pos[tg] < pos[s] {
							has["backward goto"] = true
						} else {
							has["forward goto"] = true
						}
					}
				}
			}
		}
		for k, v := range has {
			if v {
				counts[k]++
			}
		}
	}
	if maxScope > 10 {
		t.Errorf("up to %d variables in scope, want at most 10", maxScope)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d programs, at most %d variables in scope; programs using:", n, maxScope)
	for _, k := range feats {
		fmt.Fprintf(&b, " %s %.0f%%,", k, 100*float64(counts[k])/n)
		if counts[k] == 0 {
			t.Errorf("no program uses %s", k)
		}
	}
	t.Log(strings.TrimSuffix(b.String(), ","))
}

// reaches reports whether procedure from calls procedure to, directly or
// not.
func reaches(prog *program, from, to int) bool {
	seen := make([]bool, len(prog.procs))
	var visit func(i int) bool
	visit = func(i int) bool {
		if i == to {
			return true
		}
		if seen[i] {
			return false
		}
		seen[i] = true
		found := false
		var walk func(ss []*st)
		walk = func(ss []*st) {
			for _, s := range ss {
				if s.kind == sCall && visit(s.callee) {
					found = true
				}
				walk(s.then)
				walk(s.els)
				walk(s.body)
			}
		}
		walk(prog.procs[i].body)
		return found
	}
	return visit(from)
}

func BenchmarkRandom(b *testing.B) {
	for i := 0; i < b.N; i++ {
		Random(int64(i), Options{})
	}
}

func BenchmarkBebopTemplate100(b *testing.B) {
	for i := 0; i < b.N; i++ {
		BebopTemplate(100)
	}
}
