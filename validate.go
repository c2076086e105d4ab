package boolprog

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
	"boolprog/witness"
)

// WitnessValidation is the outcome of ValidateWitness: the witness's
// verdict and the program it was checked against.
type WitnessValidation struct {
	witness.Outcome
	Witness *witness.Witness
	// Program names the program.
	Program string
	// Concurrent says the program is concurrent.
	Concurrent bool
	// Time is the validation's time, the front end left out.
	Time time.Duration
}

// ValidateWitness checks the witness w (witness.Parse) against the
// program that read returns (read as Load does, with opts.Filename,
// Dialect and CommandLine), independently of the engine that produced
// it: a violation witness by searching the program's executions for one
// that follows its waypoints, a correctness witness by checking that its
// invariants are inductive (witness.Validate). The target label is
// opts.Target, else the one the witness's specification names (a label
// the program does not have rejects the witness as one for another
// program); opts.Threads and MaxNodes apply as for Check, maxConfigs is
// witness.Options.MaxConfigs. An unreadable or wrong program is an
// *InputError; a witness whose formula does not parse is an outcome with
// Malformed set. When ctx ends first, the outcome is Unknown "timeout" or
// "interrupted".
func ValidateWitness(ctx context.Context, read func(context.Context) ([]byte, error), w *witness.Witness, opts Options, maxConfigs int) (*WitnessValidation, error) {
	// The target: the user's, else the one the witness's specification
	// names (the default label may be absent from the program; another
	// label must occur, or the witness is for another program).
	specLabel := ""
	if opts.Target == "" {
		if t := specTarget(w.Metadata.Task.Specification); t != ir.DefaultTarget {
			specLabel = t
		}
	}
	src, err := Load(ctx, read, opts)
	if err != nil {
		return nil, err
	}
	p, err := src.Lower(opts.Target, opts.Threads)
	if err == nil && specLabel != "" && p.HasLabel(specLabel) {
		p, err = src.Lower(specLabel, opts.Threads)
		specLabel = ""
	}
	if err != nil {
		return nil, err
	}
	start := time.Now()
	o := witness.Validate(ctx, p, src.Text, w, witness.Options{MaxConfigs: maxConfigs, MaxNodes: opts.MaxNodes})
	if specLabel != "" && !(o.Verdict == witness.Rejected && strings.HasPrefix(o.Reason, "the witness is for another program")) {
		o = &witness.Outcome{Verdict: witness.Rejected, Reason: fmt.Sprintf("the witness is for another program: its specification names the label %s, which the program does not have", specLabel)}
	}
	if o.Verdict == witness.Unknown && ctx.Err() != nil {
		o.Reason = engine.StopReason(ctx)
	}
	return &WitnessValidation{Outcome: *o, Witness: w, Program: src.Name, Concurrent: p.Concurrent, Time: time.Since(start)}, nil
}

// specTarget returns the target label a witness's specification names
// ("... label L is not reached"), or "".
func specTarget(spec string) string {
	_, after, ok := strings.Cut(spec, "label ")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(after, " ")
	return name
}

// WorkText says what Outcome.Work counts.
func (v *WitnessValidation) WorkText() string {
	switch w := v.Witness; {
	case w.Kind == witness.Violation:
		return "configurations explored"
	case len(w.ThreadInvariants) > 0:
		return "thread states and interferences checked"
	case len(w.Configurations) > 0 || v.Concurrent:
		return "configurations checked"
	}
	return "inductiveness checks"
}

// WriteText writes the validation as the command prints it: what was
// checked and how much work it took, where in the witness file (named
// name) a rejection points, and the verdict line WITNESS CONFIRMED,
// WITNESS REJECTED: reason or WITNESS UNKNOWN: reason.
func (v *WitnessValidation) WriteText(w io.Writer, name string) error {
	fmt.Fprintf(w, "%s witness of %s: %d %s in %v\n", v.Witness.Kind, v.Program, v.Work, v.WorkText(), result.RoundDuration(v.Time))
	var err error
	switch v.Verdict {
	case witness.Confirmed:
		_, err = fmt.Fprintln(w, "WITNESS CONFIRMED")
	case witness.Rejected:
		if v.Pos.IsValid() {
			fmt.Fprintln(w, (&syntax.Error{Filename: name, Pos: v.Pos, Msg: "rejected here"}).Error())
		}
		_, err = fmt.Fprintf(w, "WITNESS REJECTED: %s\n", v.Reason)
	default:
		_, err = fmt.Fprintf(w, "WITNESS UNKNOWN: %s\n", v.Reason)
	}
	return err
}

// ExitCode is the command's exit code for the verdict: 0 confirmed, 10
// rejected, 5 unknown.
func (v *WitnessValidation) ExitCode() int {
	switch v.Verdict {
	case witness.Confirmed:
		return result.Safe.ExitCode()
	case witness.Rejected:
		return result.Unsafe.ExitCode()
	}
	return result.Unknown.ExitCode()
}
