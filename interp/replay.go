package interp

import (
	"fmt"
	"strings"

	"boolprog/ir"
	"boolprog/result"
)

// MaxOmitted is the largest number of variables a trace may leave out of its
// first step (each doubles the initial configurations Replay considers).
const MaxOmitted = 20

// maxCandidates bounds the configurations Replay tracks at once.
const maxCandidates = 1 << 16

// Replay checks that tr is a real execution of p that ends in an error, and
// returns nil if so. It is the independent judge of every engine's traces:
//
//   - the first step is at main's entry, at depth 0; its values fix the
//     initial state (variables it omits may have any value);
//   - every step names a location of its procedure, with the line and text
//     of that location's statement, an edge leaving it, the executing
//     procedure and call depth of the configuration, and values that agree
//     with the configuration (variables a step omits are unconstrained);
//   - executing the step's edge from the configuration leads to a
//     configuration that the next step describes (calls push, arriving at an
//     exit returns to the caller: calls and returns must match);
//   - no step before the last is at an error location, and the last step is
//     the error: either an edge into an assertion-failure location that
//     can be taken, or (with no edge, result.NoEdge) a target-labelled
//     location.
//
// Replay tracks the set of configurations consistent with the trace so far,
// so nondeterministic choices need not be recorded: they are resolved by the
// values of later steps. Messages number steps from 1, e.g.
// "step 7: line 21: values do not agree: g=1 expected 0".
func Replay(p *ir.Program, tr *result.Trace) error {
	if p.Concurrent {
		return fmt.Errorf("replay: concurrent programs are not supported")
	}
	if tr == nil || len(tr.Steps) == 0 {
		return fmt.Errorf("replay: empty trace")
	}
	first := &tr.Steps[0]
	main := p.Procs[p.Main]
	if first.Proc != main.Name || first.Loc != main.Entry || first.Depth != 0 {
		return fmt.Errorf("step 1: the trace does not start at the entry of main (got %s location %d depth %d)", first.Proc, first.Loc, first.Depth)
	}
	cands, err := initialCandidates(p, first)
	if err != nil {
		return fmt.Errorf("step 1: %v", err)
	}

	last := len(tr.Steps) - 1
	for i := range tr.Steps {
		s := &tr.Steps[i]
		where := fmt.Sprintf("step %d: line %d", i+1, s.Line)
		proc, loc, edge, err := checkStatic(p, s, i == last)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		slots, err := valueSlots(p, proc, s)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}

		// Keep the configurations the step describes.
		var kept []Config
		var why string
		for _, c := range cands {
			if reason := describes(p, c, proc, s, slots); reason != "" {
				if why == "" {
					why = reason
				}
				continue
			}
			kept = append(kept, c)
		}
		if len(kept) == 0 {
			return fmt.Errorf("%s: %s", where, why)
		}

		if i == last {
			if edge == nil {
				if !loc.Error {
					return fmt.Errorf("%s: the last step is not the error: %s is not an error location", where, locName(proc, loc))
				}
				return nil
			}
			if proc.Locations[edge.To].Kind != ir.FailLoc {
				return fmt.Errorf("%s: the last step is not the error: edge %d (%s) does not fail an assertion", where, edge.ID, edge.Text)
			}
			for _, c := range kept {
				next, err := Exec(p, c, edge.ID)
				if err != nil {
					return fmt.Errorf("%s: %v", where, err)
				}
				if len(next) > 0 {
					return nil
				}
			}
			return fmt.Errorf("%s: %s cannot fail in this state", where, edge.Text)
		}

		if loc.Error {
			return fmt.Errorf("%s: the trace reaches the error at %s before its last step", where, locName(proc, loc))
		}
		if proc.Locations[edge.To].Kind == ir.FailLoc {
			return fmt.Errorf("%s: an assertion fails before the last step", where)
		}
		seen := make(map[string]bool)
		ended := false
		cands = nil
		for _, c := range kept {
			next, err := Exec(p, c, edge.ID)
			if err != nil {
				return fmt.Errorf("%s: %v", where, err)
			}
			for _, n := range next {
				if n.Ended() { // main returned: no next step can describe it
					ended = true
					continue
				}
				if k := n.Key(); !seen[k] {
					seen[k] = true
					cands = append(cands, n)
				}
			}
		}
		switch {
		case len(cands) == 0 && ended:
			return fmt.Errorf("%s: the program ends after this step, but the trace goes on", where)
		case len(cands) == 0:
			return fmt.Errorf("%s: %q cannot be executed in this state (%s)", where, edge.Text, kept[0].String(p))
		case len(cands) > maxCandidates:
			return fmt.Errorf("%s: too many configurations agree with the trace (it omits too many values)", where)
		}
	}
	panic("unreachable")
}

// initialCandidates returns the configurations at main's entry that agree
// with the first step's values.
func initialCandidates(p *ir.Program, s *result.Step) ([]Config, error) {
	main := p.Procs[p.Main]
	slots, err := valueSlots(p, main, s)
	if err != nil {
		return nil, err
	}
	ng := len(p.Globals)
	n := ng + len(main.Locals)
	fixed := make([]bool, n)
	vals := make([]bool, n)
	for k, slot := range slots {
		fixed[slot] = true
		vals[slot] = s.Values[k].Value
	}
	var free []int
	for i := range n {
		if !fixed[i] {
			free = append(free, i)
		}
	}
	if len(free) > MaxOmitted {
		return nil, fmt.Errorf("the first step omits %d variables (at most %d allowed)", len(free), MaxOmitted)
	}
	var out []Config
	for _, choice := range allValuations(len(free)) {
		v := append([]bool(nil), vals...)
		for k, i := range free {
			v[i] = choice[k]
		}
		out = append(out, Initial(p, v[:ng], v[ng:]))
	}
	return out, nil
}

// checkStatic checks what a step says about the program text alone and
// returns its procedure, location and edge (nil for result.NoEdge).
func checkStatic(p *ir.Program, s *result.Step, last bool) (*ir.Proc, *ir.Location, *ir.Edge, error) {
	if s.Thread != 0 {
		return nil, nil, nil, fmt.Errorf("thread %d in a sequential program", s.Thread)
	}
	proc := p.Proc(s.Proc)
	if proc == nil {
		return nil, nil, nil, fmt.Errorf("no procedure %q", s.Proc)
	}
	if s.Loc < 0 || s.Loc >= len(proc.Locations) {
		return nil, nil, nil, fmt.Errorf("%s has no location %d", proc.Name, s.Loc)
	}
	loc := proc.Locations[s.Loc]
	if loc.Kind != ir.StmtLoc {
		return nil, nil, nil, fmt.Errorf("location %d of %s is not a statement", s.Loc, proc.Name)
	}
	if s.Line != loc.Pos.Line {
		return nil, nil, nil, fmt.Errorf("location %d of %s is at line %d", s.Loc, proc.Name, loc.Pos.Line)
	}
	if s.Edge == result.NoEdge {
		if !last {
			return nil, nil, nil, fmt.Errorf("no edge taken, but this is not the last step")
		}
		if s.Text != loc.Text {
			return nil, nil, nil, fmt.Errorf("text %q, but the statement is %q", s.Text, loc.Text)
		}
		return proc, loc, nil, nil
	}
	if s.Edge < 0 || s.Edge >= len(proc.Edges) {
		return nil, nil, nil, fmt.Errorf("%s has no edge %d", proc.Name, s.Edge)
	}
	edge := proc.Edges[s.Edge]
	if edge.From != s.Loc {
		return nil, nil, nil, fmt.Errorf("edge %d of %s does not leave location %d", s.Edge, proc.Name, s.Loc)
	}
	if s.Text != edge.Text {
		return nil, nil, nil, fmt.Errorf("text %q, but the statement is %q", s.Text, edge.Text)
	}
	return proc, loc, edge, nil
}

// valueSlots maps each value listed in the step to a variable in scope in
// proc: slot i < len(Globals) is global i, slot len(Globals)+j is local j.
// Values must be listed as a subsequence of globals-then-locals, so a name
// that a local shadows refers to the global first.
func valueSlots(p *ir.Program, proc *ir.Proc, s *result.Step) ([]int, error) {
	names := append(append([]string(nil), p.Globals...), proc.Locals...)
	slots := make([]int, len(s.Values))
	next := 0
	for k, v := range s.Values {
		for next < len(names) && names[next] != v.Name {
			next++
		}
		if next == len(names) {
			return nil, fmt.Errorf("variable %s is not in scope in %s (or out of order)", v.Name, proc.Name)
		}
		slots[k] = next
		next++
	}
	return slots, nil
}

// describes returns "" if the step describes configuration c, else why not.
func describes(p *ir.Program, c Config, proc *ir.Proc, s *result.Step, slots []int) string {
	top := c.Top()
	cur := p.Procs[top.Proc]
	if cur != proc {
		return fmt.Sprintf("the execution is in %s, not %s", cur.Name, proc.Name)
	}
	if top.Loc != s.Loc {
		return fmt.Sprintf("the execution is at %s, not %s", locName(cur, cur.Locations[top.Loc]), locName(proc, proc.Locations[s.Loc]))
	}
	if d := c.Depth(); d != s.Depth {
		return fmt.Sprintf("call depth %d, expected %d", s.Depth, d)
	}
	var bad []string
	for k, slot := range slots {
		var actual bool
		if slot < len(p.Globals) {
			actual = c.Globals[slot]
		} else {
			actual = top.Locals[slot-len(p.Globals)]
		}
		if v := s.Values[k]; v.Value != actual {
			bad = append(bad, fmt.Sprintf("%s=%s expected %s", v.Name, bit(v.Value), bit(actual)))
		}
	}
	if len(bad) > 0 {
		return "values do not agree: " + strings.Join(bad, ", ")
	}
	return ""
}

func locName(proc *ir.Proc, l *ir.Location) string {
	return fmt.Sprintf("%s line %d (location %d)", proc.Name, l.Pos.Line, l.ID)
}
