package boolprog

import (
	"io"

	"boolprog/htmlreport"
	"boolprog/result"
)

// WriteHTML writes the result as `boolprog check --format html` does: one
// self-contained page with the source, the verdict, the trace stepping
// over the source and the control-flow automata (package htmlreport).
func (r *Result) WriteHTML(w io.Writer) error {
	res := r.engineResult()
	if r.textTrace != nil {
		// As the command's page: without the observer's state variables.
		res.Trace = &result.Trace{Steps: r.textTrace}
	}
	pg := &htmlreport.Page{
		File:     r.File,
		Source:   r.src,
		Program:  r.prog,
		Result:   res,
		Replayed: r.Replayed,
		Note:     r.Note,
		Total:    r.total,
		Checked:  r.CheckedText(),
	}
	if r.DialectNote != "" {
		pg.Warnings = append(pg.Warnings, result.Message{File: r.File, Message: r.DialectNote})
	}
	for _, d := range r.Warnings {
		pg.Warnings = append(pg.Warnings, result.Message{File: d.File, Line: d.Line, Col: d.Col, Message: d.Message})
	}
	if r.Concurrent && r.Verdict == Unknown && r.ConcurrentAt.Line > 0 {
		d := r.ConcurrentAt
		pg.Warnings = append(pg.Warnings, result.Message{File: d.File, Line: d.Line, Col: d.Col, Message: "note: " + d.Message})
	}
	return htmlreport.Write(w, pg)
}
