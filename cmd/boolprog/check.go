package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"boolprog/cpa/observer"
	"boolprog/engine"
	"boolprog/internal/engines"
	"boolprog/internal/interruptible"
	"boolprog/internal/labels"
	"boolprog/internal/product"
	"boolprog/internal/replay"
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
With several files, each result is headed "== FILE" and the exit code is the
worst: 0 < 5 < 10 < 2.
--timeout and --max-nodes bound each file's whole run: search, trace and
replay.
`

// checkFlags are the settings of one `boolprog check`.
type checkFlags struct {
	load       loadFlags
	target     string
	engineName string
	threads    string
	timeout    time.Duration
	maxNodes   int
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
	spec       string         // --spec (spec.go)
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
	fs.StringVar(&cf.threads, "threads", "", "run these procedures as the threads, e.g. f,g,g (two copies of g); for a program without thread statements")
	fs.Var(&cf.bound, "bound", "ask for a bounded answer: cs:K (at most K context switches) or rounds:K; an engine that cannot bound its search answers UNKNOWN")
	engFlags := defineEngineFlags(fs)
	fs.StringVar(&cf.format, "format", cf.format, "output: text, json, or html (one self-contained page: source, verdict, trace stepper, control-flow graphs)")
	fs.StringVar(&cf.style, "trace-style", cf.style, "trace order: forward, or bebop (reverse, indented, as the Bebop paper)")
	fs.StringVar(&cf.trace, "trace", cf.trace, "trace detail: full (every step with its state), changes (only the values a step changed), or none (only the error line)")
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
	newEngine := func() (engine.Engine, error) { return engFlags.build(cf.engineName) }
	if _, err := newEngine(); err != nil {
		var in *engine.InputError
		if errors.As(err, &in) {
			// A malformed formula or configuration file: reported as
			// bad input, like a malformed program.
			if jsonOut {
				result.ErrorReport("", result.Message{Message: in.Error()}).WriteJSON(s.stdout)
			} else {
				fmt.Fprintln(s.stderr, in.Error())
			}
			return exitInput
		}
		return checkUsageError(c, s, jsonOut, "%v", err)
	}
	spec, err := loadSpec(cf.spec, newEngine)
	var specErr *syntax.Error
	switch {
	case errors.As(err, &specErr):
		if jsonOut {
			result.ErrorReport("", messages(syntax.ErrorList{specErr})...).WriteJSON(s.stdout)
		} else {
			printDiagnostics(s.stderr, syntax.ErrorList{specErr})
		}
		return exitInput
	case err != nil:
		return checkUsageError(c, s, jsonOut, "%v", err)
	case spec != nil && cf.projection.on:
		return checkUsageError(c, s, jsonOut, "--error-projection lists the errors of the program, not of an observer automaton (--spec)")
	}
	traceStyle, ok := result.ParseStyle(cf.style)
	if !ok {
		return checkUsageError(c, s, jsonOut, "unknown trace style %q (want forward or bebop)", cf.style)
	}
	if cf.format != "text" && cf.format != "json" && cf.format != "html" {
		return checkUsageError(c, s, jsonOut, "unknown format %q (want text, json or html)", cf.format)
	}
	traceMode, ok := result.ParseMode(cf.trace)
	if !ok {
		return checkUsageError(c, s, jsonOut, "unknown trace detail %q (want full, changes or none)", cf.trace)
	}
	if cf.maxIndent < 1 {
		return checkUsageError(c, s, jsonOut, "--trace-indent must be at least 1")
	}
	if cf.maxNodes < 0 || cf.timeout < 0 {
		return checkUsageError(c, s, jsonOut, "limits must not be negative")
	}
	if cf.quiet && cf.verbose {
		return checkUsageError(c, s, jsonOut, "-q and -v contradict each other")
	}
	// A flag the user set is never silently ignored.
	set := setFlags(fs)
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
	if set["max-nodes"] {
		if info, _ := engine.Lookup(cf.engineName); !info.NodeLimited {
			return checkUsageError(c, s, jsonOut, "--max-nodes bounds BDD nodes, which the %s engine does not use", info.Name())
		}
	}
	if cf.all {
		if info, _ := engine.Lookup(cf.engineName); !info.AllReachable {
			return checkUsageError(c, s, jsonOut, "--all: the %s engine stops at the first error (summary and cpa compute every reachable state)", info.Name())
		}
	}
	if cf.projection.on && cf.format == "json" {
		return checkUsageError(c, s, jsonOut, "--error-projection is printed as text, not in the JSON report")
	}
	if cf.traceFile != "" && len(files) > 1 {
		return checkUsageError(c, s, jsonOut, "--trace-file takes the trace of one FILE, not %d", len(files))
	}
	if msg := cf.witness.check(set, len(files)); msg != "" {
		return checkUsageError(c, s, jsonOut, "%s", msg)
	}
	if spec != nil && set["witness"] {
		// A witness speaks of the program's assertions and label; the
		// trace of an observer's violation is one of the product.
		return checkUsageError(c, s, jsonOut, "--witness describes the program's own errors, not an observer automaton's (--spec or the configuration's observer.spec)")
	}
	if n := countStdin(files); n > 1 {
		return checkUsageError(c, s, jsonOut, "standard input (-) can be read only once")
	}

	opts := result.TraceOptions{Style: traceStyle, Mode: traceMode, MaxIndent: cf.maxIndent}
	if traceStyle == result.Forward {
		opts.Numbered, opts.MarkChoices = cf.numbers, cf.marks
	}
	run := &checkRun{c: c, cf: cf, s: s, newEngine: newEngine, opts: opts, autoConc: !set["engine"] && len(engFlags.set) == 0, spec: spec}
	worst := exitOK
	for _, path := range files {
		if len(files) > 1 && cf.format == "text" {
			// Which verdict belongs to which file (JSON reports name it).
			fmt.Fprintf(s.stdout, "== %s\n", displayName(path))
		}
		code := run.file(ctx, path)
		if intr := interruption(ctx); intr != nil {
			return intr.exitCode()
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
	if s == "none" {
		f.b = result.Bound{}
		return nil
	}
	kind, k, ok := strings.Cut(s, ":")
	bk, okKind := result.ParseBoundKind(kind)
	n, err := strconv.Atoi(k)
	b := result.Bound{Kind: bk, K: n}
	if !ok || !okKind || bk == result.Unbounded || err != nil || b.Validate() != nil {
		return fmt.Errorf("want none, cs:K or rounds:K with K >= 0 (K >= 1 for rounds), not %q", s)
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

// concIgnored words engines.ConcurrentIgnores's answer as the command's
// refusal of the flag ("" for none).
func concIgnored(setting string) string {
	switch setting {
	case "max-nodes":
		return "a concurrent program: --max-nodes bounds BDD nodes, which the explicit search (tried first on a concurrent program) does not use; name a BDD engine (--engine conc-fix, conc-eager or conc-lazy)"
	case "all":
		return "a concurrent program: --all: the concurrent engines stop at the first error"
	}
	return ""
}

// checkRun is one `boolprog check` over its files.
type checkRun struct {
	c         *command
	cf        *checkFlags
	s         *streams
	newEngine func() (engine.Engine, error)
	opts      result.TraceOptions
	autoConc  bool // no engine chosen: a concurrent program gets concEngine
	spec      *observer.Spec
}

// file checks one file and returns its exit code.
func (r *checkRun) file(parent context.Context, path string) int {
	cf, s := r.cf, r.s
	start := time.Now()
	prog := newProgress(s.stderr, s.tty, cf.verbose, cf.quiet)
	defer prog.stop()
	prog.set(result.PhaseParse, displayName(path))
	eng, err := r.newEngine()
	if err != nil { // checked once before any file
		fmt.Fprintf(s.stderr, "boolprog check: %v\n", err)
		return exitUsage
	}

	// The time limit covers the whole run of the file, from reading it on.
	ctx := parent
	if cf.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(parent, cf.timeout, engine.ErrTimeout)
		defer cancel()
	}
	fe, ok := r.frontEnd(ctx, path, prog)
	if !ok {
		r.report(&outcome{path: displayName(path), res: result.NewUnknown(eng.Name(), r.limitReason(ctx)), total: time.Since(start)})
		return exitUnknown // if interrupted, the caller exits with the signal's code
	}
	if len(fe.errs) > 0 {
		r.inputErrors(fe.name, fe.errs)
		return exitInput
	}
	l, p, stats := fe.l, fe.p, fe.stats
	if r.autoConc && p.Concurrent {
		if why := concIgnored(engines.ConcurrentIgnores(engine.Query{MaxNodes: cf.maxNodes, AllReachable: cf.all})); why != "" {
			// Known only now that the program is read: the flag was
			// accepted for the sequential default engine.
			return checkUsageError(r.c, s, cf.format == "json", "%s: %s", fe.name, why)
		}
		if eng, err = engines.ConcurrentDefault(); err != nil {
			fmt.Fprintf(s.stderr, "boolprog check: %v\n", err)
			return exitUsage
		}
	}
	if !cf.quiet && cf.format != "json" {
		prog.clear()
		if l.note != "" {
			fmt.Fprintln(s.stderr, l.note)
		}
		printWarnings(s.stderr, l.warns)
	}

	checked, obs := p, (*product.Observed)(nil)
	if r.spec != nil {
		o, prodEng, errs, why := observe(r.spec, p, eng)
		if len(errs) > 0 {
			r.inputErrors(fe.name, errs)
			return exitInput
		} else if why != "" {
			r.report(&outcome{path: l.name, prog: p, res: result.NewUnknown(eng.Name(), why), total: time.Since(start), spec: r.spec.Describe()})
			return exitUnknown
		}
		obs, eng, checked = o, prodEng, o.Inst.Prog
	}

	q := engine.Query{MaxNodes: cf.maxNodes, AllReachable: cf.all, Bound: cf.bound.b}
	if prog != nil {
		// The engine says when it moves from the search to the trace,
		// and what it has done so far.
		q.Progress = prog.set
	}
	res := engine.Run(ctx, eng, checked, q)

	var note string
	if !cf.noReplay && res.Verdict == result.Unsafe && !res.TraceCut {
		prog.set(result.PhaseReplay, fmt.Sprintf("%d steps", traceLen(res.Trace)))
		t := time.Now()
		res, note = replay.Judge(ctx, checked, res)
		res.Stats.AddPhase(result.PhaseReplay, time.Since(t))
	}
	if interruption(ctx) != nil || (res.Verdict == result.Unknown && res.Reason == engine.ReasonTimeout) {
		// Whatever the engine got to, the user stopped the run (or the
		// time limit did): say which, with the statistics so far.
		res = &result.Result{Verdict: result.Unknown, Engine: res.Engine, Stats: res.Stats, Reason: r.limitReason(ctx)}
		note = ""
	}
	if res.Verdict == result.Unsafe && res.TraceCut {
		note = res.Note()
		if cf.timeout > 0 && res.Reason == engine.ReasonTimeout {
			note += fmt.Sprintf(" (%v)", cf.timeout)
		}
	}
	for _, name := range stats.PhaseNames() {
		res.Stats.AddPhase(name, stats.Phases[name])
	}
	var specDesc *result.Spec
	if obs != nil {
		res, specDesc = obs.Explain(res, cf.format == "json"), r.spec.Describe()
	}
	prog.stop()
	if err := cf.witness.write(ctx, s.stderr, cf.quiet, l.src, p, res, cf.maxNodes); err != nil {
		fmt.Fprintf(s.stderr, "boolprog check: %v\n", err)
		return exitUsage
	}
	cf.projection.runProjection(ctx, s.stdout, s.stderr, l.name, p, cf.maxNodes)

	out := &outcome{path: l.name, src: l.src, prog: p, res: res, total: time.Since(start), note: note, warns: l.warns, dialectNote: l.note, spec: specDesc}
	if err := r.report(out); err != nil {
		fmt.Fprintf(s.stderr, "boolprog check: %v\n", err)
		return exitUsage
	}
	return res.Verdict.ExitCode()
}

// frontEnded is what the front end made of a file: the checked file and its
// program, or the input errors that stopped it.
type frontEnded struct {
	name  string
	l     *loaded
	p     *ir.Program
	errs  syntax.ErrorList
	stats result.Stats // the parse and lower phases
}

// frontEnd reads, parses, checks and lowers a file, and checks the target
// label. Parsing and lowering do not poll a context, so when ctx can end
// (a time limit, a signal) they run in a goroutine that the run abandons
// when ctx ends: ok=false, and the check ends at once (the goroutine's
// work is lost; it finishes in the background while later files run).
func (r *checkRun) frontEnd(ctx context.Context, path string, prog *progress) (fe *frontEnded, ok bool) {
	work := func() *frontEnded {
		fe := &frontEnded{name: displayName(path)}
		start := time.Now()
		l, errs := load(ctx, path, &r.cf.load, r.s.stdin)
		if len(errs) > 0 {
			fe.errs = errs
			return fe
		}
		fe.stats.AddPhase(result.PhaseParse, time.Since(start))
		t := time.Now()
		prog.set(result.PhaseLower, l.name)
		p, errs := l.lower(r.cf.target)
		if len(errs) > 0 {
			fe.errs = errs
			return fe
		}
		if err := labels.CheckTarget(p, r.cf.target); err != nil {
			fe.errs = syntax.ErrorList{{Filename: l.name, Msg: err.Error()}}
			return fe
		}
		if p, fe.errs = threadModel(l.name, p, r.cf.threads); len(fe.errs) > 0 {
			return fe
		}
		fe.stats.AddPhase(result.PhaseLower, time.Since(t))
		fe.l, fe.p = l, p
		return fe
	}
	fe, ok = interruptible.Run(ctx, work)
	if ok && len(fe.errs) > 0 && ctx.Err() != nil {
		return nil, false // standard input was still being read
	}
	return fe, ok
}

// limitReason is the UNKNOWN reason of a run whose context ended:
// "interrupted", or "timeout (30s)".
func (r *checkRun) limitReason(ctx context.Context) string {
	if interruption(ctx) != nil {
		return engine.ReasonInterrupted
	}
	if r.cf.timeout > 0 {
		return fmt.Sprintf("%s (%v)", engine.ReasonTimeout, r.cf.timeout)
	}
	return engine.ReasonTimeout
}

// inputErrors reports the input errors of one file: as text on stderr, or
// as a JSON report on stdout.
func (r *checkRun) inputErrors(name string, errs syntax.ErrorList) {
	if r.cf.format == "json" {
		result.ErrorReport(name, messages(errs)...).WriteJSON(r.s.stdout)
		return
	}
	printDiagnostics(r.s.stderr, errs)
}

// outcome is everything reported about one checked file.
type outcome struct {
	path  string
	src   []byte      // the source text (nil if the run ended before it was read)
	prog  *ir.Program // nil if the run ended before the program was read
	res   *result.Result
	total time.Duration
	note  string // a remark on the verdict, e.g. that a limit cut the replay
	warns syntax.ErrorList
	// dialectNote says which precedence dialect was detected, if one was.
	dialectNote string
	spec        *result.Spec // the observer automaton checked too (--spec)
}

// report writes the outcome of one file as text or JSON.
func (r *checkRun) report(o *outcome) error {
	if r.cf.format == "html" {
		return r.writeHTML(o)
	}
	if r.cf.format == "json" {
		target := ""
		if o.prog != nil {
			target = o.prog.Target
		}
		rep := result.NewReport(o.res, o.path, target)
		rep.Spec = o.spec
		if r.opts.Mode == result.None {
			rep.OmitTrace() // --trace none holds in every format
		}
		if !r.cf.quiet {
			rep.Warnings = messages(o.warns)
			if o.dialectNote != "" {
				rep.Warnings = append([]result.Message{{File: o.path, Message: strings.TrimPrefix(o.dialectNote, o.path+": ")}}, rep.Warnings...)
			}
		}
		if p := o.prog; p != nil && p.Concurrent && o.res.Verdict == result.Unknown && p.ConcurrentWhy != "" {
			rep.Warnings = append(rep.Warnings, result.Message{File: o.path, Line: p.ConcurrentPos.Line, Col: p.ConcurrentPos.Col,
				Message: "the program is concurrent: " + p.ConcurrentWhy})
		}
		if o.note != "" && !o.res.TraceCut {
			// The note of a replay cut short: reason is otherwise empty
			// for an unsafe answer.
			rep.Reason = o.note
		}
		return rep.WriteJSON(r.s.stdout)
	}
	return r.writeText(o)
}

func (r *checkRun) writeText(o *outcome) error {
	w := r.s.stdout
	res := o.res
	if tr := res.Trace; tr != nil && len(tr.Steps) > 0 && !res.TraceCut {
		if err := r.writeTrace(o); err != nil {
			return err
		}
		if pr := res.Property; pr != nil && pr.Observer != nil {
			fmt.Fprintln(w, product.ErrorLine(o.path, pr))
		} else {
			fmt.Fprintln(w, errorLine(o.path, tr, o.prog.Target))
		}
	} else if res.Property != nil {
		fmt.Fprintln(w, propertyLine(res.Property, o.path))
	}
	if line := res.BoundLine(); line != "" {
		fmt.Fprintln(w, line)
	}
	if o.note != "" {
		fmt.Fprintf(w, "note: %s\n", o.note)
	}
	if p := o.prog; p != nil && p.Concurrent && res.Verdict == result.Unknown && p.ConcurrentWhy != "" {
		// Point at what made the program concurrent, which the engine
		// refused (or could not finish).
		fmt.Fprintln(w, (&syntax.Error{Filename: o.path, Pos: p.ConcurrentPos, Msg: "note: the program is concurrent: " + p.ConcurrentWhy}).Error())
	}
	if r.cf.stats || res.Reason == engine.ReasonInterrupted {
		writeStats(w, o)
	}
	if o.prog != nil {
		fmt.Fprintln(w, labels.Checked(o.prog)+product.CheckedText(o.spec))
	}
	_, err := fmt.Fprintln(w, res.Banner())
	return err
}

// writeTrace writes the trace as --trace, --trace-style and --trace-file
// ask.
func (r *checkRun) writeTrace(o *outcome) error {
	if r.opts.Mode == result.None {
		return nil
	}
	tr := o.res.Trace
	w := r.s.stdout
	if r.cf.traceFile != "" {
		f, err := os.Create(r.cf.traceFile)
		if err != nil {
			return err
		}
		if err := r.writeTraceText(f, o); err != nil {
			f.Close()
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		fmt.Fprintf(w, "trace: %d steps written to %s\n", tr.Len(), r.cf.traceFile)
		return nil
	}
	return r.writeTraceText(w, o)
}

func (r *checkRun) writeTraceText(w io.Writer, o *outcome) error {
	tr := o.res.Trace
	if r.opts.Style == result.Bebop {
		// The paper's header: "Label R reachable by following path:".
		what := errorWhat(tr, o.prog.Target)
		if _, err := fmt.Fprintf(w, "%s%s reachable by following path:\n", strings.ToUpper(what[:1]), what[1:]); err != nil {
			return err
		}
	}
	opts := r.opts
	opts.Globals = len(o.prog.Globals)
	return result.WriteTraceOptions(w, tr, opts)
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

// propertyLine is errorLine for an error established without a complete
// trace.
func propertyLine(pr *result.Property, path string) string {
	msg := "error: assertion " + pr.Text + " fails"
	if pr.Kind == result.PropertyLabel {
		msg = "error: label " + pr.Label + " reached"
	}
	return (&syntax.Error{Filename: path, Pos: syntax.Pos{Line: pr.Line, Col: pr.Col}, Msg: msg}).Error()
}

func writeStats(w io.Writer, o *outcome) {
	res := o.res
	fmt.Fprintf(w, "engine: %s\n", res.Engine)
	var phases []string
	for _, name := range res.Stats.PhaseNames() {
		phases = append(phases, fmt.Sprintf("%s %v", name, roundDuration(res.Stats.Phases[name])))
	}
	if len(phases) > 0 {
		fmt.Fprintf(w, "time: %v (%s)\n", roundDuration(o.total), strings.Join(phases, ", "))
	} else {
		fmt.Fprintf(w, "time: %v\n", roundDuration(o.total))
	}
	fmt.Fprintf(w, "states: %d\n", res.Stats.States)
	if res.Trace != nil {
		fmt.Fprintf(w, "trace steps: %d\n", res.Trace.Len())
	}
	for _, name := range res.Stats.CounterNames() {
		fmt.Fprintf(w, "%s: %d\n", name, res.Stats.Counters[name])
	}
}

func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// messages converts diagnostics to the JSON report's messages.
func messages(list syntax.ErrorList) []result.Message {
	var out []result.Message
	for _, e := range list {
		out = append(out, result.Message{File: e.Filename, Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg})
	}
	return out
}
