package boolprog

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"boolprog/engine"
	"boolprog/htmlreport"
	"boolprog/result"
	"boolprog/witness"
)

// proofTimeout bounds the computation of a SUCCESSFUL page's invariants
// when the check did not write them (--witness): the page is written
// after the check, and must not take longer than a check's patience.
const proofTimeout = 20 * time.Second

// proofItems is the most invariants a page lists: a concurrent program's
// configuration invariants can be thousands.
const proofItems = 1000

// htmlProof returns the proof information of a SUCCESSFUL page: the
// correctness witness that Options.Witness writes (computed now if the
// check wrote none), or why there is none.
func (r *Result) htmlProof() *htmlreport.Proof {
	if r.Verdict != Safe || r.prog == nil {
		return nil
	}
	res := r.engineResult()
	switch {
	case r.Observer != nil:
		return &htmlreport.Proof{Note: "The proof of an observer automaton's property has no certificate: the correctness witness speaks of the program's own assertions and label."}
	case res.Bound.Kind != result.Unbounded:
		return &htmlreport.Proof{Note: fmt.Sprintf("No certificate: a bounded answer (up to %s) is no proof, and has no correctness witness.", res.Bound)}
	}
	w, note := r.proof, r.proofNote
	if w == nil {
		ctx, cancel := context.WithTimeout(context.Background(), proofTimeout)
		defer cancel()
		var why string
		w, note, why = buildWitness(ctx, engine.Query{Analyses: r.analyses}, r.src, r.prog, res)
		if w == nil {
			if ctx.Err() != nil {
				why = fmt.Sprintf("the invariants were not computed within %v", proofTimeout)
			}
			return &htmlreport.Proof{Note: "No certificate: " + why + "."}
		}
	}
	return proofOf(w, note)
}

// proofOf lists a correctness witness's invariants and contracts.
func proofOf(w *witness.Witness, note string) *htmlreport.Proof {
	pr := &htmlreport.Proof{}
	add := func(it htmlreport.ProofItem) {
		if len(pr.Items) < proofItems {
			pr.Items = append(pr.Items, it)
		} else {
			pr.Omitted++
		}
	}
	for _, inv := range w.Invariants {
		add(htmlreport.ProofItem{Where: inv.Location.String(), Line: inv.Location.Line, Text: inv.Value})
	}
	for _, c := range w.Contracts {
		add(htmlreport.ProofItem{Where: "contract of " + c.Function, Line: c.Location.Line, Text: "requires " + c.Requires + "; ensures " + c.Ensures})
	}
	for _, c := range w.Configurations {
		stacks := make([]string, len(c.Threads))
		for i, s := range c.Threads {
			stacks[i] = fmt.Sprintf("t%d: %s", i, s)
		}
		where := strings.Join(stacks, " | ")
		if c.Atomic >= 0 {
			where += fmt.Sprintf(" (t%d atomic)", c.Atomic)
		}
		if c.Running >= 0 {
			where += fmt.Sprintf(" (t%d ran last)", c.Running)
		}
		if c.Init {
			where += " (init)"
		}
		add(htmlreport.ProofItem{Where: where, Text: c.Value})
	}
	for _, t := range w.ThreadInvariants {
		where := "every thread at " + t.Stack.String()
		if t.Init {
			where += " (init)"
		}
		add(htmlreport.ProofItem{Where: where, Text: t.Value})
	}
	n, what := witnessSize(w)
	pr.Title = fmt.Sprintf("the correctness witness (%d %s)", n, what)
	pr.Note = "The certificate that check --witness FILE.yml writes and boolprog validate checks: each invariant holds whenever its location is reached (\\old(x): x's value when the function was entered)."
	if note != "" {
		pr.Note += " Note: " + note + "."
	}
	return pr
}

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
		Proof:        r.htmlProof(),
	}
	bw := bufio.NewWriter(w)
	if err := htmlreport.Write(bw, pg); err != nil {
		return err
	}
	return bw.Flush()
}
