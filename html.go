package boolprog

import (
	"bufio"
	"io"

	"boolprog/htmlreport"
	"boolprog/result"
)

// WriteHTML writes the result as `boolprog check --format html` does: one
// self-contained page with the source, the verdict, the trace stepping
// over the source and the control-flow automata (package htmlreport).
func (r *Result) WriteHTML(w io.Writer) error { return r.writeHTML(w, r.DefaultOutput()) }

func (r *Result) writeHTML(w io.Writer, o Output) error {
	res := r.engineResult()
	if r.textTrace != nil {
		// As the text: without the observer's state variables.
		res.Trace = &result.Trace{Steps: r.textTrace}
	}
	pg := &htmlreport.Page{
		File:         r.File,
		Source:       r.src,
		Program:      r.prog,
		Result:       res,
		Replayed:     r.Replayed,
		TraceOmitted: o.Trace.Mode == TraceNone,
		Note:         r.Note,
		Total:        r.total,
		Checked:      r.CheckedText(),
		Warnings:     r.warnings("note: ", o.NoWarnings),
	}
	bw := bufio.NewWriter(w)
	if err := htmlreport.Write(bw, pg); err != nil {
		return err
	}
	return bw.Flush()
}
