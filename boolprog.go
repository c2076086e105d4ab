package boolprog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"boolprog/analysis"
	"boolprog/cpa/observer"
	"boolprog/engine"
	"boolprog/internal/engines"
	"boolprog/internal/interruptible"
	"boolprog/internal/product"
	"boolprog/internal/replay"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// Options say what Check asks and within which limits. The zero Options
// check the default target label with the default engine, no time limit
// and the engines' own default budgets, as `boolprog check FILE` does.
type Options struct {
	// Filename names the program in diagnostics, reports and traces
	// (default "input.bp"; CheckFile uses the path).
	Filename string
	// Target is the error label (default SLIC_ERROR, which may be absent).
	// A label given here must occur in the program, else Check returns an
	// *InputError that lists the program's labels, closest first. Failing
	// assertions are always errors.
	Target string
	// Engine names the engine (see Engines; aliases accepted). Empty: the
	// command's choice, DefaultEngine for a sequential program and, for a
	// concurrent one without EngineFlags, a portfolio of engines run at
	// once, the first decided answer winning (package internal/portfolio
	// says what decided means; Result.Engine names the winner, whose trace
	// it is).
	Engine string
	// EngineFlags set the engine's own options by name, e.g.
	// {"max-vars": "8"} for explicit or {"cpa-config": "cegar"} for cpa
	// (EngineInfo.Flags lists them). A name the engine does not have is an
	// *OptionError, never silently ignored.
	EngineFlags map[string]string
	// Timeout limits the whole check: front end, search, trace and replay
	// (0: none). Past it the result is Unknown "timeout (5s)", or Unsafe
	// with a Note if the error was already established.
	Timeout time.Duration
	// Bound asks for a bounded answer (at most K context switches or
	// rounds); engines that cannot bound their search answer Unknown.
	Bound Bound
	// MaxNodes bounds the BDD nodes of engines that use BDDs (0: the
	// engine's default); past it the result is Unknown with the reason.
	// Set for an engine without BDDs it is an *OptionError. The
	// concurrent portfolio divides it among its engines that use BDDs.
	MaxNodes int
	// Threads runs these procedures as the program's threads (a name may
	// repeat), for a program without thread statements: `--threads f,g,g`.
	Threads []string
	// Dialect is the operator precedence (default DialectAuto: Getafix's
	// for a file that follows the Getafix convention, else cprover's).
	Dialect Dialect
	// InterleaveAtomicCalls reads a concurrent program's calls of
	// procedures named __VERIFIER_atomic_* as any call, a context switch
	// possible inside the callee (`--interleave-atomic-calls`). By
	// default such a call runs atomically, as SV-COMP's C runs those
	// functions (conc.AtomicCalls says how, and where it cannot).
	InterleaveAtomicCalls bool
	// MaxInput is the largest input CheckReader and CheckFile read
	// (default 64 MiB); a larger one is an *InputError.
	MaxInput int64
	// AllReachable makes the engine compute every reachable state instead
	// of stopping at the first error; the verdict is the same.
	AllReachable bool
	// NoReplay skips replaying the trace in the concrete interpreter
	// (Result.Replayed is then false).
	NoReplay bool
	// Spec is the path of a specification file (an observer automaton,
	// e.g. "no lock twice without an unlock"; README "Observer automata")
	// to check too, as the command's --spec: any engine checks the program
	// instrumented with it, a violation is Unsafe with Property.Observer
	// set, and Result.Observer describes the automaton. A malformed file is
	// an *InputError; the cpa engine also takes the specification from its
	// configuration's observer.spec (a different file here is an
	// *OptionError). A concurrent program is Unknown with the reason.
	Spec string
	// SpecText is the specification's text instead of a file: Spec (or
	// DefaultSpecName) then names it in diagnostics. An engine
	// configuration that names a specification too is an *OptionError.
	SpecText string
	// Witness is the file Check writes a witness of its answer to (""
	// none): a violation witness for Unsafe, a correctness witness for an
	// unbounded Safe. Result.Witness says what was written, or why nothing
	// was. It cannot go with an observer automaton (Spec).
	Witness string
	// WitnessFormat is the witness's format (boolprog's own witness
	// format, see package witness), "yaml" or "graphml" (violation
	// witnesses only: a correctness witness is then not written, and
	// Result.Witness says why); "" chooses from the file's extension
	// (.graphml, .xml: graphml), else yaml.
	WitnessFormat string

	// CommandLine words the notes and reasons that name an option as the
	// command does, by its flag ("--spec f.spec: ...", "--dialect cprover
	// reads it otherwise"), instead of by its Options field.
	CommandLine bool
	// Progress, if set, is told as the check moves from phase to phase
	// (result.PhaseParse, PhaseLower, the engine's phases, PhaseReplay),
	// with a detail: the file, the engine's figures so far, the steps
	// replayed. The engine may call it from another goroutine.
	Progress func(phase, detail string)
	// Loaded, if set, is called once the program is read, checked and
	// lowered, before the engine runs, with the source, whose dialect note
	// and warnings Result will carry: the command prints them then
	// (Source.WriteWarnings).
	Loaded func(*Source)
}

// DefaultSpecName names Options.SpecText in diagnostics when Options.Spec
// gives no name.
const DefaultSpecName = "input.spec"

// DefaultFilename is the Filename of a program when Options give none.
const DefaultFilename = "input.bp"

// DefaultMaxInput is the MaxInput when Options give none: the command's
// default --max-input.
const DefaultMaxInput = 64 << 20

// Dialect is the operator precedence of the input.
type Dialect = syntax.Dialect

// The dialects (see package syntax).
const (
	DialectAuto    = syntax.Auto
	DialectCProver = syntax.CProver
	DialectGetafix = syntax.Getafix
)

// Check checks the Boolean program src as Options say: can an assertion
// fail or the target label be reached? It returns a Result (Safe, Unsafe
// or Unknown with its reason), an *InputError for a program that cannot be
// checked, or an *OptionError for options that cannot be honoured. The end
// of ctx, like Options.Timeout, gives an Unknown result ("interrupted",
// "timeout"), not an error.
func Check(ctx context.Context, src []byte, opts Options) (*Result, error) {
	return check(ctx, func(context.Context) ([]byte, error) { return src, nil }, opts)
}

// CheckReader is Check on a program read from r, up to Options.MaxInput
// bytes.
func CheckReader(ctx context.Context, r io.Reader, opts Options) (*Result, error) {
	return check(ctx, func(context.Context) ([]byte, error) { return opts.readLimited(r) }, opts)
}

// CheckFile is Check on the program in the file at path, named path in
// diagnostics unless Options.Filename is set.
func CheckFile(ctx context.Context, path string, opts Options) (*Result, error) {
	if opts.Filename == "" {
		opts.Filename = path
	}
	return check(ctx, FileReader(path, nil, opts), opts)
}

// CheckFunc is Check on the program that read returns, for callers that
// read their input themselves (the command reads files and standard input
// with its own limits and messages). read runs inside the time limit, with
// a context that ends with it; its error is an *InputError about
// Options.Filename, unless the context ended first (then the result is
// Unknown, as for a search cut short).
func CheckFunc(ctx context.Context, read func(context.Context) ([]byte, error), opts Options) (*Result, error) {
	return check(ctx, read, opts)
}

func (o *Options) maxInput() int64 {
	if o.MaxInput > 0 {
		return o.MaxInput
	}
	return DefaultMaxInput
}

func (o *Options) filename() string {
	if o.Filename != "" {
		return o.Filename
	}
	return DefaultFilename
}

// readLimited reads r up to limit bytes; more is an error.
func (o *Options) readLimited(r io.Reader) ([]byte, error) {
	limit := o.maxInput()
	src, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, err
	}
	if int64(len(src)) > limit {
		return nil, o.tooLarge(limit)
	}
	return src, nil
}

// validate checks the options that do not depend on the program. With
// Options.CommandLine the refusals are worded by the command's flags, as
// `boolprog check` prints them.
func (o *Options) validate(info engine.Info) error {
	cmd := o.CommandLine
	switch {
	case cmd && (o.Timeout < 0 || o.MaxNodes < 0):
		return optionErrorf(negativeLimit(o), "limits must not be negative")
	case o.Timeout < 0:
		return optionErrorf("Timeout", "negative time limit %v", o.Timeout)
	case o.MaxNodes < 0:
		return optionErrorf("MaxNodes", "negative node limit %d", o.MaxNodes)
	case o.MaxInput < 0:
		return optionErrorf("MaxInput", "negative input limit %d", o.MaxInput)
	case cmd && o.MaxNodes > 0 && !info.NodeLimited:
		return optionErrorf("MaxNodes", "--max-nodes bounds BDD nodes, which the %s engine does not use", info.Name())
	case o.MaxNodes > 0 && !info.NodeLimited:
		return optionErrorf("MaxNodes", "the %s engine uses no BDDs: a node limit would have no effect", info.Name())
	case cmd && o.AllReachable && !info.AllReachable:
		return optionErrorf("AllReachable", "--all: the %s engine stops at the first error (summary and cpa compute every reachable state)", info.Name())
	case o.AllReachable && !info.AllReachable:
		return optionErrorf("AllReachable", "the %s engine stops at the first error: it would have no effect", info.Name())
	}
	if err := o.Bound.Validate(); err != nil {
		return optionErrorf("Bound", "%v", err)
	}
	switch o.Dialect {
	case DialectAuto, DialectCProver, DialectGetafix:
	default:
		return optionErrorf("Dialect", "unknown dialect %d", int(o.Dialect))
	}
	if o.WitnessFormat != "" && o.Witness == "" {
		if cmd {
			return optionErrorf("WitnessFormat", "--witness-format needs --witness FILE")
		}
		return optionErrorf("WitnessFormat", "a witness format without a witness file (Witness)")
	}
	if _, ok := o.witnessFormat(); !ok {
		return optionErrorf("WitnessFormat", "unknown witness format %q (want yaml or graphml)", o.WitnessFormat)
	}
	if o.Witness != "" && o.Spec != "" && o.SpecText == "" && cmd {
		// Refused before the specification is read: the error would be
		// the observer's, which no witness location can name, and the
		// invariants would be the plain program's.
		return optionErrorf("Witness", "--witness speaks of the program's own errors, not of an observer automaton (--spec)")
	}
	return nil
}

// negativeLimit names the field of the negative limit.
func negativeLimit(o *Options) string {
	if o.Timeout < 0 {
		return "Timeout"
	}
	return "MaxNodes"
}

// optionName is how messages name the Options field field: by the
// command's flag when Options.CommandLine, else by the field.
func (o *Options) optionName(field, flag string) string {
	if o.CommandLine {
		return flag
	}
	return "Options." + field
}

// dialectHint names the option that reads a program with cprover's
// precedence.
func (o *Options) dialectHint() string {
	if o.CommandLine {
		return "--dialect cprover"
	}
	return "DialectCProver"
}

// loadSpec returns the observer automaton of Options.Spec or SpecText,
// or of the engine's configuration (nil if none names one). A malformed
// specification is an *InputError, two specifications an *OptionError.
func (o *Options) loadSpec(eng engine.Engine) (*observer.Spec, error) {
	var spec *observer.Spec
	var err error
	if o.SpecText == "" {
		spec, err = product.LoadSpec(o.optionName("Spec", "--spec"), o.Spec, eng)
	} else if cfg := product.ConfigSpec(eng); cfg != "" {
		return nil, optionErrorf("SpecText", "the engine configuration's observer.spec %s names a specification too", cfg)
	} else {
		name := o.Spec
		if name == "" {
			name = DefaultSpecName
		}
		spec, err = product.ParseSpec(name, o.SpecText)
	}
	var se *syntax.Error
	switch {
	case errors.As(err, &se):
		return nil, &InputError{Diagnostics: diagnostics(syntax.ErrorList{se})}
	case err != nil:
		return nil, optionErrorf("Spec", "%v", err)
	}
	return spec, nil
}

// Validate checks the options as Check does before it reads a program:
// the engine and its flags, the limits and whether the engine honours
// them (MaxNodes, AllReachable), the specification, and the witness
// against its format and the specification. It returns the observer automaton the check will
// include (nil if none), or the error Check would return (*OptionError,
// or *InputError for a malformed file an option names). The command calls
// it once before its files.
func (o Options) Validate() (*ObserverSpec, error) {
	_, spec, err := o.prepare()
	if err != nil || spec == nil {
		return nil, err
	}
	return spec.Describe(), nil
}

// prepare builds the engine, checks the options that do not depend on the
// program and loads the specification (nil if none).
func (o *Options) prepare() (engine.Engine, *observer.Spec, error) {
	eng, info, err := newEngine(o)
	if err != nil {
		return nil, nil, err
	}
	if err := o.validate(info); err != nil {
		return nil, nil, err
	}
	spec, err := o.loadSpec(eng)
	if err != nil {
		return nil, nil, err
	}
	if spec != nil && o.Witness != "" {
		// A witness speaks of the program's assertions and label; the
		// trace of an observer's violation is one of the product.
		if o.CommandLine {
			// From the engine's configuration: --spec was checked above.
			return nil, nil, optionErrorf("Witness", "--witness describes the program's own errors, not an observer automaton's (--spec or the configuration's observer.spec)")
		}
		return nil, nil, optionErrorf("Witness", "a witness describes the program's own errors, not an observer automaton's")
	}
	return eng, spec, nil
}

// check is Check with the source read by read, inside the time limit.
func check(parent context.Context, read func(context.Context) ([]byte, error), opts Options) (*Result, error) {
	start := time.Now()
	eng, spec, err := opts.prepare()
	if err != nil {
		return nil, err
	}
	name := opts.filename()
	ctx := parent
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = withTimeout(parent, opts.Timeout)
		defer cancel()
	}
	opts.progress(result.PhaseParse, name)
	fe, ok := frontEnd(ctx, name, read, &opts)
	if ok && len(fe.errs) > 0 && ctx.Err() != nil {
		ok = false // the input was still being read when the context ended
	}
	if !ok {
		res := result.NewUnknown(eng.Name(), limitReason(ctx, opts.Timeout))
		res.Stats.Time = time.Since(start)
		r := &Result{File: name, Verdict: res.Verdict, Reason: res.Reason, Engine: res.Engine, Stats: res.Stats, res: res}
		if opts.Witness != "" {
			r.Witness = &WitnessOutcome{File: opts.Witness, Why: unknownWhy(res) + ": the program was not read"}
		}
		r.total = time.Since(start)
		return r, nil
	}
	if len(fe.errs) > 0 {
		return nil, &InputError{Diagnostics: diagnostics(fe.errs)}
	}
	p := fe.p
	// One cache of p's analyses for the whole check: the choice of the
	// concurrent default, the engine (when it checks p itself, not an
	// observer product) and the certificate of a proof.
	an := analysis.NewCache(p)
	if opts.Engine == "" && len(opts.EngineFlags) == 0 && p.Concurrent {
		if eng, err = concurrentDefault(p, an, &opts); err != nil {
			return nil, err
		}
	}
	if opts.Loaded != nil {
		opts.Loaded(fe.src)
	}
	checked, obs := p, (*product.Observed)(nil)
	if spec != nil {
		o, prodEng, errs, unsupported := product.Observe(spec, p, eng)
		if len(errs) > 0 {
			return nil, &InputError{Diagnostics: diagnostics(errs)}
		} else if unsupported != nil {
			res := result.NewUnknown(eng.Name(), opts.optionName("Spec", "--spec")+" "+spec.File+": "+unsupported.Error())
			r := newResult(name, p, res, "", false, fe, time.Since(start))
			r.Observer = spec.Describe()
			return r, nil
		}
		obs, eng, checked = o, prodEng, o.Inst.Prog
	}
	q := engine.Query{MaxNodes: opts.MaxNodes, AllReachable: opts.AllReachable, Bound: opts.Bound, Progress: opts.Progress, Analyses: an}
	res := engine.Run(ctx, eng, checked, q)

	var note string
	replayed := false
	if !opts.NoReplay && res.Verdict == result.Unsafe && !res.TraceCut {
		if opts.Progress != nil && res.Trace != nil {
			opts.Progress(result.PhaseReplay, fmt.Sprintf("%d steps", res.Trace.Len()))
		}
		t := time.Now()
		res, note = replay.Judge(ctx, checked, res)
		replayed = res.Verdict == result.Unsafe && note == ""
		res.Stats.AddPhase(result.PhaseReplay, time.Since(t))
	}
	if engine.StopReason(parent) == engine.ReasonInterrupted || (res.Verdict == result.Unknown && res.Reason == engine.ReasonTimeout) {
		// The caller cancelled the check, or the time limit stopped the
		// search: say which, with the statistics so far. (An error
		// established before a deadline stays Unsafe, with a note.)
		res = &result.Result{Verdict: result.Unknown, Engine: res.Engine, Stats: res.Stats, Reason: limitReason(ctx, opts.Timeout)}
		note, replayed = "", false
	}
	if res.Verdict == result.Unsafe && res.TraceCut {
		note = res.Note()
		if opts.Timeout > 0 && res.Reason == engine.ReasonTimeout {
			note += fmt.Sprintf(" (%v)", opts.Timeout)
		}
	}
	for _, ph := range fe.stats.PhaseNames() {
		res.Stats.AddPhase(ph, fe.stats.Phases[ph])
	}
	var r *Result
	if obs == nil {
		r = newResult(name, p, res, note, replayed, fe, time.Since(start))
	} else {
		// The JSON report (and Result.Trace) keep the automaton's state
		// variables, so that the trace states everything; the text leaves
		// them out.
		r = newResult(name, p, obs.Explain(res, true), note, replayed, fe, time.Since(start))
		r.Observer = spec.Describe()
		if tr := obs.Explain(res, false).Trace; tr != nil && r.Trace != nil {
			r.textTrace = tr.Steps
		}
	}
	r.analyses = an
	if opts.Witness != "" {
		r.Witness, r.proof = writeWitness(ctx, &opts, fe.src.Text, p, an, res)
		if r.proof != nil {
			r.proofNote = r.Witness.Note
		}
	}
	r.total = time.Since(start)
	return r, nil
}

// progress tells Options.Progress, if set, of a phase.
func (o *Options) progress(phase, detail string) {
	if o.Progress != nil {
		o.Progress(phase, detail)
	}
}

// concurrentDefault returns the engine that checks the concurrent program
// p when Options name none, the portfolio of package internal/engines, or
// the *OptionError of a setting it would ignore.
func concurrentDefault(p *ir.Program, an *analysis.Cache, opts *Options) (engine.Engine, error) {
	switch engines.ConcurrentIgnores(p, engine.Query{MaxNodes: opts.MaxNodes, AllReachable: opts.AllReachable, Analyses: an}) {
	case "max-nodes":
		if opts.CommandLine {
			return nil, optionErrorf("MaxNodes", "a concurrent program: --max-nodes bounds BDD nodes, which no engine of the concurrent portfolio uses; name a BDD engine (--engine conc-fix, conc-eager or conc-lazy)")
		}
		return nil, optionErrorf("MaxNodes", "a concurrent program: no engine of the concurrent portfolio uses BDDs: a node limit would have no effect (set Engine to conc-fix, conc-eager or conc-lazy)")
	case "all":
		if opts.CommandLine {
			return nil, optionErrorf("AllReachable", "a concurrent program: --all: the concurrent engines stop at the first error")
		}
		return nil, optionErrorf("AllReachable", "a concurrent program: the concurrent engines stop at the first error: it would have no effect")
	}
	eng, err := engines.ConcurrentDefault(p, an)
	if err != nil {
		return nil, optionErrorf("Engine", "%v", err)
	}
	return eng, nil
}

// frontEnded is what the front end made of a source: its program, or the
// input errors that stopped it.
type frontEnded struct {
	src   *Source
	p     *ir.Program
	errs  syntax.ErrorList
	stats result.Stats // the parse and lower phases
}

// frontEnd reads, parses, checks and lowers the source, checks the target
// label and applies Options.Threads. Parsing and lowering do not poll a
// context, so when ctx can end they run in a goroutine that the check
// abandons when ctx ends (ok false).
func frontEnd(ctx context.Context, name string, read func(context.Context) ([]byte, error), opts *Options) (fe *frontEnded, ok bool) {
	work := func() *frontEnded {
		fe := &frontEnded{}
		start := time.Now()
		if fe.src, fe.errs = load(ctx, name, read, opts); len(fe.errs) > 0 {
			return fe
		}
		fe.stats.AddPhase(result.PhaseParse, time.Since(start))
		t := time.Now()
		opts.progress(result.PhaseLower, name)
		if fe.p, fe.errs = fe.src.lower(opts.Target, opts.Threads); len(fe.errs) > 0 {
			return fe
		}
		fe.stats.AddPhase(result.PhaseLower, time.Since(t))
		return fe
	}
	return interruptible.Run(ctx, work)
}

// limitReason is the Unknown reason of a check whose context ended:
// "interrupted", or "timeout (5s)".
func limitReason(ctx context.Context, timeout time.Duration) string {
	why := engine.StopReason(ctx)
	if why == "" || why == engine.ReasonTimeout {
		why = engine.ReasonTimeout
		if timeout > 0 {
			why = fmt.Sprintf("%s (%v)", engine.ReasonTimeout, timeout)
		}
	}
	return why
}
