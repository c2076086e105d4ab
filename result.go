package boolprog

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"boolprog/internal/labels"
	"boolprog/internal/product"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// Verdict is the answer of a check.
type Verdict = result.Verdict

// The verdicts. The zero Verdict is Unknown.
const (
	Unknown = result.Unknown // undecided: Result.Reason says why
	Safe    = result.Safe    // no error is reachable (within Result.Bound, if set)
	Unsafe  = result.Unsafe  // an error is reachable: Result.Trace shows how
)

// Bound limits the executions an answer speaks about (context switches or
// rounds of a concurrent program); the zero Bound is none.
type Bound = result.Bound

// The kinds of Bound.
const (
	Unbounded       = result.Unbounded
	ContextSwitches = result.ContextSwitches
	Rounds          = result.Rounds
)

// Step is one statement of a trace: its procedure, line and column, text,
// call depth and thread, and the values of the variables in scope just
// before it executes (globals first). The last step is the error.
type Step = result.Step

// Value is the value of one variable in a step.
type Value = result.Value

// Property is the error an Unsafe answer reaches (an assertion or the
// target label) and where it is.
type Property = result.Property

// ObserverSpec names an observer automaton checked with the program
// (Options.Spec): its file, property and states.
type ObserverSpec = result.Spec

// Stats are the measurements of a check: its time, the time of each phase
// (parse, lower, reach, trace, replay), states and the engine's counters.
type Stats = result.Stats

// Report is the versioned JSON report of `boolprog check --format json`,
// whose JSON Schema is result.ReportSchema.
type Report = result.Report

// TraceOptions control the text rendering of a trace (see WriteTextOptions):
// Style (StyleForward or StyleBebop), Mode (TraceFull, TraceChanges or
// TraceNone), Numbered, MarkChoices, MaxIndent.
type TraceOptions = result.TraceOptions

// The trace styles and detail modes of TraceOptions (the command's
// --trace-style and --trace).
const (
	StyleForward = result.Forward // execution order (the default)
	StyleBebop   = result.Bebop   // reverse order, as the Bebop paper prints traces
	TraceFull    = result.Full    // every value at every step
	TraceChanges = result.Changes // only the values each step changed
	TraceNone    = result.None    // no trace, only the error line
)

// Result is the outcome of a check.
type Result struct {
	File    string  // the program's name (Options.Filename)
	Target  string  // the target label checked
	Engine  string  // the engine that answered
	Verdict Verdict // Safe, Unsafe or Unknown
	// Reason says why the verdict is Unknown (a limit, an unsupported
	// construct), or, for Unsafe with TraceCut, why the trace was cut.
	Reason string
	// Bound is the bound within which the answer holds: for a Safe answer
	// with a nonzero Bound, no error is reachable within it, and nothing is
	// said beyond it.
	Bound    Bound
	Property *Property // the error reached (Unsafe)
	// Trace is the execution from the start of main to the error (Unsafe,
	// unless TraceCut).
	Trace []Step
	// TraceCut marks an Unsafe answer whose trace could not be completed
	// within the time limit; Trace is then empty.
	TraceCut bool
	// Replayed says that the concrete interpreter replayed Trace and
	// accepted it. An Unsafe result with a trace is Replayed unless
	// Options.NoReplay, or the time limit cut the replay (Note says so).
	Replayed bool
	// Note is a remark on the verdict that the command prints as
	// "note: ...": a limit that cut the trace or its replay.
	Note string
	// Warnings are the front end's warnings (sema's, and expressions the
	// other precedence dialect would read differently), and DialectNote
	// says which dialect was detected, if one was.
	Warnings    []Diagnostic
	DialectNote string
	// Concurrent says that the program has threads; ConcurrentAt points at
	// the construct that made it so ("start_thread", ...).
	Concurrent   bool
	ConcurrentAt Diagnostic
	Stats        Stats
	// Observer describes the observer automaton checked too (Options.Spec
	// or the cpa configuration's observer.spec), nil if none.
	Observer *ObserverSpec

	// textTrace is Trace as the text shows it: without the observer
	// automaton's state variables (nil without an observer).
	textTrace []Step
	prog      *ir.Program    // nil if the check ended before the program was lowered
	res       *result.Result // what the engine returned, with Trace as a *result.Trace
	src       []byte         // the program's text, for WriteHTML
	total     time.Duration  // the whole check, front end included
}

func newResult(name string, p *ir.Program, res *result.Result, note string, replayed bool, fe *frontEnded, total time.Duration) *Result {
	r := &Result{
		File:        name,
		Target:      p.Target,
		Engine:      res.Engine,
		Verdict:     res.Verdict,
		Reason:      res.Reason,
		Bound:       res.Bound,
		Property:    res.Property,
		TraceCut:    res.TraceCut,
		Replayed:    replayed,
		Note:        note,
		Warnings:    diagnostics(fe.warns),
		DialectNote: fe.note,
		Concurrent:  p.Concurrent,
		Stats:       res.Stats,
		prog:        p,
		res:         res,
		src:         fe.src,
		total:       total,
	}
	if p.Concurrent {
		r.ConcurrentAt = Diagnostic{File: name, Line: p.ConcurrentPos.Line, Col: p.ConcurrentPos.Col, Message: "the program is concurrent: " + p.ConcurrentWhy}
	}
	if res.Trace != nil && !res.TraceCut {
		r.Trace = res.Trace.Steps
	}
	return r
}

// Banner returns the command's last line for the result: "VERIFICATION
// SUCCESSFUL" (with " up to K context switches" for a bounded answer),
// "VERIFICATION FAILED" or "VERIFICATION UNKNOWN: reason".
func (r *Result) Banner() string { return r.engineResult().Banner() }

// ExitCode returns the command's exit status for the result: 0 safe, 10
// unsafe, 5 unknown.
func (r *Result) ExitCode() int { return r.Verdict.ExitCode() }

// engineResult returns the result.Result that r was made from, updated
// with r's exported fields, so that changes a caller made show in the
// renderings.
func (r *Result) engineResult() *result.Result {
	res := &result.Result{Verdict: r.Verdict, Reason: r.Reason, Engine: r.Engine, Bound: r.Bound,
		Property: r.Property, TraceCut: r.TraceCut, Stats: r.Stats}
	if r.Trace != nil {
		res.Trace = &result.Trace{Steps: r.Trace}
	}
	return res
}

// CheckedText says which errors were checked, as the command's line before
// the verdict: "checked: 2 assertions, label SLIC_ERROR (line 40)". It is
// empty when the check ended before the program was read.
func (r *Result) CheckedText() string {
	if r.prog == nil {
		return ""
	}
	return labels.Checked(r.prog) + product.CheckedText(r.Observer)
}

// ErrorLine is the compiler-style line that says where the error is,
// "file:line:col: error: assertion assert(g) fails" or "...: error: label R
// reached"; empty unless Unsafe.
func (r *Result) ErrorLine() string {
	if r.Verdict != Unsafe {
		return ""
	}
	if pr := r.Property; pr != nil && pr.Observer != nil && len(r.Trace) > 0 {
		return product.ErrorLine(r.File, pr)
	}
	if n := len(r.Trace); n > 0 {
		last := r.Trace[n-1]
		msg := "error: assertion " + last.Text + " fails"
		if last.Edge == result.NoEdge {
			msg = "error: label " + r.Target + " reached"
		}
		return (&syntax.Error{Filename: r.File, Pos: syntax.Pos{Line: last.Line, Col: last.Col}, Msg: msg}).Error()
	}
	if pr := r.Property; pr != nil {
		msg := "error: assertion " + pr.Text + " fails"
		if pr.Kind == result.PropertyLabel {
			msg = "error: label " + pr.Label + " reached"
		}
		return (&syntax.Error{Filename: r.File, Pos: syntax.Pos{Line: pr.Line, Col: pr.Col}, Msg: msg}).Error()
	}
	return ""
}

// DefaultTraceOptions are the command's defaults for a trace: forward
// order, every value, numbered steps, nondeterministic choices marked.
func (r *Result) DefaultTraceOptions() TraceOptions {
	o := TraceOptions{Numbered: true, MarkChoices: true}
	if r.prog != nil {
		o.Globals = len(r.prog.Globals)
	}
	return o
}

// WriteText writes the result as `boolprog check` prints it on standard
// output with its default flags: the trace, the error line, any note, the
// "checked:" line and the banner. Warnings, which the command prints on
// standard error, are in Warnings.
func (r *Result) WriteText(w io.Writer) error {
	return r.WriteTextOptions(w, r.DefaultTraceOptions())
}

// WriteTextOptions is WriteText with the trace rendered as o says (the
// command's --trace, --trace-style and --trace-* flags). In the Bebop
// style the trace is headed as in the paper ("Label R (line 12) reachable
// by following path:").
func (r *Result) WriteTextOptions(w io.Writer, o TraceOptions) error {
	var b strings.Builder
	if len(r.Trace) > 0 && !r.TraceCut {
		if o.Mode != TraceNone {
			if o.Style == result.Bebop {
				last := r.Trace[len(r.Trace)-1]
				what := fmt.Sprintf("failure of %s (line %d)", last.Text, last.Line)
				if last.Edge == result.NoEdge {
					what = fmt.Sprintf("label %s (line %d)", r.Target, last.Line)
				}
				fmt.Fprintf(&b, "%s%s reachable by following path:\n", strings.ToUpper(what[:1]), what[1:])
			}
			if o.Globals == 0 && r.prog != nil {
				o.Globals = len(r.prog.Globals)
			}
			steps := r.Trace
			if r.textTrace != nil {
				steps = r.textTrace
			}
			if err := result.WriteTraceOptions(&b, &result.Trace{Steps: steps}, o); err != nil {
				return err
			}
		}
	}
	if line := r.ErrorLine(); line != "" {
		b.WriteString(line + "\n")
	}
	if line := r.engineResult().BoundLine(); line != "" {
		b.WriteString(line + "\n")
	}
	if r.Note != "" {
		fmt.Fprintf(&b, "note: %s\n", r.Note)
	}
	if r.Concurrent && r.Verdict == Unknown && r.ConcurrentAt.Line > 0 {
		d := r.ConcurrentAt
		d.Message = "note: " + d.Message
		b.WriteString(d.String() + "\n")
	}
	if c := r.CheckedText(); c != "" {
		b.WriteString(c + "\n")
	}
	b.WriteString(r.Banner() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// String returns the text WriteText writes.
func (r *Result) String() string {
	var b strings.Builder
	r.WriteText(&b)
	return b.String()
}

// Report returns the JSON report of the result, as `boolprog check
// --format json` writes it: verdict, reason, bound, property, trace,
// stats, and the warnings.
func (r *Result) Report() *Report {
	rep := result.NewReport(r.engineResult(), r.File, r.Target)
	rep.Spec = r.Observer
	rep.Warnings = append(rep.Warnings, r.warnings("")...)
	if r.Note != "" && !r.TraceCut {
		rep.Reason = r.Note
	}
	return rep
}

// warnings are the remarks the JSON report and the HTML page list: the
// dialect detected, the front end's warnings, and where a program that
// got an Unknown answer became concurrent (its message after concPrefix).
func (r *Result) warnings(concPrefix string) []result.Message {
	var out []result.Message
	if r.DialectNote != "" {
		out = append(out, result.Message{File: r.File, Message: r.DialectNote})
	}
	for _, d := range r.Warnings {
		out = append(out, result.Message{File: d.File, Line: d.Line, Col: d.Col, Message: d.Message})
	}
	if r.Concurrent && r.Verdict == Unknown && r.ConcurrentAt.Line > 0 {
		d := r.ConcurrentAt
		out = append(out, result.Message{File: d.File, Line: d.Line, Col: d.Col, Message: concPrefix + d.Message})
	}
	return out
}

// WriteJSON writes Report as indented JSON (one object and a newline).
func (r *Result) WriteJSON(w io.Writer) error { return r.Report().WriteJSON(w) }

// ErrorReport returns the JSON report of a check that returned err (an
// *InputError or an *OptionError): `{"errors": [{file, line, col,
// message}]}`, as the command writes it for input and usage errors.
func ErrorReport(file string, err error) *Report {
	var in *InputError
	if errors.As(err, &in) {
		msgs := make([]result.Message, len(in.Diagnostics))
		for i, d := range in.Diagnostics {
			msgs[i] = result.Message{File: d.File, Line: d.Line, Col: d.Col, Message: d.Message}
		}
		return result.ErrorReport(file, msgs...)
	}
	return result.ErrorReport(file, result.Message{Message: err.Error()})
}
