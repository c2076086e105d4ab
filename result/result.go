// Package result holds what every engine returns: a verdict, an optional
// error trace, and statistics. The types are JSON-friendly; the CLI prints
// a Result as
//
//	{"verdict":"safe|unsafe|unknown","engine":...,"trace":[...],"stats":{...}}
//
// and text renderings of traces live in text.go.
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
	"sort"
	"time"
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
// "VERIFICATION UNKNOWN: <reason>".
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

// ExitCode returns the CLI's exit status for the verdict: 0 for safe, 10 for
// unsafe, 5 for unknown.
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
	Reason  string  `json:"reason,omitempty"` // why the verdict is Unknown
	Engine  string  `json:"engine"`           // name of the engine that answered
	Trace   *Trace  `json:"trace,omitempty"`  // set iff Verdict is Unsafe
	Stats   Stats   `json:"stats"`
}

// NewUnknown returns an Unknown result of the named engine with a reason.
func NewUnknown(engine, reason string) *Result {
	return &Result{Verdict: Unknown, Reason: reason, Engine: engine}
}

// Banner returns the CLI's final line for the result (see Verdict.Banner).
func (r *Result) Banner() string { return r.Verdict.Banner(r.Reason) }

// NoEdge is the Step.Edge of a step that executes no edge: the final step of
// a trace that ends by arriving at a target-labelled statement.
const NoEdge = -1

// Trace is an execution from the start of main to an error. It encodes in
// JSON as the array of its steps.
type Trace struct {
	Steps []Step
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
type Step struct {
	Proc   string  `json:"proc"`           // procedure name
	Loc    int     `json:"loc"`            // ir location id (within Proc) of the statement
	Edge   int     `json:"edge"`           // ir edge id (within Proc) taken, or NoEdge
	Line   int     `json:"line"`           // source line of the statement
	Col    int     `json:"col"`            // source column of the statement
	Text   string  `json:"text"`           // canonical statement text, e.g. "h := !g"
	Values []Value `json:"values"`         // globals, then locals of Proc, before the step
	Depth  int     `json:"depth"`          // call depth: 0 in main
	Thread int     `json:"thread"`         // thread number, 0 for sequential programs
	Note   string  `json:"note,omitempty"` // optional remark of the engine (e.g. "context switch")
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
// engines; everything else goes into Counters under a descriptive name
// ("path_edges", "summaries", "peak_bdd_nodes", ...).
type Stats struct {
	Time     time.Duration    `json:"time_ns"`            // wall-clock time of Check
	States   int64            `json:"states"`             // states (or path edges) explored
	Counters map[string]int64 `json:"counters,omitempty"` // engine-specific counters
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
