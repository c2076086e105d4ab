package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"boolprog"
	"boolprog/engine"
	"boolprog/internal/interrupt"
	"boolprog/syntax"
	"boolprog/witness"
)

const validateHead = `usage: boolprog validate [flags] PROGRAM WITNESS

Checks a witness (YAML or GraphML, as 'boolprog check --witness' writes
them) against PROGRAM, independently of the engine that produced it:
  - a violation witness by searching the program's executions (the concrete
    interpreter) for one that follows its waypoints to the error;
  - a correctness witness of a sequential program by checking with BDDs
    that its invariants are inductive: initial states in them, every edge
    keeps them, calls enter the callee's requires and return through its
    ensures, no error location in them;
  - a correctness witness of a concurrent program by enumerating the
    configurations its invariants admit (at most --max-configs) and
    stepping each with the concrete interpreter: the initial ones admitted,
    none at an error, every successor admitted (configuration invariants);
    or the same for one thread's states, and the changes of the globals by
    the other threads' steps (thread invariants).
The last line is one of
  WITNESS CONFIRMED                exit 0
  WITNESS REJECTED: reason         exit 10 (preceded by witness:line:col: where it is)
  WITNESS UNKNOWN: reason          exit 5 (a time or search limit)
A malformed witness or program (file:line:col: message) exits 2, usage
errors 1. The target label is the one the witness's specification names
(--target overrides it); a witness for another program (its hash, its
functions, lines or variables) is rejected with the reason.
`

func runValidate(ctx context.Context, args []string, s *streams) int {
	c := newCommand("validate", validateHead)
	var lf loadFlags
	lf.register(c.fs)
	var target, threads string
	var timeout time.Duration
	var maxConfigs, maxNodes int
	c.fs.StringVar(&target, "target", "", "the error label (default: the one the witness's specification names, else SLIC_ERROR)")
	c.fs.StringVar(&target, "l", "", "shorthand for --target")
	c.fs.StringVar(&threads, "threads", "", "run these procedures as the threads, as check --threads did")
	c.fs.DurationVar(&timeout, "timeout", 0, "give up after this long (0: no limit): WITNESS UNKNOWN")
	c.fs.IntVar(&maxConfigs, "max-configs", 1<<20, "the configurations a violation witness's search may explore (past it: WITNESS UNKNOWN), and that a concurrent program's invariants may admit (past it: WITNESS REJECTED)")
	c.fs.IntVar(&maxNodes, "max-nodes", 0, "the BDD node limit of a correctness witness's check (0: default)")
	files, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	if len(files) != 2 {
		return c.usageError(s, "want PROGRAM and WITNESS, got %d arguments", len(files))
	}
	if maxConfigs < 1 || maxNodes < 0 || timeout < 0 {
		return c.usageError(s, "limits must be positive")
	}
	if files[0] == "-" && files[1] == "-" {
		return c.usageError(s, "standard input (-) can be read only once")
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, timeout, engine.ErrTimeout)
		defer cancel()
	}
	wname := boolprog.DisplayName(files[1])
	data, ok := lf.readFile(ctx, files[1], s)
	if !ok {
		return exitInput
	}
	w, err := witness.Parse(wname, data)
	if err != nil {
		fmt.Fprintln(s.stderr, err)
		return exitInput
	}
	if w.Legacy() {
		fmt.Fprintf(s.stderr, "note: %s is in the form earlier versions of boolprog wrote (format version %s, which is not SV-COMP's); read as format %s\n", wname, w.Metadata.FormatVersion, witness.FormatVersion)
	}
	opts := lf.options(files[0])
	opts.Target, opts.MaxNodes = target, maxNodes
	if threads != "" {
		opts.Threads = strings.Split(threads, ",")
	}
	v, err := boolprog.ValidateWitness(ctx, lf.reader(files[0], s.stdin), w, opts, maxConfigs)
	if err != nil {
		boolprog.WriteErrors(s.stderr, err)
		return exitInput
	}
	if v.Malformed {
		fmt.Fprintln(s.stderr, (&syntax.Error{Filename: wname, Pos: v.Pos, Msg: v.Reason}).Error())
		return exitInput
	}
	v.WriteText(s.stdout, wname)
	if intr := interrupt.Of(ctx); intr != nil && v.Verdict == witness.Unknown {
		return intr.ExitCode()
	}
	return v.ExitCode()
}
