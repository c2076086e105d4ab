package ir_test

import (
	"slices"
	"strings"
	"testing"

	"boolprog/ir"
	"boolprog/syntax"
)

func at(line int) syntax.Pos { return syntax.Pos{Offset: line * 10, Line: line, Col: 1} }

// twoProcs builds, with the Builder, the program
//
//	decl g;
//	bool f(a) begin L: return !a; end
//	void main() begin decl x; x := f(g); SLIC_ERROR: assert(x | g); end
//
// and returns the builder before Build, so that a test can break it first.
func twoProcs(t *testing.T) (*ir.Builder, *ir.ProcBuilder, *ir.ProcBuilder) {
	t.Helper()
	b := ir.NewBuilder("b.bp", "")
	g := b.Global("g")
	f := b.Proc("f", at(2), []string{"a"}, 1)
	ret := f.Loc(ir.Location{Kind: ir.StmtLoc, Pos: at(2), Text: "return !a", Labels: []string{"L"}})
	fexit := f.Loc(ir.Location{Kind: ir.ExitLoc, Pos: at(2)})
	f.Edge(ir.Edge{From: ret, To: fexit, Op: &ir.Return{Values: []ir.Expr{&ir.Not{X: &ir.Var{VarRef: ir.VarRef{Index: 0}}}}}, Pos: at(2), Text: "return !a"})
	f.SetEntry(ret)
	f.SetExit(fexit)

	m := b.Proc("main", at(3), nil, 0)
	x := m.Local("x")
	call := m.Loc(ir.Location{Kind: ir.StmtLoc, Pos: at(3), Text: "x := f(g)"})
	as := m.Loc(ir.Location{Kind: ir.StmtLoc, Pos: at(3), Text: "assert(x | g)", Labels: []string{"SLIC_ERROR"}})
	fail := m.Loc(ir.Location{Kind: ir.FailLoc, Pos: at(3)})
	exit := m.Loc(ir.Location{Kind: ir.ExitLoc, Pos: at(3)})
	m.Edge(ir.Edge{From: call, To: as, Op: &ir.Call{Proc: f.Index(), Args: []ir.Expr{&ir.Var{VarRef: g}}, Targets: []ir.Target{{Var: x}}}, Pos: at(3), Text: "x := f(g)"})
	c := &ir.Bin{Op: syntax.Or, X: &ir.Var{VarRef: x}, Y: &ir.Var{VarRef: g}}
	m.Edge(ir.Edge{From: as, To: exit, Op: &ir.Assume{Cond: c}, Pos: at(3), Text: "assert(x | g)"})
	m.Edge(ir.Edge{From: as, To: fail, Op: &ir.Assume{Cond: &ir.Not{X: c}}, Pos: at(3), Text: "assert(x | g)"})
	m.SetEntry(call)
	m.SetExit(exit)
	b.SetMain(m.Index())
	return b, f, m
}

func TestBuilder(t *testing.T) {
	b, _, _ := twoProcs(t)
	b.SetConcurrent(at(5), "later")
	b.SetConcurrent(at(4), "first")
	b.SetConcurrent(syntax.Pos{}, "no position")
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if p.Target != ir.DefaultTarget || p.Main != 1 || p.Init != -1 || !slices.Equal(p.Globals, []string{"g"}) {
		t.Errorf("program %+v", p)
	}
	if !p.Concurrent || p.ConcurrentPos != at(4) || p.ConcurrentWhy != "first" {
		t.Errorf("concurrent %v at %v: %q", p.Concurrent, p.ConcurrentPos, p.ConcurrentWhy)
	}
	f, m := p.Procs[0], p.Procs[1]
	if f.Params != 1 || !slices.Equal(f.Locals, []string{"a"}) || !slices.Equal(m.Locals, []string{"x"}) {
		t.Errorf("locals %v %v", f.Locals, m.Locals)
	}
	if !f.Locations[0].Entry || !f.Locations[1].Exit || f.Locations[0].Exit || !slices.Equal(f.Labels["L"], []int{0}) {
		t.Errorf("flags or labels of f wrong: %+v %+v %v", f.Locations[0], f.Locations[1], f.Labels)
	}
	if errs := m.ErrorLocations(); !slices.Equal(errs, []int{1, 2}) {
		t.Errorf("error locations of main %v, want the labelled one and the failure", errs)
	}
	if l := m.Locations[1]; !slices.Equal(l.Out, []int{1, 2}) || !slices.Equal(l.In, []int{0}) {
		t.Errorf("Out %v In %v", l.Out, l.In)
	}
	if got := p.OpString(m, m.Edges[0].Op); got != "x := f(g)" {
		t.Errorf("call %q", got)
	}
	if err := ir.Verify(p); err != nil {
		t.Errorf("Verify of a built program: %v", err)
	}
}

// TestVerify breaks a good program in one way at a time; Build (through
// Verify) must name the problem.
func TestVerify(t *testing.T) {
	v := func(global bool, i int) *ir.Var { return &ir.Var{VarRef: ir.VarRef{Global: global, Index: i}} }
	tests := []struct {
		name   string
		damage func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program)
		want   string
	}{
		{"edge to no location", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 9, Op: &ir.Skip{}})
		}, "main: edge 3 from location 0 to 9, which do not both exist"},
		{"global out of range", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Assume{Cond: v(true, 1)}})
		}, "ir: main: edge 3 refers to global 1, which does not exist"},
		{"local out of range", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Assign{Targets: []ir.VarRef{{Index: 1}}, Values: []ir.Expr{ir.True}}})
		}, "ir: main: edge 3 refers to local 1, which does not exist"},
		{"call arity", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Call{Proc: 0}})
		}, "edge 3 calls f with 0 arguments; it has 1 parameters"},
		{"call results", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Call{Proc: 1, Targets: []ir.Target{{Discard: true}}}})
		}, "edge 3 assigns 1 results of main, which returns 0"},
		{"call of no procedure", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Call{Proc: 7}})
		}, "edge 3 calls procedure 7, which does not exist"},
		{"procedure without entry", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			b.Proc("h", at(9), nil, 2)
		}, "h: entry -1 or exit -1 is not one of the 0 locations"},
		{"assign count", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Assign{Targets: []ir.VarRef{{Index: 0}}}})
		}, "edge 3 assigns 0 values to 1 targets"},
		{"assign target twice", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Assign{Targets: []ir.VarRef{{Index: 0}, {Index: 0}}, Values: []ir.Expr{ir.True, ir.False}}})
		}, "edge 3 assigns local 0 twice"},
		{"prime outside constrain", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Assume{Cond: &ir.Var{VarRef: ir.VarRef{Index: 0}, Primed: true}}})
		}, "edge 3 has the primed local 0 outside a constrain"},
		{"nil operation", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1})
		}, "edge 3 has no operation"},
		{"nil expression", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Assume{Cond: &ir.Not{}}})
		}, "edge 3 has a nil expression"},
		{"bad operator", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Assume{Cond: &ir.Bin{Op: syntax.Not, X: ir.True, Y: ir.True}}})
		}, "edge 3 has the binary operator !"},
		{"exit with an edge", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 3, To: 0, Op: &ir.Skip{}})
		}, "main: location 3 is an exit or failure location with outgoing edges"},
		{"return elsewhere", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			f.Edge(ir.Edge{From: 0, To: 0, Op: &ir.Return{Values: []ir.Expr{ir.True}}})
		}, "f: edge 1 returns but does not lead to the exit"},
		{"return count", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			f.Edge(ir.Edge{From: 0, To: 1, Op: &ir.Return{}})
		}, "f: edge 1 returns 0 values; the procedure returns 1"},
		{"thread start at no location", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.StartThread{Proc: -1, Goto: 8}})
		}, "edge 3 starts a thread at location 8, which does not exist"},
		{"thread start arity", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			m.Edge(ir.Edge{From: 0, To: 1, Op: &ir.StartThread{Proc: 0, Goto: -1}})
		}, "edge 3 starts f with 0 arguments; it has 1 parameters"},
		{"main out of range", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			b.SetMain(2)
		}, "Main is procedure 2, which does not exist"},
		{"threads out of range", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			b.SetThreads(-2, []int{1, 5})
		}, "Init is procedure -2, which does not exist\nir: a thread is procedure 5, which does not exist"},
		{"two procedures of one name", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			h := b.Proc("f", at(9), nil, 0)
			h.SetEntry(h.Loc(ir.Location{Kind: ir.ExitLoc}))
			h.SetExit(0)
		}, "two procedures named f"},
		{"more parameters than locals", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			p.Procs[0].Params = 2
		}, "f: 2 parameters, 1 locals, 1 returned values"},
		{"entry flag on another location", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			p.Procs[1].Locations[1].Entry = true
		}, "main: location 1: Entry true, Exit false, but the procedure's entry is 0 and exit 3"},
		{"out list that lies", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			p.Procs[1].Locations[0].Out = append(p.Procs[1].Locations[0].Out, 2)
		}, "main: location 0 lists edge 2 among its Out, which does not leave it"},
		{"label map that lies", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			p.Procs[0].Labels["L"] = []int{1}
		}, "f: location 0 carries label L, which Labels does not map to it"},
		{"failure location that is no error", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			p.Procs[1].Locations[2].Error = false
		}, "main: failure location 2 is not an error location"},
		{"wrong ids", func(b *ir.Builder, f, m *ir.ProcBuilder, p *ir.Program) {
			p.Procs[1].Edges[0].ID = 5
			p.Procs[1].Index = 0
		}, "procedure main has index 0 at position 1\nir: main: edge 0 has id 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, f, m := twoProcs(t)
			var err error
			if strings.HasPrefix(tt.name, "more") || strings.Contains(tt.name, "flag") || strings.Contains(tt.name, "lies") ||
				strings.Contains(tt.name, "no error") || tt.name == "wrong ids" {
				// Damage that the builder does not let through: break
				// a built program and Verify it.
				p, berr := b.Build()
				if berr != nil {
					t.Fatal(berr)
				}
				tt.damage(b, f, m, p)
				err = ir.Verify(p)
			} else {
				tt.damage(b, f, m, nil)
				_, err = b.Build()
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}

func TestVerifyNil(t *testing.T) {
	if ir.Verify(nil) == nil {
		t.Error("Verify(nil) succeeded")
	}
}

// TestVerifyManyProblems checks that a program broken everywhere gives a
// bounded report.
func TestVerifyManyProblems(t *testing.T) {
	b, _, m := twoProcs(t)
	for range 200 {
		m.Edge(ir.Edge{From: 0, To: 1})
	}
	_, err := b.Build()
	if err == nil {
		t.Fatal("no error")
	}
	if n := strings.Count(err.Error(), "\n") + 1; n > 51 || !strings.Contains(err.Error(), "too many problems") {
		t.Errorf("%d lines:\n%v", n, err)
	}
}
