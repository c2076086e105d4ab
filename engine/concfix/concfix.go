// Package concfix is the engine conc-fix: context-bounded reachability of
// concurrent Boolean programs as the Getafix paper's fixed-point formula
// (La Torre, Madhusudan, Parlato 2009, §5.1), solved by package fix over
// the program relations of package fix/program.
//
// # The formula
//
// The paper's Reach(u, v, ecs, cs, g1..gk, t0..tk) holds when a run with
// cs context switches, the i-th at globals g_i, context i run by thread
// t_i, brings thread t_cs to state v (a State of fix/program's
// encoding: program counter, globals, the executing procedure's locals),
// in a procedure entered at state u after ecs switches. A tuple with cs
// switches follows only from tuples with at most cs, so the formula is
// written as strata: one mu relation Reach<c>(u, v, ecs, g1..gc, t0..tc)
// per number of switches c, each over only the copies of the globals and
// threads its runs use, each solved once after the lower ones. Its
// clauses: the start of thread t_0 with the globals init leaves (init's
// own summaries, InitReach, run first); internal steps; calls; returns
// (the caller's tuple may be of a lower stratum); the first switch to a
// thread (its entry, with the globals g_c that some thread ended context
// c-1 with, Left<c>); a switch back to a thread (its locals from its last
// context, whose end had the globals of the switch that ended it; the
// paper leaves that last condition implicit). Getafix's `atomic` global
// forbids a switch while it is T.
//
// The engine watches the strata as the solver finishes them
// (fix.Solver.OnDone): the first stratum that holds an error tuple is the
// smallest bound, and the solver stops there, so a bound of 6 costs
// nothing beyond the first error. A rounds bound (r round-robin rounds
// over n threads) is the strata up to r·n-1 switches with the schedules
// that return to a smaller thread at most r-1 times (Desc<c>,
// InRounds<c>); the error with the fewest rounds is kept. When the time
// runs out, the answer is Unknown and says which strata were solved.
// WriteModel writes the whole model (with ErrorAt and the query) as a
// file that `boolprog mucke` evaluates on its own.
//
// # The product
//
// Where no thread calls a procedure (in any convention: the threads
// created at run time start unborn, see product.go), the formula is
// instead Getafix's crossproduct one: the product of the threads' states
// with one copy of the globals, stratified by context (see product.go).
// It needs no summaries and no guessed copies of the globals; on the
// Getafix fork's fib programs at 4 rounds it decides in a second what
// the strata did not in 90 (BenchmarkFib), and SATABS' Threads7 (10
// threads) at 2 rounds in 0.3 s, where the strata, whose tuples keep
// the schedule and the globals at every switch, grew about fourfold per
// switch (3,548, 13,812, 47,695 nodes at 2, 3, 4 switches) and reached
// the node limit at 6 minutes. Options.Summaries keeps the strata.
//
// # Scope
//
// Programs in the Getafix convention (init, then the fixed threads main,
// thread1, …), programs whose threads are named on the command line
// (conc.WithThreads), and programs in the SATABS convention (ASYNC_n
// calls, start_thread f(...), end_thread, atomic_begin/atomic_end),
// rewritten into thread slots with ghost globals (see dynamic.go; at most
// Options.MaxThreads threads, and an Unknown answer that says so when a
// run could create more; without it, one more per creation site, raised
// one at a time up to MaxMoreThreads more while a run creates more, each
// solve starting from the relations the one before solved: see
// reuse.go);
// recursion everywhere. start_thread goto L gets an Unknown answer that
// names it. Bounded queries only: cs:K or rounds:K, and a query without a
// bound is DefaultBound's (the verdict names it), as conc-eager and
// conc-lazy deepen to their default rounds.
//
// # Traces
//
// Traces come from the rounds of the strata themselves (fix.Solver.Track
// and Layers), never from another engine: see trace.go. interp.Replay
// judges them as any other.
package concfix

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"boolprog/bdd"
	"boolprog/conc"
	"boolprog/engine"
	"boolprog/fix"
	"boolprog/fix/program"
	"boolprog/ir"
	"boolprog/result"
)

// Name is the engine's name.
const Name = "conc-fix"

// Options configure the engine.
type Options struct {
	// MaxThreads bounds the threads of a program that creates threads at
	// run time, the initial one included (0: one more per creation
	// site). A run that would create more is cut, and if no error is
	// found the answer is Unknown and says so.
	MaxThreads int
	// Summaries keeps §5.1's formula (summaries, copies of the globals
	// at the switches) for programs whose threads call no procedure,
	// where the engine otherwise tracks the product of the threads'
	// states (see product.go): for comparisons and tests.
	Summaries bool
	// FromScratch solves each model of a growing thread count from
	// scratch instead of starting its levels from those the model with
	// one thread fewer solved (see reuse.go): for comparisons and tests.
	FromScratch bool
}

// Engine is the conc-fix engine.
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
		Names: []string{Name},
		Doc:   "Getafix's context-bounded reachability (§5.1) as a fixed-point formula stratified by context switches, or over the product of the threads' states where no thread calls a procedure, solved by package fix (Getafix-convention programs and --threads; --bound cs:K or rounds:K, default rounds:4)",
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			var o Options
			fs.IntVar(&o.MaxThreads, "max-threads", 0, "concurrent programs: at most `n` threads, the initial ones included (0: one more per thread-creation site)")
			fs.BoolVar(&o.Summaries, "summaries", false, "keep §5.1's summaries where the threads call no procedure (there conc-fix tracks the product of the threads' states)")
			fs.BoolVar(&o.FromScratch, "from-scratch", false, "when a run creates more threads than the model has, solve the model with one more from scratch, not from the levels already solved (for comparisons)")
			return func() (engine.Engine, error) { return NewWithOptions(o) }
		},
		NodeLimited: true,
	})
}

// Name returns "conc-fix".
func (*Engine) Name() string { return Name }

var (
	_ engine.Engine    = (*Engine)(nil)
	_ engine.Supporter = (*Engine)(nil)
)

// DefaultBound is the bound of a query that gives none: the formula
// decides bounded reachability only, and the strata stop at the first
// error, so the answer is the smallest bound up to this one or "safe up to
// 4 rounds", never a proof. It is conc-eager's and conc-lazy's default
// (conc.DefaultRounds), so that the three answer the same question.
var DefaultBound = result.Bound{Kind: result.Rounds, K: conc.DefaultRounds}

// Supports accepts the programs of the package doc's scope and every
// query: one without a bound is DefaultBound's.
func (e *Engine) Supports(p *ir.Program, q engine.Query) error {
	if _, err := newModel(p, 0, 0, e.opts.MaxThreads); err != nil {
		return err
	}
	switch q.Bound.Kind {
	case result.ContextSwitches, result.Rounds, result.Unbounded:
		return nil
	}
	return fmt.Errorf("conc-fix: unknown bound %s", q.Bound)
}

// modelOf returns the model of p for bound b.
func modelOf(p *ir.Program, b result.Bound, maxThreads int) (*model, error) {
	if b.Kind == result.Rounds {
		return newModel(p, 0, b.K, maxThreads)
	}
	return newModel(p, b.K, 0, maxThreads)
}

// WriteModel writes the model of p at bound b (context switches or
// rounds): the types and program relations as formulas, then the
// algorithm, for `boolprog mucke`. Its query is true iff an error is
// reachable within the bound.
func WriteModel(w io.Writer, p *ir.Program, b result.Bound) error {
	if b.Kind != result.ContextSwitches && b.Kind != result.Rounds {
		return fmt.Errorf("conc-fix needs a bound (cs:K or rounds:K), not %s", b)
	}
	m, err := modelOf(p, b, 0)
	if err != nil {
		return err
	}
	var alg bytes.Buffer
	m.write(&alg, true)
	return program.WriteModel(w, m.enc, alg.String())
}

// errFound stops the solver at the first stratum that settles the answer.
var errFound = errors.New("conc-fix: error found")

// Check decides whether an error is reachable within q's bound. The
// strata (runs with 0, 1, 2, ... context switches) are solved in order
// and the first that reaches an error stops the solver: its number is
// the smallest bound. For a rounds bound the strata up to rounds·n-1
// switches may be needed; the error with the fewest rounds is kept.
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	if err := e.Supports(p, q); err != nil {
		return result.NewUnknown(Name, err.Error()), nil
	}
	if q.Bound.Kind == result.Unbounded {
		q.Bound = DefaultBound
	}
	m, err := modelOf(p, q.Bound, e.opts.MaxThreads)
	if err != nil {
		return result.NewUnknown(Name, err.Error()), nil
	}
	m.product = m.product && !e.opts.Summaries
	if !p.HasErrorLocation() {
		// Nothing to reach, however many threads run.
		r := &result.Result{Verdict: result.Safe, Engine: Name}
		r.Stats.Set("no_error_location", 1)
		return r, nil
	}
	// Without --max-threads, a program that can create more threads than
	// the default allows within the bound is solved again with one more,
	// up to MaxMoreThreads more (as conc-eager and conc-lazy do when they
	// deepen): an error that needs a third thread is then found.
	//
	// With the product encoding, the solve with M+1 slots starts its
	// levels from what the solve with M found (see reuse.go): its tuples
	// without a thread at an overflow location, with slot M+1 unborn,
	// are runs of the M+1 model, so they lie below each relation's least
	// fixed point, and iterating a monotone formula from below its least
	// fixed point reaches that fixed point. That saves the final solve's
	// re-derivation of those tuples, never the solves before it.
	// Stopping a solve at the first stratum where a run creates more (the
	// other reuse: nothing above it is solved in vain) was tried and
	// reverted (7d95217): it grows the limit to its end on programs that
	// create threads in a loop, and the solve with the most threads can
	// be the slow one. What growth costs is in the stats
	// (time_before_growth_ns, and strata_reused, time_reuse_ns for the
	// levels carried over).
	limit := m.n
	if e.opts.MaxThreads == 0 && m.dyn != nil {
		limit += MaxMoreThreads
	}
	prev := "" // what the solve with fewer threads showed
	grown, before := 0, time.Duration(0)
	var carry *carried // the last solve's, while the next one takes its levels
	defer func() { carry.release() }()
	for {
		t0 := time.Now()
		grow := m.n < limit && !e.opts.FromScratch
		res, overflow, next, err := e.solve(ctx, q, m, carry, grow)
		carry.release()
		carry = next
		if err != nil {
			return nil, err
		}
		if overflow && m.n < limit && ctx.Err() == nil {
			grown++
			before += time.Since(t0)
			prev = fmt.Sprintf("no error up to %s with at most %d threads, but a run creates more", q.Bound, m.n)
			q.Report(result.PhaseReach, prev+fmt.Sprintf(": again with %d", m.n+1))
			if m, err = modelOf(p, q.Bound, m.n+1); err != nil {
				return nil, err
			}
			m.product = m.product && !e.opts.Summaries
			continue
		}
		if res.Verdict == result.Unknown && !overflow && prev != "" {
			res.Reason += "; " + prev
		}
		if grown > 0 {
			// What the solves with fewer threads cost: the most that
			// reusing them could save.
			res.Stats.Set("threads_grown", int64(grown))
			res.Stats.Set("time_before_growth_ns", int64(before))
		}
		return res, nil
	}
}

// MaxMoreThreads is how many threads beyond the default (one more per
// creation site) conc-fix adds, one at a time, when a run within the
// bound creates more and --max-threads is not given.
const MaxMoreThreads = 4

// solve runs the strata of model m for q and says whether the answer
// (Safe, or Unknown with the reason) is limited by the threads a run
// could create beyond m's. If prev holds the solve of the model with one
// thread fewer, m's levels start from its values (see reuse.go); prev's
// solver is released as soon as they are taken. If keep and the answer is
// so limited, the solve is returned for the next one to start from (the
// caller releases it).
func (e *Engine) solve(ctx context.Context, q engine.Query, m *model, prev *carried, keep bool) (*result.Result, bool, *carried, error) {
	res, overflow, sv, err := e.solveKeep(ctx, q, m, prev)
	if sv == nil {
		return res, overflow, nil, err
	}
	if err == nil && overflow && keep {
		return res, overflow, &carried{sv: sv, m: m}, nil
	}
	sv.Release()
	return res, overflow, nil, err
}

// solveKeep is solve, which returns the solver (if it made one) instead
// of releasing it.
func (e *Engine) solveKeep(ctx context.Context, q engine.Query, m *model, prev *carried) (_ *result.Result, _ bool, sv *fix.Solver, _ error) {
	// whole, and the returns below, leave sv as it is: named, it is
	// returned with every answer.
	whole := func(r *result.Result, err error) (*result.Result, bool, *fix.Solver, error) { return r, false, sv, err }
	// Writing, parsing and checking the model of a high bound take
	// seconds (6 MB for Bluetooth at 20 rounds): the context is polled
	// between them and while parsing.
	m.frontier = prev != nil && reusable(prev.m, m)
	var alg bytes.Buffer
	m.write(&alg, false)
	if ctx.Err() != nil {
		return whole(stopped(ctx, q, &result.Result{}, ctx.Err(), -1))
	}
	var src bytes.Buffer
	if err := program.WritePrelude(&src, m.enc, alg.String()); err != nil {
		return nil, false, nil, err
	}
	src.Write(alg.Bytes())
	f, err := fix.ParseFileContext(ctx, "conc-fix model", src.Bytes())
	if ctx.Err() != nil {
		return whole(stopped(ctx, q, &result.Result{}, ctx.Err(), -1))
	}
	if err != nil {
		return nil, false, nil, fmt.Errorf("conc-fix: the formula does not parse: %v", err)
	}
	start := time.Now()
	err = fix.CheckContext(ctx, f)
	if ctx.Err() != nil {
		return whole(stopped(ctx, q, &result.Result{}, ctx.Err(), -1))
	}
	if err != nil {
		return nil, false, nil, fmt.Errorf("conc-fix: %v", err)
	}
	sv, err = fix.NewSolver(f, fix.Options{MaxNodes: q.MaxNodes})
	if err != nil {
		return nil, false, nil, fmt.Errorf("conc-fix: %v", err)
	}
	// Safe means safe up to the bound (the bound the user gave, or the
	// default): the formula says nothing beyond it.
	res := &result.Result{Verdict: result.Safe, Engine: Name, Bound: q.Bound}
	if err := provide(sv, m.enc); err != nil {
		return whole(stopped(ctx, q, res, err, -1))
	}
	res.Stats.Set("time_build_ns", int64(time.Since(start)))
	st := &strata{sv: sv, m: m, rels: program.NewRelations(sv.Manager(), m.enc), done: -1, found: -1, report: q.Progress}
	watch := func() error { return st.watch(q.Bound.Kind) }
	if m.product {
		watch = st.watchProduct
		res.Stats.Set("product", 1)
	}
	if err := watch(); err != nil {
		return nil, false, sv, err
	}
	if prev != nil && prev.sv != nil {
		t := time.Now()
		n, unmapped, err := st.reuse(prev)
		prev.release()
		if err != nil && !errors.Is(err, bdd.ErrNodeLimit) {
			return nil, false, sv, err
		}
		// Out of nodes while carrying the levels over: whatever was
		// started stays (each is below its fixed point), the others start
		// from false; the solve itself meets the limit again if it must.
		sv.Manager().ClearErr()
		if n > 0 {
			res.Stats.Set("strata_reused", int64(n))
			res.Stats.Set("time_reuse_ns", int64(time.Since(t)))
		}
		if unmapped > 0 {
			res.Stats.Set("strata_not_carried", int64(unmapped))
		}
	}
	q.Report(result.PhaseReach, "")
	t0 := time.Now()
	_, err = sv.Solve(ctx)
	if err == nil || errors.Is(err, errFound) {
		// On a stopped manager (interrupted, out of nodes) every BDD
		// operation gives Invalid, which is not False: what the watchers
		// saw after the stop (an error, an overflow) is not so.
		if e := sv.Manager().Err(); e != nil {
			err = e
		}
	}
	res.Stats.Set("time_solve_ns", int64(time.Since(t0)))
	res.Stats.AddPhase(result.PhaseReach, time.Since(start))
	ms := sv.Manager().Stats()
	res.Stats.Set("peak_bdd_nodes", int64(ms.PeakNodes))
	res.Stats.Set("bdd_vars", int64(ms.Vars))
	res.Stats.Set("strata", int64(st.done+1))
	if err != nil && !errors.Is(err, errFound) {
		return whole(stopped(ctx, q, res, err, st.done))
	}
	if st.err != nil {
		return nil, false, sv, st.err
	}
	if st.found < 0 && !st.inInit {
		if st.overflow() {
			u := result.NewUnknown(Name, fmt.Sprintf("no error up to %s with at most %d threads, but the program can create more (max-threads %d)", q.Bound, m.n, m.n))
			u.Stats = res.Stats
			return u, true, sv, nil
		}
		return res, false, sv, nil
	}
	res.Verdict = result.Unsafe
	res.Bound = st.bound(q.Bound.Kind)
	run := (*tracer).run
	if m.product {
		run = (*tracer).runProduct
		if !st.inInit {
			res.Bound = prodBound(q.Bound.Kind, st.found)
		}
	}
	t1 := time.Now()
	q.Report(result.PhaseTrace, fmt.Sprintf("the error appears at %s; the trace from the strata", res.Bound))
	tr, err := run(newTracer(ctx, st))
	res.Stats.AddPhase(result.PhaseTrace, time.Since(t1))
	if err != nil {
		if ctx.Err() != nil || errors.Is(err, bdd.ErrNodeLimit) {
			u, err2 := stopped(ctx, q, res, err, -1)
			if u != nil {
				u.Verdict, u.Bound, u.TraceCut = result.Unsafe, res.Bound, true
				u.Reason = "the trace was cut: " + u.Reason
			}
			return u, false, sv, err2
		}
		return nil, false, sv, err
	}
	res.Trace = tr
	res.Stats.Set("trace_steps", int64(len(tr.Steps)))
	return res, false, sv, nil
}

// stopped turns a solver error into an Unknown verdict with the reason, or
// returns it as an internal error.
func stopped(ctx context.Context, q engine.Query, res *result.Result, err error, done int) (*result.Result, error) {
	var reason string
	switch {
	case ctx.Err() != nil:
		reason = engine.StopReason(ctx)
	case errors.Is(err, bdd.ErrNodeLimit):
		reason = bdd.LimitReason(err, q.MaxNodes)
	case errors.Is(err, fix.ErrNoFixedPoint):
		reason = err.Error()
	default:
		return nil, err
	}
	if done >= 0 {
		reason += fmt.Sprintf(" (no error with up to %d context switches: strata 0..%d solved)", done, done)
	}
	r := result.NewUnknown(Name, reason)
	r.Stats = res.Stats
	return r, nil
}

// provide builds the program relations the formula declares and gives
// them to the solver.
func provide(sv *fix.Solver, enc *program.Encoding) error {
	rels := program.NewRelations(sv.Manager(), enc)
	m := sv.Manager()
	for _, name := range sv.Declared() {
		params, err := sv.Params(name)
		if err != nil {
			return err
		}
		sts := make([]program.StateVars, len(params))
		for i, p := range params {
			if sts[i], err = stateVars(sv, enc, name, p); err != nil {
				return err
			}
		}
		var v bdd.Node
		switch name {
		case "Exit":
			v = rels.Exit(sts[0])
		case "Target":
			v = rels.Target(sts[0])
		case "ProgramInt":
			v = rels.Internal(sts[0], sts[1])
		case "IntoCall":
			v = rels.IntoCall(sts[0], sts[1])
		case "Return":
			v = rels.Return(sts[0], sts[1], sts[2])
		default:
			return fmt.Errorf("conc-fix: internal error: no relation %s", name)
		}
		if err := m.Err(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if err := sv.Provide(name, v); err != nil {
			return err
		}
	}
	return nil
}

// stateVars returns the bits of a State parameter of a relation.
func stateVars(sv *fix.Solver, enc *program.Encoding, rel, name string) (program.StateVars, error) {
	var st program.StateVars
	var err error
	if st.PC, err = sv.Bits(rel, name, "pc"); err != nil {
		return st, err
	}
	st.Slots = make([]int, enc.Slots.N())
	for s := range st.Slots {
		b, err := sv.Bits(rel, name, enc.FieldName(s))
		if err != nil {
			return st, err
		}
		st.Slots[s] = b[0]
	}
	return st, nil
}
