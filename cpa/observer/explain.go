package observer

import (
	"fmt"
	"slices"
	"strings"

	"boolprog/ir"
	"boolprog/result"
)

// Describe returns what the JSON report says was checked.
func (s *Spec) Describe() *result.Spec {
	return &result.Spec{Property: s.Property, File: s.File, States: slices.Clone(s.States)}
}

// stateName names state q of the automaton.
func (s *Spec) stateName(q int) string {
	if q == Error {
		return "error"
	}
	if q < 0 || q >= len(s.States) {
		return "?"
	}
	return s.States[q]
}

// BitNames returns the names of the globals that hold the automaton's
// state in the instrumented program.
func (in *Instrumented) BitNames() []string {
	var out []string
	for _, g := range in.bits {
		out = append(out, in.Prog.Globals[g])
	}
	return out
}

// stepKind says what a step of a trace of the instrumented program is.
type stepKind int

const (
	progStep   stepKind = iota // an edge of the original program
	initStep                   // the automaton's initial state
	updateStep                 // an event: the transition on a procedure's entry
	failStep                   // the transition into the error
)

func (in *Instrumented) kind(s *result.Step) (stepKind, Trans) {
	pr := in.Prog.Proc(s.Proc)
	if pr == nil || s.Edge == result.NoEdge {
		return progStep, Trans{}
	}
	key := [2]int{pr.Index, s.Edge}
	switch {
	case pr.Index == in.Prog.Main && in.init != nil && s.Edge == in.init.ID:
		return initStep, Trans{}
	case in.updates[key]:
		return updateStep, Trans{}
	}
	if t, ok := in.failTrans[key]; ok {
		return failStep, t
	}
	return progStep, Trans{}
}

// decode returns the automaton's state that the values of a step show, or
// -2 if they do not show every bit.
func (in *Instrumented) decode(s *result.Step) int {
	q := 0
	for i, name := range in.BitNames() {
		v, ok := s.Lookup(name)
		if !ok {
			return -2
		}
		if v {
			q |= 1 << i
		}
	}
	return q
}

// fire returns the state after the event on the entry of procedure proc in
// state q, the guards read from the values of step s (-2 if a guard's
// value is not shown).
func (in *Instrumented) fire(q int, proc string, s *result.Step) int {
	for _, t := range in.Spec.Trans {
		if t.Proc != proc || t.From != q {
			continue
		}
		if t.Guard != "" {
			v, ok := s.Lookup(t.Guard)
			if !ok {
				return -2
			}
			if v == t.GuardNeg {
				continue
			}
		}
		return t.To
	}
	return q
}

// Explain returns a copy of tr, a trace of the instrumented program, in
// which every step of the instrumentation carries a note with the
// automaton's state ("locking: unlocked -> locked"); without keepBits,
// the values of the state's bits are left out of every step, so that the
// steps show the original program's variables (the trace still replays
// on the instrumented program: interp.Replay takes omitted values as
// unconstrained, and the instrumentation's steps fix the bits). The other
// steps are those of the original program: same procedure, location,
// edge, line and text.
func (in *Instrumented) Explain(tr *result.Trace, keepBits bool) *result.Trace {
	if tr == nil {
		return nil
	}
	out := &result.Trace{Steps: slices.Clone(tr.Steps)}
	bits := in.BitNames()
	name := in.Spec.Property
	q := in.Spec.Initial
	for k := range out.Steps {
		s := &out.Steps[k]
		kind, t := in.kind(s)
		var note string
		switch kind {
		case initStep:
			q = in.Spec.Initial
			note = fmt.Sprintf("%s: starts in %s", name, in.Spec.stateName(q))
		case updateStep:
			if d := in.decode(s); d >= 0 {
				q = d
			}
			to := -2
			if k+1 < len(out.Steps) {
				to = in.decode(&out.Steps[k+1])
			}
			if to < 0 {
				to = in.fire(q, s.Proc, s)
			}
			switch {
			case to == -2:
				note = fmt.Sprintf("%s: %s -> ? (a guard's value is not shown)", name, in.Spec.stateName(q))
			case to == q:
				note = fmt.Sprintf("%s: stays in %s", name, in.Spec.stateName(q))
			default:
				note = fmt.Sprintf("%s: %s -> %s", name, in.Spec.stateName(q), in.Spec.stateName(to))
			}
			if to >= 0 {
				q = to
			}
		case failStep:
			note = fmt.Sprintf("%s: %s -> error", name, in.Spec.stateName(t.From))
		}
		switch {
		case note == "" || s.Note == note || strings.HasSuffix(s.Note, "; "+note):
			// nothing to say, or said already (Explain of an explained trace)
		case s.Note != "":
			s.Note += "; " + note
		default:
			s.Note = note
		}
		if !keepBits {
			vals := make([]result.Value, 0, len(s.Values))
			for _, v := range s.Values {
				if !slices.Contains(bits, v.Name) {
					vals = append(vals, v)
				}
			}
			s.Values = vals
		}
	}
	return out
}

// Violation returns the property a trace of the instrumented program
// violates when its last step is a transition of the automaton into its
// error, or nil (the trace ends at an error of the program itself). The
// property is at the call that fired the transition: the step before the
// last, in the caller.
func (in *Instrumented) Violation(tr *result.Trace) *result.Property {
	if tr == nil || len(tr.Steps) == 0 {
		return nil
	}
	last := &tr.Steps[len(tr.Steps)-1]
	kind, t := in.kind(last)
	if kind != failStep {
		return nil
	}
	pr := &result.Property{Kind: result.PropertyObserver, File: in.Orig.File, Proc: last.Proc, Line: last.Line, Col: last.Col,
		Text: "call " + last.Proc,
		Observer: &result.Violation{Property: in.Spec.Property, Spec: in.Spec.File, SpecLine: t.Line,
			State: in.Spec.stateName(t.From), Message: t.Msg}}
	if len(tr.Steps) >= 2 {
		call := &tr.Steps[len(tr.Steps)-2]
		if p := in.Prog.Proc(call.Proc); p != nil && call.Edge >= 0 && call.Edge < len(p.Edges) {
			if _, ok := p.Edges[call.Edge].Op.(*ir.Call); ok {
				pr.Proc, pr.Line, pr.Col, pr.Text = call.Proc, call.Line, call.Col, call.Text
			}
		}
	}
	return pr
}
