// Command boolprog checks Boolean programs: it reads a .bp file, reports
// syntax and semantic errors precisely, and decides whether an assertion can
// fail or a target label can be reached, printing a trace when one can.
//
// Usage:
//
//	boolprog check [flags] FILE     decide reachability of the error
//	boolprog fmt [-w] FILE...       print canonical source
//	boolprog graph FILE             control-flow automata as Graphviz DOT
//	boolprog gen random --seed N    a random Boolean program
//	boolprog gen bebop-template N   the Bebop paper's template T(N)
//	boolprog bench [--engine E]     an engine on T(N) for several N, one run
//
// Exit codes: 0 verification successful (or success of other commands),
// 10 verification failed, 5 unknown, 2 bad input, 1 bad usage or internal
// error.
package main

import (
	"fmt"
	"io"
	"os"
)

// Exit codes of the CLI contract (DESIGN.md).
const (
	exitOK      = 0
	exitUsage   = 1
	exitInput   = 2
	exitUnknown = 5
	exitFailed  = 10
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `boolprog verifies Boolean programs.

Usage:
  boolprog check [flags] FILE     can an assertion fail or the target label be reached?
  boolprog fmt [-w] FILE...       print (or with -w rewrite) files in canonical form
  boolprog graph FILE             print the control-flow automata as Graphviz DOT
  boolprog gen random [--seed N]  print a random Boolean program
  boolprog gen bebop-template N   print the Bebop paper's template program T(N)

Run 'boolprog COMMAND -h' for the flags of a command.
`

// run is the whole program, with its streams passed in so tests can drive it.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "check":
		return runCheck(rest, stdout, stderr)
	case "fmt":
		return runFmt(rest, stdout, stderr)
	case "graph":
		return runGraph(rest, stdout, stderr)
	case "gen":
		return runGen(rest, stdout, stderr)
	case "bench":
		return runBench(rest, stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "boolprog: unknown command %q\n\n%s", cmd, usage)
	return exitUsage
}
