package ir_test

import (
	"boolprog/internal/testsuite"
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

var update = flag.Bool("update", false, "rewrite golden files")

// checkInvariants checks the structural promises of the package comment.
func checkInvariants(t *testing.T, p *ir.Program) {
	t.Helper()
	if p.Main >= 0 && p.Procs[p.Main].Name != "main" {
		t.Errorf("Main is %s", p.Procs[p.Main].Name)
	}
	for _, proc := range p.Procs {
		entries, exits := 0, 0
		for i, l := range proc.Locations {
			if l.ID != i {
				t.Errorf("%s: location %d has ID %d", proc.Name, i, l.ID)
			}
			if !l.Pos.IsValid() {
				t.Errorf("%s: location %d has no position", proc.Name, i)
			}
			if l.Entry {
				entries++
				if proc.Entry != i {
					t.Errorf("%s: location %d marked entry, Entry is %d", proc.Name, i, proc.Entry)
				}
			}
			if l.Exit {
				exits++
				if proc.Exit != i || len(l.Out) != 0 {
					t.Errorf("%s: bad exit location %d", proc.Name, i)
				}
			}
			if l.Kind == ir.FailLoc && (!l.Error || len(l.Out) != 0) {
				t.Errorf("%s: bad failure location %d", proc.Name, i)
			}
			for _, e := range l.Out {
				if proc.Edges[e].From != i {
					t.Errorf("%s: Out of %d lists edge %d from %d", proc.Name, i, e, proc.Edges[e].From)
				}
			}
			for _, e := range l.In {
				if proc.Edges[e].To != i {
					t.Errorf("%s: In of %d lists edge %d to %d", proc.Name, i, e, proc.Edges[e].To)
				}
			}
		}
		if entries != 1 || exits != 1 {
			t.Errorf("%s: %d entries, %d exits", proc.Name, entries, exits)
		}
		for i, e := range proc.Edges {
			if e.ID != i || e.Text == "" || !e.Pos.IsValid() {
				t.Errorf("%s: bad edge %d: %+v", proc.Name, i, e)
			}
			if e.Text != proc.Locations[e.From].Text {
				t.Errorf("%s: edge %d text %q, location text %q", proc.Name, i, e.Text, proc.Locations[e.From].Text)
			}
			if r, ok := e.Op.(*ir.Return); ok {
				if e.To != proc.Exit || len(r.Values) != proc.Returns {
					t.Errorf("%s: bad return edge %d", proc.Name, i)
				}
			}
			if c, ok := e.Op.(*ir.Call); ok {
				callee := p.Procs[c.Proc]
				if len(c.Args) != callee.Params || len(c.Targets) != 0 && len(c.Targets) != callee.Returns {
					t.Errorf("%s: bad call edge %d", proc.Name, i)
				}
			}
		}
	}
}

// TestLowerBenchmarks lowers every satabs-boppo benchmark.
func TestLowerBenchmarks(t *testing.T) {
	files, _ := filepath.Glob("../../shared/benchmarks/satabs-boppo/*/*.bp")
	if len(files) == 0 {
		t.Skip("no ../../shared/benchmarks/satabs-boppo/*/*.bp: the repository must sit beside shared/ (see README)")
	}
	for _, path := range files {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			p := testsuite.LowerFile(t, path, "")
			checkInvariants(t, p)
			dir := filepath.Base(filepath.Dir(path))
			wantConc := strings.HasPrefix(dir, "Threads") || strings.Contains(dir, "conc") ||
				strings.Contains(dir, "peterson") || dir == "Simple4"
			if p.Concurrent != wantConc {
				t.Errorf("Concurrent = %v, want %v", p.Concurrent, wantConc)
			}
		})
	}
}

// TestFigure1 checks the shape of the CFA of the Bebop paper's Figure 1.
func TestFigure1(t *testing.T) {
	p := testsuite.LowerFile(t, "../examples/bebop-fig1.bp", "R")
	checkInvariants(t, p)
	if got := strings.Join(p.Globals, ","); got != "g" {
		t.Errorf("globals %s", got)
	}
	main, a := p.Proc("main"), p.Proc("A")
	if got := strings.Join(main.Locals, ","); got != "h" || main.Params != 0 {
		t.Errorf("main locals %s params %d", got, main.Params)
	}
	if got := strings.Join(a.Locals, ","); got != "a1,a2" || a.Params != 2 {
		t.Errorf("A locals %s params %d", got, a.Params)
	}
	// Statement lines, in location order.
	var lines []int
	for _, l := range main.Locations {
		lines = append(lines, l.Pos.Line)
	}
	if got, want := lines, []int{6, 7, 8, 9, 10, 11, 12, 14, 16}; !slices.Equal(got, want) {
		t.Errorf("main location lines %v, want %v", got, want)
	}
	r := main.Locations[main.Labels["R"][0]]
	if !r.Error || r.Pos.Line != 12 || r.Text != "skip" {
		t.Errorf("R location %+v", r)
	}
	if main.Locations[main.Entry].Pos.Line != 6 || a.Locations[a.Entry].Pos.Line != 20 {
		t.Errorf("entries at lines %d, %d", main.Locations[main.Entry].Pos.Line, a.Locations[a.Entry].Pos.Line)
	}
	wantText := map[int]string{6: "h := !g", 7: "A(g, h)", 11: "if (g)", 20: "if (a1)", 21: "A(a2, a1)", 24: "g := a2"}
	for _, proc := range p.Procs {
		for _, e := range proc.Edges {
			if w, ok := wantText[e.Pos.Line]; ok && e.Text != w {
				t.Errorf("line %d: text %q, want %q", e.Pos.Line, e.Text, w)
			}
		}
	}
	// The call at line 21 returns to line 22; the if at 20 branches to 21 and 24.
	succ := func(proc *ir.Proc, line int) []int {
		var out []int
		for _, e := range proc.Edges {
			if e.Pos.Line == line {
				out = append(out, proc.Locations[e.To].Pos.Line)
			}
		}
		return out
	}
	for _, c := range []struct {
		proc *ir.Proc
		line int
		want []int
	}{
		{main, 6, []int{7}}, {main, 7, []int{8}}, {main, 11, []int{12, 14}}, {main, 12, []int{16}},
		{a, 20, []int{21, 24}}, {a, 21, []int{22}}, {a, 22, []int{26}}, {a, 24, []int{26}},
	} {
		if got := succ(c.proc, c.line); !slices.Equal(got, c.want) {
			t.Errorf("%s line %d: successors %v, want %v", c.proc.Name, c.line, got, c.want)
		}
	}
}

// TestLowering checks the operations of individual statements.
func TestLowering(t *testing.T) {
	src := `decl g, h;
bool<2> f(a) begin
  decl x;
  enforce a | g;
  x := *;
  if (x) then return x, !a; fi
  assert(g);
  g, _ := f(x);
  decl y;
  dead g;
  while (g & *) do skip; od
  abortif h;
  goto L1, L2;
  L1: L2: SLIC_ERROR: return;
end
void main() begin
  g, h := T, schoose[h, g] constrain 'g != h;
  ASYNC_1: main();
end
`
	p := testsuite.Lower(t, "t.bp", src, "")
	checkInvariants(t, p)
	f := p.Proc("f")
	if got := strings.Join(f.Locals, ","); got != "a,x,y" {
		t.Errorf("f locals %s", got)
	}
	var got []string
	for _, e := range f.Edges {
		got = append(got, e.Text+" => "+p.OpString(f, e.Op))
	}
	want := []string{
		"enforce a | g => assume(a | g)",
		"x := * => x := * constrain 'a | 'g",
		"if (x) => assume(x)",
		"if (x) => assume(!x)",
		"return x, !a => return x, !a",
		"assert(g) => assume(g)",
		"assert(g) => assume(!g)",
		"g, _ := f(x) => g, _ := f(x) post a | g",
		"decl y => y := * constrain 'a | 'g",
		"dead g => g := * constrain 'a | 'g",
		"while (g & *) => assume(g & *)",
		"while (g & *) => assume(!(g & *))",
		"skip => skip",
		"abortif h => assume(!h)",
		"goto L1, L2 => skip",
		"goto L1, L2 => skip",
		"return => return *, *",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("edges of f:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	l := f.Locations[f.Labels["L2"][0]]
	if !l.Error || strings.Join(l.Labels, ",") != "L1,L2,SLIC_ERROR" {
		t.Errorf("labelled location %+v", l)
	}
	m := p.Proc("main")
	if got := p.OpString(m, m.Edges[0].Op); got != "g, h := T, schoose[h, g] constrain 'g != h" {
		t.Errorf("main edge 0: %s", got)
	}
	if st, ok := m.Edges[1].Op.(*ir.StartThread); !ok || st.Proc != p.Main || !p.Concurrent {
		t.Errorf("ASYNC call lowered to %s", p.OpString(m, m.Edges[1].Op))
	}
}

// TestLowerErrors checks that Lower refuses, with an error and without a
// panic, an Info that records errors, no Info, and an Info that belongs to
// another tree: names are resolved by sema alone.
func TestLowerErrors(t *testing.T) {
	for _, src := range []string{
		"void f() begin skip; end",
		"void main() begin x := T; end",
		"void main() begin goto L; end",
		"void main() begin f(); end",
		"void f(a) begin skip; end void main() begin f(); end",
		"void main() begin L: skip; L: skip; goto L; end",
	} {
		f, err := syntax.ParseFile("e.bp", []byte(src), syntax.CProver)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		info, errs, _ := sema.Check(f)
		if len(errs) == 0 || info.Errors != len(errs) {
			t.Errorf("%s: sema reports %v, Info.Errors %d", src, errs, info.Errors)
		}
		if _, err := ir.Lower(f, info, ir.Options{}); err == nil || !strings.Contains(err.Error(), "sema reported") {
			t.Errorf("%s: Lower error %v", src, err)
		}
	}
	src := []byte("decl g; void f(a) begin L: g := a; goto L; end void main() begin f(g); end")
	f, err := syntax.ParseFile("e.bp", src, syntax.CProver)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ir.Lower(f, nil, ir.Options{}); err == nil {
		t.Error("Lower without Info succeeded")
	}
	other, err := syntax.ParseFile("e.bp", src, syntax.CProver)
	if err != nil {
		t.Fatal(err)
	}
	info, _, _ := sema.Check(other)
	_, err = ir.Lower(f, info, ir.Options{})
	if err == nil || !strings.Contains(err.Error(), "another syntax tree") {
		t.Errorf("Lower with the Info of another tree: %v", err)
	}
	// An Info with holes: Lower reports each hole at its position.
	info, _, _ = sema.Check(f)
	delete(info.Uses, f.Procs[0].Body[0].(*syntax.AssignStmt).Lhs[0])
	delete(info.Jumps, f.Procs[0].Body[1].(*syntax.GotoStmt).Targets[0])
	_, err = ir.Lower(f, info, ir.Options{})
	for _, want := range []string{"e.bp:1:28: ir: variable g has no resolution in sema.Info", "e.bp:1:41: ir: label L has no target in sema.Info"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Lower with holes in Info: %v, want %q", err, want)
		}
	}
}

// TestDOT compares the DOT output of a small program with a golden file.
func TestDOT(t *testing.T) {
	p := testsuite.LowerFile(t, "../examples/bebop-fig1.bp", "R")
	var b bytes.Buffer
	if err := ir.WriteDOT(&b, p); err != nil {
		t.Fatal(err)
	}
	golden := "testdata/bebop-fig1.dot"
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("DOT differs from %s (run with -update to rewrite):\n%s", golden, b.String())
	}
}

// TestGetafixConvention checks that thread<N> procedures make a program
// concurrent (init first, then main and the threads), while a lone
// procedure called init stays an ordinary procedure.
func TestGetafixConvention(t *testing.T) {
	tests := []struct {
		src        string
		concurrent bool
		init, main int
		threads    []int
	}{
		{"decl g; void init() begin g := F; end void main() begin assert(!g); end void thread1() begin g := T; end",
			true, 0, 1, []int{1, 2}},
		{"decl g; void init() begin g := F; end void thread0() begin g := T; end void thread1() begin assert(!g); end",
			true, 0, -1, []int{1, 2}},
		{"decl g; void init() begin g := F; end void main() begin init(); assert(!g); end",
			false, -1, 1, nil},
	}
	for _, tt := range tests {
		f, err := syntax.ParseFile("t.bp", []byte(tt.src), syntax.CProver)
		if err != nil {
			t.Fatal(err)
		}
		info, errs, _ := sema.Check(f)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", tt.src, errs)
		}
		p, err := ir.Lower(f, info, ir.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if p.Concurrent != tt.concurrent || p.Init != tt.init || p.Main != tt.main || !reflect.DeepEqual(p.Threads, tt.threads) {
			t.Errorf("%s:\ngot concurrent=%v init=%d main=%d threads=%v\nwant concurrent=%v init=%d main=%d threads=%v",
				tt.src, p.Concurrent, p.Init, p.Main, p.Threads, tt.concurrent, tt.init, tt.main, tt.threads)
		}
	}
}

// TestLabels checks the program-wide label list a front end uses to reject
// a misspelled target label.
func TestLabels(t *testing.T) {
	p := testsuite.Lower(t, "l.bp", `void f() begin B: A: skip; Z: skip; end
void main() begin A: f(); if (*) then C: skip; fi end`, "")
	if got, want := p.Labels(), []string{"A", "B", "C", "Z"}; !slices.Equal(got, want) {
		t.Errorf("Labels() = %v, want %v", got, want)
	}
	for _, c := range []struct {
		name string
		want bool
	}{{"A", true}, {"C", true}, {"Z", true}, {"SLIC_ERROR", false}, {"a", false}, {"", false}} {
		if got := p.HasLabel(c.name); got != c.want {
			t.Errorf("HasLabel(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
