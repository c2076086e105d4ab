package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"boolprog/engine"
	"boolprog/interp"
	"boolprog/result"
)

func runCheck(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		dialect    dialectFlag
		target     string
		engineName = defaultEngine
		timeout    time.Duration
		maxNodes   int
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
	engFlags := defineEngineFlags(fs)
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
	eng, err := engFlags.build(engineName)
	if err != nil {
		fmt.Fprintf(stderr, "boolprog check: %v\n", err)
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
	if maxNodes < 0 || timeout < 0 {
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
	q := engine.Query{MaxNodes: maxNodes, AllReachable: all}
	res := engine.Run(ctx, eng, prog, q)
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
