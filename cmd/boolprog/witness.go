package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"boolprog/engine/summary"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/witness"
)

// witnessFlags are check's --witness and --witness-format.
type witnessFlags struct {
	file   string
	format string
}

func (wf *witnessFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&wf.file, "witness", "", "write a witness to this file: a violation witness for a failed check, a correctness witness for a successful one (see 'boolprog validate')")
	fs.StringVar(&wf.format, "witness-format", "", "the witness's format: yaml (witness 2.0 style) or graphml; default: from the file's extension (.graphml, .xml: graphml), else yaml")
}

// check validates the witness flags against the others; "" if they are
// fine, else the usage error.
func (wf *witnessFlags) check(set map[string]bool, files int) string {
	if set["witness-format"] && wf.file == "" {
		return "--witness-format needs --witness FILE"
	}
	if wf.format != "" {
		if _, ok := witness.ParseFormat(wf.format); !ok {
			return fmt.Sprintf("unknown witness format %q (want yaml or graphml)", wf.format)
		}
	}
	if wf.file != "" && set["spec"] {
		// The error would be the observer's, which no witness location
		// can name, and the invariants would be the plain program's.
		return "--witness speaks of the program's own errors, not of an observer automaton (--spec)"
	}
	if wf.file != "" && files > 1 {
		return fmt.Sprintf("--witness takes the witness of one FILE, not %d", files)
	}
	return ""
}

func (wf *witnessFlags) fileFormat() witness.Format {
	if f, ok := witness.ParseFormat(wf.format); ok && wf.format != "" {
		return f
	}
	f, _ := witness.FormatOf(wf.file)
	return f
}

// write writes the witness of a check's result, if --witness asked for
// one, and says on stderr what it wrote, or why it wrote none: a flag the
// user set is never silently ignored. It returns an error only if the
// file could not be written.
func (wf *witnessFlags) write(ctx context.Context, stderr io.Writer, quiet bool, src []byte, p *ir.Program, res *result.Result, maxNodes int) error {
	if wf.file == "" {
		return nil
	}
	none := func(format string, args ...any) error {
		fmt.Fprintf(stderr, "boolprog check: no witness written to %s: %s\n", wf.file, fmt.Sprintf(format, args...))
		return nil
	}
	config := "engine " + res.Engine
	stamp := time.Now().UTC().Format(time.RFC3339)
	var w *witness.Witness
	var note string
	switch {
	case res.Verdict == result.Unknown:
		return none("the verdict is unknown")
	case res.Verdict == result.Unsafe && (res.TraceCut || res.Trace == nil):
		return none("the error is reachable, but its trace was cut")
	case res.Verdict == result.Unsafe:
		var err error
		w, err = witness.FromTrace(p, res.Trace, witness.Meta(p, src, versionString(), config, stamp, witness.Violation))
		if err != nil {
			return none("%v", err)
		}
	case res.Bound.Kind != result.Unbounded:
		return none("a bounded answer (up to %s) is no proof, and has no correctness witness", res.Bound)
	case p.Concurrent:
		// Whatever engine answered, the invariants are the reachable
		// configurations of the concrete semantics (package interp).
		config += "; invariants from the interpreter's reachable configurations"
		var err error
		w, err = witness.FromConcurrent(ctx, p, witness.Meta(p, src, versionString(), config, stamp, witness.Correctness), 0)
		if err != nil {
			return none("the invariants could not be computed: %v", err)
		}
	default:
		if res.Engine != summary.Name {
			config += "; invariants from the summary engine's path edges"
			note = fmt.Sprintf("the %s engine has no reachable sets: the invariants come from the summary engine", res.Engine)
		}
		var err error
		w, err = witness.FromReachable(ctx, p, witness.Meta(p, src, versionString(), config, stamp, witness.Correctness), maxNodes)
		if err != nil {
			return none("the invariants could not be computed: %v", err)
		}
	}
	f, err := os.Create(wf.file)
	if err != nil {
		return err
	}
	if err := w.Write(f, wf.fileFormat()); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if !quiet {
		if note != "" {
			fmt.Fprintf(stderr, "note: %s\n", note)
		}
		n := len(w.Invariants) + len(w.Contracts)
		what := "invariants and contracts"
		switch {
		case len(w.Configurations) > 0:
			n, what = len(w.Configurations), "configuration invariants"
		case len(w.ThreadInvariants) > 0:
			n, what = len(w.ThreadInvariants), "thread invariants"
		}
		if w.Kind == witness.Violation {
			n, what = 0, "waypoints"
			for _, s := range w.Segments {
				n += len(s.Waypoints)
			}
		}
		fmt.Fprintf(stderr, "witness: %s witness (%d %s) written to %s\n", w.Kind, n, what, wf.file)
	}
	return nil
}

// versionString is the module version for witness metadata.
func versionString() string {
	return strings.TrimPrefix(versionLine(), "boolprog ")
}
