package observer

import (
	"slices"
	"strconv"

	"boolprog/cpa"
	"boolprog/ir"
)

// Analysis is the observer component of a composite.
type Analysis struct {
	Spec *Spec
	P    *ir.Program
	// byProc lists, per procedure index, the transitions on its entry.
	byProc [][]resolved
}

type resolved struct {
	Trans
	guard int // global index, or -1
}

// New resolves spec's procedure and global names in p.
func New(spec *Spec, p *ir.Program) (*Analysis, error) {
	a := &Analysis{Spec: spec, P: p, byProc: make([][]resolved, len(p.Procs))}
	for _, t := range spec.Trans {
		pr := p.Proc(t.Proc)
		if pr == nil {
			return nil, posError(spec.File, t.Line, t.ProcCol, "no procedure %q in %s", t.Proc, p.File)
		}
		if pr.Index == p.Main {
			return nil, posError(spec.File, t.Line, t.ProcCol, "the entry of main is not an event")
		}
		r := resolved{Trans: t, guard: -1}
		if t.Guard != "" {
			r.guard = slices.Index(p.Globals, t.Guard)
			if r.guard < 0 {
				return nil, posError(spec.File, t.Line, t.GuardCol, "no global %q in %s", t.Guard, p.File)
			}
		}
		a.byProc[pr.Index] = append(a.byProc[pr.Index], r)
	}
	return a, nil
}

// State is the automaton's state (Error for the error), with the
// assumptions of the transition just taken until strengthening checks them.
type State struct {
	Q      int
	Msg    string // the violation's message, in the error state
	Line   int    // the violated transition's line in the specification
	assume []cpa.Literal
}

// Assumed returns the guard values the transition just taken assumes.
func (s *State) Assumed() []cpa.Literal { return s.assume }

// Name returns "observer".
func (a *Analysis) Name() string { return "observer" }

// MustAgree is true: states with different automaton states are never
// joined.
func (a *Analysis) MustAgree() bool { return true }

// Initial is the initial state.
func (a *Analysis) Initial(*cpa.CFA) cpa.State { return &State{Q: a.Spec.Initial} }

// InitialPrecision returns nil.
func (a *Analysis) InitialPrecision(*cpa.CFA) cpa.Precision { return nil }

// LessOrEqual is equality (a flat domain).
func (a *Analysis) LessOrEqual(x, y cpa.State) bool { return x.(*State).Q == y.(*State).Q }

// Join returns x: the composite joins only states that agree on this
// component.
func (a *Analysis) Join(x, _ cpa.State) cpa.State { return x }

// Key is the state's number.
func (a *Analysis) Key(x cpa.State) string { return strconv.Itoa(x.(*State).Q) }

// IsTarget reports the error state.
func (a *Analysis) IsTarget(x cpa.State) bool { return x.(*State).Q == Error }

// Post leaves the state unchanged: events are calls.
func (a *Analysis) Post(x cpa.State, _ *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	return []cpa.State{x}, nil
}

// Split returns x.
func (a *Analysis) Split(x cpa.State, _ *cpa.Edge, _ cpa.Precision) []cpa.State {
	return []cpa.State{x}
}

// Enter takes the transitions on the callee's entry: the first matching
// one fires. With guards, one successor per transition that may fire,
// each assuming its guard and the negation of the earlier ones', and
// (unless an unguarded one matches) one that stays.
func (a *Analysis) Enter(x cpa.State, call *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	s := x.(*State)
	var out []cpa.State
	var not []cpa.Literal
	for _, t := range a.byProc[call.To.Proc] {
		if t.From != s.Q {
			continue
		}
		n := &State{Q: t.To, Msg: t.Msg, Line: t.Line}
		if t.guard < 0 {
			n.assume = slices.Clone(not)
			return append(out, n), nil
		}
		n.assume = append(slices.Clone(not), cpa.Literal{Global: t.guard, Value: !t.GuardNeg})
		out = append(out, n)
		not = append(not, cpa.Literal{Global: t.guard, Value: t.GuardNeg})
	}
	stay := &State{Q: s.Q, assume: not}
	return append(out, stay), nil
}

// Combine takes the callee's exit state: the automaton watches the whole
// execution, not one frame.
func (a *Analysis) Combine(_, exit cpa.State, _ *cpa.Edge, _ cpa.Precision) ([]cpa.State, error) {
	return []cpa.State{exit}, nil
}

// Strengthen checks the transition's assumptions against the explicit
// values of the other components (a known value that contradicts a guard
// rules the transition out) and drops them.
func (a *Analysis) Strengthen(x cpa.State, others []cpa.State, _ *cpa.Edge) (cpa.State, bool) {
	s := x.(*State)
	if len(s.assume) == 0 {
		return s, true
	}
	for _, o := range others {
		vals, ok := o.(interface{ GlobalValue(int) (bool, bool) })
		if !ok {
			continue
		}
		for _, l := range s.assume {
			if v, known := vals.GlobalValue(l.Global); known && v != l.Value {
				return nil, false
			}
		}
	}
	return &State{Q: s.Q, Msg: s.Msg, Line: s.Line}, true
}
