package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"boolprog/engine"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
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
With several files the exit code is the worst: 0 < 5 < 10 < 2.
--timeout and --max-nodes bound each file's whole run: search, trace and
replay.
`

// checkFlags are the settings of one `boolprog check`.
type checkFlags struct {
	load       loadFlags
	target     string
	engineName string
	timeout    time.Duration
	maxNodes   int
	maxVars    int
	format     string
	style      string
	trace      string
	traceFile  string
	stats      bool
	all        bool
	noReplay   bool
	quiet      bool
	verbose    bool
}

func runCheck(ctx context.Context, args []string, s *streams) int {
	c := newCommand("check", checkHead)
	cf := &checkFlags{engineName: engines[0].names[0], format: "text", style: "forward", trace: "full"}
	fs := c.fs
	cf.load.register(fs)
	fs.StringVar(&cf.target, "target", "", "error label (default SLIC_ERROR, which may be absent; a label given here must occur); failing assertions are always errors")
	fs.StringVar(&cf.target, "l", "", "shorthand for --target")
	fs.StringVar(&cf.engineName, "engine", cf.engineName, "engine: "+engineNames())
	fs.DurationVar(&cf.timeout, "timeout", 0, "give up on a file after this long (e.g. 30s), search, trace and replay included; 0: no limit")
	fs.IntVar(&cf.maxNodes, "max-nodes", 0, "BDD node limit of symbolic engines (0: engine default); past it: UNKNOWN")
	fs.IntVar(&cf.maxVars, "max-vars", 0, "variables in scope the explicit engine enumerates (0: default); past it: UNKNOWN")
	fs.StringVar(&cf.format, "format", cf.format, "output: text or json")
	fs.StringVar(&cf.style, "trace-style", cf.style, "trace order: forward, or bebop (reverse, indented, as the Bebop paper)")
	fs.StringVar(&cf.trace, "trace", cf.trace, "trace detail: full (every step with its state) or none (only the error line)")
	fs.StringVar(&cf.traceFile, "trace-file", "", "write the trace to this file instead of standard output")
	fs.BoolVar(&cf.stats, "stats", false, "print statistics: each phase's time (parse, check, replay), states, BDD nodes, ...")
	fs.BoolVar(&cf.all, "all", false, "compute every reachable state instead of stopping at the first error")
	fs.BoolVar(&cf.noReplay, "no-replay", false, "do not replay the trace in the concrete interpreter before printing it")
	fs.BoolVar(&cf.quiet, "q", false, "print no warnings and no progress line")
	fs.BoolVar(&cf.verbose, "v", false, "print the progress line on stderr even if it is not a terminal")
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
	newEngine, ok := findEngine(cf.engineName)
	if !ok {
		return checkUsageError(c, s, jsonOut, "unknown engine %q (have %s)", cf.engineName, engineNames())
	}
	traceStyle, ok := result.ParseStyle(cf.style)
	if !ok {
		return checkUsageError(c, s, jsonOut, "unknown trace style %q (want forward or bebop)", cf.style)
	}
	if cf.format != "text" && cf.format != "json" {
		return checkUsageError(c, s, jsonOut, "unknown format %q (want text or json)", cf.format)
	}
	if cf.trace != "full" && cf.trace != "none" {
		return checkUsageError(c, s, jsonOut, "unknown trace detail %q (want full or none)", cf.trace)
	}
	if cf.maxNodes < 0 || cf.maxVars < 0 || cf.timeout < 0 {
		return checkUsageError(c, s, jsonOut, "limits must not be negative")
	}
	if cf.quiet && cf.verbose {
		return checkUsageError(c, s, jsonOut, "-q and -v contradict each other")
	}
	if set := setFlags(fs); cf.trace == "none" && (set["trace-file"] || set["trace-style"]) {
		// A flag the user set is never silently ignored.
		return checkUsageError(c, s, jsonOut, "--trace none prints no trace: --trace-file and --trace-style would have no effect")
	}
	if cf.traceFile != "" && len(files) > 1 {
		return checkUsageError(c, s, jsonOut, "--trace-file takes the trace of one FILE, not %d", len(files))
	}
	if n := countStdin(files); n > 1 {
		return checkUsageError(c, s, jsonOut, "standard input (-) can be read only once")
	}

	run := &checkRun{cf: cf, s: s, newEngine: newEngine, style: traceStyle}
	worst := exitOK
	for _, path := range files {
		code := run.file(ctx, path)
		if intr := interruption(ctx); intr != nil {
			return intr.exitCode()
		}
		worst = worse(worst, code)
	}
	return worst
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
		writeJSONErrors(s.stdout, "", syntax.ErrorList{{Msg: fmt.Sprintf(format, args...)}})
		return exitUsage
	}
	return c.usageError(s, format, args...)
}

// checkRun is one `boolprog check` over its files.
type checkRun struct {
	cf        *checkFlags
	s         *streams
	newEngine func(checkOptions) engine.Engine
	style     result.Style
}

// phases are the wall-clock times of a check's phases, for --stats and
// JSON. The engine's search and its trace construction are one phase until
// engines report them apart.
type phases struct {
	parse, check, replay time.Duration
}

// file checks one file and returns its exit code.
func (r *checkRun) file(parent context.Context, path string) int {
	cf, s := r.cf, r.s
	start := time.Now()
	prog := newProgress(s.stderr, s.tty, cf.verbose, cf.quiet)
	defer prog.stop()
	prog.set("parse", displayName(path))

	// The time limit covers the whole run of the file, reading and parsing
	// included (which are not interruptible, but count).
	ctx := parent
	if cf.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(parent, cf.timeout, errTimeout)
		defer cancel()
	}
	l, errs := load(ctx, path, &cf.load, s.stdin)
	if len(errs) > 0 && ctx.Err() != nil {
		// Standard input was still being read.
		r.unknownBeforeProgram(displayName(path), r.limitReason(ctx))
		return exitUnknown // interrupted: the caller exits with the signal's code
	}
	if len(errs) > 0 {
		r.inputErrors(displayName(path), errs)
		return exitInput
	}
	if !cf.quiet {
		printWarnings(s.stderr, l.warns)
	}
	p, errs := l.lower(cf.target)
	if len(errs) > 0 {
		r.inputErrors(l.name, errs)
		return exitInput
	}
	if err := checkTarget(p, cf.target); err != nil {
		r.inputErrors(l.name, syntax.ErrorList{{Filename: l.name, Msg: err.Error()}})
		return exitInput
	}
	var ph phases
	ph.parse = time.Since(start)

	eng := r.newEngine(checkOptions{stats: cf.stats})
	q := engine.Query{MaxNodes: cf.maxNodes, MaxVars: cf.maxVars, AllReachable: cf.all}
	prog.set("check", eng.Name())
	t := time.Now()
	res := checkSafely(ctx, eng, p, q)
	ph.check = time.Since(t)

	var note string
	if !cf.noReplay {
		prog.set("replay", fmt.Sprintf("%d steps", traceLen(res.Trace)))
		t := time.Now()
		res, note = judge(ctx, p, res)
		ph.replay = time.Since(t)
	}
	if interruption(ctx) != nil || (res.Verdict == result.Unknown && res.Reason == engine.ReasonTimeout) {
		// Whatever the engine got to, the user stopped the run (or the
		// time limit did): say which.
		res = &result.Result{Verdict: result.Unknown, Engine: res.Engine, Stats: res.Stats, Reason: r.limitReason(ctx)}
		note = ""
	}
	prog.stop()

	out := &outcome{path: l.name, prog: p, res: res, phases: ph, total: time.Since(start), note: note}
	if cf.format == "json" {
		writeJSON(s.stdout, out)
	} else if err := r.writeText(out); err != nil {
		fmt.Fprintf(s.stderr, "boolprog check: %v\n", err)
		return exitUsage
	}
	return res.Verdict.ExitCode()
}

// judge replays the trace of an Unsafe result in the concrete interpreter
// within ctx. A verdict is a promise: a trace that the concrete semantics
// rejects is a bug of the engine, and must not be shown as proof, so the
// result becomes Unknown with an internal error. If ctx ends during the
// replay, the engine has established the error and only its independent
// check was cut: the result stays Unsafe, with a note that says so.
func judge(ctx context.Context, p *ir.Program, res *result.Result) (*result.Result, string) {
	if res.Verdict != result.Unsafe {
		return res, ""
	}
	err := replay(ctx, p, res.Trace)
	switch {
	case err == nil:
		return res, ""
	case ctx.Err() != nil:
		what := "time limit"
		if interruption(ctx) != nil {
			what = "interruption"
		}
		return res, fmt.Sprintf("the %s cut the replay: the interpreter did not check this trace (%v)", what, err)
	}
	return &result.Result{Verdict: result.Unknown, Engine: res.Engine, Stats: res.Stats,
		Reason: "internal error: the engine's trace does not replay: " + err.Error()}, ""
}

// replay checks tr in the concrete interpreter within ctx.
func replay(ctx context.Context, p *ir.Program, tr *result.Trace) error {
	return interp.ReplayContext(ctx, p, tr)
}

// limitReason is the UNKNOWN reason of a run whose context ended:
// "interrupted", or "timeout (30s)".
func (r *checkRun) limitReason(ctx context.Context) string {
	if interruption(ctx) != nil {
		return "interrupted"
	}
	if r.cf.timeout > 0 {
		return fmt.Sprintf("%s (%v)", engine.ReasonTimeout, r.cf.timeout)
	}
	return engine.ReasonTimeout
}

// unknownBeforeProgram reports a run that ended (interrupted, or out of
// time) before its program was read.
func (r *checkRun) unknownBeforeProgram(name, reason string) {
	res := result.NewUnknown(r.cf.engineName, reason)
	if r.cf.format == "json" {
		encodeJSON(r.s.stdout, &jsonReport{File: name, Result: res})
		return
	}
	fmt.Fprintln(r.s.stdout, res.Banner())
}

// inputErrors reports the input errors of one file: as text on stderr, or
// as a JSON report on stdout.
func (r *checkRun) inputErrors(name string, errs syntax.ErrorList) {
	if r.cf.format == "json" {
		writeJSONErrors(r.s.stdout, name, errs)
		return
	}
	printDiagnostics(r.s.stderr, errs)
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

// outcome is everything reported about one checked file.
type outcome struct {
	path   string
	prog   *ir.Program
	res    *result.Result
	phases phases
	total  time.Duration
	note   string // a remark on the verdict, e.g. that a limit cut the replay
}

func (r *checkRun) writeText(o *outcome) error {
	w := r.s.stdout
	res := o.res
	if tr := res.Trace; tr != nil && len(tr.Steps) > 0 {
		if err := r.writeTrace(o); err != nil {
			return err
		}
		fmt.Fprintln(w, errorLine(o.path, tr, o.prog.Target))
	}
	if o.note != "" {
		fmt.Fprintf(w, "note: %s\n", o.note)
	}
	if r.cf.stats || res.Reason == "interrupted" {
		writeStats(w, o)
	}
	fmt.Fprintln(w, checkedText(o.prog))
	fmt.Fprintln(w, res.Banner())
	return nil
}

// writeTrace writes the trace as --trace, --trace-style and --trace-file
// ask.
func (r *checkRun) writeTrace(o *outcome) error {
	if r.cf.trace == "none" {
		return nil
	}
	tr := o.res.Trace
	w := r.s.stdout
	if r.cf.traceFile != "" {
		f, err := os.Create(r.cf.traceFile)
		if err != nil {
			return err
		}
		if err := writeTraceText(f, o, r.style); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Fprintf(w, "trace: %d steps written to %s\n", tr.Len(), r.cf.traceFile)
		return nil
	}
	return writeTraceText(w, o, r.style)
}

func writeTraceText(w io.Writer, o *outcome, style result.Style) error {
	tr := o.res.Trace
	if style == result.Bebop {
		// The paper's header: "Label R reachable by following path:".
		what := errorWhat(tr, o.prog.Target)
		if _, err := fmt.Fprintf(w, "%s%s reachable by following path:\n", strings.ToUpper(what[:1]), what[1:]); err != nil {
			return err
		}
	}
	return result.WriteTrace(w, tr, style)
}

// errorWhat names what the last step of a trace reaches, in the Bebop
// paper's words: "label R (line 12)" or "failure of assert(g) (line 6)".
func errorWhat(tr *result.Trace, target string) string {
	last := tr.Steps[len(tr.Steps)-1]
	if last.Edge == result.NoEdge {
		return fmt.Sprintf("label %s (line %d)", target, last.Line)
	}
	return fmt.Sprintf("failure of %s (line %d)", last.Text, last.Line)
}

// errorLine is the compiler-style line that says where the error is:
// "file:line:col: error: assertion assert(g) fails" or
// "file:line:col: error: label R reached".
func errorLine(path string, tr *result.Trace, target string) string {
	last := tr.Steps[len(tr.Steps)-1]
	msg := "error: assertion " + last.Text + " fails"
	if last.Edge == result.NoEdge {
		msg = "error: label " + target + " reached"
	}
	return (&syntax.Error{Filename: path, Pos: syntax.Pos{Line: last.Line, Col: last.Col}, Msg: msg}).Error()
}

func writeStats(w io.Writer, o *outcome) {
	res := o.res
	fmt.Fprintf(w, "engine: %s\n", res.Engine)
	fmt.Fprintf(w, "time: %v (parse %v, check %v, replay %v)\n", o.total.Round(time.Microsecond),
		o.phases.parse.Round(time.Microsecond), o.phases.check.Round(time.Microsecond), o.phases.replay.Round(time.Microsecond))
	fmt.Fprintf(w, "states: %d\n", res.Stats.States)
	if res.Trace != nil {
		fmt.Fprintf(w, "trace steps: %d\n", res.Trace.Len())
	}
	names := res.Stats.CounterNames()
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "%s: %d\n", name, res.Stats.Counters[name])
	}
}
