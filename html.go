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
	pg.Warnings = r.warnings("note: ")
	return htmlreport.Write(w, pg)
}
