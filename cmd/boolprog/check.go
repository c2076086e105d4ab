package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"boolprog/engine"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		dialect    dialectFlag
		target     string
		engineName = engines[0].names[0]
		timeout    time.Duration
		maxNodes   int
		maxVars    int
		format     = "text"
		style      = "forward"
		stats      bool
		all        bool
		noReplay   bool
		quiet      bool
	)
	fs.Var(&dialect, "dialect", "operator precedence: cprover or getafix")
	fs.StringVar(&target, "target", "", "error label (default SLIC_ERROR); failing assertions are always errors")
	fs.StringVar(&target, "l", "", "shorthand for --target")
	fs.StringVar(&engineName, "engine", engineName, "engine: "+engineNames())
	fs.DurationVar(&timeout, "timeout", 0, "give up after this long (e.g. 30s) with UNKNOWN; 0 means no limit")
	fs.IntVar(&maxNodes, "max-nodes", 0, "BDD node limit of symbolic engines (0: engine default); past it: UNKNOWN")
	fs.IntVar(&maxVars, "max-vars", 0, "variables in scope the explicit engine enumerates (0: default); past it: UNKNOWN")
	fs.StringVar(&format, "format", format, "output: text or json")
	fs.StringVar(&style, "trace-style", style, "trace order: forward, or bebop (reverse, indented, as the Bebop paper)")
	fs.BoolVar(&stats, "stats", false, "print the engine's statistics (time, states, BDD nodes, ...)")
	fs.BoolVar(&all, "all", false, "compute every reachable state instead of stopping at the first error")
	fs.BoolVar(&noReplay, "no-replay", false, "do not replay the trace in the concrete interpreter before printing it")
	fs.BoolVar(&quiet, "q", false, "do not print warnings")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: boolprog check [flags] FILE\n\nDecides whether an assertion can fail or the target label can be reached.\nPrints a trace if so, and ends with VERIFICATION SUCCESSFUL (exit 0),\nVERIFICATION FAILED (exit 10) or VERIFICATION UNKNOWN: reason (exit 5).\n\nFlags:\n")
		fs.PrintDefaults()
		fmt.Fprintf(stderr, "\nEngines:\n%s", engineList())
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage
	}
	if len(files) != 1 {
		fmt.Fprintln(stderr, "boolprog check: want exactly one FILE")
		fs.Usage()
		return exitUsage
	}
	newEngine, ok := findEngine(engineName)
	if !ok {
		fmt.Fprintf(stderr, "boolprog check: unknown engine %q (have %s)\n", engineName, engineNames())
		return exitUsage
	}
	traceStyle, ok := result.ParseStyle(style)
	if !ok {
		fmt.Fprintf(stderr, "boolprog check: unknown trace style %q (want forward or bebop)\n", style)
		return exitUsage
	}
	if format != "text" && format != "json" {
		fmt.Fprintf(stderr, "boolprog check: unknown format %q (want text or json)\n", format)
		return exitUsage
	}
	if maxNodes < 0 || maxVars < 0 || timeout < 0 {
		fmt.Fprintln(stderr, "boolprog check: limits must not be negative")
		return exitUsage
	}

	l, ok := load(files[0], dialect.d, stderr)
	if !ok {
		return exitInput
	}
	if !quiet {
		printWarnings(stderr, l.warns)
	}
	prog, ok := l.lower(target, stderr)
	if !ok {
		return exitInput
	}

	ctx := context.Background()
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	eng := newEngine(checkOptions{stats: stats})
	q := engine.Query{MaxNodes: maxNodes, MaxVars: maxVars, AllReachable: all}
	res := checkSafely(ctx, eng, prog, q)
	if res.Verdict == result.Unsafe && !noReplay {
		// A verdict is a promise: a trace that the concrete semantics
		// rejects is a bug of the engine, and must not be shown as proof.
		if err := interp.Replay(prog, res.Trace); err != nil {
			res = result.NewUnknown(eng.Name(), "internal error: the engine's trace does not replay: "+err.Error())
		}
	}
	if format == "json" {
		writeJSON(stdout, res)
	} else {
		writeText(stdout, res, prog.Target, traceStyle, stats)
	}
	switch res.Verdict {
	case result.Safe:
		return exitOK
	case result.Unsafe:
		return exitFailed
	}
	return exitUnknown
}

// checkSafely runs the engine and turns an internal failure (an error or
// a panic) into an UNKNOWN verdict that says so, rather than a crash.
func checkSafely(ctx context.Context, eng engine.Engine, p *ir.Program, q engine.Query) (res *result.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = result.NewUnknown(eng.Name(), fmt.Sprintf("internal error: %v\n%s", r, debug.Stack()))
		}
	}()
	start := time.Now()
	res, err := eng.Check(ctx, p, q)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return result.NewUnknown(eng.Name(), engine.ReasonTimeout)
		}
		return result.NewUnknown(eng.Name(), "internal error: "+err.Error())
	}
	if res.Stats.Time == 0 {
		res.Stats.Time = time.Since(start)
	}
	return res
}

func writeText(w io.Writer, res *result.Result, target string, style result.Style, stats bool) {
	if tr := res.Trace; tr != nil && len(tr.Steps) > 0 {
		what := errorText(tr, target)
		if style == result.Bebop {
			// The paper's header: "Label R reachable by following path:".
			fmt.Fprintf(w, "%s%s reachable by following path:\n", strings.ToUpper(what[:1]), what[1:])
		}
		result.WriteTrace(w, tr, style)
		if style != result.Bebop {
			fmt.Fprintf(w, "error: %s reached\n", what)
		}
	}
	if stats {
		fmt.Fprintf(w, "engine: %s\n", res.Engine)
		fmt.Fprintf(w, "time: %v\n", res.Stats.Time.Round(time.Microsecond))
		fmt.Fprintf(w, "states: %d\n", res.Stats.States)
		names := res.Stats.CounterNames()
		sort.Strings(names)
		for _, name := range names {
			fmt.Fprintf(w, "%s: %d\n", name, res.Stats.Counters[name])
		}
	}
	fmt.Fprintln(w, res.Banner())
}

// errorText says what the last step of a trace reaches: the target label,
// or the failure of an assertion.
func errorText(tr *result.Trace, target string) string {
	last := tr.Steps[len(tr.Steps)-1]
	if last.Edge == result.NoEdge {
		return fmt.Sprintf("label %s (line %d)", target, last.Line)
	}
	return fmt.Sprintf("failure of %s (line %d)", last.Text, last.Line)
}

func writeJSON(w io.Writer, res *result.Result) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.Encode(res)
}
