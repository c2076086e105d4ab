package boolprog

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"boolprog/analysis"
	"boolprog/conc"
	"boolprog/engine"
	"boolprog/internal/labels"
	"boolprog/internal/product"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
	"boolprog/witness"
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
	Target  string  // the target label checked ("" if the check ended before the program was read)
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
	// Witness says what was written for Options.Witness (nil without it).
	Witness *WitnessOutcome

	commandLine bool // Options.CommandLine

	// textTrace is Trace as the text shows it: without the observer
	// automaton's state variables (nil without an observer).
	textTrace []Step
	prog      *ir.Program    // nil if the check ended before the program was lowered
	res       *result.Result // what the engine returned, with Trace as a *result.Trace
	src       []byte         // the program's text, for WriteHTML
	// proof is the correctness witness Options.Witness wrote (nil: none
	// yet), proofNote where its invariants came from: WriteHTML shows it.
	proof     *witness.Witness
	proofNote string
	total     time.Duration // the whole check, front end included
	// analyses is the check's cache of prog's analyses, which a
	// certificate built later (WriteHTML) reuses.
	analyses *analysis.Cache
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
		Warnings:    fe.src.Warnings,
		DialectNote: fe.src.DialectNote,
		Concurrent:  p.Concurrent,
		Stats:       res.Stats,
		prog:        p,
		res:         res,
		src:         fe.src.Text,
		commandLine: fe.src.commandLine,
		total:       total,
	}
	if p.Concurrent && p.ConcurrentWhy != "" {
		r.ConcurrentAt = Diagnostic{File: name, Line: p.ConcurrentPos.Line, Col: p.ConcurrentPos.Col, Message: "the program is concurrent: " + p.ConcurrentWhy}
	}
	if res.Trace != nil && !res.TraceCut {
		r.Trace = res.Trace.Steps
	}
	return r
}

// WriteWarnings writes the dialect note and the front end's warnings as
// Source.WriteWarnings does: what the command prints on standard error
// before the verdict.
func (r *Result) WriteWarnings(w io.Writer) error {
	return writeWarnings(w, r.File, r.DialectNote, r.Warnings, r.commandLine)
}

// Program returns the lowered program that was checked (without an
// observer automaton's instrumentation), nil if the check ended before the
// program was lowered.
func (r *Result) Program() *ir.Program { return r.prog }

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
	return labels.Checked(r.prog) + product.CheckedText(r.Observer) + atomicCallsText(r.prog)
}

// atomicCallsText says, for the checked line, whether the calls of
// __VERIFIER_atomic_* procedures ran atomically (conc.AtomicCalls), and
// why not where they could not.
func atomicCallsText(p *ir.Program) string {
	switch {
	case p.AtomicCalls == 1:
		return "; 1 call of a " + conc.AtomicPrefix + "* procedure atomic"
	case p.AtomicCalls > 1:
		return fmt.Sprintf("; %d calls of %s* procedures atomic", p.AtomicCalls, conc.AtomicPrefix)
	case p.AtomicCallsWhy != "":
		return "; calls of " + conc.AtomicPrefix + "* procedures not atomic: " + p.AtomicCallsWhy
	}
	return ""
}

// NothingToCheck reports whether the program had nothing to check: no
// assertion, a target label that occurs nowhere (the default SLIC_ERROR
// may be absent) and no observer automaton. Its SUCCESSFUL answer holds
// trivially; the command warns, and the JSON report says
// "nothing_to_check": true.
func (r *Result) NothingToCheck() bool {
	return r.prog != nil && r.Observer == nil && labels.NothingToCheck(r.prog)
}

// NothingToCheckText is the warning the command prints on standard error
// when NothingToCheck: "nothing to check: no assertions and label
// SLIC_ERROR occurs nowhere".
func (r *Result) NothingToCheckText() string {
	return "nothing to check: no assertions and label " + r.Target + " occurs nowhere"
}

// ErrorLine is the compiler-style line that says where the error is,
// "file:line:col: error: assertion assert(g) fails" or "...: error: label R
// reached"; empty unless Unsafe.
func (r *Result) ErrorLine() string {
	if r.Verdict != Unsafe {
		return ""
	}
	return r.errorLine()
}

// errorLine is ErrorLine for any verdict: the line of the trace's last
// step, or of the property when there is no trace.
func (r *Result) errorLine() string {
	pr := r.Property
	if steps := r.textSteps(); len(steps) > 0 && !r.TraceCut {
		if pr != nil && pr.Observer != nil {
			return product.ErrorLine(r.File, pr)
		}
		last := steps[len(steps)-1]
		msg := "error: assertion " + last.Text + " fails"
		if last.Edge == result.NoEdge {
			msg = "error: label " + r.Target + " reached"
		}
		return (&syntax.Error{Filename: r.File, Pos: syntax.Pos{Line: last.Line, Col: last.Col}, Msg: msg}).Error()
	}
	if pr != nil {
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

// Format is a rendering of a Result: text, the JSON report or the HTML
// page.
type Format int

// The formats of `boolprog check --format`.
const (
	FormatText Format = iota
	FormatJSON
	FormatHTML
)

// ParseFormat reads a format's name: "text", "json" or "html".
func ParseFormat(s string) (Format, bool) {
	switch s {
	case "text":
		return FormatText, true
	case "json":
		return FormatJSON, true
	case "html":
		return FormatHTML, true
	}
	return 0, false
}

// Output says how Write renders a Result beyond its format: the
// command's --trace, --trace-style, --trace-file, --stats and -q.
type Output struct {
	// Trace renders the text trace; its Mode TraceNone leaves the trace
	// out of the JSON report and the HTML page too.
	Trace TraceOptions
	// TraceFile, for the text, writes the trace to this file instead and
	// says so ("trace: 12 steps written to FILE").
	TraceFile string
	// Stats adds to the text the engine, the time of each phase, the
	// states and the engine's counters (always there when the check was
	// interrupted).
	Stats bool
	// NoWarnings leaves the front end's warnings and the dialect note out
	// of the JSON report and the HTML page (the command's -q).
	NoWarnings bool
}

// DefaultOutput is the command's default Output: the trace as
// DefaultTraceOptions say, no statistics.
func (r *Result) DefaultOutput() Output { return Output{Trace: r.DefaultTraceOptions()} }

// Write writes the result in format f as o says: exactly what `boolprog
// check` writes on standard output with the flags o stands for.
func (r *Result) Write(w io.Writer, f Format, o Output) error {
	switch f {
	case FormatJSON:
		return r.report(o).WriteJSON(w)
	case FormatHTML:
		return r.writeHTML(w, o)
	}
	return r.writeText(w, o)
}

// WriteText writes the result as `boolprog check` prints it on standard
// output with its default flags: the trace, the error line, any note, the
// "checked:" line and the banner. Warnings, which the command prints on
// standard error, are in Warnings.
func (r *Result) WriteText(w io.Writer) error { return r.writeText(w, r.DefaultOutput()) }

// WriteTextOptions is WriteText with the trace rendered as o says (the
// command's --trace, --trace-style and --trace-* flags). In the Bebop
// style the trace is headed as in the paper ("Label R (line 12) reachable
// by following path:").
func (r *Result) WriteTextOptions(w io.Writer, o TraceOptions) error {
	return r.writeText(w, Output{Trace: o})
}

// textSteps is the trace as the text shows it: without an observer
// automaton's state variables.
func (r *Result) textSteps() []Step {
	if r.textTrace != nil {
		return r.textTrace
	}
	return r.Trace
}

func (r *Result) writeText(w io.Writer, o Output) error {
	var b strings.Builder
	if len(r.Trace) > 0 && !r.TraceCut && o.Trace.Mode != TraceNone {
		if o.TraceFile != "" {
			if err := r.writeTraceFile(o); err != nil {
				return err
			}
			fmt.Fprintf(&b, "trace: %d steps written to %s\n", len(r.textSteps()), o.TraceFile)
		} else if err := r.writeTrace(&b, o.Trace); err != nil {
			return err
		}
	}
	if line := r.errorLine(); line != "" {
		b.WriteString(line + "\n")
	}
	if line := r.engineResult().BoundLine(); line != "" {
		b.WriteString(line + "\n")
	}
	if r.Note != "" {
		fmt.Fprintf(&b, "note: %s\n", r.Note)
	}
	if r.Concurrent && r.Verdict == Unknown && r.ConcurrentAt.Message != "" {
		// Point at what made the program concurrent, which the engine
		// refused (or could not finish).
		d := r.ConcurrentAt
		d.Message = "note: " + d.Message
		b.WriteString(d.String() + "\n")
	}
	if o.Stats || r.Reason == ReasonInterrupted {
		r.writeStats(&b)
	}
	if c := r.CheckedText(); c != "" {
		b.WriteString(c + "\n")
	}
	b.WriteString(r.Banner() + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// writeTrace writes the text trace as o says, headed as in the Bebop paper
// in its style.
func (r *Result) writeTrace(w io.Writer, o TraceOptions) error {
	steps := r.textSteps()
	if o.Style == result.Bebop {
		last := steps[len(steps)-1]
		what := fmt.Sprintf("failure of %s (line %d)", last.Text, last.Line)
		if last.Edge == result.NoEdge {
			what = fmt.Sprintf("label %s (line %d)", r.Target, last.Line)
		}
		if _, err := fmt.Fprintf(w, "%s%s reachable by following path:\n", strings.ToUpper(what[:1]), what[1:]); err != nil {
			return err
		}
	}
	if o.Globals == 0 && r.prog != nil {
		o.Globals = len(r.prog.Globals)
	}
	return result.WriteTraceOptions(w, &result.Trace{Steps: steps}, o)
}

func (r *Result) writeTraceFile(o Output) error {
	f, err := os.Create(o.TraceFile)
	if err != nil {
		return err
	}
	if err := r.writeTrace(f, o.Trace); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// ReasonInterrupted is the Reason of a check whose context was cancelled
// (by the caller, or a signal to the command); ReasonTimeout starts the
// Reason of one that ran out of time.
const (
	ReasonInterrupted = engine.ReasonInterrupted
	ReasonTimeout     = engine.ReasonTimeout
)

// writeStats writes the statistics of --stats: the engine, the time of the
// whole check and of each phase, the states, the trace's steps and the
// engine's counters.
func (r *Result) writeStats(w io.Writer) {
	fmt.Fprintf(w, "engine: %s\n", r.Engine)
	var phases []string
	for _, name := range r.Stats.PhaseNames() {
		phases = append(phases, fmt.Sprintf("%s %v", name, result.RoundDuration(r.Stats.Phases[name])))
	}
	if len(phases) > 0 {
		fmt.Fprintf(w, "time: %v (%s)\n", result.RoundDuration(r.total), strings.Join(phases, ", "))
	} else {
		fmt.Fprintf(w, "time: %v\n", result.RoundDuration(r.total))
	}
	fmt.Fprintf(w, "states: %d\n", r.Stats.States)
	if r.Trace != nil {
		fmt.Fprintf(w, "trace steps: %d\n", len(r.textSteps()))
	}
	for _, name := range r.Stats.CounterNames() {
		fmt.Fprintf(w, "%s: %d\n", name, r.Stats.Counters[name])
	}
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
func (r *Result) Report() *Report { return r.report(r.DefaultOutput()) }

func (r *Result) report(o Output) *Report {
	rep := result.NewReport(r.engineResult(), r.File, r.Target)
	rep.Spec = r.Observer
	rep.NothingToCheck = r.NothingToCheck()
	if o.Trace.Mode == TraceNone {
		rep.OmitTrace() // --trace none holds in every format
	}
	rep.Warnings = append(rep.Warnings, r.warnings("", o.NoWarnings)...)
	if r.Note != "" && !r.TraceCut {
		// The note of a replay cut short: reason is otherwise empty for
		// an unsafe answer.
		rep.Reason = r.Note
	}
	return rep
}

// warnings are the remarks the JSON report and the HTML page list: the
// dialect detected and the front end's warnings (unless noWarnings), and
// where a program that got an Unknown answer became concurrent (its
// message after concPrefix).
func (r *Result) warnings(concPrefix string, noWarnings bool) []result.Message {
	var out []result.Message
	if !noWarnings {
		if r.DialectNote != "" {
			out = append(out, result.Message{File: r.File, Message: "note: " + r.DialectNote})
		}
		for _, d := range r.Warnings {
			out = append(out, result.Message{File: d.File, Line: d.Line, Col: d.Col, Message: d.Message})
		}
	}
	if r.Concurrent && r.Verdict == Unknown && r.ConcurrentAt.Message != "" {
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
