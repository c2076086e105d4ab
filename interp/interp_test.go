package interp_test

import (
	"boolprog/internal/testsuite"
	"slices"
	"strings"
	"testing"

	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// step describes configuration c about to take edge e as a trace step.
func step(p *ir.Program, c interp.Config, e int) result.Step {
	top := c.Top()
	proc := p.Procs[top.Proc]
	loc := proc.Locations[top.Loc]
	s := result.Step{Proc: proc.Name, Loc: loc.ID, Edge: e, Line: loc.Pos.Line, Col: loc.Pos.Col, Text: loc.Text, Depth: c.Depth()}
	for i, g := range p.Globals {
		s.Values = append(s.Values, result.Value{Name: g, Value: c.Globals[i]})
	}
	for i, l := range proc.Locals {
		s.Values = append(s.Values, result.Value{Name: l, Value: top.Locals[i]})
	}
	return s
}

// search is a breadth-first search over concrete configurations (call
// stacks up to maxStack frames) from every initial state; it returns a
// shortest error trace, or nil. It is a third, brute-force judge used only
// by the tests.
func search(t testing.TB, p *ir.Program, maxStack int) *result.Trace {
	t.Helper()
	return searchCapped(t, p, maxStack, 0)
}

// searchCapped is search giving up (nil) after maxConfigs configurations
// (0: no limit).
func searchCapped(t testing.TB, p *ir.Program, maxStack, maxConfigs int) *result.Trace {
	t.Helper()
	type node struct {
		c      interp.Config
		parent *node
		edge   int
	}
	var queue []*node
	seen := make(map[string]bool)
	inits, err := interp.Initials(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range inits {
		if !seen[c.Key()] {
			seen[c.Key()] = true
			queue = append(queue, &node{c: c, edge: result.NoEdge})
		}
	}
	trace := func(last *node, lastEdge int) *result.Trace {
		var steps []result.Step
		e := lastEdge
		for x := last; x != nil; x = x.parent {
			steps = append(steps, step(p, x.c, e))
			e = x.edge
		}
		for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
			steps[i], steps[j] = steps[j], steps[i]
		}
		return &result.Trace{Steps: steps}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if x.c.AtError(p) {
			return trace(x, result.NoEdge)
		}
		succ, err := interp.Successors(p, x.c)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range succ {
			if tr.Next.Ended() || tr.Next.Depth() >= maxStack {
				continue
			}
			top := tr.Next.Top()
			if loc := p.Procs[top.Proc].Locations[top.Loc]; loc.Kind == ir.FailLoc {
				return trace(x, tr.Edge)
			}
			if k := tr.Next.Key(); !seen[k] {
				seen[k] = true
				if maxConfigs > 0 && len(seen) > maxConfigs {
					return nil
				}
				queue = append(queue, &node{c: tr.Next, parent: x, edge: tr.Edge})
			}
		}
	}
	return nil
}

func lines(tr *result.Trace) []int {
	var ls []int
	for _, s := range tr.Steps {
		ls = append(ls, s.Line)
	}
	return ls
}

// figure1Lines is the line sequence of the Bebop paper's Figure 1 trace.
var figure1Lines = []int{6, 7, 20, 21, 20, 24, 22, 8, 9, 20, 21, 20, 24, 22, 10, 11, 12}

func TestFigure1(t *testing.T) {
	p := testsuite.LowerFile(t, "../examples/bebop-fig1.bp", "R")
	tr := search(t, p, 10)
	if tr == nil {
		t.Fatal("R not reached")
	}
	if got := lines(tr); !slices.Equal(got, figure1Lines) {
		t.Errorf("lines %v, want %v", got, figure1Lines)
	}
	if err := interp.Replay(p, tr); err != nil {
		t.Errorf("Replay: %v", err)
	}
}

// TestReplayRejects corrupts a good trace in several ways.
func TestReplayRejects(t *testing.T) {
	p := testsuite.LowerFile(t, "../examples/bebop-fig1.bp", "R")
	good := search(t, p, 10)
	if good == nil {
		t.Fatal("R not reached")
	}
	clone := func() *result.Trace {
		tr := &result.Trace{Steps: append([]result.Step(nil), good.Steps...)}
		for i := range tr.Steps {
			tr.Steps[i].Values = append([]result.Value(nil), tr.Steps[i].Values...)
		}
		return tr
	}
	for _, c := range []struct {
		name    string
		corrupt func(tr *result.Trace)
		want    string
	}{
		{"flip a value", func(tr *result.Trace) { tr.Steps[6].Values[0].Value = !tr.Steps[6].Values[0].Value }, "step 7: line 22: values do not agree: g=0 expected 1"},
		{"flip an initial value", func(tr *result.Trace) { tr.Steps[0].Values[0].Value = false }, "step 2: line 7: values do not agree: g=1 expected 0, h=0 expected 1"},
		{"drop a step", func(tr *result.Trace) { tr.Steps = append(tr.Steps[:4], tr.Steps[5:]...) }, "step 5: line 24: the execution is at A line 20"},
		{"swap steps", func(tr *result.Trace) { tr.Steps[7], tr.Steps[8] = tr.Steps[8], tr.Steps[7] }, "step 8: line 9: the execution is at main line 8"},
		{"wrong final step", func(tr *result.Trace) {
			tr.Steps = tr.Steps[:len(tr.Steps)-1]
			tr.Steps[len(tr.Steps)-1].Edge = result.NoEdge
		}, "step 16: line 11: the last step is not the error"},
		{"stops early", func(tr *result.Trace) { tr.Steps = tr.Steps[:10] }, "step 10: line 20: the last step is not the error"},
		{"wrong depth", func(tr *result.Trace) { tr.Steps[3].Depth = 2 }, "step 4: line 21: call depth 2, expected 1"},
		{"wrong line", func(tr *result.Trace) { tr.Steps[2].Line = 19 }, "step 3: line 19: location 0 of A is at line 20"},
		{"wrong text", func(tr *result.Trace) { tr.Steps[0].Text = "h := g" }, `text "h := g"`},
		{"wrong edge", func(tr *result.Trace) { tr.Steps[2].Edge = 1 }, `step 3: line 20: "if (a1)" cannot be executed in this state`},
		{"unknown variable", func(tr *result.Trace) { tr.Steps[1].Values[1].Name = "x" }, "variable x is not in scope"},
		{"empty", func(tr *result.Trace) { tr.Steps = nil }, "empty trace"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := clone()
			c.corrupt(tr)
			err := interp.Replay(p, tr)
			if err == nil {
				t.Fatalf("corrupted trace accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}
	// Omitted values are unconstrained: a trace listing no values at all
	// still replays.
	tr := clone()
	for i := range tr.Steps {
		tr.Steps[i].Values = nil
	}
	if err := interp.Replay(p, tr); err != nil {
		t.Errorf("trace without values: %v", err)
	}
}

// TestSemantics checks Exec on single statements: the set of states after
// the first statement of main, from g=0 h=0 (globals g, h).
func TestSemantics(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []string // successor configurations, as Config.String
	}{
		{"assign", "g, h := !g, T;", []string{"g=1 h=1 | main@4"}},
		{"nondet", "g := *;", []string{"g=0 h=0 | main@4", "g=1 h=0 | main@4"}},
		{"nondet and", "g := * & h;", []string{"g=0 h=0 | main@4"}},
		{"schoose false", "g := schoose[F, T];", []string{"g=0 h=0 | main@4"}},
		{"schoose true", "g := schoose[!h, F];", []string{"g=1 h=0 | main@4"}},
		{"schoose either", "g := schoose[h, h];", []string{"g=0 h=0 | main@4", "g=1 h=0 | main@4"}},
		{"constrain", "g, h := *, * constrain 'g != 'h;", []string{"g=0 h=1 | main@4", "g=1 h=0 | main@4"}},
		{"constrain old", "g := * constrain 'g = !h;", []string{"g=1 h=0 | main@4"}},
		{"assume false", "assume(g);", nil},
		{"assume nondet", "assume(g | *);", []string{"g=0 h=0 | main@4"}},
		{"abortif", "abortif !g;", nil},
		{"call", "g := f(T);", []string{"g=0 h=0 | main@3 | f@7 a=1 x=0", "g=0 h=0 | main@3 | f@7 a=1 x=1"}},
		{"dead", "dead h;", []string{"g=0 h=0 | main@4", "g=0 h=1 | main@4"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "decl g, h;\nvoid main() begin\n " + c.body + "\n skip;\nend\nbool f(a) begin decl x;\n return a & x;\nend\n"
			p := testsuite.Lower(t, "s.bp", src, "")
			cfg := interp.Initial(p, []bool{false, false}, nil)
			succ, err := interp.Successors(p, cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, tr := range succ {
				got = append(got, tr.Next.String(p))
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("successors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestReturn checks returns: values, discards, falling off the end, enforce
// after the return.
func TestReturn(t *testing.T) {
	src := `decl g;
bool<2> f(a) begin
  g := a;
  return a, !a;
end
bool h() begin
  g := !g;
end
void main() begin
  decl x, y;
  enforce !g | x;
  x, y := f(T);
  x, _ := f(F);
  y := h();
end
`
	p := testsuite.Lower(t, "r.bp", src, "")
	run := func(c interp.Config, n int) []interp.Config {
		cs := []interp.Config{c}
		for range n {
			var next []interp.Config
			for _, c := range cs {
				succ, err := interp.Successors(p, c)
				if err != nil {
					t.Fatal(err)
				}
				for _, tr := range succ {
					next = append(next, tr.Next)
				}
			}
			cs = next
		}
		return cs
	}
	show := func(cs []interp.Config) string {
		var s []string
		for _, c := range cs {
			s = append(s, c.String(p))
		}
		return strings.Join(s, "\n")
	}
	start := interp.Initial(p, []bool{false}, []bool{false, false})
	// enforce, call f(T): g := 1, return 1, 0 into x, y.
	if got, want := show(run(start, 4)), "g=1 | main@13 x=1 y=0"; got != want {
		t.Errorf("after the first call:\n%s\nwant %s", got, want)
	}
	// call f(F): g := 0, x := 0 (1 discarded); then h() flips g to 1 and
	// returns a nondeterministic value into y, but enforce !g | x cuts
	// both states since x = 0.
	if got, want := show(run(start, 7)), "g=0 | main@14 x=0 y=0"; got != want {
		t.Errorf("after the second call:\n%s\nwant %s", got, want)
	}
	if got := run(start, 9); len(got) != 0 {
		t.Errorf("after h(): %s, want nothing (enforce)", show(got))
	}
}

// TestBenchmarks runs the brute-force search on the small sequential
// satabs-boppo benchmarks and compares with test.desc.
func TestBenchmarks(t *testing.T) {
	cases := testsuite.SatabsBoppoOrSkip(t)
	for _, d := range cases {
		t.Run(d.Name, func(t *testing.T) {
			want := d.Failed
			p := testsuite.LowerFile(t, d.File, d.Target)
			if p.Concurrent {
				t.Skip("concurrent")
			}
			if n := p.MaxInScope(); n > 12 {
				t.Skipf("%d variables: too many for brute force", n)
			}
			tr := search(t, p, 8)
			if got := tr != nil; got != want {
				t.Fatalf("error found = %v, want %v", got, want)
			}
			if tr != nil {
				if err := interp.Replay(p, tr); err != nil {
					t.Errorf("Replay: %v", err)
				}
			}
		})
	}
}

// TestStringDeep checks that a deep stack and many globals are abridged.
func TestStringDeep(t *testing.T) {
	p := testsuite.Lower(t, "d.bp", "decl "+names("g", 40)+";\nvoid main() begin f(); end\nvoid f() begin f(); end\n", "")
	c := interp.Initial(p, make([]bool, 40), nil)
	for range 20 {
		succ, err := interp.Successors(p, c)
		if err != nil || len(succ) != 1 {
			t.Fatal(len(succ), err)
		}
		c = succ[0].Next
	}
	want := "g30=0 g31=0 … 8 more globals | main@2 | … 13 frames … | f@3 | f@3 | f@3 | f@3 | f@3 | f@3 | f@3"
	if got := c.String(p); !strings.HasSuffix(got, want) {
		t.Errorf("String: %s\nwant it to end with %s", got, want)
	}
}
