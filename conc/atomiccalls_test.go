package conc_test

import (
	"fmt"
	"strings"
	"testing"

	"boolprog/conc"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/syntax"
)

// TestAtomicCalls checks which calls AtomicCalls makes atomic, and why it
// leaves a program's calls interleaved where it cannot make them atomic
// exactly. What the results mean to the engines, every concurrent engine's
// conformance run checks (testsuite's atomic-call cases).
func TestAtomicCalls(t *testing.T) {
	for _, tc := range []struct {
		name    string
		src     string
		getafix bool
		calls   int    // calls made atomic
		why     string // in AtomicCallsWhy, when none is
	}{
		{"getafix", `decl atomic, g;
void init() begin atomic, g := F, F; end
void thread0() begin __VERIFIER_atomic_f(); __VERIFIER_atomic_f(); end
void thread1() begin g := T; end
void __VERIFIER_atomic_f() begin g := !g; return; end
`, true, 2, ""},
		{"nested calls in getafix", `decl atomic, g;
void init() begin atomic, g := F, F; end
void thread0() begin __VERIFIER_atomic_f(); end
void thread1() begin g := T; end
void __VERIFIER_atomic_f() begin __VERIFIER_atomic_g(); return; end
void __VERIFIER_atomic_g() begin g := !g; return; end
`, true, 2, ""},
		{"getafix without atomic", `decl g;
void init() begin g := F; end
void thread0() begin __VERIFIER_atomic_f(); end
void thread1() begin g := T; end
void __VERIFIER_atomic_f() begin g := !g; return; end
`, true, 0, "no global `atomic`"},
		{"getafix, a callee that takes the flag", `decl atomic, g;
void init() begin atomic, g := F, F; end
void thread0() begin __VERIFIER_atomic_begin(); g := T; g := F; __VERIFIER_atomic_end(); __VERIFIER_atomic_f(); end
void thread1() begin g := T; end
void __VERIFIER_atomic_begin() begin atomic := T; return; end
void __VERIFIER_atomic_end() begin atomic := F; return; end
void __VERIFIER_atomic_f() begin g := !g; return; end
`, true, 1, ""},
		{"getafix, every callee takes the flag", `decl atomic, g;
void init() begin atomic, g := F, F; end
void thread0() begin __VERIFIER_atomic_begin(); end
void thread1() begin g := T; end
void __VERIFIER_atomic_begin() begin h(); return; end
void h() begin atomic := T; return; end
`, true, 0, "sets `atomic` itself"},
		{"getafix, 64 results", wide64(), true, 1, ""},
		{"started", `decl g;
void main() begin g := F; start_thread t(); __VERIFIER_atomic_f(); end
void t() begin __VERIFIER_atomic_f(); end
void __VERIFIER_atomic_f() begin g := !g; end
`, false, 2, ""},
		{"started, own sections", `decl g;
void main() begin g := F; start_thread t(); atomic_begin; g := T; atomic_end; __VERIFIER_atomic_f(); end
void t() begin skip; end
void __VERIFIER_atomic_f() begin g := !g; end
`, false, 0, "atomic sections of its own"},
		{"started, nested", `decl g;
void main() begin g := F; start_thread t(); __VERIFIER_atomic_f(); end
void t() begin skip; end
void __VERIFIER_atomic_f() begin h(); end
void h() begin __VERIFIER_atomic_g(); end
void __VERIFIER_atomic_g() begin g := !g; end
`, false, 0, "would nest"},
		{"sequential", `decl g;
void main() begin __VERIFIER_atomic_f(); end
void __VERIFIER_atomic_f() begin g := !g; end
`, false, 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := syntax.CProver
			if tc.getafix {
				d = syntax.Getafix
			}
			p := testsuite.LowerDialect(t, "a.bp", tc.src, d, "")
			q, err := conc.AtomicCalls(p)
			if err != nil {
				t.Fatal(err)
			}
			if q.AtomicCalls != tc.calls {
				t.Errorf("%d calls made atomic, want %d (%s)", q.AtomicCalls, tc.calls, q.AtomicCallsWhy)
			}
			if tc.why == "" && q.AtomicCallsWhy != "" || !strings.Contains(q.AtomicCallsWhy, tc.why) {
				t.Errorf("why %q, want one with %q", q.AtomicCallsWhy, tc.why)
			}
			if q.AtomicCalls == 0 {
				if tc.calls == 0 && tc.why == "" && q != p {
					t.Errorf("a program without atomic calls to make was copied")
				}
				return
			}
			if err := ir.Verify(q); err != nil {
				t.Fatal(err)
			}
			// The calls made atomic are between the switch flag's
			// operations (each original call edge kept as the first of
			// them), with the calls' origins.
			calls := 0
			for _, pr := range q.Procs {
				for _, e := range pr.Edges {
					c, ok := e.Op.(*ir.Call)
					if !ok || !strings.HasPrefix(q.Procs[c.Proc].Name, conc.AtomicPrefix) || len(pr.Locations[e.From].In) != 1 {
						continue
					}
					switch before := pr.Edges[pr.Locations[e.From].In[0]]; before.Text {
					case "atomic := T", "assume(atomic)", "atomic_begin":
						calls++
						if e.Origin.Edge < 0 {
							t.Errorf("%s: the call at line %d lost its origin", pr.Name, e.Pos.Line)
						}
					}
				}
			}
			want := tc.calls
			if tc.getafix {
				want *= 2 // the call in a stretch, and the one that starts it
			}
			if calls != want {
				t.Errorf("%d calls of atomic procedures after the change, want %d", calls, want)
			}
		})
	}
}

// wide64 is a Getafix program whose thread assigns the 64 results of an
// atomic call (the widest return the language allows) to 64 globals.
func wide64() string {
	var gs, ts []string
	for i := range 64 {
		gs = append(gs, fmt.Sprintf("g%d", i))
		ts = append(ts, "T")
	}
	g := strings.Join(gs, ", ")
	return "decl atomic, " + g + ";\n" +
		"void init() begin atomic := F; end\n" +
		"void thread0() begin " + g + " := __VERIFIER_atomic_all(); end\n" +
		"void thread1() begin g0 := F; end\n" +
		"bool<64> __VERIFIER_atomic_all() begin return " + strings.Join(ts, ", ") + "; end\n"
}
