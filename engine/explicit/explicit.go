// Package explicit is the reference engine: exhaustive explicit-state
// reachability for Boolean programs with recursion (and, for concurrent
// programs, the interleaving oracle of concurrent.go); for sequential ones by the
// Reps-Horwitz-Sagiv tabulation over concrete valuations (the algorithm of
// the Bebop paper's Figure 3, with one concrete pair of valuations per path
// edge instead of BDDs). It is the oracle the symbolic engines are judged
// against, so it is written for clarity first.
//
// # Algorithm
//
// A context is a procedure with a valuation of its variables at entry
// (globals and all its locals). A path edge is a context with a location, a
// current valuation and, at the exit only, the returned values: "entering
// the procedure in this context, control can reach this location with this
// valuation". A summary is a path edge at the exit; a call edge whose
// arguments produce context c continues at its return point with the
// caller's locals, the globals and returned values of each summary of c.
//
//  1. Reachability: a worklist computes all path edges reachable from the
//     start of main (every initial valuation). If no error location is
//     reached, the program is safe.
//  2. Same-level distances: Knuth's generalisation of Dijkstra's algorithm
//     computes, for every reachable path edge, D = the fewest steps from its
//     context's entry to it, with calls expanded (a call step + the callee's
//     steps to its exit). All contexts found in 1 start at D = 0.
//  3. Prefix distances: Dijkstra over contexts computes P = the fewest
//     steps from the start of main to entering each context (P = 0 for
//     main's), with weight D(call site) + 1 per call.
//  4. The reported error is the error path edge with the fewest total steps
//     P + D (+1 for the final step at a target label); the trace is
//     rebuilt from predecessor links, summaries expanded.
//
// # What is guaranteed
//
// The trace of an unsafe verdict is a shortest one: no execution from an
// initial state of main to an error has fewer steps, where a step is one
// edge taken (one statement or branch; a call is one step followed by the
// callee's own steps; returning is not a step) and the final error step
// counts one (the failing assert, or the arrival at the target label).
// Among shortest traces the choice is deterministic.
//
// # Limits
//
// Bounded queries on sequential programs are refused (Supports): a bound
// applies only to concurrent programs. Concurrent programs are searched by
// a different algorithm, over their interleavings (concurrent.go): within a
// ContextSwitches or Rounds bound, or, without a bound, until every
// reachable configuration is explored (a proof). Before enumerating states, the engine checks the
// control-flow graph: if no error location is reachable even ignoring
// data, the program is safe whatever its size. Otherwise it answers Unknown
// with the reason when a procedure reachable from main has more than
// Options.MaxVars variables in scope or returns more than MaxVars values
// (default DefaultMaxVars, at most MaxVarsLimit = 64: a valuation is one
// 64-bit word), and when the state budget (Options.MaxStates, about 0.5 KB
// per state) would be exceeded: every enumeration of 2^n valuations is
// checked against the budget before it starts, so no shift overflows and no
// allocation outgrows the budget. The context is polled in every long loop,
// trace building included: when it ends before the error is established
// the answer is Unknown ("timeout" or "interrupted", with the statistics so
// far); after, it is Unsafe with Result.TraceCut and the error's Property.
package explicit

import (
	"cmp"
	"container/heap"
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"slices"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/internal/memlimit"
	"boolprog/ir"
	"boolprog/result"
)

// Name is the engine's name.
const Name = "explicit"

// DefaultMaxVars is the default limit on the number of variables in scope.
const DefaultMaxVars = 20

// MaxVarsLimit is the most variables in scope the engine can represent:
// a valuation is a uint64.
const MaxVarsLimit = 64

// ReasonConcurrent is the Unknown reason for programs with threads.
const ReasonConcurrent = "concurrent program (threads): not supported by the explicit engine"

// DefaultMaxStates is the default state budget: the path edges and
// contexts the engine may create, and the valuations one step may
// enumerate. Each path edge costs about 0.5 KB over the three phases
// (measured with the state-budget test), so the default bounds the engine
// to roughly 1 GB.
const DefaultMaxStates = 1 << 21

// Options are the engine's limits. The zero value takes the defaults.
type Options struct {
	// MaxVars bounds the number of variables in scope (globals plus the
	// locals of one procedure) and of values a procedure returns; above
	// it the engine answers Unknown. 0 means DefaultMaxVars; at most
	// MaxVarsLimit.
	MaxVars int
	// MaxStates is the state budget (0: DefaultMaxStates): past it the
	// engine answers Unknown "state budget exhausted (N states)" rather
	// than exhaust the machine's memory.
	MaxStates int
	// MaxThreads bounds the threads of a concurrent program, the initial
	// ones included (0: DefaultMaxThreads). A step that would create more
	// is left out, and an answer that is not an error then says so: it
	// is Unknown, with the reason.
	MaxThreads int
}

// Validate reports an error for limits the engine cannot honour.
func (o Options) Validate() error {
	if o.MaxVars < 0 || o.MaxVars > MaxVarsLimit {
		return fmt.Errorf("max-vars %d: the explicit engine enumerates between 1 and %d variables (a valuation is a 64-bit word)", o.MaxVars, MaxVarsLimit)
	}
	if o.MaxThreads < 0 {
		return fmt.Errorf("max-threads %d: the thread limit must be positive", o.MaxThreads)
	}
	if o.MaxStates < 0 {
		return fmt.Errorf("max-states %d: the state budget must be positive", o.MaxStates)
	}
	return nil
}

func (o Options) maxStates() int {
	if o.MaxStates == 0 {
		return DefaultMaxStates
	}
	return o.MaxStates
}

func (o Options) maxVars() int {
	if o.MaxVars == 0 {
		return DefaultMaxVars
	}
	return o.MaxVars
}

// Engine is the explicit-state engine. The zero value is ready to use,
// with the default limits.
type Engine struct {
	opts Options
}

// New returns the explicit engine with the default limits.
func New() *Engine { return &Engine{} }

// NewWithOptions returns the explicit engine with the given limits, or an
// error if it cannot honour them.
func NewWithOptions(opts Options) (*Engine, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return &Engine{opts: opts}, nil
}

func init() {
	engine.Register(engine.Info{
		Names: []string{Name},
		Doc:   "explicit-state tabulation over concrete valuations (the reference oracle)",
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			var o Options
			fs.IntVar(&o.MaxVars, "max-vars", DefaultMaxVars, fmt.Sprintf("enumerate at most `n` variables in scope (globals and one procedure's locals), 1-%d; past it: UNKNOWN", MaxVarsLimit))
			fs.IntVar(&o.MaxStates, "max-states", DefaultMaxStates, "state budget: at most `n` path edges and contexts (about 0.5 KB each), or configurations of a concurrent program (about 0.25 KB each); past it: UNKNOWN")
			fs.IntVar(&o.MaxThreads, "max-threads", 0, "concurrent programs: at most `n` threads, the initial ones included (0: one more per thread-creation site); a program that can create more: UNKNOWN unless an error is found")
			return func() (engine.Engine, error) { return NewWithOptions(o) }
		},
	})
}

// Name returns "explicit".
func (*Engine) Name() string { return Name }

var (
	_ engine.Engine    = (*Engine)(nil)
	_ engine.Supporter = (*Engine)(nil)
)

// Supports refuses bounded queries on sequential programs (a bound applies
// only to concurrent ones).
func (*Engine) Supports(p *ir.Program, q engine.Query) error {
	if p.Concurrent {
		return nil
	}
	return engine.SupportsSequential(Name, ReasonConcurrent, p, q)
}

// Check decides whether an error location of p is reachable; see the
// package comment. Run it through engine.Run.
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	if err := e.Supports(p, q); err != nil {
		return result.NewUnknown(Name, err.Error()), nil
	}
	if err := e.opts.Validate(); err != nil {
		return nil, err
	}
	check := e.check
	if p.Concurrent {
		check = e.checkConcurrent
	}
	res, err := check(ctx, p, q)
	if res != nil {
		res.Engine = Name
	}
	return res, err
}

func (e *Engine) check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	procs, errorReachable := p.ErrorReachableInCFG()
	if !errorReachable {
		r := &result.Result{Verdict: result.Safe}
		r.Stats.Set("cfg_unreachable_error", 1)
		return r, nil
	}
	limit := e.opts.maxVars()
	for _, proc := range procs {
		if n := p.NumVars(proc); n > limit {
			return result.NewUnknown(Name, fmt.Sprintf(
				"too many variables in scope for the explicit engine: %d in %s (limit %d)", n, proc.Name, limit)), nil
		}
		if proc.Returns > limit {
			return result.NewUnknown(Name, fmt.Sprintf(
				"%s returns %d values: more than the explicit engine enumerates (limit %d)", proc.Name, proc.Returns, limit)), nil
		}
	}

	s := newSearch(ctx, p, e.opts.maxStates())
	s.report = q.Progress
	s.phase = result.PhaseReach
	q.Report(s.phase, "")
	r := &result.Result{Verdict: result.Safe}
	stats := func() {
		r.Stats.States = int64(len(s.reached))
		r.Stats.Set("path_edges", int64(len(s.reached)))
		r.Stats.Set("contexts", int64(len(s.contexts)))
		r.Stats.Set("summaries", int64(s.summaries))
	}
	start := time.Now()
	err := s.reach()
	r.Stats.AddPhase(result.PhaseReach, time.Since(start))
	stats()
	if err != nil {
		return s.stopped(r, err)
	}
	if !s.errorFound {
		return r, nil
	}
	r.Verdict = result.Unsafe
	r.Property = result.PropertyAt(p, p.Procs[s.firstError.ctx.proc], int(s.firstError.loc))
	start = time.Now()
	s.phase = result.PhaseTrace
	q.Report(s.phase, fmt.Sprintf("%d path edges; the shortest trace", len(s.reached)))
	tr, err := s.shortestTrace()
	r.Stats.AddPhase(result.PhaseTrace, time.Since(start))
	if err != nil {
		// The error is established: a search that cannot finish the
		// trace leaves FAILED with the note that the trace was cut.
		r.TraceCut = true
		switch {
		case errors.As(err, new(errStop)):
			r.Reason = engine.StopReason(ctx)
		case errors.As(err, new(errBudget)), errors.As(err, new(errMemory)):
			r.Reason = err.Error()
		default:
			return nil, err
		}
		return r, nil
	}
	r.Property = nil // Run derives it from the trace: the shortest trace's error
	r.Trace = tr
	r.Stats.Set("trace_steps", int64(len(tr.Steps)))
	return r, nil
}

// errStop reports that the context ended.
type errStop struct{ error }

// errBudget reports that the state budget is exhausted.
type errBudget struct{ n int }

func (e errBudget) Error() string { return fmt.Sprintf("state budget exhausted (%d states)", e.n) }

// errMemory reports that the Go heap, where the search keeps its states,
// has outgrown the share of the process's memory limit that such a search
// may use (memlimit.Over): past it the process would outgrow the limit
// (the state budget does not know the limit) and, under a cgroup's, be
// killed.
type errMemory struct{ heap, limit int64 }

func (e errMemory) Error() string {
	return fmt.Sprintf("memory limit (%s of states and other data in the Go heap: more than 70%% of the %s limit)", bdd.FormatBytes(e.heap), bdd.FormatBytes(e.limit))
}

// memoryLeft returns errMemory when the heap has outgrown the search's
// share of the memory limit, else nil.
func memoryLeft() error {
	if heap, limit, over := memlimit.Over(); over {
		return errMemory{heap, limit}
	}
	return nil
}

// stopped turns the error of an unfinished search into an Unknown result
// with the statistics so far.
func (s *search) stopped(r *result.Result, err error) (*result.Result, error) {
	r.Verdict = result.Unknown
	switch {
	case errors.As(err, new(errStop)):
		r.Reason = engine.StopReason(s.ctx)
	case errors.As(err, new(errBudget)), errors.As(err, new(errMemory)):
		r.Reason = err.Error()
	default:
		return nil, err
	}
	return r, nil
}

// ---------------------------------------------------------------------------
// Path edges and contexts

// ctxKey is a context: a procedure entered with a valuation.
type ctxKey struct {
	proc  int32
	entry valuation
}

// peKey is a path edge: in context ctx, location loc is reachable with
// valuation val; at the exit, ret holds the returned values (bit i is value
// i), elsewhere it is 0.
type peKey struct {
	ctx ctxKey
	loc int32
	val valuation
	ret uint64
}

// callSite is a path edge at a call location together with its call edge.
type callSite struct {
	pe   peKey
	edge int
}

// search holds the tabulation.
type search struct {
	ctx    context.Context
	p      *ir.Program
	lay    layout
	tick   int
	budget uint64 // states the search may create
	// phase and report tell engine.Query.Progress (if set) what the
	// search is doing, every few thousand units of work.
	phase  string
	report func(phase, detail string)
	used   uint64 // states created: path edges and contexts

	// Phase 1.
	reached    map[peKey]bool
	work       []peKey
	contexts   map[ctxKey]bool
	callers    map[ctxKey][]callSite // call sites that entered a context
	exits      map[ctxKey][]peKey    // path edges at the exit of a context
	summaries  int
	errorFound bool
	firstError peKey // the first error path edge reached
}

func newSearch(ctx context.Context, p *ir.Program, budget int) *search {
	return &search{
		ctx:      ctx,
		p:        p,
		lay:      layout{ng: len(p.Globals)},
		budget:   uint64(budget),
		reached:  make(map[peKey]bool),
		contexts: make(map[ctxKey]bool),
		callers:  make(map[ctxKey][]callSite),
		exits:    make(map[ctxKey][]peKey),
	}
}

// cancelled checks the context after every few thousand units of work
// (path edges created or popped, valuations enumerated).
func (s *search) cancelled() error {
	s.tick++
	if s.tick >= 4096 {
		s.tick = 0
		if s.ctx.Err() != nil {
			return errStop{s.ctx.Err()}
		}
		if err := memoryLeft(); err != nil {
			return err
		}
		if s.report != nil {
			s.report(s.phase, fmt.Sprintf("%d states (budget %d)", s.used, s.budget))
		}
	}
	return nil
}

// budgetPanic carries errBudget from deep inside an enumeration to guard.
type budgetPanic struct{ err errBudget }

// need checks, before k states or valuations are enumerated, that they
// fit in what is left of the budget; if not, it ends the search (through
// guard) with errBudget. Enumerations of 2^n values call it first, so that
// no shift overflows and no slice outgrows the budget.
func (s *search) need(k uint64) {
	if k > s.budget-min(s.used, s.budget) {
		panic(budgetPanic{errBudget{int(min(s.budget, math.MaxInt))}})
	}
}

// spend records one new state (path edge or context) against the budget.
func (s *search) spend() {
	s.need(1)
	s.used++
}

// guard runs f, turning a budget panic into its error.
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			bp, ok := r.(budgetPanic)
			if !ok {
				panic(r)
			}
			err = bp.err
		}
	}()
	return f()
}

// pow2 returns 2^n, saturated at the largest uint64 for n >= 64.
func pow2(n int) uint64 {
	if n >= 64 {
		return math.MaxUint64
	}
	return 1 << uint(n)
}

// eachMainContext calls fn with each context of main, every valuation of
// the globals and main's locals, in increasing order, polling the context
// between them, and stops at the first error. They are not collected in a
// slice first: with a large budget there may be 2^24 of them or more,
// seconds of allocation that could not be interrupted.
func (s *search) eachMainContext(fn func(ctxKey)) error {
	main := s.p.Procs[s.p.Main]
	n := pow2(s.p.NumVars(main))
	s.need(n)
	for v := uint64(0); v < n; v++ {
		if err := s.cancelled(); err != nil {
			return err
		}
		fn(ctxKey{proc: int32(s.p.Main), entry: v})
	}
	return nil
}

// arrivals returns the path edges for arriving at loc with val in context
// c: one path edge, or at the exit one per possible returned value vector
// (rets, or all of them if rets is nil).
func (s *search) arrivals(c ctxKey, loc int, val valuation, rets []uint64) []peKey {
	proc := s.p.Procs[c.proc]
	if loc != proc.Exit {
		return []peKey{{ctx: c, loc: int32(loc), val: val}}
	}
	if rets == nil {
		n := pow2(proc.Returns)
		s.need(n)
		rets = make([]uint64, n)
		for r := range rets {
			rets[r] = uint64(r)
		}
	}
	out := make([]peKey, len(rets))
	for i, r := range rets {
		out[i] = peKey{ctx: c, loc: int32(loc), val: val, ret: r}
	}
	return out
}

// step is one successor of a path edge along an intraprocedural edge.
type step struct {
	edge int
	to   peKey
}

// localSteps returns the successors of pe along its non-call edges.
func (s *search) localSteps(pe peKey) []step {
	proc := s.p.Procs[pe.ctx.proc]
	var out []step
	for _, id := range proc.Locations[pe.loc].Out {
		e := proc.Edges[id]
		if _, ok := e.Op.(*ir.Call); ok {
			continue
		}
		var rets []uint64
		if r, ok := e.Op.(*ir.Return); ok {
			rets = s.vectors(r.Values, pe.val)
		}
		for _, val := range s.post(e.Op, pe.val) {
			for _, to := range s.arrivals(pe.ctx, e.To, val, rets) {
				out = append(out, step{edge: id, to: to})
			}
		}
	}
	return out
}

// entries returns the contexts a call edge enters from valuation val:
// globals unchanged, parameters bound to the arguments, other locals any.
func (s *search) entries(call *ir.Call, val valuation) []ctxKey {
	callee := s.p.Procs[call.Proc]
	globals := val & s.lay.globalsMask()
	var out []ctxKey
	rests := pow2(len(callee.Locals) - callee.Params)
	argVecs := s.vectors(call.Args, val)
	s.need(rests)
	s.need(rests * uint64(len(argVecs))) // no overflow: both factors fit the budget
	for _, args := range argVecs {
		for rest := uint64(0); rest < rests; rest++ {
			locals := args | rest<<uint(callee.Params)
			out = append(out, ctxKey{proc: int32(call.Proc), entry: globals | locals<<uint(s.lay.ng)})
		}
	}
	return out
}

// returnVal returns the caller's valuation after the call returns through
// the exit path edge x, and whether it satisfies the call's Post.
func (s *search) returnVal(call *ir.Call, callerVal valuation, x peKey) (valuation, bool) {
	gm := s.lay.globalsMask()
	val := callerVal&^gm | x.val&gm
	for i, t := range call.Targets {
		if !t.Discard {
			val = s.lay.set(val, t.Var, x.ret>>uint(i)&1 != 0)
		}
	}
	if call.Post != nil && !s.lay.holds(call.Post, val, val) {
		return 0, false
	}
	return val, true
}

// callEdge returns the call edge leaving pe's location, if any.
func (s *search) callEdge(pe peKey) (int, *ir.Call) {
	proc := s.p.Procs[pe.ctx.proc]
	for _, id := range proc.Locations[pe.loc].Out {
		if c, ok := proc.Edges[id].Op.(*ir.Call); ok {
			return id, c
		}
	}
	return -1, nil
}

func (s *search) isError(pe peKey) bool {
	return s.p.Procs[pe.ctx.proc].Locations[pe.loc].Error
}

func (s *search) isExit(pe peKey) bool { return int(pe.loc) == s.p.Procs[pe.ctx.proc].Exit }

// ---------------------------------------------------------------------------
// Phase 1: reachability

func (s *search) propagate(pe peKey) {
	s.tick++
	if !s.reached[pe] {
		s.spend()
		s.reached[pe] = true
		s.work = append(s.work, pe)
	}
}

func (s *search) enter(c ctxKey) {
	if s.contexts[c] {
		return
	}
	s.spend()
	s.contexts[c] = true
	proc := s.p.Procs[c.proc]
	for _, pe := range s.arrivals(c, proc.Entry, c.entry, nil) {
		s.propagate(pe)
	}
}

// reach computes all reachable path edges.
func (s *search) reach() error { return guard(s.reach1) }

func (s *search) reach1() error {
	if err := s.eachMainContext(s.enter); err != nil {
		return err
	}
	for len(s.work) > 0 {
		if err := s.cancelled(); err != nil {
			return err
		}
		pe := s.work[len(s.work)-1]
		s.work = s.work[:len(s.work)-1]
		switch {
		case s.isError(pe):
			if !s.errorFound {
				s.errorFound, s.firstError = true, pe
			}
			// Executions stop at an error.
		case s.isExit(pe):
			s.summaries++
			s.exits[pe.ctx] = append(s.exits[pe.ctx], pe)
			for _, cs := range s.callers[pe.ctx] {
				s.returnFrom(cs, pe)
			}
		default:
			if id, call := s.callEdge(pe); call != nil {
				for _, c := range s.entries(call, pe.val) {
					cs := callSite{pe: pe, edge: id}
					s.callers[c] = append(s.callers[c], cs)
					s.enter(c)
					for _, x := range s.exits[c] {
						s.returnFrom(cs, x)
					}
				}
			}
			for _, st := range s.localSteps(pe) {
				s.propagate(st.to)
			}
		}
	}
	return nil
}

// returnFrom propagates the return of exit path edge x to call site cs.
func (s *search) returnFrom(cs callSite, x peKey) {
	proc := s.p.Procs[cs.pe.ctx.proc]
	e := proc.Edges[cs.edge]
	val, ok := s.returnVal(e.Op.(*ir.Call), cs.pe.val, x)
	if !ok {
		return
	}
	for _, pe := range s.arrivals(cs.pe.ctx, e.To, val, nil) {
		s.propagate(pe)
	}
}

// ---------------------------------------------------------------------------
// Phases 2-4: shortest trace

// how says how a path edge was reached by its shortest same-level path.
type how struct {
	kind int   // howEntry, howStep or howReturn
	from peKey // the previous path edge (howStep), or the call site (howReturn)
	edge int   // the edge taken from `from`
	exit peKey // howReturn: the callee's exit path edge
}

const (
	howEntry = iota
	howStep
	howReturn
)

// item is a heap entry.
type item struct {
	d   int
	seq int
	pe  peKey
}

type pq []item

func (q pq) Len() int { return len(q) }
func (q pq) Less(i, j int) bool {
	if q[i].d != q[j].d {
		return q[i].d < q[j].d
	}
	return q[i].seq < q[j].seq
}
func (q pq) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *pq) Push(x any)   { *q = append(*q, x.(item)) }
func (q *pq) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// dist is what phase 2 knows about a path edge: its same-level distance
// (final once done), and how it was reached.
type dist struct {
	d    int
	pred how
	done bool
}

// distances holds the result of phase 2.
type distances struct {
	pes      map[peKey]int32 // index in slab (one allocation for all, not one per path edge)
	slab     []dist
	errors   []peKey              // error path edges, in the order they were finalised
	calls    map[ctxKey][]callOut // finalised call sites of each context, with the contexts they enter
	ctxOrder []ctxKey             // contexts in a deterministic order
}

// d returns the same-level distance of a path edge phase 2 reached.
func (ds *distances) d(pe peKey) int { return ds.get(pe).d }

// get returns what phase 2 knows about a path edge it reached. The pointer
// is valid until the next path edge is added.
func (ds *distances) get(pe peKey) *dist { return &ds.slab[ds.pes[pe]] }

// callOut is a finalised call site and a context it enters.
type callOut struct {
	site   callSite
	callee ctxKey
}

// sameLevel runs Knuth's generalisation of Dijkstra's algorithm over the
// reachable path edges: every context's entry starts at 0, a local step
// costs 1, and a return costs the call site's distance + 1 + the callee
// exit's distance. Keys pushed are never smaller than the key popped, so
// each path edge's distance is final when popped.
func (s *search) sameLevel() (*distances, error) {
	ds := &distances{
		pes:   make(map[peKey]int32, len(s.reached)),
		slab:  make([]dist, 0, len(s.reached)),
		calls: make(map[ctxKey][]callOut, len(s.contexts)),
	}
	waiting := make(map[ctxKey][]callSite) // finalised call sites per callee context
	exits := make(map[ctxKey][]peKey)      // finalised exits per context
	var q pq
	seq := 0
	relax := func(pe peKey, d int, h how) {
		s.tick++
		i, ok := ds.pes[pe]
		if !ok {
			i = int32(len(ds.slab))
			ds.pes[pe] = i
			ds.slab = append(ds.slab, dist{})
		} else if ds.slab[i].d <= d {
			return
		}
		ds.slab[i].d, ds.slab[i].pred = d, h
		heap.Push(&q, item{d: d, seq: seq, pe: pe})
		seq++
	}
	ret := func(cs callSite, x peKey) {
		e := s.p.Procs[cs.pe.ctx.proc].Edges[cs.edge]
		val, ok := s.returnVal(e.Op.(*ir.Call), cs.pe.val, x)
		if !ok {
			return
		}
		d := ds.d(cs.pe) + 1 + ds.d(x)
		for _, pe := range s.arrivals(cs.pe.ctx, e.To, val, nil) {
			relax(pe, d, how{kind: howReturn, from: cs.pe, edge: cs.edge, exit: x})
		}
	}

	// Seed every context found in phase 1 at distance 0, in a
	// deterministic order: main's first, then the others sorted. (Seeding
	// a context only when a call site discovers it would push key 0 after
	// larger keys were popped, breaking the algorithm.)
	seeded := make(map[ctxKey]bool)
	seed := func(c ctxKey) {
		if seeded[c] {
			return
		}
		seeded[c] = true
		ds.ctxOrder = append(ds.ctxOrder, c)
		for _, pe := range s.arrivals(c, s.p.Procs[c.proc].Entry, c.entry, nil) {
			relax(pe, 0, how{kind: howEntry})
		}
	}
	if err := s.eachMainContext(seed); err != nil {
		return nil, err
	}
	for _, c := range s.sortedContexts() {
		seed(c)
	}

	for q.Len() > 0 {
		if err := s.cancelled(); err != nil {
			return nil, err
		}
		it := heap.Pop(&q).(item)
		pe := it.pe
		x := ds.get(pe)
		if x.done || it.d != x.d {
			continue
		}
		x.done = true // x is not used past here: relax may move the slab
		switch {
		case s.isError(pe):
			ds.errors = append(ds.errors, pe)
		case s.isExit(pe):
			exits[pe.ctx] = append(exits[pe.ctx], pe)
			for _, cs := range waiting[pe.ctx] {
				ret(cs, pe)
			}
		default:
			if id, call := s.callEdge(pe); call != nil {
				cs := callSite{pe: pe, edge: id}
				for _, c := range s.entries(call, pe.val) {
					ds.calls[pe.ctx] = append(ds.calls[pe.ctx], callOut{site: cs, callee: c})
					waiting[c] = append(waiting[c], cs)
					for _, x := range exits[c] {
						ret(cs, x)
					}
				}
			}
			for _, st := range s.localSteps(pe) {
				relax(st.to, it.d+1, how{kind: howStep, from: pe, edge: st.edge})
			}
		}
	}
	return ds, nil
}

// sortedContexts returns the contexts of phase 1 ordered by procedure and
// entry valuation.
func (s *search) sortedContexts() []ctxKey {
	out := make([]ctxKey, 0, len(s.contexts))
	for c := range s.contexts {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b ctxKey) int {
		if c := cmp.Compare(a.proc, b.proc); c != 0 {
			return c
		}
		return cmp.Compare(a.entry, b.entry)
	})
	return out
}

// prefix is the result of phase 3 for one context.
type prefix struct {
	p    int
	call callSite // the call site that enters the context on a shortest path (main: none)
	main bool
}

// prefixes runs Dijkstra over contexts: main's contexts at 0, and a call
// site in context c with same-level distance d enters its callee at
// P(c) + d + 1.
func (s *search) prefixes(ds *distances) (map[ctxKey]prefix, error) {
	best := make(map[ctxKey]prefix)
	index := make(map[ctxKey]int) // context -> position in ds.ctxOrder, for tie-breaking
	for i, c := range ds.ctxOrder {
		index[c] = i
	}
	var q ctxQueue
	err := s.eachMainContext(func(c ctxKey) {
		best[c] = prefix{main: true}
		heap.Push(&q, ctxItem{p: 0, order: index[c], c: c})
	})
	if err != nil {
		return nil, err
	}
	done := make(map[ctxKey]bool)
	for q.Len() > 0 {
		if err := s.cancelled(); err != nil {
			return nil, err
		}
		it := heap.Pop(&q).(ctxItem)
		if done[it.c] || best[it.c].p != it.p {
			continue
		}
		done[it.c] = true
		for _, co := range ds.calls[it.c] {
			p := it.p + ds.d(co.site.pe) + 1
			if old, ok := best[co.callee]; ok && old.p <= p {
				continue
			}
			best[co.callee] = prefix{p: p, call: co.site}
			heap.Push(&q, ctxItem{p: p, order: index[co.callee], c: co.callee})
		}
	}
	return best, nil
}

type ctxItem struct {
	p, order int
	c        ctxKey
}

type ctxQueue []ctxItem

func (q ctxQueue) Len() int { return len(q) }
func (q ctxQueue) Less(i, j int) bool {
	if q[i].p != q[j].p {
		return q[i].p < q[j].p
	}
	return q[i].order < q[j].order
}
func (q ctxQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *ctxQueue) Push(x any)   { *q = append(*q, x.(ctxItem)) }
func (q *ctxQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// shortestTrace runs phases 2-4 and builds the trace.
func (s *search) shortestTrace() (tr *result.Trace, err error) {
	// Phases 2-4 revisit the states of phase 1 (which fit the budget)
	// and create no new ones: their enumerations are checked afresh.
	s.used = 0
	err = guard(func() error {
		tr, err = s.shortestTrace1()
		return err
	})
	return tr, err
}

func (s *search) shortestTrace1() (*result.Trace, error) {
	ds, err := s.sameLevel()
	if err != nil {
		return nil, err
	}
	pre, err := s.prefixes(ds)
	if err != nil {
		return nil, err
	}
	bestLen, bestPE := -1, peKey{}
	for _, pe := range ds.errors {
		pf, ok := pre[pe.ctx]
		if !ok {
			continue
		}
		n := pf.p + ds.d(pe)
		if s.p.Procs[pe.ctx.proc].Locations[pe.loc].Kind != ir.FailLoc {
			n++ // the final step at a target label
		}
		if bestLen < 0 || n < bestLen {
			bestLen, bestPE = n, pe
		}
	}
	if bestLen < 0 {
		return nil, fmt.Errorf("explicit: internal error: an error was reached but no trace was found")
	}

	b := &builder{s: s, ds: ds}
	// The chain of contexts from main to the error's context.
	var chain []callSite
	for c := bestPE.ctx; !pre[c].main; c = pre[c].call.pe.ctx {
		chain = append(chain, pre[c].call)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		depth := len(chain) - 1 - i
		if err := b.sameLevel(chain[i].pe, depth); err != nil {
			return nil, err
		}
		b.add(chain[i].pe, chain[i].edge, depth)
	}
	depth := len(chain)
	// A failing assert is the last step of the same-level path; a target
	// label adds the final step at the label.
	if err := b.sameLevel(bestPE, depth); err != nil {
		return nil, err
	}
	if s.p.Procs[bestPE.ctx.proc].Locations[bestPE.loc].Kind != ir.FailLoc {
		b.add(bestPE, result.NoEdge, depth)
	}
	if len(b.steps) != bestLen {
		return nil, fmt.Errorf("explicit: internal error: trace has %d steps, expected %d", len(b.steps), bestLen)
	}
	return &result.Trace{Steps: b.steps}, nil
}

// builder turns predecessor links into trace steps.
type builder struct {
	s     *search
	ds    *distances
	steps []result.Step
}

// add appends the step "at path edge pe, take edge" at the given depth.
func (b *builder) add(pe peKey, edge int, depth int) {
	p := b.s.p
	proc := p.Procs[pe.ctx.proc]
	vals := result.ValuesOf(p, proc, func(v ir.VarRef) bool { return b.s.lay.get(pe.val, v) })
	b.steps = append(b.steps, result.NewStep(p, proc, int(pe.loc), edge, vals, depth, 0))
}

// sameLevel appends the steps of the shortest same-level path from the
// entry of pe's context to pe (exclusive), expanding calls.
func (b *builder) sameLevel(pe peKey, depth int) error {
	// Collect the links backwards, then emit forwards.
	var links []how
	for x := pe; ; {
		if err := b.s.cancelled(); err != nil {
			return err
		}
		h := b.ds.get(x).pred
		if h.kind == howEntry {
			break
		}
		links = append(links, h)
		x = h.from
	}
	for i := len(links) - 1; i >= 0; i-- {
		h := links[i]
		b.add(h.from, h.edge, depth)
		if h.kind == howReturn {
			if err := b.sameLevel(h.exit, depth+1); err != nil {
				return err
			}
		}
	}
	return nil
}
