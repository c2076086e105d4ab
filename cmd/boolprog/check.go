package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"boolprog"
	"boolprog/engine"
	"boolprog/internal/interrupt"
	"boolprog/internal/progress"
	"boolprog/result"
)

const checkHead = `usage: boolprog check [flags] FILE...

Decides, for each FILE ("-": standard input), whether an assertion can fail
or the target label can be reached. Prints a trace if so, a line saying what
was checked, and ends each file's output with exactly one of
  VERIFICATION SUCCESSFUL          exit 0
  VERIFICATION FAILED              exit 10
  VERIFICATION UNKNOWN: reason     exit 5 (a limit, an unsupported construct)
Input errors (file:line:col: message) exit 2, usage errors 1, SIGINT/SIGTERM
end the run with "VERIFICATION UNKNOWN: interrupted" and exit 130/143.
With several files, each result is headed "== FILE" and the exit code is the
worst: 0 < 5 < 10 < 2; with --format json, the reports are JSON Lines: one
object per line, per file in order (one file's report is indented).
--timeout and --max-nodes bound each file's whole run: search, trace and
replay.
`

// specDoc is --spec's usage (the product: package internal/product).
const specDoc = "also check the observer automaton of this specification file (package cpa/observer: e.g. no lock twice without an unlock); FAILED then shows a trace of the program instrumented with it, SUCCESSFUL proves it. The cpa engine takes it from its configuration's observer.spec too"

// checkFlags are the settings of one `boolprog check`.
type checkFlags struct {
	load       loadFlags
	target     string
	engineName string
	threads    string
	timeout    time.Duration
	maxNodes   int
	memory     memoryFlag // --memory (memory.go)
	bound      boundFlag
	format     string
	style      string
	trace      string
	traceFile  string
	numbers    bool
	marks      bool
	maxIndent  int
	stats      bool
	all        bool
	noReplay   bool
	quiet      bool
	verbose    bool
	projection projectionFlag // --error-projection (projection.go)
	spec       string         // --spec
	html       htmlFlags      // -o (checkhtml.go)
	witness    witnessFlags   // --witness, --witness-format (witness.go)
}

func runCheck(ctx context.Context, args []string, s *streams) int {
	c := newCommand("check", checkHead)
	cf := &checkFlags{engineName: defaultEngine, format: "text", style: "forward", trace: "full", numbers: true, marks: true}
	fs := c.fs
	cf.load.register(fs)
	fs.StringVar(&cf.target, "target", "", "error label (default SLIC_ERROR, which may be absent; a label given here must occur); failing assertions are always errors")
	fs.StringVar(&cf.target, "l", "", "shorthand for --target")
	fs.StringVar(&cf.engineName, "engine", cf.engineName, "engine: "+engineNames())
	fs.DurationVar(&cf.timeout, "timeout", 0, "give up on a file after this long (e.g. 30s), search, trace and replay included; 0: no limit")
	fs.IntVar(&cf.maxNodes, "max-nodes", 0, "BDD node limit of symbolic engines (0: engine default); past it: UNKNOWN")
	cf.memory.register(fs)
	fs.StringVar(&cf.threads, "threads", "", "run these procedures as the threads, e.g. f,g,g (two copies of g); for a program without thread statements")
	fs.Var(&cf.bound, "bound", "ask for a bounded answer: cs:K (at most K context switches) or rounds:K; an engine that cannot bound its search answers UNKNOWN")
	engFlags := engine.DefineCommandFlags(fs)
	fs.StringVar(&cf.format, "format", cf.format, "output: text, json, or html (one self-contained page: source, verdict, trace stepper, control-flow graphs)")
	fs.StringVar(&cf.style, "trace-style", cf.style, "trace order: forward, or bebop (reverse, indented, as the Bebop paper)")
	fs.StringVar(&cf.trace, "trace", cf.trace, "trace detail: full (every step with its state), changes (only the values a step changed; the whole state on entering a procedure), or none (only the error line)")
	fs.StringVar(&cf.traceFile, "trace-file", "", "write the trace to this file instead of standard output")
	fs.BoolVar(&cf.numbers, "trace-numbers", cf.numbers, "number the steps of a forward trace (replay errors name steps by number)")
	fs.BoolVar(&cf.marks, "trace-choices", cf.marks, "mark with '* ' the steps of a forward trace that make a nondeterministic choice")
	fs.IntVar(&cf.maxIndent, "trace-indent", result.DefaultMaxIndent, "call depth past which a trace step is no longer indented and shows '[depth N]'")
	fs.BoolVar(&cf.stats, "stats", false, "print statistics: each phase's time (parse, lower, reach, trace, replay), states, BDD nodes, ...")
	fs.BoolVar(&cf.all, "all", false, "compute every reachable state instead of stopping at the first error (the summary and cpa engines)")
	fs.BoolVar(&cf.noReplay, "no-replay", false, "do not replay the trace in the concrete interpreter before printing it")
	fs.BoolVar(&cf.quiet, "q", false, "print no warnings and no progress line")
	fs.BoolVar(&cf.verbose, "v", false, "print the progress line on stderr even if it is not a terminal")
	cf.projection.register(fs, checkProjectionDoc)
	fs.StringVar(&cf.spec, "spec", "", specDoc)
	cf.html.register(fs)
	cf.witness.register(fs)
	c.tail = func() string { return "\nEngines:\n" + engineList() }

	jsonOut := wantsJSON(args)
	files, err := c.parse(args, s)
	if err != nil {
		if errors.Is(err, errHelp) {
			return exitOK
		}
		return checkUsageError(c, s, jsonOut, "%v", err)
	}
	if len(files) == 0 {
		return checkUsageError(c, s, jsonOut, "no FILE to check")
	}
	if err := engFlags.Owned(cf.engineName); err != nil {
		return checkUsageError(c, s, jsonOut, "%v", err)
	}
	// The engine and its flags, then the specification, checked once
	// before any file (the limits are checked below).
	base := boolprog.Options{Engine: cf.engineName, EngineFlags: engFlags.Values, CommandLine: true}
	if _, err := base.Validate(); err != nil {
		return optionsRefused(c, s, jsonOut, err, true)
	}
	base.Spec = cf.spec
	spec, err := base.Validate()
	switch {
	case err != nil:
		return optionsRefused(c, s, jsonOut, err, false)
	case spec != nil && cf.projection.on:
		return checkUsageError(c, s, jsonOut, "--error-projection lists the errors of the program, not of an observer automaton (--spec)")
	}
	traceStyle, ok := result.ParseStyle(cf.style)
	if !ok {
		return checkUsageError(c, s, jsonOut, "unknown trace style %q (want forward or bebop)", cf.style)
	}
	format, ok := boolprog.ParseFormat(cf.format)
	if !ok {
		return checkUsageError(c, s, jsonOut, "unknown format %q (want text, json or html)", cf.format)
	}
	traceMode, ok := result.ParseMode(cf.trace)
	if !ok {
		return checkUsageError(c, s, jsonOut, "unknown trace detail %q (want full, changes or none)", cf.trace)
	}
	if cf.maxIndent < 1 {
		return checkUsageError(c, s, jsonOut, "--trace-indent must be at least 1")
	}
	set := setFlags(fs)
	opts := boolprog.Options{
		Target:                cf.target,
		EngineFlags:           engFlags.Values,
		Timeout:               cf.timeout,
		Bound:                 cf.bound.b,
		MaxNodes:              cf.maxNodes,
		Dialect:               cf.load.dialect.d,
		AllReachable:          cf.all,
		InterleaveAtomicCalls: cf.load.interleave,
		NoReplay:              cf.noReplay,
		Spec:                  cf.spec,
		Witness:               cf.witness.file,
		WitnessFormat:         cf.witness.format,
		CommandLine:           true,
	}
	if set["engine"] {
		// Without --engine and engine flags, a concurrent program gets
		// the concurrent default rather than the default engine.
		opts.Engine = cf.engineName
	}
	if cf.threads != "" {
		opts.Threads = strings.Split(cf.threads, ",")
	}
	if cf.quiet && cf.verbose {
		return checkUsageError(c, s, jsonOut, "-q and -v contradict each other")
	}
	// A flag the user set is never silently ignored.
	traceFlags := []string{"trace-file", "trace-style", "trace-numbers", "trace-choices", "trace-indent"}
	if msg := htmlUsage(cf, set, len(files)); msg != "" {
		return checkUsageError(c, s, jsonOut, "%s", msg)
	}
	for _, f := range traceFlags {
		if cf.format == "html" {
			break // htmlUsage checked them
		}
		if set[f] && traceMode == result.None {
			return checkUsageError(c, s, jsonOut, "--trace none prints no trace: --%s would have no effect", f)
		}
		if set[f] && cf.format == "json" {
			return checkUsageError(c, s, jsonOut, "--%s is for the text trace; the JSON report has every step in full", f)
		}
	}
	if cf.format == "json" && traceMode == result.Changes {
		return checkUsageError(c, s, jsonOut, "--trace changes is for the text trace; the JSON report has every step in full (or none: --trace none)")
	}
	if cf.style == "bebop" && (set["trace-numbers"] || set["trace-choices"] || cf.trace == "changes") {
		return checkUsageError(c, s, jsonOut, "the bebop trace style prints the paper's format: no numbers, choice marks or changes")
	}
	// The pipeline's refusals (limits, --max-nodes and --all for the
	// engine, the witness against its format and --spec), in its words.
	// --max-nodes 0, the engine's default, is refused where a limit would
	// be: a flag the user set is never ignored. (parse refuses an empty
	// string flag.)
	probe := opts
	if set["max-nodes"] && probe.MaxNodes == 0 {
		probe.MaxNodes = 1
	}
	if _, err := probe.Validate(); err != nil {
		return optionsRefused(c, s, jsonOut, err, false)
	}
	if cf.projection.on && cf.format == "json" {
		return checkUsageError(c, s, jsonOut, "--error-projection is printed as text, not in the JSON report")
	}
	if cf.traceFile != "" && len(files) > 1 {
		return checkUsageError(c, s, jsonOut, "--trace-file takes the trace of one FILE, not %d", len(files))
	}
	if cf.witness.file != "" && len(files) > 1 {
		return checkUsageError(c, s, jsonOut, "--witness takes the witness of one FILE, not %d", len(files))
	}
	if n := countStdin(files); n > 1 {
		return checkUsageError(c, s, jsonOut, "standard input (-) can be read only once")
	}

	out := boolprog.Output{
		Trace:      result.TraceOptions{Style: traceStyle, Mode: traceMode, MaxIndent: cf.maxIndent},
		TraceFile:  cf.traceFile,
		Stats:      cf.stats,
		NoWarnings: cf.quiet,
	}
	if traceStyle == result.Forward {
		out.Trace.Numbered, out.Trace.MarkChoices = cf.numbers, cf.marks
	}
	if cf.format == "html" {
		out.TraceFile = "" // the page's file, with -o
	}
	// Once, before any engine runs: the budget is the process's.
	cf.memory.apply()
	run := &checkRun{c: c, cf: cf, s: s, opts: opts, format: format, out: out}
	// Several files' JSON reports are JSON Lines: one object per line.
	jsonLines := len(files) > 1 && cf.format == "json"
	worst := exitOK
	for _, path := range files {
		if len(files) > 1 && cf.format == "text" {
			// Which verdict belongs to which file (JSON reports name it).
			fmt.Fprintf(s.stdout, "== %s\n", boolprog.DisplayName(path))
		}
		var code int
		if jsonLines {
			code = run.jsonLine(ctx, path)
		} else {
			code = run.file(ctx, path)
		}
		if intr := interrupt.Of(ctx); intr != nil {
			return intr.ExitCode()
		}
		worst = worse(worst, code)
	}
	return worst
}

// boundFlag is a flag.Value for --bound: "none", or KIND:K with KIND
// context_switches (cs) or rounds.
type boundFlag struct{ b result.Bound }

func (f *boundFlag) String() string {
	if f.b.Kind == result.Unbounded {
		return "none"
	}
	return fmt.Sprintf("%s:%d", f.b.Kind, f.b.K)
}

func (f *boundFlag) Set(s string) error {
	b, err := result.ParseBound(s)
	if err != nil {
		return err
	}
	f.b = b
	return nil
}

// setFlags returns the names of the flags given on the command line.
func setFlags(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// wantsJSON reports whether args ask for --format json, looked up before
// the flags are parsed so that a usage error is reported as JSON too.
func wantsJSON(args []string) bool {
	for i, a := range args {
		switch a {
		case "--format=json", "-format=json":
			return true
		case "--format", "-format":
			if i+1 < len(args) && args[i+1] == "json" {
				return true
			}
		case "--":
			return false
		}
	}
	return false
}

func countStdin(files []string) int {
	n := 0
	for _, f := range files {
		if f == "-" {
			n++
		}
	}
	return n
}

// severity orders exit codes for "the worst of several files": an input
// error (the file was not checked at all) is worse than a failure, a
// failure worse than an unknown, an unknown worse than a success.
func severity(code int) int {
	switch code {
	case exitOK:
		return 0
	case exitUnknown:
		return 1
	case exitFailed:
		return 2
	case exitInput:
		return 3
	}
	return 4
}

func worse(a, b int) int {
	if severity(b) > severity(a) {
		return b
	}
	return a
}

// checkUsageError reports a usage error as text on stderr, or as a JSON
// report on stdout when --format json was asked for.
func checkUsageError(c *command, s *streams, jsonOut bool, format string, args ...any) int {
	if jsonOut {
		result.ErrorReport("", result.Message{Message: fmt.Sprintf(format, args...)}).WriteJSON(s.stdout)
		return exitUsage
	}
	return c.usageError(s, format, args...)
}

// optionsRefused reports what Options.Validate refused: a malformed file
// an option names as bad input (exit 2; an engine's configuration or
// formula, whole, as one message), anything else as a usage error.
func optionsRefused(c *command, s *streams, jsonOut bool, err error, whole bool) int {
	var in *boolprog.InputError
	var oe *boolprog.OptionError
	switch {
	case errors.As(err, &in) && whole && jsonOut:
		result.ErrorReport("", result.Message{Message: in.Error()}).WriteJSON(s.stdout)
	case errors.As(err, &in) && whole:
		fmt.Fprintln(s.stderr, in.Error())
	case errors.As(err, &in) && jsonOut:
		boolprog.ErrorReport("", err).WriteJSON(s.stdout)
	case errors.As(err, &in):
		boolprog.WriteErrors(s.stderr, in)
	case errors.As(err, &oe):
		return checkUsageError(c, s, jsonOut, "%s", oe.Msg)
	default:
		return checkUsageError(c, s, jsonOut, "%v", err)
	}
	return exitInput
}

// checkRun is one `boolprog check` over its files.
type checkRun struct {
	c      *command
	cf     *checkFlags
	s      *streams
	opts   boolprog.Options
	format boolprog.Format
	out    boolprog.Output
}

// file checks one file and returns its exit code.
func (r *checkRun) file(ctx context.Context, path string) int {
	cf, s := r.cf, r.s
	start := time.Now()
	prog := progress.New(s.stderr, s.tty, cf.verbose, cf.quiet)
	defer prog.Stop()
	name := boolprog.DisplayName(path)
	opts := r.opts
	opts.Filename = name
	if prog != nil {
		// The pipeline and the engine say when they move from phase to
		// phase, and what they have done so far.
		opts.Progress = prog.Set
	}
	opts.Loaded = func(src *boolprog.Source) {
		if !cf.quiet && cf.format != "json" {
			prog.Clear()
			src.WriteWarnings(s.stderr)
		}
	}
	res, err := boolprog.CheckFunc(ctx, cf.load.reader(path, s.stdin), opts)
	var in *boolprog.InputError
	var oe *boolprog.OptionError
	switch {
	case errors.As(err, &in):
		if cf.format == "json" {
			boolprog.ErrorReport(name, err).WriteJSON(s.stdout)
		} else {
			boolprog.WriteErrors(s.stderr, in)
		}
		return exitInput
	case errors.As(err, &oe) && (oe.Option == "MaxNodes" || oe.Option == "AllReachable"):
		// Known only now that the program is read: the flag was accepted
		// for the sequential default engine.
		return checkUsageError(r.c, s, cf.format == "json", "%s: %s", name, oe.Msg)
	case err != nil:
		fmt.Fprintf(s.stderr, "boolprog check: %v\n", err)
		return exitUsage
	}
	prog.Stop()
	if res.NothingToCheck() && !cf.quiet && cf.format != "json" {
		// SUCCESSFUL, trivially: most likely the label was forgotten (-l).
		fmt.Fprintf(s.stderr, "%s: warning: %s\n", name, res.NothingToCheckText())
	}
	if w := res.Witness; w != nil {
		switch {
		case w.Err != nil:
			fmt.Fprintf(s.stderr, "boolprog check: %v\n", w.Err)
			return exitUsage
		case !w.Written:
			fmt.Fprintf(s.stderr, "boolprog check: %s\n", w)
		case !cf.quiet:
			if w.Note != "" {
				fmt.Fprintf(s.stderr, "note: %s\n", w.Note)
			}
			fmt.Fprintf(s.stderr, "witness: %s\n", w)
		}
	}
	if p := res.Program(); p != nil && cf.projection.on {
		// The projection is part of the file's run: within its time limit.
		pctx := ctx
		if cf.timeout > 0 {
			var cancel context.CancelFunc
			pctx, cancel = context.WithDeadlineCause(ctx, start.Add(cf.timeout), engine.ErrTimeout)
			defer cancel()
		}
		cf.projection.runProjection(pctx, s.stdout, s.stderr, name, p, cf.maxNodes)
	}
	if err := r.report(res); err != nil {
		fmt.Fprintf(s.stderr, "boolprog check: %v\n", err)
		return exitUsage
	}
	return res.ExitCode()
}

// jsonLine checks one file as file does, with its JSON report (or error
// report) written on one line: several files give JSON Lines.
func (r *checkRun) jsonLine(ctx context.Context, path string) int {
	var buf bytes.Buffer
	one := *r
	s := *r.s
	s.stdout = &buf
	one.s = &s
	code := one.file(ctx, path)
	dec := json.NewDecoder(&buf)
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			fmt.Fprintf(r.s.stderr, "boolprog check: %s: the JSON report: %v\n", boolprog.DisplayName(path), err)
			return exitUsage
		}
		var line bytes.Buffer
		if err := json.Compact(&line, v); err != nil {
			fmt.Fprintf(r.s.stderr, "boolprog check: %s: the JSON report: %v\n", boolprog.DisplayName(path), err)
			return exitUsage
		}
		line.WriteByte('\n')
		r.s.stdout.Write(line.Bytes())
	}
	return code
}

// report writes the result of one file in the format asked for; an HTML
// page goes to the file of -o (or --trace-file) if one is given, which
// standard output names with the verdict line.
func (r *checkRun) report(res *boolprog.Result) error {
	page := r.cf.html.out
	if page == "" {
		page = r.cf.traceFile
	}
	if r.format != boolprog.FormatHTML || page == "" {
		return res.Write(r.s.stdout, r.format, r.out)
	}
	f, err := os.Create(page)
	if err != nil {
		return err
	}
	err = res.Write(f, r.format, r.out)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(r.s.stdout, "report: %s\n", page)
	_, err = fmt.Fprintln(r.s.stdout, res.Banner())
	return err
}
