package summary_test

import (
	"boolprog/internal/testsuite"
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/summary"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// long enables the long differential run (5,000 random programs); so does
// the environment variable BOOLPROG_LONG=1.

func traceText(tr *result.Trace) string {
	var b bytes.Buffer
	result.WriteTrace(&b, tr, result.Forward)
	return b.String()
}

// check runs the summary engine with opts and replays an unsafe verdict's
// trace in interp.
func check(t testing.TB, p *ir.Program, q engine.Query, opts summary.Options) *result.Result {
	t.Helper()
	res, err := summary.New(opts).Check(context.Background(), p, q)
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	if res.Engine != summary.Name {
		t.Errorf("engine %q", res.Engine)
	}
	switch {
	case res.TraceCut:
		if res.Verdict != result.Unsafe || res.Trace != nil || res.Property == nil || res.Reason == "" {
			t.Errorf("cut trace: %s, trace %v, property %v, reason %q", res.Verdict, res.Trace != nil, res.Property, res.Reason)
		}
	case res.Verdict == result.Unsafe:
		if err := interp.Replay(p, res.Trace); err != nil {
			t.Fatalf("trace does not replay: %v\n%s", err, traceText(res.Trace))
		}
	default:
		if res.Trace != nil {
			t.Errorf("%s verdict with a trace", res.Verdict)
		}
	}
	return res
}

func oracle(t testing.TB, p *ir.Program, q engine.Query) *result.Result {
	t.Helper()
	ex, err := explicit.NewWithOptions(explicit.Options{MaxVars: 24})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ex.Check(context.Background(), p, q)
	if err != nil {
		t.Fatalf("explicit: %v", err)
	}
	return res
}

// allOptions are the engine configurations the differential tests run:
// every optimisation on, and each one off.
var allOptions = []struct {
	name string
	opts summary.Options
}{
	{"default", summary.Options{}},
	{"no-live", summary.Options{NoLiveness: true}},
	{"no-modref", summary.Options{NoModRef: true}},
	{"decl-order", summary.Options{DeclarationOrder: true}},
	{"affinity-order", summary.Options{AffinityOrder: true}},
	{"none", summary.Options{NoLiveness: true, NoModRef: true, DeclarationOrder: true}},
	// Both worklist orders, whatever the search asks for (the default
	// alternates to the first error and takes callees first for every
	// reachable state).
	{"worklist-callees", summary.Options{Worklist: summary.WorklistCallees}},
	{"worklist-alternate", summary.Options{Worklist: summary.WorklistAlternate}},
	// A tiny node table: collections in the middle of everything check
	// that every BDD the engine keeps is rooted.
	{"gc-stress", summary.Options{InitialNodes: 64}},
}

// TestBenchmarks checks every satabs-boppo test: sequential ones get the
// test.desc verdict, the same as the explicit engine, with a trace of the
// same (shortest) length that replays; concurrent ones Unknown.
func TestBenchmarks(t *testing.T) {
	cases := testsuite.SatabsBoppoOrSkip(t)
	sequential := 0
	for _, d := range cases {
		t.Run(d.Name, func(t *testing.T) {
			p := testsuite.LowerFile(t, d.File, d.Target)
			if p.Concurrent {
				res := check(t, p, engine.Query{}, summary.Options{})
				if res.Verdict != result.Unknown || res.Reason != summary.ReasonConcurrent {
					t.Errorf("concurrent program: %s %s", res.Verdict, res.Reason)
				}
				return
			}
			sequential++
			want := result.Safe
			if d.Failed {
				want = result.Unsafe
			}
			ex := oracle(t, p, engine.Query{})
			for _, o := range allOptions {
				res := check(t, p, engine.Query{}, o.opts)
				if res.Verdict != want {
					t.Errorf("%s: verdict %s (%s), want %s", o.name, res.Verdict, res.Reason, want)
				}
				if ex.Verdict != result.Unknown && ex.Verdict != res.Verdict {
					t.Errorf("%s: verdict %s, explicit %s", o.name, res.Verdict, ex.Verdict)
				}
				if res.Verdict == result.Unsafe && ex.Verdict == result.Unsafe && len(res.Trace.Steps) != len(ex.Trace.Steps) {
					t.Errorf("%s: trace has %d steps, explicit %d:\n%s", o.name, len(res.Trace.Steps), len(ex.Trace.Steps), traceText(res.Trace))
				}
				all := check(t, p, engine.Query{AllReachable: true}, o.opts)
				if all.Verdict != res.Verdict {
					t.Errorf("%s: all-reachable verdict %s, %s without", o.name, all.Verdict, res.Verdict)
				}
			}
		})
	}
	if sequential != 23 {
		t.Errorf("%d sequential benchmarks, want 23", sequential)
	}
}

// TestFigure1 checks the trace of the Bebop paper's Figure 1: the lines
// visited, and the Bebop-style rendering.
func TestFigure1(t *testing.T) {
	p := testsuite.LowerFile(t, "../../"+testsuite.Figure1File, "R")
	for _, o := range allOptions {
		t.Run(o.name, func(t *testing.T) {
			res := check(t, p, engine.Query{Target: "R"}, o.opts)
			if res.Verdict != result.Unsafe {
				t.Fatalf("verdict %s", res.Verdict)
			}
			var lines []int
			for _, s := range res.Trace.Steps {
				lines = append(lines, s.Line)
			}
			want := testsuite.Figure1Lines
			if fmt.Sprint(lines) != fmt.Sprint(want) {
				t.Errorf("lines %v\nwant  %v", lines, want)
			}
			var b bytes.Buffer
			if err := result.WriteTrace(&b, res.Trace, result.Bebop); err != nil {
				t.Fatal(err)
			}
			if b.String() != testsuite.Figure1Bebop {
				t.Errorf("Bebop trace:\n%s\nwant:\n%s", b.String(), testsuite.Figure1Bebop)
			}
		})
	}
}

// TestShortest checks trace lengths where the shortest trace must look
// through calls (the same programs as the explicit engine's test, and
// more).
func TestShortest(t *testing.T) {
	cases := append(slices.Clone(testsuite.Shortest), []testsuite.ShortestCase{
		{Name: "label at main entry", Src: `void main() begin SLIC_ERROR: skip; end`, Steps: 1},
		{Name: "empty callee", Src: `decl g;
void e() begin end
void main() begin e(); assert(g); end`, Steps: 2},
		{Name: "return values and discards", Src: `decl g;
bool<2> f(a) begin g := !a; return a, !a; end
void main() begin
  decl x, y;
  x, _ := f(T);
  _, y := f(!x);
  assert(!(x & y));
end`, Steps: 7},
		{Name: "call as last statement", Src: `decl g;
void h() begin g := T; end
void f() begin h(); end
void main() begin g := F; f(); assert(!g); end`, Steps: 5},
		{Name: "enforce cuts", Src: `decl g;
void f() begin enforce !g; g := *; end
void main() begin f(); assert(!g); end`, Steps: -1},
	}...)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			p := testsuite.Lower(t, "s.bp", c.Src, "")
			ex := oracle(t, p, engine.Query{})
			for _, o := range allOptions {
				res := check(t, p, engine.Query{}, o.opts)
				if c.Steps < 0 {
					if res.Verdict != result.Safe || ex.Verdict != result.Safe {
						t.Errorf("%s: verdict %s, explicit %s, want safe", o.name, res.Verdict, ex.Verdict)
					}
					continue
				}
				if res.Verdict != result.Unsafe {
					t.Fatalf("%s: verdict %s", o.name, res.Verdict)
				}
				if n := len(res.Trace.Steps); n != c.Steps || ex.Verdict != result.Unsafe || len(ex.Trace.Steps) != n {
					t.Errorf("%s: %d steps, want %d (explicit %s):\n%s", o.name, n, c.Steps, ex.Verdict, traceText(res.Trace))
				}
			}
		})
	}
}

// TestLimits checks the Unknown answers.
func TestLimits(t *testing.T) {
	src := "decl a, b, c, d, e, f, g, h, i, j, k, l, m;\nvoid main() begin\n" +
		" L: a, b, c, d, e, f, g, h, i, j, k, l, m := *, *, *, *, *, *, *, *, *, *, *, *, *; goto L, M;\n M: SLIC_ERROR: skip;\nend\n"
	p := testsuite.Lower(t, "loop.bp", src, "")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(engine.ErrTimeout)
	res, err := summary.New(summary.Options{}).Check(ctx, p, engine.Query{})
	if err != nil || res.Verdict != result.Unknown || res.Reason != engine.ReasonTimeout {
		t.Errorf("cancelled: %+v %v", res, err)
	}
	// A node limit too small for the relation of the assignment.
	wide := "decl a, b, c, d, e, f, g, h;\nvoid main() begin\n" +
		" a, b, c, d, e, f, g, h := b ^ c, c ^ d, d ^ e, e ^ f, f ^ g, g ^ h, h ^ a, a ^ b;\n assert(a | b | c | d);\nend\n"
	res, err = summary.New(summary.Options{}).Check(context.Background(), testsuite.Lower(t, "wide.bp", wide, ""), engine.Query{MaxNodes: 64})
	if err != nil || res.Verdict != result.Unknown || !strings.Contains(res.Reason, "node limit") {
		t.Errorf("node limit: %+v %v", res, err)
	}
	if _, err := summary.New(summary.Options{}).Check(context.Background(), p, engine.Query{Target: "OTHER"}); err == nil {
		t.Errorf("mismatched target accepted")
	}
}
