// Package concprod is the engine conc-product: reachability of concurrent
// Boolean programs whose threads do not recurse, over the product of the
// threads' states with one copy of the globals, as Getafix's own
// experiment formulas track it (formula-3t_4r_crossproduct_precise.mu:
// (pc1, L1, …, pcn, Ln, G), stratified by thread and round), built
// directly on package bdd.
//
// # Encoding
//
// Every thread has a bounded stack (frames.go): its frame of depth d runs one
// of the procedures that d calls can reach from the thread's procedure,
// and holds a pc (a location of any procedure, numbered program-wide, or
// "none" for a frame not active) and the locals of the widest of those
// procedures. A caller's pc stays at its call while the callee runs, so a
// return pops through whichever call the caller's pc shows. A thread that
// recurses has no bounded stack: the engine refuses the program
// (Supports) and names the cycle. Each state variable (a pc bit, a local
// of one depth of one thread, a global) has a current and a next BDD
// variable, adjacent in the order, and a third copy used only to compose
// the parts of one step (encode.go, rel.go): a step of interp's semantics
// may pop several frames at once. The default order is every thread's pcs
// (most significant bit first) and locals, thread by thread, then the
// globals (--product-order).
//
// A frame that arrives at a location frees its locals that are dead there
// (deadlocals.go: no path from there reads them before writing them), so
// the sets do not carry stale values; traces get the real values back.
//
// The transition relation is partitioned per thread and, within a thread,
// into blocks: the edges that change the same variables form a group, and
// groups merge, with explicit frame conditions, while a block stays under
// --cluster-nodes BDD nodes; unless that flag is given, a thread whose
// whole relation is no larger as one block than as those blocks gets one
// block (search.go, wholeBlock). A block's image is one relational
// product (bdd.AndExistsReplace) that quantifies only the current copies
// of the variables it changes and renames the next copies back; every
// other variable keeps its value without a frame condition.
//
// # Search
//
// The costs are the explicit oracle's (search.go): a context switch costs
// 1 for --bound cs:K, a return to a thread with a smaller number costs 1
// for --bound rounds:K (round-robin in thread order, Getafix's schedule:
// init first alone, then thread 0, 1, …, each round, contexts possibly
// empty), and Getafix's global `atomic` and atomic sections forbid a
// switch. No switch leaves a thread whose next step can only be local
// (transparent.go: a partial-order reduction that keeps every answer and
// its least bound; Options.AllSwitchPoints turns it off). A bounded search goes layer by layer (a layer: the states of
// least cost k) and, within a layer, class by class (the thread that took
// the last step), each class to its fixed point under its own thread's
// relation by frontiers (semi-naive), as Getafix's crossproduct formula
// stratifies by thread and round. It stops at the first frontier that
// holds an error: the answer's bound is the least at which the error
// appears. Its steps are macro steps (macro.go): from a state, the
// running thread's steps to where it first stops again (a switch away may
// happen, or an error shows), through atomic stretches and transparent
// locations at once, so that the sets keep the running thread at its
// stops only; once a thread's macro steps have cost 10 ms their relation
// is built, and one relational product takes one (Options.MicroSteps
// turns macro steps off).
//
// Without a bound the search is the same, by rounds, with no last round:
// it stops when a layer adds no state, having computed every reachable
// state of the product. Where every thread takes macro steps, the kept
// states have every thread at a stop, so which thread ran last does not
// matter, and that search runs without classes (merged.go: one set, one
// thread's context at a time, each from the states found since its last
// one, the thread with the largest number that has any first). A
// SUCCESSFUL answer is a proof for the program's threads and, for a
// program that creates threads (start_thread, ASYNC_n), for runs with at
// most --max-threads threads; if a run could create more, the answer is
// UNKNOWN and says so, as the explicit engine's. An error is found in the
// fewest rounds, at the cost of the bounded search that reaches it: a
// breadth-first search over all the threads at once (run, kept for
// shortest traces) interleaves every thread's frontier in every ring and
// takes far longer on large programs (SafeStack's old/goto: an error in
// the fourth round found after about 90 CPU s, where the breadth-first
// search did not finish in 300 s).
//
// # Traces
//
// A trace within the least bound from the frontiers (trace.go: each
// context has the fewest macro steps), with the threads and the context switches marked,
// built with the result package's step constructors; interp.Replay judges
// it as any engine's. Without a bound (with a bound, if
// Options.ShortestBounded) a second search, breadth first over all the
// threads, then looks for a shortest trace within a budget
// (Options.ShortestBudget, the --shortest flag shared with the summary
// engine); past it the first trace stands and the stats say so.
package concprod

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"boolprog/bdd"
	"boolprog/conc"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
)

// Name is the engine's name.
const Name = "conc-product"

// Options configure the engine.
type Options struct {
	// MaxThreads bounds the threads of a program that creates threads at
	// run time, the initial ones included (0: one more per creation
	// site, raised one at a time up to MoreThreads more while a run
	// within the limit creates more). A run that would create more is
	// cut, and if no error is found the answer is Unknown and says so.
	MaxThreads int
	// ClusterNodes bounds the BDD of one block of a thread's partitioned
	// transition relation (0: DefaultClusterNodes, and a thread's whole
	// relation as one block where that block is no larger than the
	// blocks; negative: one block per set of changed variables).
	ClusterNodes int
	// Order is the BDD variable order (the zero Order is the default).
	Order Order
	// AllSwitchPoints lets the search switch away from a thread at every
	// location, transparent ones included (see transparent.go): the same
	// answers, more states; for checking the reduction.
	AllSwitchPoints bool
	// KeepDeadLocals keeps the values of locals where they are dead
	// (deadlocals.go: the default frees them): the same answers, larger
	// BDDs; for checking the reduction.
	KeepDeadLocals bool
	// MicroSteps keeps every state of a context in the search's sets, as
	// one step of the thread after another; the default keeps only the
	// states where the running thread may be switched away from or an
	// error shows (search.macroImage): the same answers, smaller sets.
	MicroSteps bool
	// ShortestBudget bounds the search by distance for a shortest trace
	// after the first search, stratified by rounds (or, with a bound, by
	// cost), has found the error: each context of its trace is shortest,
	// not the whole. Zero: engine.DefaultShortestSlack; negative: no
	// second search; engine.ShortestAlways: the search is by distance from
	// the start (the run's time limit still holds). Past the budget the
	// first search's trace is given, and the stats say so. It applies to
	// bounded queries only with ShortestBounded.
	ShortestBudget time.Duration
	// ShortestBounded applies ShortestBudget to bounded queries too
	// (--shortest given): within the least bound, the shorter of the
	// first search's trace and the search by distance's (which reaches
	// each state at its least cost first, not in the fewest steps). Without
	// it a bounded query's trace is its first search's, as before the
	// budget existed: the bounded search is the one compared with
	// Getafix's, trace included.
	ShortestBounded bool
}

// DefaultClusterNodes is the default Options.ClusterNodes.
const DefaultClusterNodes = 2000

// Engine is the conc-product engine.
type Engine struct{ opts Options }

// New returns the engine with the default options.
func New() *Engine { return &Engine{} }

// NewWithOptions returns the engine with the given options.
func NewWithOptions(o Options) (*Engine, error) {
	if o.MaxThreads < 0 {
		return nil, fmt.Errorf("max-threads %d: must not be negative", o.MaxThreads)
	}
	return &Engine{opts: o}, nil
}

func init() {
	engine.Register(engine.Info{
		Names: []string{Name, "product"},
		Doc:   "the product of the threads' states with one copy of the globals (Getafix's crossproduct encoding), for threads that do not recurse: --bound cs:K, rounds:K, or none (every interleaving: a proof)",
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			var o Options
			fs.IntVar(&o.MaxThreads, "max-threads", 0, "concurrent programs: at most `n` threads, the initial ones included (0: one more per thread-creation site, raised up to 4 more while a run creates more); a program that can create more: UNKNOWN unless an error is found")
			fs.IntVar(&o.ClusterNodes, "cluster-nodes", 0, fmt.Sprintf("merge the blocks of a thread's transition relation while one stays under `n` BDD nodes (0: %d, and a thread's whole relation as one block where that is no larger than its blocks; negative: one block per set of changed variables)", DefaultClusterNodes))
			fs.BoolVar(&o.AllSwitchPoints, "all-switch-points", false, "switch threads at every location, also where the running thread's next step can only be local (the default skips those switch points: same answers, fewer states)")
			fs.BoolVar(&o.MicroSteps, "micro-steps", false, "keep every state of a thread's context in the search's sets (the default keeps only those where the thread may be switched away from or an error shows, passing through atomic stretches and local steps at once: same answers, smaller sets)")
			fs.BoolVar(&o.KeepDeadLocals, "keep-dead-locals", false, "keep the values of locals where they are dead (the default frees them where no path reads them before writing them: same answers and traces with real values, smaller BDDs)")
			fs.Var((*engine.ShortestFlag)(&o.ShortestBudget), "shortest", engine.ShortestUsage)
			fs.Var(&o.Order, "product-order", "BDD variable `order`: threads (each thread's pc and locals, then the globals), affinity (every thread's pc, then the variables in affinity order, each local's copies in all threads side by side) or globals (the globals, then the threads)")
			return func() (engine.Engine, error) {
				fs.Visit(func(f *flag.Flag) { o.ShortestBounded = o.ShortestBounded || f.Name == "shortest" })
				return NewWithOptions(o)
			}
		},
		NodeLimited: true,
	})
}

// Name returns "conc-product".
func (*Engine) Name() string { return Name }

var (
	_ engine.Engine    = (*Engine)(nil)
	_ engine.Supporter = (*Engine)(nil)
)

// Supports accepts the concurrent programs whose threads do not recurse.
func (e *Engine) Supports(p *ir.Program, q engine.Query) error {
	_, err := e.model(p)
	return err
}

// model returns the thread model of p and its thread limit, or why the
// engine does not take p.
func (e *Engine) model(p *ir.Program) (*conc.Model, error) {
	if !p.Concurrent {
		return nil, errors.New("sequential program: the product engine checks concurrent programs (use summary)")
	}
	model, err := conc.NewModel(p, conc.Options{})
	if err != nil {
		return nil, err
	}
	if e.opts.MaxThreads > 0 && e.opts.MaxThreads < len(model.Static) {
		return nil, fmt.Errorf("max-threads %d: the program starts with %d threads", e.opts.MaxThreads, len(model.Static))
	}
	var roots []int
	if model.Init >= 0 {
		roots = append(roots, model.Init)
	}
	roots = append(roots, model.Static...)
	for _, s := range model.Sites {
		if s.Op.Goto < 0 {
			roots = append(roots, s.Op.Proc)
		}
	}
	if _, err := depths(p, roots); err != nil {
		return nil, err
	}
	return model, nil
}

// maxThreads is the thread limit for p.
func (e *Engine) maxThreads(model *conc.Model) int {
	if e.opts.MaxThreads > 0 {
		return e.opts.MaxThreads
	}
	return len(model.Static) + len(model.Sites)
}

// MoreThreads is how far Check raises the thread limit of a program that
// creates threads, one thread at a time, when no MaxThreads is given and
// a run within the limit creates more (as conc-eager and conc-lazy do):
// an error that needs one more thread is then found, where stopping at
// the first limit would answer UNKNOWN.
const MoreThreads = 4

// Check answers q for p.
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	model, err := e.model(p)
	if err != nil {
		return result.NewUnknown(Name, err.Error()), nil
	}
	limit := e.maxThreads(model)
	for {
		var capped bool
		res, err := e.check(ctx, p, q, model, limit, &capped)
		if err != nil || !capped || e.opts.MaxThreads > 0 || limit >= len(model.Static)+len(model.Sites)+MoreThreads || ctx.Err() != nil {
			return res, err
		}
		limit++
	}
}

// check answers q for p with at most limit threads; *capped is set with
// an UNKNOWN answer given because a run within the limit creates more.
func (e *Engine) check(ctx context.Context, p *ir.Program, q engine.Query, model *conc.Model, limit int, capped *bool) (*result.Result, error) {
	m := bdd.New(bdd.Config{MaxNodes: q.MaxNodes})
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	order := e.opts.Order
	start := time.Now()
	x, err := newProd(p, model, m, limit, order)
	if err != nil {
		return result.NewUnknown(Name, err.Error()), nil
	}
	if !e.opts.KeepDeadLocals {
		x.dead = newDeadLocals(p, q.AnalysesFor(p))
	}
	s := &search{x: x, ctx: ctx, q: q, limit: unlimited, clusterNodes: e.opts.ClusterNodes, allSwitchPoints: e.opts.AllSwitchPoints}
	if s.clusterNodes == 0 {
		s.wholeThread = true
		s.clusterNodes = DefaultClusterNodes
	}
	budget := e.opts.ShortestBudget
	if q.Bound.Kind != result.Unbounded && !e.opts.ShortestBounded {
		budget = -1
	}
	switch q.Bound.Kind {
	case result.ContextSwitches:
		s.limit = q.Bound.K
	case result.Rounds:
		s.rounds = true
		s.limit = q.Bound.K - 1
	default:
		s.unbounded = true
		if budget == engine.ShortestAlways {
			s.collapsed = model.AtomicGlobal < 0 && !model.AtomicSections
		} else {
			s.stratified, s.rounds = true, true
		}
	}
	// Macro steps are runChained's; a search by distance from the start
	// (run) takes one step at a time.
	s.macro = !e.opts.MicroSteps && budget != engine.ShortestAlways
	res := &result.Result{Verdict: result.Safe, Engine: Name}
	fail := func(err error) (*result.Result, error) {
		res.Verdict = result.Unknown
		switch {
		case errors.Is(err, bdd.ErrNodeLimit):
			res.Reason = bdd.LimitReason(err, q.MaxNodes)
		case ctx.Err() != nil:
			res.Reason = engine.StopReason(ctx)
		default:
			return nil, err
		}
		return res, nil
	}
	if !p.ErrorReachableInThreads() {
		// No thread can reach an error location, whatever the data: a
		// proof, found before the relations are built (merging a large
		// program's blocks can take seconds).
		res.Stats.Set("cfg_unreachable_error", 1)
		return res, nil
	}
	q.Report(result.PhaseReach, "building the relations")
	if err := s.prepare(); err != nil {
		return fail(err)
	}
	res.Stats.AddPhase("build", time.Since(start))
	stats := func() {
		st := m.Stats()
		res.Stats.Set("threads", int64(len(x.slots)))
		res.Stats.Set("bdd_vars", int64(m.VarNum()))
		res.Stats.Set("rings", int64(len(s.rings)))
		res.Stats.Set("relation_nodes", int64(s.relNode))
		if s.macro {
			res.Stats.Set("macro_step_threads", int64(s.macroActors))
			res.Stats.Set("macro_relations", int64(s.macroBuilt))
			res.Stats.Set("macro_relation_tries", int64(s.macroTries))
			res.Stats.Set("macro_relation_nodes", int64(s.macroNodes))
		}
		groups := 0
		for _, g := range s.groups {
			groups += len(g)
		}
		res.Stats.Set("relation_groups", int64(groups))
		if !s.allSwitchPoints {
			res.Stats.Set("transparent_locations", int64(s.transparentLocs))
		}
		res.Stats.Set("peak_nodes", int64(st.PeakNodes))
		res.Stats.Set("bdd_gcs", int64(st.GCs))
		// The work done, unlike the time, is the same from run to run:
		// what a change of the search is measured by on a noisy machine.
		res.Stats.Set("bdd_cache_lookups", int64(st.CacheLookups))
	}
	reach := time.Now()
	q.Report(result.PhaseReach, "")
	run := s.runChained
	if s.mergeable() {
		s.merge()
		run = s.runMerged
		res.Stats.Set("merged_classes", 1)
	}
	if budget == engine.ShortestAlways {
		run = s.run // by distance from the start: its first error is a shortest trace's
	}
	f, err := run()
	res.Stats.AddPhase(result.PhaseReach, time.Since(reach))
	stats()
	if err == nil {
		// A search that ends with an error found on a manager that was
		// interrupted (or ran out of nodes) on the way has not found it.
		err = m.Err()
	}
	if err != nil {
		res.Stats.Set("layers", int64(s.layer))
		return fail(err)
	}
	if f != nil {
		q.Report(result.PhaseTrace, "")
		traced := time.Now()
		tr, err := s.trace(f)
		res.Stats.AddPhase(result.PhaseTrace, time.Since(traced))
		if err == nil {
			tr, err = shortest(ctx, s, f, tr, budget, time.Since(reach), res)
		}
		if err != nil {
			if errors.Is(err, bdd.ErrNodeLimit) || ctx.Err() != nil {
				res.Verdict, res.TraceCut = result.Unsafe, true
				res.Reason = "the trace could not be built: " + err.Error()
				if ctx.Err() != nil {
					res.Reason = engine.StopReason(ctx)
				}
				return res, nil
			}
			return nil, err
		}
		res.Verdict = result.Unsafe
		res.Trace = tr
		switch q.Bound.Kind {
		case result.ContextSwitches:
			res.Bound = result.Bound{Kind: result.ContextSwitches, K: f.cost}
		case result.Rounds:
			res.Bound = result.Bound{Kind: result.Rounds, K: f.cost + 1}
		}
		res.Stats.Set("trace_steps", int64(len(tr.Steps)))
		return res, nil
	}
	if s.capped {
		res.Verdict = result.Unknown
		within := "in every interleaving"
		if q.Bound.Kind != result.Unbounded {
			within = "up to " + q.Bound.String()
		}
		res.Reason = fmt.Sprintf("no error %s with at most %d threads, but the program can create more (max-threads %d)", within, limit, limit)
		*capped = true
		return res, nil
	}
	if q.Bound.Kind == result.Unbounded {
		res.Stats.Set("exhaustive", 1) // every reachable state of the product: a proof for these threads
	}
	return res, nil
}

// shortest returns a shortest trace to the error f that the search s found
// with tr, its own trace, in a first search that took first, when s is not
// a search by distance (runChained: each context of tr has the fewest
// macro steps, not the whole) and the budget allows: the search again by
// distance (run) within f's bound, on the same relations, for at most the
// budget (engine.ShortestBudget of budget, the Options.ShortestBudget that
// applies; auto is engine.DefaultShortestSlack, and not tried after a
// first search that took longer). Past the budget, or the BDD node limit,
// it returns tr, and the stats say
// so (trace_shortest 0 and trace_shortest_over_budget or
// trace_shortest_node_limit, with trace_shortest_budget_ns). A stop there
// is not the run's: the error is found, and tr is its trace.
func shortest(ctx context.Context, s *search, f *found, tr *result.Trace, budget, first time.Duration, res *result.Result) (*result.Trace, error) {
	if budget == engine.ShortestAlways {
		res.Stats.Set("trace_shortest", 1) // s searched by distance
		return tr, nil
	}
	// auto: the slack alone, not a multiple of the first search's time.
	// The first trace is in hand (summary's fallback costs a search
	// more), and on large programs the search by distance is the slower
	// one: on SafeStack underapprox it had not ended after 30 s, a third
	// of the first search, while on Bluetooth and fib it ends in 0.1-0.7
	// s, 3-50 times the first search. So auto does not start it where the
	// first search (first) took longer than the budget: it would not end
	// within it (SafeStack old/goto: 12.7 s, then 5 s of a search by
	// distance given up).
	auto := budget == 0
	budget = engine.ShortestBudget(ctx, budget, 0)
	if budget < 0 || len(tr.Steps) <= 1 {
		res.Stats.Set("trace_shortest", boolStat(len(tr.Steps) <= 1))
		return tr, nil
	}
	if auto && first > budget {
		res.Stats.Set("trace_shortest", 0)
		res.Stats.Set("trace_shortest_budget_ns", int64(budget))
		res.Stats.Set("trace_shortest_over_budget", 1)
		return tr, nil
	}
	m := s.x.m
	start := time.Now()
	defer func() { res.Stats.AddPhase("shortest", time.Since(start)) }()
	s.q.Report(result.PhaseTrace, fmt.Sprintf("%d steps; the shortest trace", len(tr.Steps)))
	bctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	s.release()
	f.set.Release()
	m.GC()
	d := s.byDistance(f.cost)
	d.ctx = bctx
	m.SetInterrupt(func() bool { return bctx.Err() != nil })
	defer m.SetInterrupt(func() bool { return ctx.Err() != nil })
	over := func(why string) (*result.Trace, error) {
		res.Stats.Set("trace_shortest", 0)
		res.Stats.Set("trace_shortest_budget_ns", int64(budget))
		res.Stats.Set("trace_shortest_"+why, 1)
		return tr, nil
	}
	g, err := d.run()
	if err == nil {
		err = m.Err()
	}
	if err == nil && g != nil {
		var short *result.Trace
		short, err = d.trace(g)
		if err == nil {
			if len(short.Steps) > len(tr.Steps) {
				if f.cost == 0 || s.unbounded {
					// Every step costs nothing: the search by distance
					// is breadth first over the states, its trace the
					// shortest there is.
					return nil, fmt.Errorf("%s: internal error: the search by distance found a trace of %d steps, the first search one of %d", Name, len(short.Steps), len(tr.Steps))
				}
				// Within a bound the search by distance reaches each
				// state at its least cost, then in the fewest steps: a
				// shorter run that costs more to reach a state on the
				// way is not among its traces, and the first search
				// (by macro steps) may have found one.
				short = tr
			}
			res.Stats.Set("trace_shortest", 1)
			return short, nil
		}
	}
	switch {
	case errors.Is(err, bdd.ErrNodeLimit):
		return over("node_limit")
	case err != nil && bctx.Err() != nil:
		return over("over_budget")
	case err != nil:
		return nil, err
	}
	return nil, fmt.Errorf("%s: internal error: the search by distance found no error within %d", Name, f.cost)
}

// boolStat is a statistic's value for b.
func boolStat(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
