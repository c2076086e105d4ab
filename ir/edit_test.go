package ir_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"boolprog/ir"
)

// TestClone: a clone is equal to the program, and changing it leaves the
// program as it was.
func TestClone(t *testing.T) {
	b, _, _ := twoProcs(t)
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	before := dump(p)
	q := ir.Clone(p)
	if !reflect.DeepEqual(p, q) {
		t.Fatalf("the clone differs:\n%s\nwant\n%s", dump(q), before)
	}
	q.Globals[0] = "h"
	q.Procs[1].Locals[0] = "y"
	q.Procs[1].Locations[0].Out[0] = 7
	q.Procs[1].Locations[1].Labels[0] = "M"
	q.Procs[1].Labels["SLIC_ERROR"][0] = 9
	q.Procs[1].Edges[0].To = 3
	q.Procs[0].Entry = 1
	if got := dump(p); got != before || p.Procs[1].Labels["SLIC_ERROR"][0] != 1 {
		t.Errorf("changing the clone changed the program:\n%s", got)
	}
}

// TestEdit adds a location and edges, changes an operation and a target,
// moves an entry, and checks the program built, the flags Build sets and
// that the original is unchanged.
func TestEdit(t *testing.T) {
	b, _, _ := twoProcs(t)
	p, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	before := dump(p)
	e := ir.Edit(p)
	flag := e.Global("flag")
	m := e.ProcAt(1)
	start := m.Loc(ir.Location{Kind: ir.StmtLoc, Pos: at(3), Text: "flag := T", Origin: ir.SyntheticOrigin(1)})
	set := m.Edge(ir.Edge{From: start, To: p.Procs[1].Entry, Op: &ir.Assign{Targets: []ir.VarRef{flag}, Values: []ir.Expr{ir.True}}, Pos: at(3), Text: "flag := T", Origin: ir.SyntheticOrigin(1)})
	m.SetEntry(start)
	m.SetOp(0, &ir.Skip{}) // the call
	m.Retarget(1, 3)       // assert's success edge into the exit: already there
	m.Retarget(2, 3)       // its failure edge: now to the exit as well
	if got := e.Program().Procs[1].Locations[start].Text; got != "flag := T" {
		t.Errorf("Program() does not show the new location: %q", got)
	}
	q, err := e.Build()
	if err != nil {
		t.Fatal(err)
	}
	if got := dump(p); got != before {
		t.Errorf("the edit changed the original:\n%s", got)
	}
	main := q.Procs[1]
	if !slices.Equal(q.Globals, []string{"g", "flag"}) || main.Entry != start || !main.Locations[start].Entry || main.Locations[0].Entry {
		t.Errorf("globals %v, entry %d, flags %v %v", q.Globals, main.Entry, main.Locations[start].Entry, main.Locations[0].Entry)
	}
	if main.Edges[set].Origin != (ir.Origin{Proc: 1, Loc: -1, Edge: -1, Thread: -1, Round: -1}) || main.Locations[0].Origin != p.Procs[1].Locations[0].Origin {
		t.Errorf("origins %+v %+v", main.Edges[set].Origin, main.Locations[0].Origin)
	}
	if _, ok := main.Edges[0].Op.(*ir.Skip); !ok || main.Edges[2].To != 3 || len(main.Locations[2].In) != 0 || !slices.Equal(main.Locations[3].In, []int{1, 2}) {
		t.Errorf("op %T, edge 2 to %d, fail In %v, exit In %v", main.Edges[0].Op, main.Edges[2].To, main.Locations[2].In, main.Locations[3].In)
	}
	if !slices.Equal(main.Labels["SLIC_ERROR"], []int{1}) || !main.Locations[1].Error {
		t.Errorf("labels %v", main.Labels)
	}
}

// TestEditErrors: misuses of the edit builder and an edit that breaks
// the program are Build's errors.
func TestEditErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(pb *ir.ProcBuilder)
		want string
	}{
		{"no such edge", func(pb *ir.ProcBuilder) { pb.SetOp(9, &ir.Skip{}) }, "no edge 9"},
		{"retarget nowhere", func(pb *ir.ProcBuilder) { pb.Retarget(0, 9) }, "location 9, which does not exist"},
		{"retarget no edge", func(pb *ir.ProcBuilder) { pb.Retarget(-1, 0) }, "no edge -1"},
		{"an edge out of the exit", func(pb *ir.ProcBuilder) { pb.Edge(ir.Edge{From: 3, To: 0, Op: &ir.Skip{}}) }, "exit or failure location with outgoing edges"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _, _ := twoProcs(t)
			p, err := b.Build()
			if err != nil {
				t.Fatal(err)
			}
			e := ir.Edit(p)
			tt.edit(e.ProcAt(1))
			if _, err := e.Build(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Build: %v, want an error with %q", err, tt.want)
			}
		})
	}
}
