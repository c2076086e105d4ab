package result

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"io"
)

// ReportSchemaID identifies the JSON Schema of Report; every report names
// it in its "schema" field.
const ReportSchemaID = "https://boolprog.invalid/schema/report.json"

// ReportVersion is the version of the report format. It grows when a field
// changes meaning or is removed; adding an optional field keeps it.
const ReportVersion = 1

// ReportSchema is the JSON Schema (draft 2020-12, a small subset: type,
// properties, required, additionalProperties, items, enum, const, minimum,
// oneOf, $ref to #/$defs) that every report satisfies; the file is
// result/report.schema.json.
//
//go:embed report.schema.json
var ReportSchema []byte

// Report is the CLI's JSON output for one file: either a verdict (Verdict
// set, Errors empty) or the input or usage errors that prevented one
// (Errors set, Verdict nil). Field by field:
//
//	schema    ReportSchemaID
//	version   ReportVersion
//	file      the input file ("" for usage errors not about a file)
//	target    the target label checked (failing assertions are always errors)
//	engine    the engine that answered
//	verdict   "safe", "unsafe" or "unknown"
//	reason    why unknown; for unsafe with trace_cut, why the trace was cut
//	bound     null, or {"kind": "context_switches"|"rounds", "k": K}:
//	          "safe" then means no error within the bound
//	property  the error reached (unsafe): kind "assertion"|"label"|"observer",
//	          label, text, file, proc, line, col, and for kind observer
//	          observer {property, spec, spec_line, state, message}
//	spec      the observer automaton checked with the program (check
//	          --spec): {property, file, states}; the trace is then one of
//	          the program instrumented with it
//	trace_cut the error is reachable but the trace could not be completed
//	trace_omitted the trace was left out on request (check --trace none)
//	trace     the steps (unsafe), each with proc, loc, edge, line, col,
//	          text, values [{name, value}], depth, thread, and optionally
//	          switch, choice, note; values are those just before the step
//	stats     time_ns, states, phases_ns {parse, lower, reach, trace,
//	          replay, ...}, counters {name: n}
//	errors    [{file, line, col, message}] (line and col 0 when unknown)
//	warnings  [{file, line, col, message}]
type Report struct {
	Schema   string    `json:"schema"`
	Version  int       `json:"version"`
	File     string    `json:"file,omitempty"`
	Target   string    `json:"target,omitempty"`
	Engine   string    `json:"engine,omitempty"`
	Verdict  *Verdict  `json:"verdict,omitempty"`
	Reason   string    `json:"reason,omitempty"`
	Bound    Bound     `json:"bound"`
	Property *Property `json:"property,omitempty"`
	Spec     *Spec     `json:"spec,omitempty"`
	TraceCut bool      `json:"trace_cut,omitempty"`
	// NothingToCheck says the program has no assertion, its target label
	// occurs nowhere and no observer automaton was checked: a SUCCESSFUL
	// answer that holds trivially.
	NothingToCheck bool `json:"nothing_to_check,omitempty"`
	// TraceOmitted says the trace was left out on request (OmitTrace).
	TraceOmitted bool      `json:"trace_omitted,omitempty"`
	Trace        *Trace    `json:"trace,omitempty"`
	Stats        *Stats    `json:"stats,omitempty"`
	Errors       []Message `json:"errors,omitempty"`
	Warnings     []Message `json:"warnings,omitempty"`
}

// Message is an input or usage error, or a warning, at a position (Line and
// Col 0 when it has none).
type Message struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
}

// NewReport returns the report of a result for a file checked with a
// target label.
func NewReport(r *Result, file, target string) *Report {
	v := r.Verdict
	st := r.Stats
	return &Report{
		Schema:   ReportSchemaID,
		Version:  ReportVersion,
		File:     file,
		Target:   target,
		Engine:   r.Engine,
		Verdict:  &v,
		Reason:   r.Reason,
		Bound:    r.Bound,
		Property: r.Property,
		TraceCut: r.TraceCut,
		Trace:    r.Trace,
		Stats:    &st,
	}
}

// OmitTrace leaves the trace out of the report, saying so (trace_omitted)
// if there was one: a reader can tell a trace not asked for from a trace
// that could not be built (trace_cut).
func (rep *Report) OmitTrace() {
	if rep.Trace != nil {
		rep.Trace, rep.TraceOmitted = nil, true
	}
}

// ErrorReport returns the report of a run that ended with input or usage
// errors.
func ErrorReport(file string, errs ...Message) *Report {
	return &Report{Schema: ReportSchemaID, Version: ReportVersion, File: file, Errors: errs}
}

// WriteJSON writes the report as indented JSON followed by a newline,
// without HTML escaping (`&` stays `&`). The trace is written step by step,
// so that a long trace is never held twice in memory as text.
func (rep *Report) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	// Everything but the trace, encoded as usual; the trace is appended
	// as the last field by streaming its steps.
	head := *rep
	head.Trace = nil
	b, err := marshal(&head)
	if err != nil {
		return err
	}
	if rep.Trace == nil {
		bw.Write(b)
		bw.WriteByte('\n')
		return bw.Flush()
	}
	// b ends with "\n}"; write it without the closing brace, then the
	// trace as the last field.
	body := bytes.TrimSuffix(bytes.TrimRight(b, "\n"), []byte("}"))
	body = bytes.TrimRight(body, "\n")
	bw.Write(body)
	bw.WriteString(",\n  \"trace\": [")
	for i := range rep.Trace.Steps {
		if i > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("\n    ")
		sb, err := marshal(&rep.Trace.Steps[i])
		if err != nil {
			return err
		}
		bw.Write(bytes.TrimRight(sb, "\n"))
	}
	if len(rep.Trace.Steps) > 0 {
		bw.WriteString("\n  ")
	}
	bw.WriteString("]\n}\n")
	return bw.Flush()
}

// marshal encodes v without HTML escaping: objects at the top level
// indented, a step on one line.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if _, isStep := v.(*Step); !isStep {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ReadReport decodes a report written by WriteJSON.
func ReadReport(r io.Reader) (*Report, error) {
	var rep Report
	dec := json.NewDecoder(r)
	if err := dec.Decode(&rep); err != nil {
		return nil, err
	}
	return &rep, nil
}
