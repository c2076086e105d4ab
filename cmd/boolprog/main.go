// Command boolprog checks Boolean programs: it reads a .bp file, reports
// syntax and semantic errors precisely, and decides whether an assertion can
// fail or a target label can be reached, printing a trace when one can.
//
// Usage:
//
//	boolprog check [flags] FILE...  decide reachability of the error, per file
//	boolprog fmt [-w] FILE...       print canonical source (after checking it)
//	boolprog graph FILE             control-flow automata as Graphviz DOT
//	boolprog gen random --seed N    a random Boolean program
//	boolprog gen bebop-template N   the Bebop paper's template T(N)
//	boolprog bench [--engine E]     an engine on T(N) for several N, one run
//	boolprog mucke [flags] FILE.mu  evaluate a fixed-point calculus file
//	boolprog pds [flags] FILE       post*/pre* on a weighted pushdown system
//	boolprog seq [flags] FILE       the sequential program of K rounds
//	boolprog batch [flags] TASKS|DIR...  many checks in parallel, scored
//	boolprog validate PROGRAM WITNESS  check a witness of check --witness
//	boolprog version                the version (also --version)
//	boolprog help [COMMAND]         the usage, or a command's flags
//
// A FILE named "-" is standard input.
//
// Exit codes: 0 verification successful (or success of other commands),
// 10 verification failed, 5 unknown, 2 bad input, 1 bad usage or internal
// error, 3 (batch) a wrong answer, 4 (batch) a task ended ERROR, 130 or 143 interrupted by SIGINT or SIGTERM (after the line
// "VERIFICATION UNKNOWN: interrupted"). With several files, check exits
// with the worst code of its files, in the order 0 < 5 < 10 < 2.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"boolprog"
	"boolprog/internal/interrupt"
)

// Exit codes of the CLI contract (DESIGN.md, README "Exit codes").
const (
	exitOK      = 0
	exitUsage   = 1
	exitInput   = 2
	exitUnknown = 5
	exitFailed  = 10
)

// streams are the standard files of one run, passed in so that tests can
// drive the whole command.
type streams struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// tty says that stderr is a terminal: only then does a long run show
	// its progress line unless -v asks for it.
	tty bool
}

func main() {
	// Only check, bench, mucke and batch answer a signal with a verdict; the other
	// commands keep the default: a signal ends them at once.
	ctx, stop := context.Background(), func() {}
	if len(os.Args) > 1 && (os.Args[1] == "check" || os.Args[1] == "bench" || os.Args[1] == "mucke" || os.Args[1] == "batch") {
		ctx, stop = interrupt.Notify(ctx)
	}
	code := runContext(ctx, os.Args[1:], &streams{
		stdin:  os.Stdin,
		stdout: os.Stdout,
		stderr: os.Stderr,
		tty:    isTerminal(os.Stderr),
	})
	stop()
	os.Exit(code)
}

// isTerminal reports whether f is a character device (a terminal), without
// a terminal library: enough to decide whether a progress line is welcome.
func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

const usage = `boolprog verifies Boolean programs.

Usage:
  boolprog check [flags] FILE...  can an assertion fail or the target label be reached?
  boolprog fmt [-w] FILE...       check files and print (or with -w rewrite) them in canonical form
  boolprog graph FILE             print the control-flow automata as Graphviz DOT
  boolprog gen random [--seed N]  print a random Boolean program
  boolprog gen bebop-template N   print the Bebop paper's template program T(N)
  boolprog bench [flags]          time an engine on T(N), N = 100 ... 3200, in one run
  boolprog mucke [flags] FILE.mu  evaluate a fixed-point calculus file (Mucke's language, as Getafix writes it)
  boolprog pds [flags] FILE       post*/pre* on a weighted pushdown system file (package wpds/pdsfile)
  boolprog seq [flags] FILE       the sequential program that conc-eager/conc-lazy check for K rounds
  boolprog batch [flags] TASKS|DIR...  many checks in parallel, with time and memory limits, scored
  boolprog validate PROGRAM WITNESS  check a witness of check --witness (exit 0 confirmed, 10 rejected)
  boolprog version                print the version (also: boolprog --version)
  boolprog help [COMMAND]         print this text, or a command's flags (as COMMAND -h)

A FILE named - is standard input. Run 'boolprog COMMAND -h' for the flags of
a command.

Exit codes: 0 successful, 10 verification failed, 5 verification unknown,
2 bad input, 1 bad usage or internal error, 3 batch: a wrong answer,
4 batch: a task ended ERROR, 130/143 interrupted (SIGINT/SIGTERM).
`

const versionHelp = `usage: boolprog version (also: boolprog --version)

Prints "boolprog", the semantic version, and in parentheses the build: the
module version, the commit and its time when built from a checkout, and the
Go version, e.g. "boolprog 0.9.0 ((devel) (commit 022362e1a2b3 ...) go1.26.8)".
`

// run is the whole program with an empty standard input and no terminal:
// the form the tests use.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, &streams{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr})
}

// runContext is the whole program. Cancelling ctx with an
// *interrupt.Signal cause (interrupt.Notify) ends a check with
// "VERIFICATION UNKNOWN: interrupted" and the signal's exit code.
func runContext(ctx context.Context, args []string, s *streams) int {
	if len(args) == 0 {
		fmt.Fprint(s.stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "check":
		return runCheck(ctx, rest, s)
	case "fmt":
		return runFmt(rest, s)
	case "graph":
		return runGraph(rest, s)
	case "gen":
		return runGen(rest, s)
	case "bench":
		return runBench(ctx, rest, s)
	case "mucke":
		return runMucke(ctx, rest, s)
	case "pds":
		return runPDS(ctx, rest, s)
	case "seq":
		return runSeq(rest, s)
	case "batch":
		return runBatch(ctx, rest, s)
	case "validate":
		return runValidate(ctx, rest, s)
	case "version", "-version", "--version":
		if len(rest) == 1 && (rest[0] == "-h" || rest[0] == "-help" || rest[0] == "--help") {
			fmt.Fprint(s.stdout, versionHelp)
			return exitOK
		}
		if len(rest) > 0 {
			fmt.Fprintf(s.stderr, "boolprog version: unexpected argument %q\n", rest[0])
			return exitUsage
		}
		fmt.Fprintln(s.stdout, versionLine())
		return exitOK
	case "help", "-h", "-help", "--help":
		switch {
		case len(rest) > 1:
			fmt.Fprintf(s.stderr, "boolprog help: unexpected argument %q (help COMMAND shows one command's flags)\n", rest[1])
			return exitUsage
		case len(rest) == 1 && !strings.HasPrefix(rest[0], "-") && rest[0] != "help":
			// help COMMAND: the command's own help (an unknown
			// command is reported as such).
			return runContext(ctx, []string{rest[0], "-h"}, s)
		}
		fmt.Fprint(s.stdout, usage)
		return exitOK
	}
	fmt.Fprintf(s.stderr, "boolprog: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}

// command is the flag set of one subcommand with its help text.
type command struct {
	fs   *flag.FlagSet
	name string // "check", "gen random", ...
	// head is the usage text printed before the flags (ends in a newline).
	head string
	// tail, if set, is printed after the flags.
	tail func() string
}

func newCommand(name, head string) *command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	// The flag package prints errors and usage itself; we print both
	// ourselves, so that -h goes to stdout and errors can be JSON.
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &command{fs: fs, name: name, head: head}
}

// printUsage writes the command's help text: the head, the flags, the tail.
func (c *command) printUsage(w io.Writer) {
	fmt.Fprint(w, c.head)
	if hasFlags(c.fs) {
		fmt.Fprint(w, "\nFlags:\n")
		c.fs.SetOutput(w)
		c.fs.PrintDefaults()
		c.fs.SetOutput(io.Discard)
	}
	if c.tail != nil {
		fmt.Fprint(w, c.tail())
	}
}

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// errHelp is returned by parse when the user asked for help (which has
// then been printed on stdout): the command exits 0.
var errHelp = errors.New("help requested")

// parse parses flags that may come before or after the positional arguments
// (`boolprog check main.bp -l ERROR` is how the regression suites call
// checkers), and returns the positional ones. On -h it prints the help on
// stdout and returns errHelp; on a bad flag it returns the error, which the
// caller reports (as text or JSON) with exit code exitUsage.
func (c *command) parse(args []string, s *streams) ([]string, error) {
	// Everything after "--" is positional, even if it starts with "-".
	var after []string
	for i, a := range args {
		if a == "--" {
			args, after = args[:i], args[i+1:]
			break
		}
	}
	var pos []string
	for {
		if err := c.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				c.printUsage(s.stdout)
				return nil, errHelp
			}
			return nil, err
		}
		if c.fs.NArg() == 0 {
			if name := emptyFlag(c.fs); name != "" {
				return nil, fmt.Errorf("flag %s is given an empty value: give one, or leave the flag out", name)
			}
			return append(pos, after...), nil
		}
		// Parse stopped at a non-flag argument ("-" alone is one: standard
		// input): keep it, go on after it.
		pos = append(pos, c.fs.Arg(0))
		args = c.fs.Args()[1:]
	}
}

// emptyFlag returns the flag (as "--name" or "-l") set to "" whose
// default is "" (a label, a file, an output), or "": such a flag would be
// silently ignored (`-l ""` checked SLIC_ERROR).
func emptyFlag(fs *flag.FlagSet) string {
	name := ""
	fs.Visit(func(f *flag.Flag) {
		// Only plain string flags: an engine's flag proxy or a custom
		// Value may print "" whatever it holds.
		g, ok := f.Value.(flag.Getter)
		if !ok {
			return
		}
		if v, isString := g.Get().(string); isString && v == "" && f.DefValue == "" && name == "" {
			name = "--" + f.Name
			if len(f.Name) == 1 {
				name = "-" + f.Name
			}
		}
	})
	return name
}

// usageError reports a usage error of command c on stderr, pointing at -h,
// and returns exitUsage.
func (c *command) usageError(s *streams, format string, args ...any) int {
	fmt.Fprintf(s.stderr, "boolprog %s: %s\nRun 'boolprog %s -h' for usage.\n", c.name, fmt.Sprintf(format, args...), c.name)
	return exitUsage
}

// flagError turns what parse returned into an exit code: 0 for help,
// exitUsage (with a message) for a bad flag.
func (c *command) flagError(s *streams, err error) int {
	if errors.Is(err, errHelp) {
		return exitOK
	}
	return c.usageError(s, "%v", err)
}

// versionLine describes the build (boolprog.Version).
func versionLine() string { return "boolprog " + boolprog.Version() }
