package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"strings"

	"boolprog"
	"boolprog/conc"
	"boolprog/syntax"
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
	if rounds < 1 || maxThreads < 0 {
		return c.usageError(s, "--rounds must be at least 1 and --max-threads not negative")
	}
	l, prog, ok := loadProgram(context.Background(), files[0], &lf, target, s)
	if !ok {
		return exitInput
	}
	inputErr := func(err error) int {
		e := &syntax.Error{Filename: l.Name, Msg: err.Error()}
		var ce *conc.Error
		if errors.As(err, &ce) {
			e.Pos, e.Msg = ce.Pos, ce.Msg
		}
		boolprog.WriteErrors(s.stderr, syntax.ErrorList{e})
		return exitInput
	}
	if threads != "" {
		if prog, err = conc.WithThreads(prog, strings.Split(threads, ",")); err != nil {
			return inputErr(err)
		}
	}
	if !prog.Concurrent {
		return inputErr(errors.New("the program is sequential: it has no threads to sequentialise (name them with --threads)"))
	}
	m, err := conc.NewModel(prog, conc.Options{})
	if err == nil && maxThreads > 0 {
		if created := maxThreads - len(m.Static); created < 1 || m.Convention != conc.Dynamic {
			err = fmt.Errorf("--max-threads %d: the program starts with %d threads and creates %d more at most", maxThreads, len(m.Static), max(created, 0))
		} else {
			m, err = conc.NewModel(prog, conc.Options{MaxThreads: created})
		}
	}
	if err != nil {
		return inputErr(err)
	}
	build := conc.Eager
	if lazy {
		build = conc.Lazy
	}
	seq, err := build(m, rounds, conc.GoalError)
	if err != nil {
		fmt.Fprintf(s.stderr, "boolprog seq: %v\n", err)
		return exitUsage
	}
	w := bufio.NewWriter(s.stdout)
	kind := "eager"
	if lazy {
		kind = "lazy"
	}
	fmt.Fprintf(w, "// The %s sequentialisation of %s for %d round-robin rounds (%s convention, %d threads); error label %s; the globals in the BDD order conc-eager and conc-lazy give the sequential engine (--order declaration).\n", kind, l.Name, rounds, m.Convention, m.Slots(), seq.Prog.Target)
	if err := conc.Print(w, seq.Prog); err != nil {
		fmt.Fprintf(s.stderr, "boolprog seq: %v\n", err)
		return exitUsage
	}
	w.Flush()
	return exitOK
}
