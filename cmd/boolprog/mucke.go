package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"time"

	"boolprog"
	"boolprog/fix"
	"boolprog/fix/program"
	"boolprog/internal/interrupt"
	"boolprog/mucke"
	"boolprog/result"
	"boolprog/syntax"
)

const muckeHead = `usage: boolprog mucke [flags] FILE.mu
       boolprog mucke --emit ALG [-l LABEL] FILE.bp
       boolprog mucke --emit conc [--bound cs:K] [-l LABEL] FILE.bp

Evaluates a file of the fixed-point calculus in the input language of the
solver Mucke, as the Getafix model checker writes it (package fix documents
the language): typed relations, least (mu) and greatest (nu) fixed points,
and a final unnamed formula, the query, whose value it prints: "true" or
"false" (exit 0). A malformed or ill-typed file is reported as
file:line:col: message (exit 2). A run stopped by --timeout, --max-nodes, a
signal, or a non-monotone definition that never stabilises prints
"UNKNOWN: reason" (exit 5; 130/143 for SIGINT/SIGTERM).

With --emit, it reads a sequential Boolean program instead and writes on
standard output a complete model of it in the same language: the types of
its states, the program's relations (Entry, Exit, Target, Init, Across,
ProgramInt, IntoCall, Return, ReturnA, ReturnB, as the algorithm uses them)
written out as formulas, then the algorithm ALG: summary (the Getafix
paper's §4.1), ef (§4.2) or efopt (§4.3), or the name of a file holding an
algorithm of one's own (as for check --formula). Evaluating the model with
boolprog mucke prints true iff an error location is reachable.

With --emit conc it writes the model that the engine conc-fix
solves for a concurrent Boolean program in the Getafix convention (its
query: is an error reachable within K context switches?), which this
command then evaluates on its own.
`

func runMucke(ctx context.Context, args []string, s *streams) int {
	c := newCommand("mucke", muckeHead)
	var lf loadFlags
	lf.register(c.fs)
	var (
		stats    bool
		timeout  time.Duration
		maxNodes int
	)
	c.fs.BoolVar(&stats, "stats", false, "print each relation's iterations, BDD nodes and time, and the #size answers")
	c.fs.DurationVar(&timeout, "timeout", 0, "give up after this long (e.g. 30s) with UNKNOWN; 0 means no limit")
	c.fs.IntVar(&maxNodes, "max-nodes", 0, "BDD node limit (0: the BDD package's built-in limit); past it: UNKNOWN")
	var memory memoryFlag
	memory.register(c.fs)
	var ef emitFlags
	ef.register(c)
	files, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	if len(files) != 1 {
		return c.usageError(s, "want exactly one FILE, not %d", len(files))
	}
	if ef.model != "" && memory.Given() {
		return c.usageError(s, "--emit writes a model: --memory applies when evaluating one")
	}
	if ef.model == "conc" {
		return runEmit(&ef, &lf, c, files[0], s)
	}
	emit, target := ef.model, ef.target
	opts := mucke.Options{Timeout: timeout, MaxNodes: maxNodes, Sizes: stats}
	if err := opts.Validate(); err != nil {
		return c.usageError(s, "%v", err)
	}
	if emit != "" {
		if stats || timeout > 0 || maxNodes > 0 {
			return c.usageError(s, "--emit writes a model: --stats, --timeout and --max-nodes apply when evaluating one")
		}
		if ef.bound.b.Kind != result.Unbounded {
			return c.usageError(s, "--bound applies only with --emit conc")
		}
		return emitModel(ctx, c, files[0], emit, target, &lf, s)
	}
	if target != "" {
		return c.usageError(s, "--target applies only with --emit")
	}
	if ef.bound.b.Kind != result.Unbounded {
		return c.usageError(s, "--bound applies only with --emit conc")
	}
	// Once, before the evaluation.
	memory.apply()
	out, err := mucke.Evaluate(ctx, boolprog.DisplayName(files[0]), lf.fileReader(files[0], s.stdin), opts)
	if err != nil {
		boolprog.WriteErrors(s.stderr, err)
		return exitInput
	}
	ans := out.Answer
	if stats && ans != nil {
		ans.WriteStats(s.stdout)
	}
	if !out.Decided() {
		fmt.Fprintln(s.stdout, "UNKNOWN: "+out.Reason)
		if in := interrupt.Of(ctx); in != nil {
			return in.ExitCode()
		}
		return exitUnknown
	}
	if !ans.HasQuery {
		fmt.Fprintln(s.stdout, "no query: the file defines relations but ends with no unnamed formula")
		return exitOK
	}
	fmt.Fprintln(s.stdout, ans.Value)
	return exitOK
}

// emitModel writes the model of the program in path for algorithm alg.
func emitModel(ctx context.Context, c *command, path, alg, target string, lf *loadFlags, s *streams) int {
	text, err := program.Algorithm(alg)
	if err != nil {
		b, ferr := os.ReadFile(alg)
		if ferr != nil {
			return c.usageError(s, "--emit %s: %v, and no such file", alg, err)
		}
		text = string(b)
		if _, err := fix.ParseFile(alg, b); err != nil {
			fmt.Fprintln(s.stderr, err)
			return exitInput
		}
	}
	l, p, ok := loadProgram(ctx, path, lf, target, nil, s)
	if !ok {
		return exitInput
	}
	if p.Concurrent {
		boolprog.WriteErrors(s.stderr, syntax.ErrorList{{Filename: l.Name, Pos: p.ConcurrentPos, Msg: "--emit models sequential programs; this one is concurrent: " + p.ConcurrentWhy}})
		return exitInput
	}
	w := bufio.NewWriter(s.stdout)
	if err := program.WriteModel(w, program.NewEncoding(p), text); err != nil {
		fmt.Fprintln(s.stderr, err)
		return exitInput
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(s.stderr, err)
		return exitInput
	}
	return exitOK
}
