// Package cpa is the engine `cpa`: configurable program analysis (package
// cpa and its analyses) as a verification engine. A configuration chooses
// the analyses of the composite, the interprocedural wrapper, merge, stop,
// the waitlist order, and whether CEGAR refines the explicit-value
// analysis's precision.
//
// # Configurations
//
// `--cpa-config NAME` selects a named configuration, `--cpa-config FILE` a
// file; without the flag the engine runs model-checking. The named ones
// (their text is in configs/, each documented):
//
//   - model-checking: explicit values, every variable tracked, merge-sep,
//     block summaries per entry state. Sound and complete.
//   - data-flow: the same analyses with merge-join and one context per
//     procedure: constant propagation. Sound; an error it reaches is
//     replayed and, if no execution follows the path, answered UNKNOWN (a
//     possible false alarm).
//   - cegar: model checking that starts tracking no variable and refines
//     the precision with the infeasible counterexamples (package cegar).
//   - bdd: sets of valuations as BDDs, merge-join (exact for BDDs), block
//     summaries per entry set. After a join the ARG's parent links are not
//     an execution, so the trace of an error it reaches is found by the
//     cegar configuration (which must find one: the error is reachable).
//   - callstack: explicit values with call strings up to depth 4 (the
//     frames hold the callers' states, so their number grows
//     exponentially with the depth); a
//     deeper call makes the answer UNKNOWN with the bound in the reason.
//
// A configuration file has one `option = value` per line; `#` starts a
// comment. Options:
//
//	analyses = location, summary, explicitval   # components, in order; callstack or summary handles calls
//	merge = sep | join | agree                  # agree: join data only where automata agree
//	stop = sep | join
//	waitlist = bfs | dfs | rpo | callstack
//	callstack.depth = N                         # 0: no bound (refused on recursive programs)
//	summary.contexts = entry | procedure
//	explicitval.track = all | none
//	cegar = on | off
//	cegar.refinements = N
//	observer.spec = FILE                        # with the observer analysis
//	limit.states = N                            # UNKNOWN beyond N abstract states
//
// An unknown option or analysis is an error at its file:line:col that
// lists the valid names; a configuration that cannot be run on a program
// (a call stack without bound on a recursive program, --max-nodes without
// a BDD analysis) is refused with the reason before anything runs.
//
// # Observer automata
//
// With the observer analysis (observer.spec), a violation of the
// automaton is a target of the search, but the program has no error
// location for it, so Check answers it Unknown with the violation in its
// reason. CheckProduct answers for the program instrumented with the
// automaton (observer.Instrument), the program `boolprog check` checks for
// such a configuration or --spec: there the violation is Unsafe with a
// trace that replays. Cegar with the observer analysis runs only there.
package cpa

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"time"

	"boolprog/analysis"
	"boolprog/bdd"
	"boolprog/cpa"
	"boolprog/cpa/bddcpa"
	"boolprog/cpa/cegar"
	"boolprog/cpa/explicitval"
	"boolprog/cpa/observer"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
)

// Name is the engine's name.
const Name = "cpa"

func init() {
	engine.Register(engine.Info{
		Names: []string{Name},
		Doc:   "configurable program analysis: data-flow to model checking by merge and stop, CEGAR (--cpa-config)",
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			cfg := &configValue{FileFlag: *configFlag(DefaultConfig)}
			fs.Var(cfg, "cpa-config", "configuration: a name ("+joinNames()+") or a file")
			return func() (engine.Engine, error) {
				c, err := cfg.config()
				if err != nil {
					return nil, err
				}
				return New(c), nil
			}
		},
		NodeLimited:  true,
		AllReachable: true, // cpa.Options.All
	})
}

func joinNames() string {
	s := ""
	for i, n := range NamedConfigs() {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// Engine is the cpa engine with one configuration.
type Engine struct {
	cfg *Config
	// Observed is set by Check when the observer's property is violated:
	// the trace and the instrumented program it replays on.
	Observed *Observed
}

// Observed is a violation of an observer's property: a trace of the
// program instrumented with the observer.
type Observed struct {
	Trace *result.Trace
	Inst  *observer.Instrumented
}

// New returns the engine running configuration c.
func New(c *Config) *Engine { return &Engine{cfg: c} }

// NewNamed returns the engine running a named configuration; it panics on
// an unknown name (for tests and benchmarks).
func NewNamed(name string) *Engine {
	c, err := LoadConfig(name)
	if err != nil {
		panic(err)
	}
	return New(c)
}

// Name returns "cpa".
func (e *Engine) Name() string { return Name }

// Config returns the engine's configuration.
func (e *Engine) Config() *Config { return e.cfg }

// Supports refuses concurrent programs, bounded queries, a call stack
// without bound on a recursive program, and a node limit for a
// configuration without BDDs.
func (e *Engine) Supports(p *ir.Program, q engine.Query) error {
	if e.cfg.CEGAR && e.has("observer") {
		return fmt.Errorf("configuration %s: cegar with the observer analysis runs on the program instrumented with the automaton (boolprog check does this; in Go: CheckProduct)", e.cfg.Name)
	}
	return e.supports(p, q)
}

// SupportsProduct is Supports for CheckProduct.
func (e *Engine) SupportsProduct(inst *observer.Instrumented, q engine.Query) error {
	return e.supports(inst.Orig, q)
}

func (e *Engine) supports(p *ir.Program, q engine.Query) error {
	if err := engine.SupportsSequential(Name, "concurrent program: the cpa engine analyses sequential programs only", p, q); err != nil {
		return err
	}
	if p.Main < 0 {
		return errors.New("the program has no main procedure")
	}
	if e.cfg.Interproc == "callstack" && e.cfg.Depth == 0 {
		c := q.AnalysesFor(p)
		calls, comps := analysis.Of(c, analysis.CallGraph), analysis.Of(c, analysis.SCC)
		for i, pr := range p.Procs {
			if comps.Recursive(calls, i) {
				return fmt.Errorf("configuration %s: the callstack analysis without callstack.depth cannot analyse the recursive procedure %s (line %d): set callstack.depth or use the summary analysis", e.cfg.Name, pr.Name, pr.Pos.Line)
			}
		}
	}
	if q.MaxNodes > 0 && !e.has("bdd") {
		return fmt.Errorf("configuration %s uses no BDDs: --max-nodes does not apply", e.cfg.Name)
	}
	return nil
}

func (e *Engine) has(name string) bool {
	for _, a := range e.cfg.Analyses {
		if a == name {
			return true
		}
	}
	return false
}

// run holds what one Check builds.
type run struct {
	cfa *cpa.CFA
	// inst, if set, is the program instrumented with the observer
	// (CheckProduct): cfa is of inst.Orig, and traces are of inst.Prog.
	inst *observer.Instrumented
	cs   *cpa.Callstack
	sum  *cpa.Summaries
	comp *cpa.Composite
	done []func()
	// bdds are the managers of the BDD components: an operation that
	// fails (node limit, interrupted) without an error of its own (a
	// join, an inclusion test) leaves its error in the manager.
	bdds []*bdd.Manager
}

// bddErr returns the first error a BDD manager of the run recorded.
func (r *run) bddErr() error {
	for _, m := range r.bdds {
		if err := m.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) release() {
	for _, f := range r.done {
		f()
	}
	r.done = nil
}

// build returns the analysis of the configuration with the explicit-value
// analysis at precision prec (nil: every variable).
func (e *Engine) build(ctx context.Context, r *run, q engine.Query, prec *explicitval.Precision) (cpa.Analysis, error) {
	r.release()
	r.bdds = nil
	p := r.cfa.Prog
	var comps []cpa.Component
	for _, name := range e.cfg.Analyses {
		var spec *observer.Spec
		if r.inst != nil {
			spec = r.inst.Spec
		}
		c, done, err := newComponent(ctx, name, e.cfg, p, q, prec, spec)
		if err != nil {
			return nil, err
		}
		if done != nil {
			r.done = append(r.done, done)
		}
		if b, ok := c.(*bddcpa.Analysis); ok {
			r.bdds = append(r.bdds, b.M)
		}
		comps = append(comps, c)
	}
	r.comp = cpa.NewComposite(r.cfa, e.cfg.Merge, e.cfg.Stop, comps...)
	if e.cfg.Interproc == "callstack" {
		r.cs = cpa.NewCallstack(r.comp, e.cfg.Depth)
		return r.cs, nil
	}
	r.sum = cpa.NewSummaries(r.comp, e.cfg.PerEntry)
	return r.sum, nil
}

// exact reports whether the configuration's abstract states map exactly
// (so that a target it reaches is reachable).
func (e *Engine) exact() bool {
	return e.cfg.Merge == cpa.MergeSep && e.cfg.TrackAll && e.cfg.PerEntry && e.has("explicitval")
}

// Check runs the configured analysis. A violation of the observer's
// property has no trace of p (p has no error location for it): the answer
// is Unknown with the violation in its reason and the trace of the
// instrumented program in e.Observed; CheckProduct answers it.
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	return e.check(ctx, p, q, nil)
}

// ObserverSpec returns the configuration's observer specification file,
// or "" if it has no observer analysis.
func (e *Engine) ObserverSpec() string { return e.cfg.Observer }

// ObserverAutomaton returns the configuration's observer specification as
// read with the configuration file, or nil: a caller needing it reads no
// file again (a pipe reads empty the second time).
func (e *Engine) ObserverAutomaton() *observer.Spec { return e.cfg.Spec }

// CheckProduct checks inst.Prog, a program instrumented with an observer
// automaton (observer.Instrument), and answers for it: a violation of the
// automaton is Unsafe with a trace of inst.Prog that ends at the
// instrumentation's failure location, and Safe proves both the program's
// own errors and the automaton's unreachable. A configuration with the
// observer analysis analyses inst.Orig with the automaton inst.Spec as its
// observer component (strengthening decides its guards) and carries the
// counterexample over to inst.Prog (Instrumented.MapPath); any other
// configuration analyses inst.Prog itself, where the automaton's state is
// a few more globals.
//
// CEGAR refines the precision of the explicit values along paths of the
// program it analyses, and a violation's path ends at a call, not at an
// error location, so a CEGAR configuration drops its observer analysis and
// analyses inst.Prog, where the refinement tracks the automaton's bits
// when a counterexample needs them.
func (e *Engine) CheckProduct(ctx context.Context, inst *observer.Instrumented, q engine.Query) (*result.Result, error) {
	if e.has("observer") && e.cfg.CEGAR {
		c := *e.cfg
		c.Analyses = slices.DeleteFunc(slices.Clone(c.Analyses), func(a string) bool { return a == "observer" })
		c.Observer, c.Spec = "", nil
		return New(&c).check(ctx, inst.Prog, q, nil)
	}
	if !e.has("observer") {
		return e.check(ctx, inst.Prog, q, nil)
	}
	return e.check(ctx, inst.Orig, q, inst)
}

func (e *Engine) check(ctx context.Context, p *ir.Program, q engine.Query, inst *observer.Instrumented) (*result.Result, error) {
	r := &run{cfa: cpa.NewCFA(p, q.AnalysesFor(p)), inst: inst}
	defer r.release()
	res := &result.Result{Engine: Name}
	q.Report(result.PhaseReach, "")
	start := time.Now()
	opts := cpa.Options{Order: e.cfg.Order, MaxStates: e.cfg.MaxStates, All: q.AllReachable}
	opts.Progress = func(n int) { q.Report(result.PhaseReach, fmt.Sprintf("%d abstract states", n)) }
	stats := &res.Stats
	if e.cfg.CEGAR {
		var initial *explicitval.Precision
		if e.cfg.TrackAll {
			initial = nil
		}
		out, err := cegar.Check(ctx, r.cfa, cegar.Options{
			Build:          func(prec *explicitval.Precision) (cpa.Analysis, error) { return e.build(ctx, r, q, prec) },
			Run:            opts,
			MaxRefinements: e.cfg.MaxRefine,
			Initial:        initial,
		})
		if err == nil {
			err = r.bddErr()
		}
		stats.AddPhase(result.PhaseReach, time.Since(start))
		if out != nil {
			stats.States = int64(out.States)
			stats.Set("refinements", int64(out.Refinements))
			stats.Set("tracked_variables", int64(out.Tracked))
		}
		if err != nil {
			return e.limit(res, err)
		}
		switch {
		case out.Trace != nil:
			q.Report(result.PhaseTrace, "")
			res.Verdict, res.Trace = result.Unsafe, out.Trace
		case out.GaveUp != "":
			res.Verdict, res.Reason = result.Unknown, out.GaveUp
		default:
			e.safe(res, r)
		}
		return res, nil
	}
	prec := (*explicitval.Precision)(nil)
	if !e.cfg.TrackAll {
		prec = explicitval.NewPrecision(p)
	}
	a, err := e.build(ctx, r, q, prec)
	if err != nil {
		return nil, err
	}
	reached, err := cpa.Run(ctx, a, r.cfa, opts)
	if err == nil {
		err = r.bddErr()
	}
	stats.AddPhase(result.PhaseReach, time.Since(start))
	if reached != nil {
		stats.States = int64(reached.Nodes)
		stats.Set("reached", int64(reached.Size()))
		stats.Set("merges", int64(reached.Merges))
		stats.Set("covered", int64(reached.Covered))
		if r.sum != nil {
			stats.Set("contexts", int64(r.sum.Contexts()))
		}
	}
	if err != nil {
		return e.limit(res, err)
	}
	if reached.Target == nil {
		e.safe(res, r)
		return res, nil
	}
	q.Report(result.PhaseTrace, "")
	t := time.Now()
	path := cpa.Path(r.cfa, reached.Target)
	if v := e.violation(r, reached.Target); v != nil {
		return e.observed(ctx, res, r, path, v)
	}
	tr, n, err := e.concretize(ctx, r, path, 0)
	var inf *explicitval.Infeasible
	if errors.As(err, &inf) && e.setExact() && e.cfg.Merge != cpa.MergeSep {
		// The states are exact sets, so the error is reachable, but
		// after a join the ARG's parent links need not be an execution.
		// A merge-sep search would enumerate the paths the join saved;
		// CEGAR over explicit values finds an execution instead (it
		// must: the error is reachable, and with everything tracked it
		// is exact).
		c := &Config{Name: e.cfg.Name + " (trace by cegar)", Analyses: []string{"explicitval"}, Interproc: "summary",
			PerEntry: true, CEGAR: true, MaxRefine: 1 << 20, Order: e.cfg.Order, MaxStates: e.cfg.MaxStates}
		ce := New(c)
		cp := p
		if r.inst != nil {
			cp = r.inst.Prog // where the observer is in the globals
		}
		if cr, cerr := ce.Check(ctx, cp, q); cerr != nil {
			tr, err = nil, cerr
		} else if cr.Verdict == result.Unsafe {
			tr, err = cr.Trace, nil
			stats.Set("trace_by_cegar", 1)
		} else {
			err = fmt.Errorf("the error the %s analysis reaches was not found again by cegar: %s %s", e.cfg.Name, cr.Verdict, cr.Reason)
		}
	}
	stats.AddPhase(result.PhaseTrace, time.Since(t))
	switch {
	case err == nil:
		res.Verdict, res.Trace = result.Unsafe, tr
	case errors.As(err, &inf) && (e.exact() || e.setExact()):
		return nil, fmt.Errorf("the exact configuration %s found an infeasible counterexample (edge %d of %d)", e.cfg.Name, inf.Fail+1, n)
	case errors.As(err, &inf):
		l := r.cfa.Location(cpa.CompositeOf(reached.Target.State).Loc())
		res.Verdict = result.Unknown
		res.Reason = fmt.Sprintf("possible false alarm: the %s analysis reaches the error at line %d, but no execution follows its path (edge %d of %d is infeasible)", e.cfg.Name, l.Pos.Line, inf.Fail+1, n)
	default:
		return e.limit(res, err)
	}
	return res, nil
}

// concretize turns the path to a target into a trace of the program
// checked: of the CFA's program, or with r.inst of the instrumented one
// (violation: the specification line of the observer's violating
// transition, 0 for an error of the program). It returns the length of
// the path it concretized, which an *explicitval.Infeasible indexes.
func (e *Engine) concretize(ctx context.Context, r *run, path []*cpa.Edge, violation int) (*result.Trace, int, error) {
	if r.inst == nil {
		tr, err := explicitval.Concretize(ctx, r.cfa, path)
		return tr, len(path), err
	}
	icfa := cpa.NewCFA(r.inst.Prog, nil) // the product program: its own analyses
	ipath, err := r.inst.MapPath(icfa, path, violation)
	if err != nil {
		return nil, len(path), err
	}
	tr, err := explicitval.Concretize(ctx, icfa, ipath)
	return tr, len(ipath), err
}

// setExact reports whether every abstract state is exactly the set of
// concrete states it stands for, joins included (the BDD analysis with
// block summaries per entry set): a target it reaches is reachable.
func (e *Engine) setExact() bool { return e.has("bdd") && e.cfg.PerEntry }

// safe sets a Safe verdict, or Unknown if the call stack was cut.
func (e *Engine) safe(res *result.Result, r *run) {
	if r.cs != nil && r.cs.DepthReached {
		res.Verdict = result.Unknown
		res.Reason = fmt.Sprintf("no error found in calls up to depth %d, but deeper calls were not explored (callstack.depth = %d)", e.cfg.Depth, e.cfg.Depth)
		res.Stats.Set("callstack_depth_bound", int64(e.cfg.Depth))
		return
	}
	res.Verdict = result.Safe
}

// limit turns a resource error into an Unknown verdict (a context's end,
// or a BDD operation it interrupted, is returned for engine.Run to
// report).
func (e *Engine) limit(res *result.Result, err error) (*result.Result, error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, bdd.ErrInterrupted) {
		return nil, err
	}
	res.Verdict, res.Reason = result.Unknown, err.Error()
	return res, nil
}

// violation returns the observer's error state of a target, or nil.
func (e *Engine) violation(r *run, n *cpa.ARGNode) *observer.State {
	i := r.comp.Component("observer")
	if i < 0 {
		return nil
	}
	if s := cpa.CompositeOf(n.State).Comps[i].(*observer.State); s.Q == observer.Error {
		return s
	}
	return nil
}

// observed answers a violation of the observer's property. The program has
// no error location for it, so no trace of the program can show it to
// interp.Replay: the counterexample is concretized on the instrumented
// program (observer.Instrument), where the violation is an assertion
// failure. Under CheckProduct that program is the one checked, and the
// answer is Unsafe; under Check it is Unknown with the violation in its
// reason, and e.Observed holds the trace.
func (e *Engine) observed(ctx context.Context, res *result.Result, r *run, path []*cpa.Edge, v *observer.State) (*result.Result, error) {
	var tr *result.Trace
	var inst *observer.Instrumented
	var err error
	if r.inst != nil {
		inst = r.inst
		tr, _, err = e.concretize(ctx, r, path, v.Line)
	} else {
		tr, inst, err = ObservedTrace(ctx, e.cfg, r.cfa.Prog, path, v)
	}
	var inf *explicitval.Infeasible
	switch {
	case errors.As(err, &inf):
		res.Verdict = result.Unknown
		res.Reason = fmt.Sprintf("possible false alarm: the observer reaches its error (%s), but no execution follows the path", v.Msg)
		return res, nil
	case err != nil:
		return e.limit(res, err)
	}
	res.Stats.Set("observer_violation", 1)
	if r.inst != nil {
		res.Verdict, res.Trace, res.Property = result.Unsafe, tr, inst.Violation(tr)
		return res, nil
	}
	e.Observed = &Observed{Trace: tr, Inst: inst}
	last := tr.Steps[len(tr.Steps)-1]
	res.Verdict = result.Unknown
	res.Reason = fmt.Sprintf("property %s violated: %s (line %d of %s, after %d steps); the trace replays on the program instrumented with the observer (boolprog check --spec shows it)",
		inst.Spec.Property, v.Msg, last.Line, last.Proc, len(tr.Steps))
	return res, nil
}

// ObservedTrace turns a counterexample path of p on which the observer of
// configuration c reaches its error state v into a trace of p instrumented
// with the observer, which interp.Replay accepts on the returned program.
func ObservedTrace(ctx context.Context, c *Config, p *ir.Program, path []*cpa.Edge, v *observer.State) (*result.Trace, *observer.Instrumented, error) {
	spec, err := c.spec()
	if err != nil {
		return nil, nil, err
	}
	inst, err := observer.Instrument(spec, p)
	if err != nil {
		return nil, nil, err
	}
	icfa := cpa.NewCFA(inst.Prog, nil) // the product program: its own analyses
	ipath, err := inst.MapPath(icfa, path, v.Line)
	if err != nil {
		return nil, nil, err
	}
	tr, err := explicitval.Concretize(ctx, icfa, ipath)
	return tr, inst, err
}
