package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"boolprog"
)

const seqHead = `usage: boolprog seq [flags] FILE

Prints the sequentialisation of the concurrent program FILE ("-": standard
input) for K round-robin rounds, the sequential Boolean program that
conc-eager (or, with --lazy, conc-lazy) checks: its error label is reached
iff the program reaches an error within K rounds (and at most --max-threads
threads created at run time). The text parses and checks on its own:
  boolprog seq --rounds 2 FILE > seq.bp && boolprog check seq.bp
`

func runSeq(args []string, s *streams) int {
	c := newCommand("seq", seqHead)
	var lf loadFlags
	lf.register(c.fs)
	var target, threads string
	var rounds, maxThreads int
	var lazy bool
	c.fs.StringVar(&target, "target", "", "error label (default SLIC_ERROR; a label given here must occur)")
	c.fs.StringVar(&target, "l", "", "shorthand for --target")
	c.fs.IntVar(&rounds, "rounds", 2, "round-robin rounds (at least 1)")
	c.fs.BoolVar(&lazy, "lazy", false, "the lazy sequentialisation (no guessed globals) instead of the eager one")
	c.fs.IntVar(&maxThreads, "max-threads", 0, "at most `n` threads, the initial ones included (0: one more per thread-creation site)")
	c.fs.StringVar(&threads, "threads", "", "run these procedures as the threads, e.g. f,g,g (a program without thread statements)")
	files, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	if len(files) != 1 {
		return c.usageError(s, "want exactly one FILE, not %d", len(files))
	}
	opts := boolprog.SeqOptions{Rounds: rounds, Lazy: lazy, MaxThreads: maxThreads, CommandLine: true}
	if err := opts.Validate(); err != nil {
		var oe *boolprog.OptionError
		errors.As(err, &oe)
		return c.usageError(s, "%s", oe.Msg)
	}
	var threadList []string
	if threads != "" {
		threadList = strings.Split(threads, ",")
	}
	l, prog, ok := loadProgram(context.Background(), files[0], &lf, target, threadList, s)
	if !ok {
		return exitInput
	}
	// Written only if whole.
	var buf bytes.Buffer
	err = boolprog.WriteSequentialisation(&buf, l.Name, prog, opts)
	var in *boolprog.InputError
	switch {
	case errors.As(err, &in):
		boolprog.WriteErrors(s.stderr, in)
		return exitInput
	case err != nil:
		fmt.Fprintf(s.stderr, "boolprog seq: %v\n", err)
		return exitUsage
	}
	s.stdout.Write(buf.Bytes())
	return exitOK
}
