// Package concfix is the engine conc-fix: context-bounded reachability of
// concurrent Boolean programs as the Getafix paper's fixed-point formula
// (La Torre, Madhusudan, Parlato 2009, §5.1), solved by package fix over
// the program relations of package engine/fixpoint.
//
// # The formula
//
// Reach(u, v, ecs, cs, g1..gk, t0..tk) holds when a run with cs context
// switches, the i-th at globals g_i, context i run by thread t_i, brings
// thread t_cs to state v (a State of engine/fixpoint's encoding: program
// counter, globals, the executing procedure's locals), in a procedure
// entered at state u after ecs switches. Its clauses: the start of thread
// t_0 with the globals init leaves (init's own summaries, InitReach, run
// first); internal steps; calls; returns (the caller's tuple may have
// fewer switches); the first switch to a thread (its entry, with the
// globals of the state left, g_cs); a switch back to a thread (its locals
// from its last context, whose end had the globals of the switch that
// ended it; the paper leaves that last condition implicit). Getafix's
// `atomic` global forbids a switch while it is T. An error is reachable
// within k switches iff Reach holds with a target state; ErrorAt(cs) tells
// the smallest cs.
//
// The formula uses k copies of the globals and k+1 thread numbers; the
// program relations (ProgramInt, IntoCall, Return, Exit, Target) are built
// as BDDs by engine/fixpoint and provided to the solver. WriteModel writes
// the whole model as a file that `boolprog mucke` evaluates on its own.
//
// # Scope
//
// Programs in the Getafix convention (init, then the fixed threads main,
// thread1, …), with recursion; no start_thread, ASYNC_, end_thread or
// atomic_begin/end. Queries with a context-switch bound only (rounds and
// unbounded queries are refused).
//
// # Traces
//
// The fixed point gives the smallest bound at which the error appears; the
// trace is then found by the explicit interleaving oracle (package
// engine/explicit) at that bound, and interp.Replay judges it as any other.
// If that search runs out of its budget or time, the answer stays FAILED
// (the fixed point established the error) with the trace cut and the
// reason.
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
	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/fixpoint"
	"boolprog/fix"
	"boolprog/ir"
	"boolprog/result"
)

// Name is the engine's name.
const Name = "conc-fix"

// Options are the engine's limits.
type Options struct {
	// TraceStates is the state budget of the explicit search that builds
	// the trace (0: the explicit engine's default).
	TraceStates int
}

// Engine is the conc-fix engine.
type Engine struct{ opts Options }

// New returns the engine with the default options.
func New() *Engine { return &Engine{} }

// NewWithOptions returns the engine with the given options.
func NewWithOptions(o Options) (*Engine, error) {
	if o.TraceStates < 0 {
		return nil, fmt.Errorf("trace-states %d: must be positive", o.TraceStates)
	}
	return &Engine{opts: o}, nil
}

func init() {
	engine.Register(engine.Info{
		Names: []string{Name},
		Doc:   "Getafix's context-bounded reachability (§5.1) as a fixed-point formula, solved by package fix (Getafix-convention programs, --bound cs:K)",
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			var o Options
			fs.IntVar(&o.TraceStates, "trace-states", 0, "state budget of the explicit search that builds the trace at the bound found (0: the explicit engine's default)")
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

// Supports accepts Getafix-convention programs (see the package doc) and
// context-switch bounds.
func (*Engine) Supports(p *ir.Program, q engine.Query) error {
	if why := supported(p); why != "" {
		return errors.New(why)
	}
	if q.Bound.Kind != result.ContextSwitches {
		return fmt.Errorf("conc-fix needs a context-switch bound (--bound cs:K), not %s", q.Bound)
	}
	return nil
}

// WriteModel writes the model of p at k context switches: the types and
// program relations as formulas, then the algorithm, for `boolprog mucke`.
// Its query is true iff an error is reachable within k switches.
func WriteModel(w io.Writer, p *ir.Program, k int) error {
	if why := supported(p); why != "" {
		return errors.New(why)
	}
	m := newModel(p, k)
	var alg bytes.Buffer
	m.write(&alg)
	return fixpoint.WriteModel(w, m.enc, alg.String())
}

// Check decides whether an error is reachable within q's bound.
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	if err := e.Supports(p, q); err != nil {
		return result.NewUnknown(Name, err.Error()), nil
	}
	m := newModel(p, q.Bound.K)
	var alg bytes.Buffer
	m.write(&alg)
	var src bytes.Buffer
	if err := fixpoint.WritePrelude(&src, m.enc, alg.String()); err != nil {
		return nil, err
	}
	src.Write(alg.Bytes())
	f, err := fix.ParseFile("conc-fix model", src.Bytes())
	if err != nil {
		return nil, fmt.Errorf("conc-fix: the formula does not parse: %v", err)
	}
	start := time.Now()
	sv, err := fix.NewSolver(f, fix.Options{MaxNodes: q.MaxNodes})
	if err != nil {
		return nil, fmt.Errorf("conc-fix: %v", err)
	}
	defer sv.Release()
	res := &result.Result{Verdict: result.Safe, Engine: Name}
	if err := provide(sv, m.enc); err != nil {
		return stopped(ctx, q, res, err)
	}
	res.Stats.Set("time_build_ns", int64(time.Since(start)))
	q.Report(result.PhaseReach, "")
	t0 := time.Now()
	ans, err := sv.Solve(ctx)
	res.Stats.Set("time_solve_ns", int64(time.Since(t0)))
	res.Stats.AddPhase(result.PhaseReach, time.Since(start))
	st := sv.Manager().Stats()
	res.Stats.Set("peak_bdd_nodes", int64(st.PeakNodes))
	res.Stats.Set("bdd_vars", int64(st.Vars))
	if err != nil {
		return stopped(ctx, q, res, err)
	}
	for _, rs := range ans.Relations {
		if rs.Name == "Reach" {
			res.Stats.Set("rounds", int64(rs.Iterations))
		}
	}
	if !ans.Value {
		return res, nil
	}
	k, err := smallest(sv, m.k)
	if err != nil {
		return nil, err
	}
	res.Verdict = result.Unsafe
	res.Bound = result.Bound{Kind: result.ContextSwitches, K: k}

	// The trace: the explicit oracle at the bound found.
	t1 := time.Now()
	q.Report(result.PhaseTrace, fmt.Sprintf("the error appears at %d context switches; an explicit search for its trace", k))
	ex, err := explicit.NewWithOptions(explicit.Options{MaxStates: e.opts.TraceStates})
	if err != nil {
		return nil, err
	}
	tr := engine.Run(ctx, ex, p, engine.Query{Bound: res.Bound, Progress: q.Progress})
	res.Stats.AddPhase(result.PhaseTrace, time.Since(t1))
	switch tr.Verdict {
	case result.Unsafe:
		if tr.Bound != res.Bound {
			return nil, fmt.Errorf("conc-fix: the fixed point finds the error at %s, the explicit search at %s", res.Bound, tr.Bound)
		}
		res.Trace = tr.Trace
		res.TraceCut = tr.TraceCut
		res.Reason = tr.Reason
		res.Stats.Set("trace_configurations", tr.Stats.States)
	case result.Safe:
		return nil, fmt.Errorf("conc-fix: the fixed point finds the error at %s, but the explicit search finds none", res.Bound)
	default:
		res.TraceCut = true
		res.Reason = "the explicit search for the trace did not finish: " + tr.Reason
	}
	return res, nil
}

// smallest returns the smallest cs at which ErrorAt holds.
func smallest(sv *fix.Solver, k int) (int, error) {
	val := sv.Value("ErrorAt")
	bits, err := sv.Bits("ErrorAt", "cs")
	if err != nil {
		return 0, err
	}
	m := sv.Manager()
	for i := 0; i <= k; i++ {
		vals := make([]bool, len(bits))
		for b := range bits {
			vals[b] = i>>(len(bits)-1-b)&1 == 1
		}
		if m.And(val, m.Assignment(bits, vals)) != bdd.False {
			return i, nil
		}
	}
	return 0, fmt.Errorf("conc-fix: the query holds but ErrorAt is empty")
}

// stopped turns a solver error into an Unknown verdict with the reason, or
// returns it as an internal error.
func stopped(ctx context.Context, q engine.Query, res *result.Result, err error) (*result.Result, error) {
	var reason string
	switch {
	case ctx.Err() != nil:
		reason = engine.StopReason(ctx)
	case errors.Is(err, bdd.ErrNodeLimit):
		reason = "BDD node limit reached"
		if q.MaxNodes > 0 {
			reason = fmt.Sprintf("BDD node limit reached (%d nodes)", q.MaxNodes)
		}
	case errors.Is(err, fix.ErrNoFixedPoint):
		reason = err.Error()
	default:
		return nil, err
	}
	r := result.NewUnknown(Name, reason)
	r.Stats = res.Stats
	return r, nil
}

// provide builds the program relations the formula declares and gives
// them to the solver.
func provide(sv *fix.Solver, enc *fixpoint.Encoding) error {
	rels := fixpoint.NewRelations(sv.Manager(), enc)
	m := sv.Manager()
	for _, name := range sv.Declared() {
		params, err := sv.Params(name)
		if err != nil {
			return err
		}
		sts := make([]fixpoint.StateVars, len(params))
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
func stateVars(sv *fix.Solver, enc *fixpoint.Encoding, rel, name string) (fixpoint.StateVars, error) {
	var st fixpoint.StateVars
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
