package ir_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// edgeTexts lists "text => operation" for every edge of proc.
func edgeTexts(p *ir.Program, proc *ir.Proc) []string {
	var out []string
	for _, e := range proc.Edges {
		out = append(out, e.Text+" => "+p.OpString(proc, e.Op))
	}
	return out
}

func TestRepeatedLabel(t *testing.T) {
	p := testsuite.Lower(t, "r.bp", `decl a;
void main() begin
  if a then SLIC_ERROR: skip; fi
  if !a then SLIC_ERROR: SLIC_ERROR: skip; fi
  L: skip;
end
`, "")
	checkInvariants(t, p)
	m := p.Proc("main")
	ids := m.Labels["SLIC_ERROR"]
	if len(ids) != 2 {
		t.Fatalf("SLIC_ERROR at %v, want two locations", ids)
	}
	for _, id := range ids {
		if l := m.Locations[id]; !l.Error || !slices.Equal(l.Labels, []string{"SLIC_ERROR"}) {
			t.Errorf("location %d: %+v", id, l)
		}
	}
	if got := fmt.Sprint(m.ErrorLocations()); got != fmt.Sprint(ids) {
		t.Errorf("error locations %s, want %v", got, ids)
	}
	if !p.HasLabel("SLIC_ERROR") || !slices.Equal(p.Labels(), []string{"L", "SLIC_ERROR"}) {
		t.Errorf("Labels() = %v", p.Labels())
	}
	// As the target label, L marks its location and SLIC_ERROR's do not.
	q := testsuite.Lower(t, "r.bp", "void main() begin L: skip; SLIC_ERROR: skip; L2: SLIC_ERROR: skip; end", "L")
	if got := q.Procs[0].ErrorLocations(); !slices.Equal(got, []int{0}) {
		t.Errorf("target L: error locations %v", got)
	}
}

func TestAssignedTwice(t *testing.T) {
	p := testsuite.Lower(t, "a.bp", `decl a, b;
void main() begin
  a, b, a := b, T, !b;
  a, _, a, a := T, b, *, b constrain 'b;
end
void f() begin enforce b; a, a := T, F; end
`, "")
	checkInvariants(t, p)
	want := []string{
		"a, b, a := b, T, !b => a, b := b, T constrain 'a = !b",
		"a, _, a, a := T, b, *, b constrain 'b => a := T constrain ('b & ('a = *)) & ('a = b)",
	}
	if got := edgeTexts(p, p.Proc("main")); !slices.Equal(got, want) {
		t.Errorf("main:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	want = []string{
		"enforce b => assume(b)",
		"a, a := T, F => a := T constrain ('a = F) & 'b",
	}
	if got := edgeTexts(p, p.Proc("f")); !slices.Equal(got, want) {
		t.Errorf("f:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDiscardInAssignment: `_` as the target of a plain assignment (which
// sema accepts, as SATABS does) drops its value.
func TestDiscardInAssignment(t *testing.T) {
	p := testsuite.Lower(t, "d.bp", "decl a;\nvoid main() begin a, _ := T, a; _ := a; end\n", "")
	want := []string{"a, _ := T, a => a := T", "_ := a => skip"}
	if got := edgeTexts(p, p.Procs[0]); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestConcurrentPos(t *testing.T) {
	tests := []struct {
		src, pos, why string
	}{
		{"void main() begin skip; end", "-", ""},
		{"void t() begin skip; end\nvoid main() begin skip;\n  start_thread t(); atomic_begin; end", "3:3", "start_thread"},
		{"void t() begin skip; end\nvoid main() begin atomic_end; ASYNC_7: t(); end", "2:19", "atomic_end"},
		{"void t() begin skip; end\nvoid main() begin skip; ASYNC_7: t(); end", "2:25", "ASYNC_7: label (a thread start)"},
		{"void t() begin end_thread; end\nvoid main() begin skip; end", "1:16", "end_thread"},
		{"void main() begin L: skip; start_thread goto L; end", "1:28", "start_thread"},
		{"decl g;\nvoid init() begin g := F; end\nvoid main() begin atomic_begin; end\nvoid thread1() begin g := T; end", "3:19", "atomic_begin"},
		{"decl g;\nvoid init() begin g := F; end\nvoid thread2() begin g := T; end\nvoid main() begin skip; end\nvoid thread1() begin g := T; end", "3:6", "procedure thread2 (Getafix thread convention)"},
	}
	for _, tt := range tests {
		p := testsuite.Lower(t, "c.bp", tt.src, "")
		if got := p.ConcurrentPos.String(); got != tt.pos || p.ConcurrentWhy != tt.why || p.Concurrent != (tt.why != "") {
			t.Errorf("%s:\nconcurrent %v at %s (%q), want %s (%q)", tt.src, p.Concurrent, got, p.ConcurrentWhy, tt.pos, tt.why)
		}
	}
}

// TestAsyncWithResults: a call behind an ASYNC_ label is a thread start,
// whose results have nowhere to go.
func TestAsyncWithResults(t *testing.T) {
	f, err := syntax.ParseFile("a.bp", []byte("bool t() begin return T; end\nvoid main() begin decl x; ASYNC_1: x := t(); assert(x); end\n"), syntax.CProver)
	if err != nil {
		t.Fatal(err)
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	_, err = ir.Lower(f, info, ir.Options{})
	if err == nil || err.Error() != "a.bp:2:36: a thread start (label ASYNC_1) cannot assign results" {
		t.Errorf("error %v", err)
	}
}

// TestOrigins checks that a lowered program is its own origin.
func TestOrigins(t *testing.T) {
	p := testsuite.LowerFile(t, "../examples/bebop-fig1.bp", "")
	for _, proc := range p.Procs {
		for _, l := range proc.Locations {
			if want := (ir.Origin{Proc: proc.Index, Loc: l.ID, Edge: -1, Thread: -1, Round: -1}); l.Origin != want {
				t.Errorf("%s location %d: origin %+v", proc.Name, l.ID, l.Origin)
			}
		}
		for _, e := range proc.Edges {
			if want := (ir.Origin{Proc: proc.Index, Loc: -1, Edge: e.ID, Thread: -1, Round: -1}); e.Origin != want {
				t.Errorf("%s edge %d: origin %+v", proc.Name, e.ID, e.Origin)
			}
		}
	}
}

// elsifChain returns a program whose main is `if a then skip; elsif a then
// skip; ... fi` with n branches, built as the parser builds it; the parser
// itself may bound the nesting it reads.
func elsifChain(n int) *syntax.File {
	pos := func(line, col int) syntax.Pos { return syntax.Pos{Offset: line*100 + col, Line: line, Col: col} }
	a := &syntax.Ident{NamePos: pos(1, 6), Name: "a"}
	var top, cur *syntax.IfStmt
	for i := 0; i < n; i++ {
		line := i + 3
		s := &syntax.IfStmt{
			Keyword: pos(line, 1),
			Elsif:   i > 0,
			Cond:    &syntax.VarRef{TickPos: pos(line, 7), Name: &syntax.Ident{NamePos: pos(line, 7), Name: "a"}},
			Then:    []syntax.Stmt{&syntax.SkipStmt{Keyword: pos(line, 14)}},
			Fi:      pos(n+3, 1),
		}
		if top == nil {
			top = s
		} else {
			cur.Else = []syntax.Stmt{s}
			cur.ElsePos = s.Keyword
		}
		cur = s
	}
	main := &syntax.Proc{
		TypePos: pos(2, 1),
		Name:    &syntax.Ident{NamePos: pos(2, 6), Name: "main"},
		Begin:   pos(2, 13),
		Body:    []syntax.Stmt{top},
		End:     pos(n+4, 1),
	}
	return &syntax.File{
		Name:    "elsif.bp",
		Globals: []*syntax.Decl{{DeclPos: pos(1, 1), Names: []*syntax.Ident{a}}},
		Procs:   []*syntax.Proc{main},
	}
}

// TestLongElsifChain checks and lowers 100,000 elsif branches: sema and
// ir walk the chain in a loop, so the depth of the Go stack does not
// grow with it.
func TestLongElsifChain(t *testing.T) {
	const n = 100000
	f := elsifChain(n)
	info, errs, warns := sema.Check(f)
	if len(errs)+len(warns) > 0 {
		t.Fatal(errs, warns)
	}
	p, err := ir.Lower(f, info, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := p.Procs[0]
	// One location per if/elsif and per skip, plus the exit; two edges
	// per branch condition and one per skip.
	if len(m.Locations) != 2*n+1 || len(m.Edges) != 3*n {
		t.Fatalf("%d locations, %d edges", len(m.Locations), len(m.Edges))
	}
	// The last elsif's false branch leads to the exit, each other's to
	// the next elsif.
	last := m.Locations[2*(n-1)]
	if last.Text != "elsif (a)" {
		t.Fatalf("location %d is %q", last.ID, last.Text)
	}
	if e := m.Edges[last.Out[1]]; e.To != m.Exit {
		t.Errorf("last elsif's false branch goes to %d", e.To)
	}
	if e := m.Edges[m.Locations[0].Out[1]]; e.To != 2 || m.Locations[2].Text != "elsif (a)" {
		t.Errorf("the if's false branch goes to %d", e.To)
	}
}
