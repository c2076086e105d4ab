package observer

import (
	"errors"
	"fmt"
	"slices"

	"boolprog/cpa"
	"boolprog/ir"
	"boolprog/syntax"
)

// Instrumented is a program with an observer automaton inlined.
type Instrumented struct {
	Prog *ir.Program // the instrumented program
	Orig *ir.Program
	Spec *Spec

	bits   []int            // global indexes of the state's bits
	init   *ir.Edge         // main's new first edge: the initial state
	update map[int]*ir.Edge // event procedure -> its new entry's update edge
	fail   map[int]map[int]*ir.Edge
	// failTrans is the transition of each failure edge, by procedure
	// index and edge id; updates marks the update edges the same way.
	failTrans map[[2]int]Trans
	updates   map[[2]int]bool
}

// ErrSequential is Instrument's error for a program without main or with
// threads: the automaton watches one sequential execution from main.
var ErrSequential = errors.New("observer automata watch sequential programs with a main procedure")

// Instrument returns p with spec's automaton inlined: globals hold the
// automaton's state in binary (named after the property; renamed if p
// uses the name), main starts with a step that sets the initial state, and
// every procedure with transitions gets a new entry location with an
// update edge to its old entry and, for each transition into the error,
// an edge into a new assertion-failure location taken when that
// transition fires (its text names the property and the message). Every
// location and edge of p keeps its id and origin; the new ones have
// ir.SyntheticOrigin of their procedure, and their texts start with
// "[observer NAME]", so a trace marks the instrumentation's steps.
func Instrument(spec *Spec, p *ir.Program) (*Instrumented, error) {
	if p.Concurrent || p.Main < 0 {
		return nil, ErrSequential
	}
	a, err := New(spec, p)
	if err != nil {
		return nil, err
	}
	b := ir.Edit(p)
	nbits := 1
	for 1<<nbits < len(spec.States) {
		nbits++
	}
	in := &Instrumented{Orig: p, Spec: spec, update: make(map[int]*ir.Edge), fail: make(map[int]map[int]*ir.Edge),
		failTrans: make(map[[2]int]Trans), updates: make(map[[2]int]bool)}
	globals := slices.Clone(p.Globals)
	used := func(name string) bool {
		if slices.Contains(globals, name) {
			return true
		}
		for _, pr := range p.Procs {
			if slices.Contains(pr.Locals, name) {
				return true
			}
		}
		return false
	}
	for i := range nbits {
		// Unique among globals and locals, so that a trace's values
		// name the state's bits unambiguously.
		name := fmt.Sprintf("%s_q%d", spec.Property, i)
		for used(name) {
			name += "_"
		}
		globals = append(globals, name)
		in.bits = append(in.bits, b.Global(name).Index)
	}
	bit := func(i int) ir.Expr { return &ir.Var{VarRef: ir.VarRef{Global: true, Index: in.bits[i]}} }
	and := func(x, y ir.Expr) ir.Expr { return &ir.Bin{Op: syntax.And, X: x, Y: y} }
	or := func(x, y ir.Expr) ir.Expr { return &ir.Bin{Op: syntax.Or, X: x, Y: y} }
	not := func(x ir.Expr) ir.Expr { return &ir.Not{X: x} }
	is := func(q int) ir.Expr {
		var e ir.Expr = ir.True
		for i := range in.bits {
			b := bit(i)
			if q>>i&1 == 0 {
				b = not(b)
			}
			e = and(e, b)
		}
		return e
	}
	targets := make([]ir.VarRef, nbits)
	for i := range targets {
		targets[i] = ir.VarRef{Global: true, Index: in.bits[i]}
	}
	// The new locations and edges of a procedure stand at its entry and
	// for nothing of p (their texts say what they do).
	addLoc := func(pb *ir.ProcBuilder, pr *ir.Proc, kind ir.LocKind, text string) int {
		return pb.Loc(ir.Location{Kind: kind, Pos: pr.Locations[pr.Entry].Pos, Text: text, Origin: ir.SyntheticOrigin(pr.Index)})
	}
	addEdge := func(pb *ir.ProcBuilder, pr *ir.Proc, from, to int, op ir.Op, text string) int {
		return pb.Edge(ir.Edge{From: from, To: to, Op: op, Pos: pr.Locations[pr.Entry].Pos, Text: text, Origin: ir.SyntheticOrigin(pr.Index)})
	}
	// newEntry adds a location before pr's entry and makes it the entry.
	newEntry := func(pb *ir.ProcBuilder, pr *ir.Proc, text string) int {
		id := addLoc(pb, pr, ir.StmtLoc, text)
		pb.SetEntry(id)
		return id
	}
	// The edges of the instrumentation, by procedure and id, resolved to
	// the built program's edges at the end.
	type edgeAt struct{ proc, id int }
	var initEdge edgeAt
	updates := map[int]edgeAt{}
	fails := map[int]map[int]edgeAt{}

	main := p.Procs[p.Main]
	mb := b.ProcAt(p.Main)
	tag := "[observer " + spec.Property + "] "
	startText := tag + "start in " + spec.States[spec.Initial]
	m0 := newEntry(mb, main, startText)
	init := make([]ir.Expr, nbits)
	for i := range init {
		init[i] = &ir.Const{Value: spec.Initial>>i&1 == 1}
	}
	initEdge = edgeAt{p.Main, addEdge(mb, main, m0, main.Entry, &ir.Assign{Targets: targets, Values: init}, startText)}
	for pi, trans := range a.byProc {
		if len(trans) == 0 {
			continue
		}
		pr, pb := p.Procs[pi], b.ProcAt(pi)
		oldEntry := pr.Entry
		entryText := tag + "on call " + pr.Name
		entry := newEntry(pb, pr, entryText)
		var earlier ir.Expr = ir.False // some earlier transition fires
		var fires []ir.Expr
		for _, t := range trans {
			cond := is(t.From)
			if t.guard >= 0 {
				var g ir.Expr = &ir.Var{VarRef: ir.VarRef{Global: true, Index: t.guard}}
				if t.GuardNeg {
					g = not(g)
				}
				cond = and(cond, g)
			}
			fire := and(cond, not(earlier))
			fires = append(fires, fire)
			earlier = or(earlier, cond)
		}
		next := make([]ir.Expr, nbits)
		for i := range next {
			next[i] = and(bit(i), not(earlier)) // no transition fires: keep
		}
		fails[pi] = make(map[int]edgeAt)
		for k, t := range trans {
			if t.To == Error {
				f := addLoc(pb, pr, ir.FailLoc, "")
				text := fmt.Sprintf("%serror: %s", tag, t.Msg)
				fe := addEdge(pb, pr, entry, f, &ir.Assume{Cond: fires[k]}, text)
				fails[pi][t.Line] = edgeAt{pi, fe}
				in.failTrans[[2]int{pi, fe}] = t.Trans
				continue
			}
			for i := range next {
				if t.To>>i&1 == 1 {
					next[i] = or(next[i], fires[k])
				}
			}
		}
		up := addEdge(pb, pr, entry, oldEntry, &ir.Assign{Targets: targets, Values: next}, entryText)
		updates[pi] = edgeAt{pi, up}
		in.updates[[2]int{pi, up}] = true
	}
	np, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("observer: the instrumented program is malformed: %v", err)
	}
	edge := func(at edgeAt) *ir.Edge { return np.Procs[at.proc].Edges[at.id] }
	in.Prog = np
	in.init = edge(initEdge)
	for pi, at := range updates {
		in.update[pi] = edge(at)
	}
	for pi, byLine := range fails {
		in.fail[pi] = make(map[int]*ir.Edge)
		for line, at := range byLine {
			in.fail[pi][line] = edge(at)
		}
	}
	return in, nil
}

// MapPath carries a path of the original program (from cpa.Path) over to
// the instrumented program, whose CFA is icfa: the initial step first,
// each call of an event procedure followed by the update at its new
// entry. With violation > 0 the path's last edge is a call on which the
// automaton reaches its error by the transition at that line of the
// specification, and the violating call is followed by the edge into the
// failure location; with violation 0 the path ends at an error location
// of the program, which is one of the instrumented program too.
func (in *Instrumented) MapPath(icfa *cpa.CFA, path []*cpa.Edge, violation int) ([]*cpa.Edge, error) {
	type key struct {
		kind       cpa.EdgeKind
		proc, edge int
	}
	edges := make(map[key]*cpa.Edge)
	intra := make(map[*ir.Edge]*cpa.Edge)
	for pi, pr := range icfa.Prog.Procs {
		for li := range pr.Locations {
			for _, e := range icfa.Out(cpa.Node{Proc: pi, Loc: li}) {
				edges[key{e.Kind, e.Caller, e.IR.ID}] = e
				if e.Kind == cpa.Intra {
					intra[e.IR] = e
				}
			}
		}
	}
	out := []*cpa.Edge{intra[in.init]}
	for i, e := range path {
		ne := edges[key{e.Kind, e.Caller, e.IR.ID}]
		if ne == nil {
			return nil, fmt.Errorf("observer: edge %s has no counterpart in the instrumented program", e)
		}
		out = append(out, ne)
		if e.Kind != cpa.Call || in.update[e.To.Proc] == nil {
			continue
		}
		if i == len(path)-1 && violation > 0 {
			f := in.fail[e.To.Proc][violation]
			if f == nil {
				return nil, fmt.Errorf("observer: no violation of line %d on entry to %s", violation, in.Prog.Procs[e.To.Proc].Name)
			}
			out = append(out, intra[f])
			return out, nil
		}
		out = append(out, intra[in.update[e.To.Proc]])
	}
	if violation == 0 {
		return out, nil
	}
	return nil, fmt.Errorf("observer: the path does not end with a violating call")
}
