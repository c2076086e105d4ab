package cpa

import (
	"fmt"
	"strings"
)

// Location is the location analysis: its state is the program location
// (a Node), its transfer follows the edges of the CFA. A Composite needs
// it: it is how the composite knows which edges leave a state.
type Location struct{}

// Name returns "location".
func (Location) Name() string { return "location" }

// Initial returns main's entry.
func (Location) Initial(c *CFA) State {
	return Node{c.Prog.Main, c.Prog.Procs[c.Prog.Main].Entry}
}

// InitialPrecision returns nil: the location analysis has no precision.
func (Location) InitialPrecision(*CFA) Precision { return nil }

// LessOrEqual is equality: the location domain is flat.
func (Location) LessOrEqual(a, b State) bool { return a.(Node) == b.(Node) }

// Join of two different locations does not exist in a flat domain without
// ⊤; the composite only joins states of one partition, which share their
// location, so Join returns a.
func (Location) Join(a, _ State) State { return a }

// Post returns the edge's target if s is its source.
func (Location) Post(s State, e *Edge, _ Precision) ([]State, error) {
	if s.(Node) != e.From {
		return nil, nil
	}
	return []State{e.To}, nil
}

// Split returns s.
func (Location) Split(s State, _ *Edge, _ Precision) []State { return []State{s} }

// Enter returns the callee's entry.
func (Location) Enter(_ State, call *Edge, _ Precision) ([]State, error) {
	return []State{call.To}, nil
}

// Combine returns the call's return point.
func (Location) Combine(_, _ State, ret *Edge, _ Precision) ([]State, error) {
	return []State{ret.To}, nil
}

// Key formats the location.
func (Location) Key(s State) string {
	n := s.(Node)
	return fmt.Sprintf("%d.%d", n.Proc, n.Loc)
}

// Composite is the composite CPA: a tuple of components, the first of
// which is the location analysis. Its transfer is the product of the
// components' transfers followed by strengthening; its merge and stop are
// chosen by Merge and Stop.
type Composite struct {
	CFA   *CFA
	Comps []Component
	Merge MergeOp
	Stop  StopOp
	// data marks the components that MergeAgree may join (those that are
	// not location or automaton components: Agreeing reports false).
	data []bool
}

// Agreeing is implemented by components whose states must be equal for
// MergeAgree to join the others' (an automaton's state). The location
// analysis is always one.
type Agreeing interface{ MustAgree() bool }

// NewComposite returns the composite of the location analysis and comps.
func NewComposite(c *CFA, merge MergeOp, stop StopOp, comps ...Component) *Composite {
	all := append([]Component{Location{}}, comps...)
	data := make([]bool, len(all))
	for i, cp := range all {
		a, ok := cp.(Agreeing)
		data[i] = i > 0 && !(ok && a.MustAgree())
	}
	return &Composite{CFA: c, Comps: all, Merge: merge, Stop: stop, data: data}
}

// CState is a composite state: one state per component, the location
// first. Never modify one: states are shared.
type CState struct {
	Comps []State
}

// Loc returns the location of the state.
func (s *CState) Loc() Node { return s.Comps[0].(Node) }

// Component returns the index of the component with the given name, or -1.
func (c *Composite) Component(name string) int {
	for i, cp := range c.Comps {
		if cp.Name() == name {
			return i
		}
	}
	return -1
}

// Initial returns the initial composite state and precision.
func (c *Composite) Initial() (*CState, []Precision) {
	s := &CState{Comps: make([]State, len(c.Comps))}
	prec := make([]Precision, len(c.Comps))
	for i, cp := range c.Comps {
		s.Comps[i] = cp.Initial(c.CFA)
		prec[i] = cp.InitialPrecision(c.CFA)
	}
	return s, prec
}

// LessOrEqual is the product order.
func (c *Composite) LessOrEqual(a, b *CState) bool {
	for i, cp := range c.Comps {
		if !cp.LessOrEqual(a.Comps[i], b.Comps[i]) {
			return false
		}
	}
	return true
}

// Join is the componentwise join.
func (c *Composite) Join(a, b *CState) *CState {
	out := &CState{Comps: make([]State, len(c.Comps))}
	for i, cp := range c.Comps {
		out.Comps[i] = cp.Join(a.Comps[i], b.Comps[i])
	}
	return out
}

// MergeStates applies the composite's merge operator to s and the reached
// state r (same location and partition).
func (c *Composite) MergeStates(s, r *CState) *CState {
	switch c.Merge {
	case MergeJoin:
		// Components without a join (automata) must agree.
		for i, cp := range c.Comps {
			if a, ok := cp.(Agreeing); ok && a.MustAgree() && !(cp.LessOrEqual(s.Comps[i], r.Comps[i]) && cp.LessOrEqual(r.Comps[i], s.Comps[i])) {
				return r
			}
		}
		return c.Join(s, r)
	case MergeAgree:
		out := &CState{Comps: make([]State, len(c.Comps))}
		for i, cp := range c.Comps {
			if !c.data[i] {
				if !cp.LessOrEqual(s.Comps[i], r.Comps[i]) || !cp.LessOrEqual(r.Comps[i], s.Comps[i]) {
					return r
				}
				out.Comps[i] = r.Comps[i]
				continue
			}
			out.Comps[i] = cp.Join(s.Comps[i], r.Comps[i])
		}
		return out
	}
	return r
}

// Covered applies the composite's stop operator.
func (c *Composite) Covered(s *CState, reached []*CState) bool {
	if c.Stop == StopJoin && len(reached) > 0 {
		j := reached[0]
		for _, r := range reached[1:] {
			j = c.Join(j, r)
		}
		return c.LessOrEqual(s, j)
	}
	for _, r := range reached {
		if c.LessOrEqual(s, r) {
			return true
		}
	}
	return false
}

// Key returns the components' keys joined.
func (c *Composite) Key(s *CState) string {
	var b strings.Builder
	for i, cp := range c.Comps {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(cp.Key(s.Comps[i]))
	}
	return b.String()
}

// IsTarget reports whether s is at an error location or a component says
// it is an error.
func (c *Composite) IsTarget(s *CState) bool {
	if c.CFA.IsError(s.Loc()) {
		return true
	}
	for i, cp := range c.Comps {
		if t, ok := cp.(Targeter); ok && t.IsTarget(s.Comps[i]) {
			return true
		}
	}
	return false
}

// Adjust applies every component's precision adjustment.
func (c *Composite) Adjust(s *CState, prec []Precision) *CState {
	var out *CState
	for i, cp := range c.Comps {
		a, ok := cp.(Adjuster)
		if !ok {
			continue
		}
		n := a.Adjust(s.Comps[i], prec[i])
		if out == nil {
			out = &CState{Comps: append([]State(nil), s.Comps...)}
		}
		out.Comps[i] = n
	}
	if out == nil {
		return s
	}
	return out
}

// product forms every tuple of the components' results, then strengthens.
func (c *Composite) product(parts [][]State, e *Edge) []*CState {
	out := []*CState{{Comps: make([]State, 0, len(parts))}}
	for _, ps := range parts {
		if len(ps) == 0 {
			return nil
		}
		var next []*CState
		for _, t := range out {
			for _, p := range ps {
				next = append(next, &CState{Comps: append(append([]State(nil), t.Comps...), p)})
			}
		}
		out = next
	}
	return c.strengthen(out, e)
}

// strengthen applies every Strengthener to every tuple and drops the
// tuples some component finds impossible.
func (c *Composite) strengthen(ss []*CState, e *Edge) []*CState {
	kept := ss[:0]
outer:
	for _, s := range ss {
		// Every component strengthens against the states as the
		// transfer made them, so the order of the components does not
		// matter.
		orig := append([]State(nil), s.Comps...)
		for i, cp := range c.Comps {
			st, ok := cp.(Strengthener)
			if !ok {
				continue
			}
			n, ok := st.Strengthen(orig[i], orig, e)
			if !ok {
				continue outer
			}
			s.Comps[i] = n
		}
		kept = append(kept, s)
	}
	return kept
}

// Post returns the composite successors of s along the Intra edge e.
func (c *Composite) Post(s *CState, e *Edge, prec []Precision) ([]*CState, error) {
	parts := make([][]State, len(c.Comps))
	for i, cp := range c.Comps {
		ps, err := cp.Post(s.Comps[i], e, prec[i])
		if err != nil {
			return nil, err
		}
		if len(ps) == 0 {
			return nil, nil
		}
		parts[i] = ps
	}
	return c.product(parts, e), nil
}

// Split splits s before the Call edge call (the product of the
// components' splits).
func (c *Composite) Split(s *CState, call *Edge, prec []Precision) []*CState {
	parts := make([][]State, len(c.Comps))
	for i, cp := range c.Comps {
		parts[i] = cp.Split(s.Comps[i], call, prec[i])
	}
	out := []*CState{{}}
	for _, ps := range parts {
		var next []*CState
		for _, t := range out {
			for _, p := range ps {
				next = append(next, &CState{Comps: append(append([]State(nil), t.Comps...), p)})
			}
		}
		out = next
	}
	return out
}

// Enter returns the states at the callee's entry.
func (c *Composite) Enter(s *CState, call *Edge, prec []Precision) ([]*CState, error) {
	parts := make([][]State, len(c.Comps))
	for i, cp := range c.Comps {
		ps, err := cp.Enter(s.Comps[i], call, prec[i])
		if err != nil {
			return nil, err
		}
		parts[i] = ps
	}
	return c.product(parts, call), nil
}

// Combine returns the states at the return point of ret.
func (c *Composite) Combine(caller, exit *CState, ret *Edge, prec []Precision) ([]*CState, error) {
	parts := make([][]State, len(c.Comps))
	for i, cp := range c.Comps {
		ps, err := cp.Combine(caller.Comps[i], exit.Comps[i], ret, prec[i])
		if err != nil {
			return nil, err
		}
		parts[i] = ps
	}
	return c.product(parts, ret), nil
}
