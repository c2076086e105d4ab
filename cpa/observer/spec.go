// Package observer is the observer-automaton analysis for package cpa: a
// finite automaton that watches the calls a program makes (SLIC-style
// "events") and enters an error state when they break a rule, such as
// "no lock twice without an unlock". Composed with the other analyses of a
// composite, it makes the error of the automaton a target of the search;
// its guarded transitions are decided by strengthening with the
// explicit-value analysis.
//
// # Specification files
//
// One declaration per line; `#` starts a comment:
//
//	property NAME                        # optional: the property's name
//	states S1 S2 ...                     # the automaton's states; the first is initial
//	initial S                            # optional: another initial state
//	on call PROC: FROM -> TO             # a call of PROC in state FROM goes to TO
//	on call PROC when G: FROM -> TO      # ... only if global G is true (when !G: false)
//	on call PROC: FROM -> error "MSG"    # ... violates the property
//
// Transitions are tried in file order: the first whose state and guard
// match fires; a call that matches none leaves the state unchanged. The
// event is the entry of PROC, after its arguments are bound. Errors are
// "file:line:col: message" (*syntax.Error).
//
// # Traces
//
// A trace must end at an error location of the program for interp.Replay
// to accept it, and the automaton's error is none. Instrument builds the
// program with the automaton inlined (SLIC's instrumentation: new globals
// hold the state, each event procedure gets a new entry that updates them
// and an assertion-failure location for the violations): the product,
// which `boolprog check --spec` checks with any engine. A trace of the
// product is an ordinary trace; Explain notes the automaton's state on the
// instrumentation's steps (and can leave its bits out of the values), and
// Violation names the violated transition and the call that fired it.
// MapPath carries a counterexample path of the original program (the
// observer analysis's, in a composite) over to the product, where
// explicitval.Concretize turns it into a trace that replays.
package observer

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"boolprog/syntax"
)

// Spec is an observer automaton.
type Spec struct {
	File     string
	Property string
	States   []string
	Initial  int
	Trans    []Trans
}

// Trans is a transition on the entry of procedure Proc.
type Trans struct {
	Proc     string
	Guard    string // a global's name, or ""
	GuardNeg bool   // the guard is !Guard
	From     int
	To       int    // a state, or -1 for the error
	Msg      string // the error's message
	Line     int
	// ProcCol and GuardCol are the columns of Proc and Guard in the
	// specification, for errors about names the program lacks.
	ProcCol, GuardCol int
}

// posError is the error of a specification at a position: a
// *syntax.Error, which prints as "file:line:col: message".
func posError(file string, line, col int, format string, args ...any) error {
	return &syntax.Error{Filename: file, Pos: syntax.Pos{Line: line, Col: col}, Msg: fmt.Sprintf(format, args...)}
}

// Error is the To of a transition into the error.
const Error = -1

// Load reads a specification file. An unreadable file is a *syntax.Error
// too ("file: open: no such file or directory").
func Load(file string) (*Spec, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		msg := err.Error()
		if pe := (*os.PathError)(nil); errors.As(err, &pe) {
			msg = pe.Op + ": " + pe.Err.Error()
		}
		return nil, &syntax.Error{Filename: file, Msg: msg}
	}
	return Parse(file, string(data))
}

// Parse parses a specification's text.
func Parse(file, text string) (*Spec, error) {
	s := &Spec{File: file, Property: "observer"}
	sc := bufio.NewScanner(strings.NewReader(text))
	initial := ""
	initialLine := 0
	type pending struct {
		t          Trans
		from, to   string
		fcol, tcol int
	}
	var trans []pending
	for line := 1; sc.Scan(); line++ {
		raw := sc.Text()
		if i := strings.IndexByte(raw, '#'); i >= 0 && !strings.Contains(raw[:i], "\"") {
			raw = raw[:i]
		}
		fields := strings.Fields(raw)
		if len(fields) == 0 {
			continue
		}
		col := func(word string) int { return strings.Index(raw, word) + 1 }
		errf := func(c int, format string, args ...any) error {
			return posError(file, line, c, format, args...)
		}
		switch fields[0] {
		case "property":
			if len(fields) != 2 {
				return nil, errf(1, "want `property NAME`")
			}
			s.Property = fields[1]
		case "states":
			if len(fields) < 2 {
				return nil, errf(1, "want `states S1 S2 ...`")
			}
			for _, f := range fields[1:] {
				if f == "error" || slices.Contains(s.States, f) {
					return nil, errf(col(f), "state %q declared twice or reserved", f)
				}
				s.States = append(s.States, f)
			}
		case "initial":
			if len(fields) != 2 {
				return nil, errf(1, "want `initial S`")
			}
			initial, initialLine = fields[1], line
		case "on":
			// on call PROC [when [!]G]: FROM -> TO ["MSG"]
			colon := strings.IndexByte(raw, ':')
			if len(fields) < 3 || fields[1] != "call" || colon < 0 {
				return nil, errf(1, "want `on call PROC [when G]: FROM -> TO`")
			}
			head := strings.Fields(raw[:colon])
			if len(head) < 3 {
				return nil, errf(colon+1, "want a procedure's name before `:` (`on call PROC: FROM -> TO`)")
			}
			var t Trans
			t.Line = line
			t.Proc = head[2]
			after := func(from int, word string) int { return from + strings.Index(raw[from:], word) + 1 }
			callEnd := strings.Index(raw, "call") + len("call")
			t.ProcCol = after(callEnd, head[2])
			switch {
			case len(head) == 3:
			case len(head) == 5 && head[3] == "when":
				if head[4] == "!" {
					return nil, errf(col(head[4]), "want a global's name after `when !`")
				}
				t.Guard = strings.TrimPrefix(head[4], "!")
				t.GuardCol = after(strings.Index(raw, "when")+len("when"), head[4])
				t.GuardNeg = strings.HasPrefix(head[4], "!")
			default:
				return nil, errf(col(head[len(head)-1]), "want `on call PROC [when G]:`")
			}
			tail := raw[colon+1:]
			arrow := strings.Index(tail, "->")
			if arrow < 0 {
				return nil, errf(colon+2, "want `FROM -> TO`")
			}
			from := strings.TrimSpace(tail[:arrow])
			rest := strings.TrimSpace(tail[arrow+2:])
			to, msg, _ := strings.Cut(rest, " ")
			msg = strings.Trim(strings.TrimSpace(msg), "\"")
			if to != "error" && msg != "" {
				return nil, errf(col(msg), "only a transition to error has a message")
			}
			t.Msg = msg
			trans = append(trans, pending{t: t, from: from, to: to, fcol: colon + 1 + strings.Index(tail, from) + 1, tcol: colon + 1 + arrow + 2 + strings.Index(tail[arrow+2:], to) + 1})
		default:
			return nil, errf(col(fields[0]), "unknown declaration %q (valid: property, states, initial, on)", fields[0])
		}
	}
	if len(s.States) == 0 {
		return nil, posError(file, 1, 1, "no `states` declaration")
	}
	stateNames := strings.Join(s.States, ", ")
	if initial != "" {
		s.Initial = slices.Index(s.States, initial)
		if s.Initial < 0 {
			return nil, posError(file, initialLine, 9, "unknown state %q (states: %s)", initial, stateNames)
		}
	}
	for _, p := range trans {
		t := p.t
		t.From = slices.Index(s.States, p.from)
		if t.From < 0 {
			return nil, posError(file, t.Line, p.fcol, "unknown state %q (states: %s)", p.from, stateNames)
		}
		if p.to == "error" {
			t.To = Error
			if t.Msg == "" {
				t.Msg = s.Property + " violated"
			}
		} else if t.To = slices.Index(s.States, p.to); t.To < 0 {
			return nil, posError(file, t.Line, p.tcol, "unknown state %q (states: %s, error)", p.to, stateNames)
		}
		s.Trans = append(s.Trans, t)
	}
	return s, nil
}
