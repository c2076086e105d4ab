// Package reachdef is the reaching-definitions analysis for package cpa,
// the classical data-flow analysis the CPA chapter starts from: for each
// variable in scope, the set of definitions (assignments, returns,
// parameter bindings, call results, or the undefined initial value) that
// may have given it its current value. It never rules a path out; under
// merge-join it is the textbook analysis, under merge-sep it is the same
// information per abstract state.
package reachdef

import (
	"fmt"
	"slices"
	"strings"

	"boolprog/cpa"
	"boolprog/ir"
)

// Def is a definition: the edge of procedure Proc that defines the
// variable (an Assign, a Return for returned values, the Call for its
// targets and the callee's parameters), or Edge -1 for the value a
// variable has when it comes into scope without one (globals at the start,
// a procedure's locals that are not parameters).
type Def struct {
	Proc, Edge int
}

// String formats the definition as "proc:edge" or "proc:entry".
func (d Def) String() string {
	if d.Edge < 0 {
		return fmt.Sprintf("%d:entry", d.Proc)
	}
	return fmt.Sprintf("%d:%d", d.Proc, d.Edge)
}

// State maps each variable of the frame (globals, locals, returned
// values: package explicitval's order) to its reaching definitions,
// sorted.
type State struct {
	Proc int
	Defs [][]Def
}

// Analysis is the reaching-definitions component.
type Analysis struct{ P *ir.Program }

// New returns the analysis of p.
func New(p *ir.Program) *Analysis { return &Analysis{P: p} }

// Name returns "reachdef".
func (a *Analysis) Name() string { return "reachdef" }

func (a *Analysis) fresh(proc int, def func(slot int) []Def) *State {
	pr := a.P.Procs[proc]
	n := len(a.P.Globals) + len(pr.Locals) + pr.Returns
	s := &State{Proc: proc, Defs: make([][]Def, n)}
	for i := range s.Defs {
		s.Defs[i] = def(i)
	}
	return s
}

// Initial gives every variable of main its entry definition.
func (a *Analysis) Initial(c *cpa.CFA) cpa.State {
	return a.fresh(c.Prog.Main, func(int) []Def { return []Def{{c.Prog.Main, -1}} })
}

// InitialPrecision returns nil.
func (a *Analysis) InitialPrecision(*cpa.CFA) cpa.Precision { return nil }

// LessOrEqual is inclusion, variable by variable.
func (a *Analysis) LessOrEqual(x, y cpa.State) bool {
	sx, sy := x.(*State), y.(*State)
	if sx.Proc != sy.Proc {
		return false
	}
	for i, ds := range sx.Defs {
		for _, d := range ds {
			if !slices.Contains(sy.Defs[i], d) {
				return false
			}
		}
	}
	return true
}

// Join is union, variable by variable.
func (a *Analysis) Join(x, y cpa.State) cpa.State {
	sx, sy := x.(*State), y.(*State)
	out := &State{Proc: sx.Proc, Defs: make([][]Def, len(sx.Defs))}
	for i := range sx.Defs {
		u := append(slices.Clone(sx.Defs[i]), sy.Defs[i]...)
		slices.SortFunc(u, cmpDef)
		out.Defs[i] = slices.Compact(u)
	}
	return out
}

func cmpDef(x, y Def) int {
	if x.Proc != y.Proc {
		return x.Proc - y.Proc
	}
	return x.Edge - y.Edge
}

// Key formats the sets.
func (a *Analysis) Key(x cpa.State) string {
	s := x.(*State)
	var b strings.Builder
	fmt.Fprintf(&b, "%d", s.Proc)
	for _, ds := range s.Defs {
		b.WriteByte('|')
		for _, d := range ds {
			b.WriteString(d.String())
			b.WriteByte(',')
		}
	}
	return b.String()
}

func (a *Analysis) slot(v ir.VarRef) int {
	if v.Global {
		return v.Index
	}
	return len(a.P.Globals) + v.Index
}

func (a *Analysis) define(s *State, slots []int, d Def) *State {
	out := &State{Proc: s.Proc, Defs: slices.Clone(s.Defs)}
	for _, k := range slots {
		out.Defs[k] = []Def{d}
	}
	return out
}

// Post kills and generates along an Intra edge.
func (a *Analysis) Post(x cpa.State, e *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	s := x.(*State)
	var slots []int
	switch op := e.IR.Op.(type) {
	case *ir.Assign:
		for _, t := range op.Targets {
			slots = append(slots, a.slot(t))
		}
	case *ir.Return:
		base := len(a.P.Globals) + len(a.P.Procs[s.Proc].Locals)
		for i := range op.Values {
			slots = append(slots, base+i)
		}
	default:
		return []cpa.State{s}, nil
	}
	return []cpa.State{a.define(s, slots, Def{e.From.Proc, e.IR.ID})}, nil
}

// Split returns x.
func (a *Analysis) Split(x cpa.State, _ *cpa.Edge, _ cpa.Precision) []cpa.State {
	return []cpa.State{x}
}

// Enter keeps the globals' definitions; the call defines the parameters;
// the callee's other locals and returned values have their entry
// definition.
func (a *Analysis) Enter(x cpa.State, call *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	s := x.(*State)
	ng := len(a.P.Globals)
	params := a.P.Procs[call.To.Proc].Params
	return []cpa.State{a.fresh(call.To.Proc, func(i int) []Def {
		switch {
		case i < ng:
			return s.Defs[i]
		case i < ng+params:
			return []Def{{call.Caller, call.IR.ID}}
		}
		return []Def{{call.To.Proc, -1}}
	})}, nil
}

// Combine takes the globals' definitions from the callee's exit, the
// caller's locals from the call, and defines the call's targets.
func (a *Analysis) Combine(caller, exit cpa.State, ret *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	q, x := caller.(*State), exit.(*State)
	out := &State{Proc: q.Proc, Defs: slices.Clone(q.Defs)}
	copy(out.Defs, x.Defs[:len(a.P.Globals)])
	for _, t := range ret.CallOp().Targets {
		if !t.Discard {
			out.Defs[a.slot(t.Var)] = []Def{{ret.Caller, ret.IR.ID}}
		}
	}
	return []cpa.State{out}, nil
}

// Reaching returns the definitions of v (of the state's procedure) that
// reach s.
func (a *Analysis) Reaching(x cpa.State, v ir.VarRef) []Def {
	return x.(*State).Defs[a.slot(v)]
}
