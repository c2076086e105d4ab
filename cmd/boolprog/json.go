package main

import (
	"encoding/json"
	"io"

	"boolprog/result"
	"boolprog/syntax"
)

// jsonReport is the JSON form of one checked file.
type jsonReport struct {
	File   string `json:"file"`
	Target string `json:"target"`
	*result.Result
	// Trace shadows Result.Trace, whose own MarshalJSON escapes `&`.
	Trace   []result.Step `json:"trace,omitempty"`
	Checked string        `json:"checked"`
	Note    string        `json:"note,omitempty"`
	Phases  jsonPhases    `json:"phases"`
}

// jsonPhases are the phases' wall-clock times in nanoseconds.
type jsonPhases struct {
	Parse  int64 `json:"parse_ns"`
	Check  int64 `json:"check_ns"`
	Replay int64 `json:"replay_ns"`
	Total  int64 `json:"total_ns"`
}

// jsonError is one input or usage error.
type jsonError struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
}

func writeJSON(w io.Writer, o *outcome) {
	encodeJSON(w, &jsonReport{
		File:    o.path,
		Target:  o.prog.Target,
		Result:  o.res,
		Trace:   traceSteps(o.res.Trace),
		Checked: checkedText(o.prog),
		Note:    o.note,
		Phases: jsonPhases{
			Parse: int64(o.phases.parse), Check: int64(o.phases.check),
			Replay: int64(o.phases.replay), Total: int64(o.total),
		},
	})
}

// writeJSONErrors writes input errors of file (or usage errors: file "")
// as a JSON object {"file": ..., "errors": [{file, line, col, message}]}.
func writeJSONErrors(w io.Writer, file string, errs syntax.ErrorList) {
	out := struct {
		File   string      `json:"file,omitempty"`
		Errors []jsonError `json:"errors"`
	}{File: file}
	for _, e := range errs {
		out.Errors = append(out.Errors, jsonError{File: e.Filename, Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg})
	}
	encodeJSON(w, out)
}

// encodeJSON writes v indented, without HTML escaping: `&` is an operator
// of the language and must read as itself.
func encodeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	enc.Encode(v)
}

func traceSteps(tr *result.Trace) []result.Step {
	if tr == nil {
		return nil
	}
	return tr.Steps
}
