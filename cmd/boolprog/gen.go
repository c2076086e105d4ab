package main

import (
	"errors"
	"fmt"
	"strconv"

	"boolprog/gen"
)

const genUsage = `usage:
  boolprog gen random [--seed N] [--globals N] [--locals N] [--procs N] [--stmts N] [--depth N]
  boolprog gen bebop-template [--error none|reachable|unreachable] N

Prints a generated Boolean program on standard output. Run
'boolprog gen GENERATOR -h' for a generator's flags.
`

func runGen(args []string, s *streams) int {
	if len(args) == 0 {
		fmt.Fprint(s.stderr, genUsage)
		return exitUsage
	}
	switch args[0] {
	case "random":
		return runGenRandom(args[1:], s)
	case "bebop-template":
		return runGenTemplate(args[1:], s)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(s.stdout, genUsage)
		return exitOK
	}
	fmt.Fprintf(s.stderr, "boolprog gen: unknown generator %q (want random or bebop-template)\n%s", args[0], genUsage)
	return exitUsage
}

func runGenRandom(args []string, s *streams) int {
	c := newCommand("gen random", "usage: boolprog gen random [flags]\n\nPrints a random Boolean program (for differential testing).\n")
	fs := c.fs
	seed := fs.Int64("seed", 1, "seed: the same seed gives the same program")
	var opt gen.Options
	fs.IntVar(&opt.Globals, "globals", 0, "number of globals (0: default, negative: none; at most 4096)")
	fs.IntVar(&opt.MaxLocals, "locals", 0, "maximum parameters plus locals per procedure (0: default, negative: none; at most 1024)")
	fs.IntVar(&opt.Procs, "procs", 0, "number of procedures, main included (0: default; at most 10000)")
	fs.IntVar(&opt.Stmts, "stmts", 0, "maximum statements at the top level of a body (0: default; at most 1000)")
	fs.IntVar(&opt.Depth, "depth", 0, "maximum nesting of if and while (0: default, negative: none; at most 16)")
	threads := fs.Int("threads", 0, "a concurrent program with `n` threads (0: a sequential one); the other flags then shape each thread's code")
	style := fs.String("style", "any", "concurrent programs: how threads are created: getafix (init, threadN, the atomic global), satabs (main starts them, atomic_begin/end) or any (by seed)")
	rest, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	if len(rest) != 0 {
		return c.usageError(s, "unexpected argument %q", rest[0])
	}
	// A negative count of procedures or statements has no meaning of its
	// own: gen would silently make it 1.
	if opt.Procs < 0 || opt.Stmts < 0 {
		return c.usageError(s, "--procs and --stmts must not be negative (0: the default)")
	}
	// Caps, so that a slip (--globals 100000000) is an error rather than
	// minutes of output that no engine could read: each is far beyond
	// what any engine here decides (the hard set has 16-40 variables in
	// scope). Together they still allow large files (every cap but
	// --procs at once, with 100 procedures: 12 MB in 16 s).
	for _, l := range []struct {
		name     string
		val, max int
	}{{"globals", opt.Globals, 4096}, {"locals", opt.MaxLocals, 1024}, {"procs", opt.Procs, 10_000}, {"stmts", opt.Stmts, 1000}, {"depth", opt.Depth, 16}} {
		if l.val > l.max {
			return c.usageError(s, "--%s %d: at most %d", l.name, l.val, l.max)
		}
	}
	st, ok := gen.ParseStyle(*style)
	if !ok {
		return c.usageError(s, "--style %q: want getafix, satabs or any", *style)
	}
	if *threads < 0 || *threads > 64 {
		return c.usageError(s, "--threads %d: want 0 (sequential) to 64", *threads)
	}
	if *threads > 0 {
		fmt.Fprint(s.stdout, gen.RandomConcurrent(*seed, gen.ConcOptions{Threads: *threads, Style: st, Thread: opt}))
		return exitOK
	}
	fmt.Fprint(s.stdout, gen.Random(*seed, opt))
	return exitOK
}

func runGenTemplate(args []string, s *streams) int {
	c := newCommand("gen bebop-template", "usage: boolprog gen bebop-template [flags] N\n\nPrints the Bebop paper's template program T(N) (section 4): N levels of\nprocedures, each calling the next twice.\n")
	var kind templateErrorFlag
	c.fs.Var(&kind, "error", "add an error to main: none, reachable or unreachable")
	rest, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	if len(rest) != 1 {
		return c.usageError(s, "want exactly one N")
	}
	n, err := strconv.Atoi(rest[0])
	if err != nil || n < 1 || n > 1_000_000 {
		return c.usageError(s, "N must be a whole number from 1 to 1000000, not %q", rest[0])
	}
	fmt.Fprint(s.stdout, gen.BebopTemplateWith(n, kind.e))
	return exitOK
}

// templateErrorFlag is a flag.Value for the T(N) variants of --error.
type templateErrorFlag struct{ e gen.TemplateError }

func (f *templateErrorFlag) String() string { return f.e.String() }

func (f *templateErrorFlag) Set(s string) error {
	e, ok := gen.ParseTemplateError(s)
	if !ok {
		return errors.New("want none, reachable or unreachable")
	}
	f.e = e
	return nil
}
