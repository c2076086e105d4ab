package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"

	"boolprog/gen"
)

const genUsage = `usage:
  boolprog gen random [--seed N] [--globals N] [--locals N] [--procs N] [--stmts N] [--depth N]
  boolprog gen bebop-template [--error none|reachable|unreachable] N
`

func runGen(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, genUsage)
		return exitUsage
	}
	switch args[0] {
	case "random":
		return runGenRandom(args[1:], stdout, stderr)
	case "bebop-template":
		return runGenTemplate(args[1:], stdout, stderr)
	}
	fmt.Fprintf(stderr, "boolprog gen: unknown generator %q\n%s", args[0], genUsage)
	return exitUsage
}

func runGenRandom(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen random", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Int64("seed", 1, "seed: the same seed gives the same program")
	var opt gen.Options
	fs.IntVar(&opt.Globals, "globals", 0, "number of globals (0: default)")
	fs.IntVar(&opt.MaxLocals, "locals", 0, "maximum parameters plus locals per procedure (0: default)")
	fs.IntVar(&opt.Procs, "procs", 0, "number of procedures, main included (0: default)")
	fs.IntVar(&opt.Stmts, "stmts", 0, "maximum statements at the top level of a body (0: default)")
	fs.IntVar(&opt.Depth, "depth", 0, "maximum nesting of if and while (0: default)")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(rest) != 0 {
		fmt.Fprint(stderr, genUsage)
		return exitUsage
	}
	fmt.Fprint(stdout, gen.Random(*seed, opt))
	return exitOK
}

func runGenTemplate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("gen bebop-template", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var kind templateErrorFlag
	fs.Var(&kind, "error", "add an error to main: none, reachable or unreachable")
	rest, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(rest) != 1 {
		fmt.Fprint(stderr, genUsage)
		return exitUsage
	}
	n, err := strconv.Atoi(rest[0])
	if err != nil || n < 1 || n > 1_000_000 {
		fmt.Fprintf(stderr, "boolprog gen bebop-template: N must be a whole number from 1 to 1000000, not %q\n", rest[0])
		return exitUsage
	}
	fmt.Fprint(stdout, gen.BebopTemplateWith(n, kind.e))
	return exitOK
}

// templateErrorFlag is a flag.Value for the T(N) variants of --error.
type templateErrorFlag struct{ e gen.TemplateError }

var templateErrors = []struct {
	name string
	e    gen.TemplateError
}{{"none", gen.NoError}, {"reachable", gen.ReachableError}, {"unreachable", gen.UnreachableError}}

func (f *templateErrorFlag) String() string {
	for _, t := range templateErrors {
		if t.e == f.e {
			return t.name
		}
	}
	return ""
}

func (f *templateErrorFlag) Set(s string) error {
	for _, t := range templateErrors {
		if t.name == s {
			f.e = t.e
			return nil
		}
	}
	return fmt.Errorf("want none, reachable or unreachable")
}
