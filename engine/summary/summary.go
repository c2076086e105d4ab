// Package summary is the Bebop engine (Ball and Rajamani, SPIN 2000):
// reachability in sequential Boolean programs with procedures and recursion
// by the Reps-Horwitz-Sagiv tabulation over BDDs, with explicit control flow
// and shortest hierarchical counterexamples.
//
// # Algorithm
//
// Path edges and summary edges are BDDs over the slot variables of package
// symbolic: a path edge at a location relates the values of a procedure's
// interface at its entry (Entry copies) to the values now (Cur copies); a
// summary edge of a call site relates the caller's state before the call
// (Cur) to the values the call changes (Next). The worklist of the paper's
// Figure 3 (reach.go) computes them from the entry of main, where every
// valuation is possible, and stops at the first error location reached
// (unless Query.AllReachable asks for the whole state space). Locations
// are processed from the new path edges since their last visit (deltas),
// callees' strongly connected components before their callers and, within
// a procedure, in reverse postorder, so that deltas merge before they are
// propagated.
//
// Three optimisations keep the BDDs small, each of which can be switched
// off (Options) to measure it:
//
//   - Scoping: a BDD mentions only slots in scope, so the manager has
//     3·(globals + most locals + most returned values) variables whatever
//     the number of procedures, and every image is a relational product
//     over a few variables followed by a renaming with pairs built once.
//   - Live variables: a path edge tracks only the slots live at its
//     location (the others are quantified out), and a context (the Entry
//     copies) only the globals and parameters live at the procedure's entry.
//   - MOD/REF: a summary reports only the globals the callee may modify;
//     the caller's other globals are framed (kept) across the call, and
//     globals a procedure neither reads nor modifies are not tracked in it.
//
// # Shortest counterexamples
//
// When an error is reachable, a second search (rings.go) partitions the
// path edges into rings by distance, as in the paper's §3.2, and rebuilds a
// trace backwards from the nearest error (trace.go), expanding summary
// edges into the callee's steps on demand and choosing concrete values
// forwards so that every step follows from the previous one. The measure
// is the one of the explicit engine: a step is one edge taken (a call is
// one step followed by the callee's own steps; returning is not a step),
// and the final error step counts one. So a trace is a shortest execution
// from an initial state of main to an error, not merely a shortest
// hierarchical trajectory with summaries counted as single steps (which is
// what the paper's rings measure): the ring of a path edge is the length of
// the shortest execution that reaches it, calls expanded, computed by a
// Dijkstra-like search over rings in which a summary edge weighs the
// callee's same-level distance (see rings.go).
//
// The ring search is a second search, by distance, and can cost far more
// than the first (on the hard set of gen.HardSet, 3-10 times). It has a
// budget (Options.ShortestBudget: by default twice the first search's
// time plus a second); past it, or at the node limit, the trace is built
// instead from the history of the first search, run again to the first
// error (history.go): the path edges each propagation added, stamped in
// order, walked back one image at a time to predecessors with smaller
// stamps. (Recording the history from the start would spare the second
// run but costs every search: 70% more time on the satabs suite's
// Threads5.) That trace is a real
// execution, concretized and replayed like a shortest one, but not
// necessarily a shortest; the stats say which (trace_shortest, and
// trace_shortest_over_budget or trace_shortest_node_limit with
// trace_shortest_budget_ns).
//
// # Limits
//
// Concurrent programs get Unknown. Query.MaxNodes bounds the BDD node
// table (Unknown when exceeded); a cancelled or expired context gives
// Unknown "timeout" (or "interrupted"). Both bound the whole run, the ring
// search and the trace included: the context is polled in every loop,
// every 256 iterations. When either strikes after the error was found
// reachable, the answer is Unsafe with Result.TraceCut, the error's
// Property and the reason, and no trace; so is an error whose shortest
// trace is too long to build.
package summary

import (
	"context"
	"errors"
	"fmt"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
)

// Name is the engine's name.
const Name = "summary"

// ReasonConcurrent is the Unknown reason for programs with threads.
const ReasonConcurrent = "concurrent program: not supported by the summary engine"

// Options configure the engine. The zero value enables every optimisation.
type Options struct {
	// NoLiveness disables live-variable analysis: path edges track every
	// variable in scope, and contexts every global and parameter.
	NoLiveness bool
	// NoModRef disables MOD/REF: summaries report every global, and every
	// global is tracked in every procedure.
	NoModRef bool
	// DeclarationOrder orders the BDD variables by declaration instead of
	// by the program's statements (symbolic.OrderDeclaration).
	DeclarationOrder bool
	// AffinityOrder orders the BDD variables by the greedy arrangement of
	// the statements' affinity graph alone (symbolic.OrderAffinity, the
	// order before FORCE placement was measured to do better on the hard
	// set), instead of refining it by FORCE placement
	// (symbolic.OrderForce). DeclarationOrder wins.
	AffinityOrder bool
	// InitialNodes is the initial size of the BDD node table (0: a size
	// from the program's, at most the bdd package's default).
	InitialNodes int
	// Reorder selects dynamic variable reordering of the BDD manager
	// (bdd.ReorderMode; the zero value is DefaultReorder). Reordering
	// never changes a verdict or a trace's validity, only the time and
	// the BDD sizes.
	Reorder bdd.ReorderMode
	// ShortestBudget bounds the ring search for a shortest trace once the
	// error is found reachable. Past it (or the BDD node limit), the
	// trace is rebuilt from the history of the reachability search, run
	// again to the first error recording it: a real, replayed execution,
	// not necessarily a shortest (see history.go); the stats say so
	// (trace_shortest 0 and the reason).
	// Zero: engine.DefaultShortestFactor times the reachability search's
	// time, plus engine.DefaultShortestSlack; negative: no ring search
	// (always the history trace, recorded by the first search);
	// engine.ShortestAlways: no bound (the time limit of the run still
	// holds: past it the trace is cut). With a deadline, any other budget
	// is at most half the time left (engine.ShortestBudget).
	ShortestBudget time.Duration
	// Worklist orders the reachability search (WorklistAuto, the zero
	// value: WorklistAlternate when the search stops at the first error,
	// WorklistCallees when it computes every reachable state). The order
	// changes neither the verdict nor the trace, only how soon the
	// search gets there.
	Worklist Worklist
}

// Worklist is the order in which the reachability search processes the
// locations with new path edges.
//
// Callees first (the order of Bebop's worklist as we built it first:
// procedures callees first, reverse postorder within each) lets a
// callee's summary grow completely for the calling contexts reached so
// far before its callers consume it: few, large deltas, the cheapest way
// to a complete fixed point. But before a caller moves one statement on,
// every callee has absorbed every context: on the hard set (gen.HardSet)
// three programs whose error needs a long run of main undecided after 10
// minutes (g16l8-s7) or 145 CPU s (g16l8-s2). Callers first reaches those
// errors in seconds and misses others that callees first finds at once
// (g20l12-s1: 2.5 s against over 60 s). Taking locations from both orders
// in turn, in one search, found every error of the set within 15 CPU s.
type Worklist int

// The worklist orders.
const (
	WorklistAuto      Worklist = iota // alternate to the first error, callees for every reachable state
	WorklistCallees                   // procedures callees first
	WorklistAlternate                 // callees first and callers first in turn
)

// String returns the --worklist text of w.
func (w Worklist) String() string {
	switch w {
	case WorklistCallees:
		return "callees"
	case WorklistAlternate:
		return "alternate"
	}
	return "auto"
}

// Set parses auto, callees or alternate.
func (w *Worklist) Set(s string) error {
	switch s {
	case "auto":
		*w = WorklistAuto
	case "callees":
		*w = WorklistCallees
	case "alternate":
		*w = WorklistAlternate
	default:
		return fmt.Errorf("want auto, callees or alternate")
	}
	return nil
}

// DefaultReorder is the reordering mode of Options.Reorder's zero value.
const DefaultReorder = bdd.ReorderAuto

// Engine is the Bebop engine.
type Engine struct {
	opts Options
}

// New returns the engine with the given options.
func New(opts Options) *Engine { return &Engine{opts: opts} }

// Options returns the engine's options, as New was given them.
func (e *Engine) Options() Options { return e.opts }

// Name returns "summary".
func (*Engine) Name() string { return Name }

var (
	_ engine.Engine    = (*Engine)(nil)
	_ engine.Supporter = (*Engine)(nil)
)

// Supports refuses concurrent programs and bounded queries.
func (*Engine) Supports(p *ir.Program, q engine.Query) error {
	return engine.SupportsSequential(Name, ReasonConcurrent, p, q)
}

// errTimeout reports a cancelled context.
var errTimeout = errors.New("timeout")

// Check decides whether an error location of p is reachable from the start
// of main; see the package comment. Stats counters: path_edges, summaries
// (path edges at exits), iterations (worklist steps of Figure 3),
// locations (reached), time_reach_ns (setup and Figure 3), peak_bdd_nodes
// (the bdd package's peak of allocated nodes: live or not yet collected),
// bdd_vars, bdd_gcs, after dynamic reordering bdd_reorders,
// time_reorder_ns, bdd_reorder_swaps, bdd_reorder_aborts (operations
// restarted after a reordering in their middle) and the live nodes before and after
// the last reordering (bdd_nodes_before_last_reorder,
// bdd_nodes_after_last_reorder), and for unsafe programs rings (distances searched),
// time_rings_ns (the ring search), trace_steps, trace_shortest (1 for a
// shortest trace, 0 for a history trace, with the reason,
// time_history_reach_ns for the search run again and
// time_history_trace_ns) and time_trace_ns (ring search and trace).
//
// Timing, panics and the other common duties are engine.Run's; Check
// itself still validates the query and refuses what Supports refuses, so
// that a direct call never answers for a program it cannot decide.
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	if err := q.Validate(p); err != nil {
		return nil, err
	}
	if why := e.Supports(p, q); why != nil {
		return result.NewUnknown(Name, why.Error()), nil
	}
	if res := engine.ErrorUnreachable(p, q); res != nil {
		res.Engine = Name
		return res, nil
	}
	res, err := e.check(ctx, p, q)
	if res != nil {
		res.Engine = Name
	}
	return res, err
}

func (e *Engine) check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	start := time.Now()
	initial := e.opts.InitialNodes
	if initial <= 0 {
		// Small programs need small tables; the table doubles on demand.
		locs := 0
		for _, pr := range p.Procs {
			locs += len(pr.Locations)
		}
		initial = min(max(locs*16, 1<<12), 1<<16)
	}
	if ctx.Err() != nil {
		return result.NewUnknown(Name, engine.StopReason(ctx)), nil
	}
	reorder := e.opts.Reorder
	if reorder == bdd.ReorderDefault {
		reorder = DefaultReorder
	}
	m := bdd.New(bdd.Config{MaxNodes: q.MaxNodes, InitialNodes: initial, Reorder: reorder})
	// Neither a reordering nor one long BDD operation may outlive the
	// time limit (the engine polls the context only between operations):
	// the manager polls it too, and an operation it stops fails with
	// bdd.ErrInterrupted, answered like a timeout.
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	md := newModel(p, q.AnalysesFor(p), m, e.opts)
	defer md.release()

	res := &result.Result{Verdict: result.Safe}
	setBDDStats := func() {
		st := m.Stats()
		res.Stats.Set("peak_bdd_nodes", int64(st.PeakNodes))
		res.Stats.Set("bdd_vars", int64(st.Vars))
		res.Stats.Set("bdd_gcs", int64(st.GCs))
		if st.Reorders > 0 {
			res.Stats.Set("bdd_reorders", int64(st.Reorders))
			res.Stats.Set("time_reorder_ns", int64(st.ReorderTime))
			res.Stats.Set("bdd_reorder_swaps", int64(st.ReorderSwaps))
			res.Stats.Set("bdd_reorder_aborts", int64(st.ReorderAborts))
			res.Stats.Set("bdd_nodes_before_last_reorder", int64(st.ReorderBefore))
			res.Stats.Set("bdd_nodes_after_last_reorder", int64(st.ReorderAfter))
		}
	}
	var found *result.Property // the error, once known to be reachable
	stopped := func(err error) (*result.Result, error) {
		var reason string
		switch {
		case errors.Is(err, errTimeout):
			reason = engine.StopReason(ctx)
			if reason == "" {
				reason = engine.ReasonTimeout
			}
		case errors.Is(err, bdd.ErrInterrupted):
			// The context ended in the middle of a BDD operation.
			reason = engine.StopReason(ctx)
			if reason == "" {
				reason = engine.ReasonTimeout
			}
		case errors.Is(err, bdd.ErrNodeLimit):
			reason = bdd.LimitReason(err, maxNodes(q))
		case errors.Is(err, errTooLong):
			// FAILED promises a trace, and this one is too long to build
			// or to read.
			reason = err.Error()
		default:
			return nil, err
		}
		r := result.NewUnknown(Name, reason)
		if found != nil {
			// The error is established: FAILED, with the note that the
			// trace was cut.
			r.Verdict, r.TraceCut, r.Property = result.Unsafe, true, found
		}
		setBDDStats()
		r.Stats = res.Stats
		return r, nil
	}

	q.Report(result.PhaseReach, "")
	// The history keeps the path edges of every step (on the satabs
	// suite's Threads5, 70% more time): it is recorded from the start
	// only when the trace will need it, and otherwise by a second search
	// once the ring search has given up.
	progress := func(detail string) { q.Report(result.PhaseReach, detail) }
	r := newReach(ctx, md, q.AllReachable, e.opts.ShortestBudget < 0, progress)
	defer r.release()
	defer r.releaseHistory()
	err := r.run()
	reachTime := time.Since(start)
	res.Stats.Set("time_reach_ns", int64(reachTime))
	// The most entries each heap held, summed: at most twice the
	// locations (TestWorklistHoldsEachLocationOnce).
	res.Stats.Set("worklist_peak", int64(r.work.peak+r.up.peak))
	res.Stats.AddPhase(result.PhaseReach, reachTime)
	if r.errorFound {
		// Established even if the search was then stopped (when asked
		// for every reachable state): error locations get only exact path
		// edges.
		found = result.PropertyAt(p, p.Procs[r.firstError.proc], int(r.firstError.loc))
	}
	if err != nil {
		return stopped(err)
	}
	if ctx.Err() != nil { // counting the states can take a while
		return stopped(errTimeout)
	}
	pe, su, locs := r.stats()
	res.Stats.States = pe
	res.Stats.Set("path_edges", pe)
	res.Stats.Set("summaries", su)
	res.Stats.Set("iterations", r.iterations)
	res.Stats.Set("locations", locs)
	if !r.errorFound {
		setBDDStats()
		return res, nil
	}
	r.release()
	m.GC()

	traceStart := time.Now()
	defer func() { res.Stats.AddPhase(result.PhaseTrace, time.Since(traceStart)) }()
	budget := engine.ShortestBudget(ctx, e.opts.ShortestBudget, reachTime)
	var tr *result.Trace
	if budget > 0 {
		q.Report(result.PhaseTrace, fmt.Sprintf("%d path edges; the shortest trace", pe))
		var why string
		tr, why, err = e.shortest(ctx, md, budget, budget != engine.ShortestAlways, res, &found)
		if err != nil {
			return stopped(err)
		}
		if tr == nil {
			res.Stats.Set("trace_shortest_budget_ns", int64(budget))
			res.Stats.Set("trace_shortest_"+why, 1)
		}
	}
	if tr == nil {
		// The history trace: not necessarily a shortest.
		q.Report(result.PhaseTrace, fmt.Sprintf("%d path edges; a trace from the search's history", pe))
		histStart := time.Now()
		hr := r
		if r.hist == nil {
			// The search again, recording its history, to the first
			// error (it makes the same steps: the order of the
			// worklist depends only on the sets, not on their BDDs).
			md.resetSummaries()
			hr = newReach(ctx, md, false, true, progress)
			defer hr.release()
			defer hr.releaseHistory()
			if err := hr.run(); err != nil {
				return stopped(err)
			}
			if !hr.errorFound {
				return nil, fmt.Errorf("summary: internal error: the search with its history found no error")
			}
			res.Stats.Set("time_history_reach_ns", int64(time.Since(histStart)))
		}
		tr, err = histTrace(ctx, hr)
		if err != nil {
			return stopped(err)
		}
		res.Stats.Set("time_history_trace_ns", int64(time.Since(histStart)))
		res.Stats.Set("trace_shortest", 0)
	} else {
		res.Stats.Set("trace_shortest", 1)
	}
	res.Verdict = result.Unsafe
	res.Trace = tr
	res.Stats.Set("trace_steps", int64(len(tr.Steps)))
	res.Stats.Set("time_trace_ns", int64(time.Since(traceStart)))
	setBDDStats()
	return res, nil
}

// shortest searches for a shortest trace (the rings) within the budget.
// It returns the trace, or nil and why it gave up (a counter name's end:
// "over_budget" or "node_limit"), or an error that ends the run (the
// run's own time limit, a trace too long to build).
func (e *Engine) shortest(ctx context.Context, md *model, budget time.Duration, fallback bool, res *result.Result, found **result.Property) (*result.Trace, string, error) {
	m := md.m
	start := time.Now()
	rctx, cancel := ctx, context.CancelFunc(func() {})
	if budget != engine.ShortestAlways {
		rctx, cancel = context.WithTimeout(ctx, budget)
	}
	defer cancel()
	// One long BDD operation must not outlive the budget either.
	m.SetInterrupt(func() bool { return rctx.Err() != nil })
	defer m.SetInterrupt(func() bool { return ctx.Err() != nil })
	rs := newRings(rctx, md)
	giveUp := func(err error) (*result.Trace, string, error) {
		if ctx.Err() != nil || !fallback {
			return nil, "", err // the run's own limit: the trace is cut
		}
		var why string
		switch {
		case errors.Is(err, errTimeout), errors.Is(err, bdd.ErrInterrupted):
			why = "over_budget"
		case errors.Is(err, bdd.ErrNodeLimit):
			why = "node_limit"
		default:
			return nil, "", err
		}
		res.Stats.Set("rings", int64(rs.keysDone))
		res.Stats.Set("time_rings_ns", int64(time.Since(start)))
		rs.release()
		m.ClearErr()
		m.GC()
		return nil, why, nil
	}
	hit, err := rs.run()
	if err != nil {
		return giveUp(err)
	}
	defer rs.release()
	if hit == nil {
		return nil, "", fmt.Errorf("summary: internal error: the error is reachable but the ring search found none")
	}
	res.Stats.Set("rings", int64(rs.keysDone))
	res.Stats.Set("time_rings_ns", int64(time.Since(start)))
	*found = result.PropertyAt(md.p, md.p.Procs[hit.proc], hit.loc) // the nearest error
	tr, err := rs.trace(hit)
	if err != nil {
		return giveUp(err)
	}
	return tr, "", nil
}

func maxNodes(q engine.Query) int {
	if q.MaxNodes > 0 {
		return q.MaxNodes
	}
	return 1 << 26
}
