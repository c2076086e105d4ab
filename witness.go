package boolprog

import (
	"context"
	"fmt"
	"os"
	"time"

	"boolprog/analysis"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/witness"
)

// WitnessOutcome says what Check did for Options.Witness: the witness it
// wrote, or why it wrote none (a flag the user set is never silently
// ignored).
type WitnessOutcome struct {
	File string // Options.Witness
	// Written says that a witness was written to File; Kind, Count and
	// What then describe it: "violation", 3, "waypoints".
	Written bool
	Kind    string
	Count   int
	What    string
	// Note is a remark on a written witness: where its invariants come
	// from when the engine that answered has none.
	Note string
	// Why says why no witness was written: an unknown verdict, a trace
	// cut short, a bounded answer, invariants that could not be computed.
	Why string
	// Err is the error of a witness file that could not be written.
	Err error
}

// reachableSetsEngine is the engine whose path edges witness.FromReachable
// computes: the invariants of a correctness witness are its reachable
// sets, whichever engine answered.
const reachableSetsEngine = "summary"

// witnessFormat returns the format Options ask for, and whether the name
// is one.
func (o *Options) witnessFormat() (witness.Format, bool) {
	if o.WitnessFormat != "" {
		return witness.ParseFormat(o.WitnessFormat)
	}
	f, _ := witness.FormatOf(o.Witness)
	return f, true
}

// writeWitness writes the witness of the answer res about p (whose text
// is src) to Options.Witness: a violation witness for an error with its
// trace, a correctness witness for an unbounded proof. It returns what it
// did, and the correctness witness it built (for WriteHTML's proof).
func writeWitness(ctx context.Context, opts *Options, src []byte, p *ir.Program, an *analysis.Cache, res *result.Result) (*WitnessOutcome, *witness.Witness) {
	out := &WitnessOutcome{File: opts.Witness}
	format, _ := opts.witnessFormat()
	if res.Verdict == result.Safe && res.Bound.Kind == result.Unbounded && format == witness.GraphML {
		out.Why = fmt.Sprintf("%v (%s yaml)", witness.ErrGraphMLCorrectness, opts.optionName("WitnessFormat", "--witness-format"))
		return out, nil
	}
	w, note, why := buildWitness(ctx, engine.Query{MaxNodes: opts.MaxNodes, Analyses: an}, src, p, res)
	if w == nil {
		out.Why = why
		return out, nil
	}
	out.Note = note
	if out.Err = writeWitnessFile(opts.Witness, w, format); out.Err != nil {
		return out, nil
	}
	out.Written, out.Kind = true, w.Kind.String()
	out.Count, out.What = witnessSize(w)
	if w.Kind == witness.Violation {
		return out, nil
	}
	return out, w
}

// witnessSize counts what a witness holds: (3, "waypoints"), (4,
// "invariants and contracts"), (242, "configuration invariants").
func witnessSize(w *witness.Witness) (int, string) {
	switch {
	case w.Kind == witness.Violation:
		n := 0
		for _, s := range w.Segments {
			n += len(s.Waypoints)
		}
		return n, "waypoints"
	case len(w.Configurations) > 0:
		return len(w.Configurations), "configuration invariants"
	case len(w.ThreadInvariants) > 0:
		return len(w.ThreadInvariants), "thread invariants"
	}
	return len(w.Invariants) + len(w.Contracts), "invariants and contracts"
}

// buildWitness builds the witness of the answer res about p: a violation
// witness for an error with its trace, a correctness witness for an
// unbounded proof. note says where a correctness witness's invariants
// come from when the engine that answered has none; without a witness,
// why says why. q gives the BDD node limit and the check's cache of p's
// analyses.
func buildWitness(ctx context.Context, q engine.Query, src []byte, p *ir.Program, res *result.Result) (w *witness.Witness, note, why string) {
	config := "engine " + res.Engine
	stamp := time.Now().UTC().Format(time.RFC3339)
	version := Version()
	var err error
	switch {
	case res.Verdict == result.Unknown:
		return nil, "", unknownWhy(res)
	case res.Verdict == result.Unsafe && (res.TraceCut || res.Trace == nil):
		return nil, "", "the error is reachable, but its trace was cut"
	case res.Verdict == result.Unsafe:
		w, err = witness.FromTrace(p, res.Trace, witness.Meta(p, src, version, config, stamp, witness.Violation))
		if err != nil {
			return nil, "", err.Error()
		}
	case res.Bound.Kind != result.Unbounded:
		return nil, "", fmt.Sprintf("a bounded answer (up to %s) is no proof, and has no correctness witness", res.Bound)
	case p.Concurrent:
		// Whatever engine answered, the invariants are the reachable
		// configurations of the concrete semantics (package interp).
		config += "; invariants from the interpreter's reachable configurations"
		w, err = witness.FromConcurrent(ctx, p, witness.Meta(p, src, version, config, stamp, witness.Correctness), 0)
		if err != nil {
			return nil, "", fmt.Sprintf("the invariants could not be computed: %v", err)
		}
	default:
		if res.Engine != reachableSetsEngine {
			config += "; invariants from the " + reachableSetsEngine + " engine's path edges"
			note = fmt.Sprintf("the %s engine has no reachable sets: the invariants come from the %s engine", res.Engine, reachableSetsEngine)
		}
		w, err = witness.FromReachable(ctx, p, witness.Meta(p, src, version, config, stamp, witness.Correctness), q)
		if err != nil {
			return nil, "", fmt.Sprintf("the invariants could not be computed: %v", err)
		}
	}
	return w, note, ""
}

// unknownWhy says why an Unknown answer has no witness: "the verdict is
// unknown (timeout (5s))".
func unknownWhy(res *result.Result) string {
	if res.Reason == "" {
		return "the verdict is unknown"
	}
	return fmt.Sprintf("the verdict is unknown (%s)", res.Reason)
}

func writeWitnessFile(path string, w *witness.Witness, format witness.Format) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := w.Write(f, format); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// String says what was written, as the command's line on standard error:
// "violation witness (3 waypoints) written to w.yml", or "no witness
// written to w.yml: why".
func (o *WitnessOutcome) String() string {
	if !o.Written {
		return fmt.Sprintf("no witness written to %s: %s", o.File, o.Why)
	}
	return fmt.Sprintf("%s witness (%d %s) written to %s", o.Kind, o.Count, o.What, o.File)
}
