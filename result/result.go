// Package result holds what every engine returns: a verdict, an optional
// error trace, and statistics. The types are JSON-friendly; the CLI's JSON
// output is a Report (report.go, versioned, with a JSON Schema), and text
// renderings of traces live in text.go.
//
// A verdict is a promise. Safe with a zero Bound is a proof; Safe with a
// Bound (e.g. 6 context switches) says only that no error is reachable
// within the bound, and its banner says so. Unsafe promises that an error is
// reachable: the trace shows how, or, when the trace could not be built in
// the time given (TraceCut), Reason says so.
//
// A Trace is a sequence of Steps. Each Step names an ir location (the
// statement about to execute), the ir edge taken from it, and the values of
// the variables in scope JUST BEFORE the step, as Bebop prints them. The last
// step is the error: either a failing assertion (its Edge leads into an
// assertion-failure location) or the arrival at a statement carrying the
// target label (its Edge is NoEdge). Every unsafe trace can be checked
// independently by interp.Replay.
package result

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"boolprog/ir"
)

// Verdict is the answer of an engine.
type Verdict int

// The verdicts. The zero Verdict is Unknown, so that a forgotten assignment
// never claims safety.
const (
	Unknown Verdict = iota // the engine could not decide; Result.Reason says why
	Safe                   // no error is reachable
	Unsafe                 // an error is reachable; Result.Trace shows how
)

var verdictNames = [...]string{Unknown: "unknown", Safe: "safe", Unsafe: "unsafe"}

// String returns "safe", "unsafe" or "unknown".
func (v Verdict) String() string {
	if v >= 0 && int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// ParseVerdict maps "safe", "unsafe" and "unknown" to a Verdict.
func ParseVerdict(s string) (Verdict, bool) {
	for v, name := range verdictNames {
		if name == s {
			return Verdict(v), true
		}
	}
	return Unknown, false
}

// MarshalJSON encodes the verdict as its name.
func (v Verdict) MarshalJSON() ([]byte, error) { return json.Marshal(v.String()) }

// UnmarshalJSON decodes a verdict name.
func (v *Verdict) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	x, ok := ParseVerdict(s)
	if !ok {
		return fmt.Errorf("result: unknown verdict %q", s)
	}
	*v = x
	return nil
}

// Banner returns the CLI's final line for the verdict:
// "VERIFICATION SUCCESSFUL", "VERIFICATION FAILED" or
// "VERIFICATION UNKNOWN: <reason>". Result.Banner adds the bound of a
// bounded answer.
func (v Verdict) Banner(reason string) string {
	switch v {
	case Safe:
		return "VERIFICATION SUCCESSFUL"
	case Unsafe:
		return "VERIFICATION FAILED"
	}
	if reason == "" {
		reason = "no reason given"
	}
	return "VERIFICATION UNKNOWN: " + reason
}

// ExitCode returns the CLI's exit status for the verdict: 0 for safe
// (bounded or not, as bounded model checkers do), 10 for unsafe, 5 for
// unknown.
func (v Verdict) ExitCode() int {
	switch v {
	case Safe:
		return 0
	case Unsafe:
		return 10
	}
	return 5
}

// Result is what an engine's Check returns.
type Result struct {
	Verdict Verdict `json:"verdict"`
	// Reason says why the verdict is Unknown; for an Unsafe result whose
	// trace was cut it is the note that says so.
	Reason string `json:"reason,omitempty"`
	Engine string `json:"engine"` // name of the engine that answered
	// Bound is the bound within which the answer holds; the zero Bound
	// means none (a Safe answer is then a proof).
	Bound Bound `json:"bound"`
	// Property is the error the trace reaches (Unsafe only). engine.Run
	// fills it from the last step when the engine leaves it nil.
	Property *Property `json:"property,omitempty"`
	// Trace shows how the error is reached: set for Unsafe, unless
	// TraceCut.
	Trace *Trace `json:"trace,omitempty"`
	// TraceCut marks an Unsafe answer whose trace could not be completed
	// (the time ran out after the error was established): Trace is nil or
	// a prefix that no judge can replay, and Reason says why.
	TraceCut bool  `json:"trace_cut,omitempty"`
	Stats    Stats `json:"stats"`
	// Debug holds details for developers that are not shown to users: the
	// Go stack of an internal error. It is not part of the JSON.
	Debug string `json:"-"`
}

// NewUnknown returns an Unknown result of the named engine with a reason.
func NewUnknown(engine, reason string) *Result {
	return &Result{Verdict: Unknown, Reason: reason, Engine: engine}
}

// Banner returns the CLI's final line for the result: Verdict.Banner, with
// the bound of a bounded safe answer ("VERIFICATION SUCCESSFUL up to 6
// context switches"). The note of a cut trace is not part of the banner
// (see Note), so that FAILED stays one recognisable line.
func (r *Result) Banner() string {
	b := r.Verdict.Banner(r.Reason)
	if r.Verdict == Safe && r.Bound.Kind != Unbounded {
		b += " up to " + r.Bound.String()
	}
	return b
}

// BoundLine returns the line that says within which bound an Unsafe answer
// of a bounded search was found ("bound: the error is reached within 3
// context switches (the trace makes 3)"), or "" for an unbounded one. With
// iterative deepening (or an engine whose search grows by switches, such
// as the explicit search and conc-fix) the bound is the smallest at which
// the error appears; the trace's own count is given because an engine that
// searched a larger bound may find a trace that needs fewer.
func (r *Result) BoundLine() string {
	if r.Verdict != Unsafe || r.Bound.Kind == Unbounded {
		return ""
	}
	line := "bound: the error is reached within " + r.Bound.String()
	if r.Trace != nil && len(r.Trace.Steps) > 0 && !r.TraceCut {
		n := r.Trace.Switches()
		if r.Bound.Kind == ContextSwitches {
			line += fmt.Sprintf(" (the trace makes %d)", n)
		} else {
			line += fmt.Sprintf(" (the trace makes %s)", Bound{Kind: ContextSwitches, K: n})
		}
	}
	return line
}

// Note returns the remark that must accompany an Unsafe verdict whose
// trace was cut ("the error is reachable, but the trace was cut: timeout"),
// or "" when there is none.
func (r *Result) Note() string {
	if r.Verdict != Unsafe || !r.TraceCut {
		return ""
	}
	why := r.Reason
	if why == "" {
		why = "no reason given"
	}
	return "the error is reachable, but the trace was cut: " + why
}

// BoundKind is what a bound counts.
type BoundKind int

// The bound kinds. The zero BoundKind is Unbounded.
const (
	Unbounded       BoundKind = iota // no bound: the answer holds for every execution
	ContextSwitches                  // executions with at most K context switches
	Rounds                           // executions of at most K rounds (round-robin schedules)
)

var boundNames = [...]string{Unbounded: "none", ContextSwitches: "context_switches", Rounds: "rounds"}

// String returns "none", "context_switches" or "rounds": the JSON name.
func (k BoundKind) String() string {
	if k >= 0 && int(k) < len(boundNames) {
		return boundNames[k]
	}
	return fmt.Sprintf("BoundKind(%d)", int(k))
}

// ParseBoundKind maps "none", "context_switches" (or "cs") and "rounds" to
// a BoundKind.
func ParseBoundKind(s string) (BoundKind, bool) {
	if s == "cs" {
		return ContextSwitches, true
	}
	for k, name := range boundNames {
		if name == s {
			return BoundKind(k), true
		}
	}
	return Unbounded, false
}

// ParseBound reads a bound as the command's --bound writes it: "none", or
// KIND:K with KIND context_switches (cs) or rounds, e.g. "cs:2".
func ParseBound(s string) (Bound, error) {
	if s == "none" {
		return Bound{}, nil
	}
	kind, k, ok := strings.Cut(s, ":")
	bk, okKind := ParseBoundKind(kind)
	n, err := strconv.Atoi(k)
	b := Bound{Kind: bk, K: n}
	if !ok || !okKind || bk == Unbounded || err != nil || b.Validate() != nil {
		return Bound{}, fmt.Errorf("want none, cs:K or rounds:K with K >= 0 (K >= 1 for rounds), not %q", s)
	}
	return b, nil
}

// Bound limits the executions an answer speaks about: at most K context
// switches, or at most K rounds. The zero Bound is no bound.
type Bound struct {
	Kind BoundKind
	K    int
}

// String returns "6 context switches", "1 round", or "no bound".
func (b Bound) String() string {
	unit := ""
	switch b.Kind {
	case Unbounded:
		return "no bound"
	case ContextSwitches:
		unit = "context switch"
	case Rounds:
		unit = "round"
	default:
		return fmt.Sprintf("%d of %s", b.K, b.Kind)
	}
	if b.K != 1 {
		if b.Kind == ContextSwitches {
			unit += "e"
		}
		unit += "s"
	}
	return fmt.Sprintf("%d %s", b.K, unit)
}

// Validate reports an error for a bound with a negative K or an unknown
// kind, a K set without a kind, or 0 rounds: a run of 0 rounds takes no
// step of any thread, so that engines could only disagree on what it
// proves (init's errors found or not).
func (b Bound) Validate() error {
	switch {
	case b.Kind < Unbounded || b.Kind > Rounds:
		return fmt.Errorf("unknown bound kind %d", int(b.Kind))
	case b.K < 0:
		return fmt.Errorf("negative bound %d", b.K)
	case b.Kind == Rounds && b.K == 0:
		return fmt.Errorf("a bound of 0 rounds allows no step: rounds:K needs K >= 1")
	case b.Kind == Unbounded && b.K != 0:
		return fmt.Errorf("bound %d without a kind (context switches or rounds)", b.K)
	}
	return nil
}

// boundJSON is the JSON form of a Bound: null for none, else
// {"kind":"context_switches","k":6}.
type boundJSON struct {
	Kind string `json:"kind"`
	K    int    `json:"k"`
}

// MarshalJSON encodes no bound as null and a bound as {"kind":...,"k":...}.
func (b Bound) MarshalJSON() ([]byte, error) {
	if b.Kind == Unbounded {
		return []byte("null"), nil
	}
	return json.Marshal(boundJSON{Kind: b.Kind.String(), K: b.K})
}

// UnmarshalJSON decodes null or {"kind":...,"k":...}.
func (b *Bound) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*b = Bound{}
		return nil
	}
	var x boundJSON
	if err := json.Unmarshal(data, &x); err != nil {
		return err
	}
	k, ok := ParseBoundKind(x.Kind)
	if !ok {
		return fmt.Errorf("result: unknown bound kind %q", x.Kind)
	}
	*b = Bound{Kind: k, K: x.K}
	return nil
}

// Property kinds: what kind of error a trace reaches.
const (
	PropertyAssertion = "assertion" // an assert whose condition can be false
	PropertyLabel     = "label"     // a statement carrying the target label
	// PropertyObserver is a violation of an observer automaton checked
	// with the program (boolprog check --spec): the trace is one of the
	// program instrumented with the automaton (see Report.Spec), and the
	// property is at the call that fired the violating transition.
	PropertyObserver = "observer"
)

// Property is the error an Unsafe answer reaches and where it is.
type Property struct {
	Kind  string `json:"kind"`            // PropertyAssertion, PropertyLabel or PropertyObserver
	Label string `json:"label,omitempty"` // the target label (kind label)
	Text  string `json:"text"`            // the assert ("assert(!g)"), the labelled statement, or the call (observer)
	File  string `json:"file"`
	Proc  string `json:"proc"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
	// Observer is the violated transition (kind observer only).
	Observer *Violation `json:"observer,omitempty"`
}

// Violation is the transition of an observer automaton into its error
// state: the property's name, the specification file and the line of the
// transition there, the state it left and its message.
type Violation struct {
	Property string `json:"property"`
	Spec     string `json:"spec"`
	SpecLine int    `json:"spec_line"`
	State    string `json:"state"`
	Message  string `json:"message"`
}

// Spec names an observer automaton that was checked together with the
// program's assertions (boolprog check --spec): SUCCESSFUL proves both.
type Spec struct {
	Property string   `json:"property"`
	File     string   `json:"file"`
	States   []string `json:"states"`
}

// PropertyAt returns the property of the error location loc of proc: a
// failing assertion (an assertion-failure location) or the target label.
func PropertyAt(p *ir.Program, proc *ir.Proc, loc int) *Property {
	l := proc.Locations[loc]
	pr := &Property{File: p.File, Proc: proc.Name, Line: l.Pos.Line, Col: l.Pos.Col, Text: l.Text}
	if l.Kind == ir.FailLoc {
		pr.Kind = PropertyAssertion
		if len(l.In) > 0 {
			pr.Text = proc.Edges[l.In[0]].Text
		}
		return pr
	}
	pr.Kind = PropertyLabel
	pr.Label = p.Target
	return pr
}

// PropertyOf returns the property the last step of tr reaches, or nil if
// tr is empty or its last step names no error of p.
func PropertyOf(p *ir.Program, tr *Trace) *Property {
	if tr == nil || len(tr.Steps) == 0 {
		return nil
	}
	last := &tr.Steps[len(tr.Steps)-1]
	proc := p.Proc(last.Proc)
	if proc == nil || last.Loc < 0 || last.Loc >= len(proc.Locations) {
		return nil
	}
	if last.Edge == NoEdge {
		if !proc.Locations[last.Loc].Error {
			return nil
		}
		return PropertyAt(p, proc, last.Loc)
	}
	if last.Edge < 0 || last.Edge >= len(proc.Edges) {
		return nil
	}
	to := proc.Edges[last.Edge].To
	if !proc.Locations[to].Error {
		return nil
	}
	return PropertyAt(p, proc, to)
}

// NoEdge is the Step.Edge of a step that executes no edge: the final step of
// a trace that ends by arriving at a target-labelled statement.
const NoEdge = -1

// Trace is an execution from the start of main to an error. It encodes in
// JSON as the array of its steps.
type Trace struct {
	Steps []Step
}

// Switches returns the number of steps marked as context switches.
func (t *Trace) Switches() int {
	n := 0
	for _, s := range t.Steps {
		if s.Switch {
			n++
		}
	}
	return n
}

// MarshalJSON encodes the trace as the array of its steps.
func (t *Trace) MarshalJSON() ([]byte, error) {
	steps := t.Steps
	if steps == nil {
		steps = []Step{}
	}
	return json.Marshal(steps)
}

// UnmarshalJSON decodes an array of steps.
func (t *Trace) UnmarshalJSON(b []byte) error { return json.Unmarshal(b, &t.Steps) }

// Len returns the number of steps.
func (t *Trace) Len() int { return len(t.Steps) }

// Step is one statement of a trace: the statement at location Loc of
// procedure Proc, executed along edge Edge (NoEdge for the final arrival at a
// target label), with the values of the variables in scope just before it.
// Engines build steps with NewStep, which fills everything the ir knows.
type Step struct {
	Proc   string  `json:"proc"`             // procedure name
	Loc    int     `json:"loc"`              // ir location id (within Proc) of the statement
	Edge   int     `json:"edge"`             // ir edge id (within Proc) taken, or NoEdge
	Line   int     `json:"line"`             // source line of the statement
	Col    int     `json:"col"`              // source column of the statement
	Text   string  `json:"text"`             // canonical statement text, e.g. "h := !g"
	Values []Value `json:"values"`           // globals, then locals of Proc, before the step
	Depth  int     `json:"depth"`            // call depth: 0 in main
	Thread int     `json:"thread"`           // thread number, 0 for sequential programs
	Switch bool    `json:"switch,omitempty"` // a context switch (to Thread) precedes this step
	Choice bool    `json:"choice,omitempty"` // the step's edge makes a nondeterministic choice (see Chooses)
	Note   string  `json:"note,omitempty"`   // optional remark of the engine
}

// NewStep returns the step "at location loc of proc, take edge" (NoEdge
// for the final arrival at a target label) in the given call depth and
// thread, with the values of the variables in scope before it (see
// ValuesOf): the one constructor of steps for every engine, so that line,
// column, text and the choice mark always agree with the ir.
func NewStep(p *ir.Program, proc *ir.Proc, loc, edge int, values []Value, depth, thread int) Step {
	l := proc.Locations[loc]
	s := Step{
		Proc:   proc.Name,
		Loc:    loc,
		Edge:   edge,
		Line:   l.Pos.Line,
		Col:    l.Pos.Col,
		Text:   l.Text,
		Values: values,
		Depth:  depth,
		Thread: thread,
	}
	if edge != NoEdge {
		s.Text = proc.Edges[edge].Text
		s.Choice = Chooses(p, proc, edge)
	}
	return s
}

// Chooses reports whether taking edge of proc makes a nondeterministic
// choice that the state before it does not determine: an expression with
// `*` or schoose (in an assignment, a condition, an argument or a returned
// value), one of several gotos, a call whose callee has locals besides its
// parameters (they start with any value), or arriving at the exit of a
// procedure that returns values without returning them all.
func Chooses(p *ir.Program, proc *ir.Proc, edge int) bool {
	e := proc.Edges[edge]
	anyNondet := func(es []ir.Expr) bool {
		for _, x := range es {
			if ir.IsNondet(x) {
				return true
			}
		}
		return false
	}
	switch op := e.Op.(type) {
	case *ir.Skip:
		if len(proc.Locations[e.From].Out) > 1 { // goto L1, L2
			return true
		}
	case *ir.Assume:
		return ir.IsNondet(op.Cond)
	case *ir.Assign:
		return anyNondet(op.Values) || op.Constrain != nil && ir.IsNondet(op.Constrain)
	case *ir.Return:
		return anyNondet(op.Values) || len(op.Values) < proc.Returns
	case *ir.Call:
		callee := p.Procs[op.Proc]
		return anyNondet(op.Args) || len(callee.Locals) > callee.Params
	}
	return e.To == proc.Exit && proc.Returns > 0
}

// ValuesOf returns the values of the variables in scope in proc, globals
// first, then proc's locals, as get reads them.
func ValuesOf(p *ir.Program, proc *ir.Proc, get func(ir.VarRef) bool) []Value {
	vals := make([]Value, 0, len(p.Globals)+len(proc.Locals))
	for i, name := range p.Globals {
		vals = append(vals, Value{Name: name, Value: get(ir.VarRef{Global: true, Index: i})})
	}
	for i, name := range proc.Locals {
		vals = append(vals, Value{Name: name, Value: get(ir.VarRef{Index: i})})
	}
	return vals
}

// Value is the value of one variable in a step. Engines may omit variables
// whose value is unconstrained; interp.Replay then accepts any value.
type Value struct {
	Name  string `json:"name"`
	Value bool   `json:"value"`
}

// Lookup returns the value of the named variable in the step, and whether
// the step lists it. When a local shadows a global of the same name, both
// are listed (globals first) and Lookup returns the last, the local.
func (s *Step) Lookup(name string) (value, ok bool) {
	for i := len(s.Values) - 1; i >= 0; i-- {
		if s.Values[i].Name == name {
			return s.Values[i].Value, true
		}
	}
	return false, false
}

// Stats are an engine's measurements. Time and States are common to all
// engines; the time of each phase goes into Phases (PhaseParse, ...);
// everything else goes into Counters under a descriptive name
// ("path_edges", "summaries", "peak_bdd_nodes", ...).
type Stats struct {
	Time     time.Duration            `json:"time_ns"`             // wall-clock time of Check
	States   int64                    `json:"states"`              // states (or path edges) explored
	Phases   map[string]time.Duration `json:"phases_ns,omitempty"` // time per phase, by phase name
	Counters map[string]int64         `json:"counters,omitempty"`  // engine-specific counters
}

// The phases of a run, in order. The CLI times parsing, lowering and
// replay; engines time reachability and trace building. An engine may add
// phases of its own.
const (
	PhaseParse  = "parse"  // reading, parsing and checking the source
	PhaseLower  = "lower"  // building the ir
	PhaseReach  = "reach"  // the engine's reachability analysis
	PhaseTrace  = "trace"  // building the counterexample
	PhaseReplay = "replay" // checking the trace with interp.Replay
)

// AddPhase adds d to the time of the named phase.
func (s *Stats) AddPhase(name string, d time.Duration) {
	if s.Phases == nil {
		s.Phases = make(map[string]time.Duration)
	}
	s.Phases[name] += d
}

// PhaseNames returns the names of the phases timed: the standard phases in
// order of execution, then any others sorted.
func (s *Stats) PhaseNames() []string {
	var names, other []string
	std := []string{PhaseParse, PhaseLower, PhaseReach, PhaseTrace, PhaseReplay}
	for _, n := range std {
		if _, ok := s.Phases[n]; ok {
			names = append(names, n)
		}
	}
	for n := range s.Phases {
		if !slices.Contains(std, n) {
			other = append(other, n)
		}
	}
	sort.Strings(other)
	return append(names, other...)
}

// Set sets a named counter.
func (s *Stats) Set(name string, n int64) {
	if s.Counters == nil {
		s.Counters = make(map[string]int64)
	}
	s.Counters[name] = n
}

// Add adds n to a named counter.
func (s *Stats) Add(name string, n int64) {
	if s.Counters == nil {
		s.Counters = make(map[string]int64)
	}
	s.Counters[name] += n
}

// CounterNames returns the names of the counters in sorted order.
func (s *Stats) CounterNames() []string {
	names := make([]string, 0, len(s.Counters))
	for name := range s.Counters {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// RoundDuration rounds a duration for people to read: to the millisecond
// from a second on, else to the microsecond.
func RoundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}
