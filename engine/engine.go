// Package engine defines what every verification engine implements, one
// way to run any of them (Run), and the registry in which engines declare
// their names, documentation and own flags, so that the CLI, the tests and
// the benchmarks treat all engines alike.
//
// An engine's Check does the search. Run does everything around it that
// must not differ between engines: validating the query, asking the engine
// whether it supports the program (Supporter), timing, turning the end of
// the context into an Unknown "timeout" or "interrupted" verdict, an error
// or a panic into an Unknown "internal error: ..." verdict (with the Go
// stack in Result.Debug, never in the reason shown to users), and filling
// the result's engine name, bound and property.
//
// Engines register themselves from their own package (func init), so this
// package imports none of them; a program that wants every engine imports
// them for their side effect, as database/sql drivers are.
package engine

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"boolprog/analysis"
	"boolprog/ir"
	"boolprog/result"
)

// Engine is a verification engine.
type Engine interface {
	// Name returns the engine's canonical name (Info.Names[0]).
	Name() string
	// Check decides whether an error location of p is reachable from the
	// start of main. Call it through Run, which validates the query and
	// handles what is common to all engines. The error return is for
	// internal failures; resource limits and unsupported programs are
	// Unknown verdicts with a reason. When ctx ends, Check returns
	// promptly: an Unknown result (its Reason may be empty: Run fills it
	// from the context), any error (Run turns it into the context's
	// reason), or, if the error was already established, an Unsafe result
	// with TraceCut. An Unsafe result carries a trace that interp.Replay
	// accepts, unless TraceCut.
	Check(ctx context.Context, p *ir.Program, q Query) (*result.Result, error)
}

// Supporter is implemented by engines that handle only some programs or
// queries. Run calls Supports before Check; a non-nil error is the reason
// of an Unknown verdict ("concurrent program: not supported by ...").
type Supporter interface {
	Supports(p *ir.Program, q Query) error
}

// SupportsSequential is the Supports of an engine that explores every
// execution of a sequential program: it refuses concurrent programs with
// the reason concurrent (the engine's own wording) and bounded queries,
// since a bound applies only to concurrent programs.
func SupportsSequential(name, concurrent string, p *ir.Program, q Query) error {
	if p.Concurrent {
		return errors.New(concurrent)
	}
	if q.Bound.Kind != result.Unbounded {
		return fmt.Errorf("the %s engine explores every execution: a bound (%s) applies only to concurrent programs", name, q.Bound)
	}
	return nil
}

// Query holds what is asked of an engine and the limits it must respect.
// The zero Query asks the default question with default limits. Limits
// that only one engine understands are that engine's own flags (Info.Flags),
// not Query fields.
type Query struct {
	// Target is the error label. Error locations are marked when the
	// program is lowered (ir.Options.Target), so Target must be empty or
	// equal to the program's Target; see Validate.
	Target string
	// MaxNodes bounds the number of BDD nodes of symbolic engines; above
	// it the engine answers Unknown. 0 means the engine's default.
	MaxNodes int
	// AllReachable asks the engine to compute the whole reachable state
	// space (and report it in Stats) instead of stopping at the first
	// error found. It does not change the verdict.
	AllReachable bool
	// Bound asks for a bounded answer: only executions within Bound.K
	// context switches or rounds are explored. The zero Bound asks for an
	// unbounded answer. An engine that cannot bound its search must refuse
	// a bounded query (Supports); an engine answering a bounded query sets
	// Result.Bound (Run does it for Safe answers when the engine did not).
	Bound result.Bound
	// Progress, if set, is told what a long run is doing: the phase it
	// enters (result.PhaseReach, result.PhaseTrace) and, every few
	// thousand units of work, a short account of the work so far (e.g.
	// "40960 iterations, 1234 BDD nodes"). It is called on the engine's
	// goroutine, so it must be quick and safe for concurrent use with
	// whoever displays it. Call it through Query.Report.
	Progress func(phase, detail string)
	// Analyses, if set, is the cache of the program analyses of the
	// program being checked, which the pipeline creates once and everyone
	// who checks that program shares (the engine, the observer product,
	// the replay). Run sets it when it is missing or belongs to another
	// program (a sub-engine's run on a program built from the query's);
	// engines read it through AnalysesFor.
	Analyses *analysis.Cache
}

// AnalysesFor returns q.Analyses if it is the cache of p, and a new cache
// of p otherwise.
func (q Query) AnalysesFor(p *ir.Program) *analysis.Cache {
	return analysis.CacheFor(q.Analyses, p)
}

// Report passes phase and detail to q.Progress, if set.
func (q Query) Report(phase, detail string) {
	if q.Progress != nil {
		q.Progress(phase, detail)
	}
}

// Validate reports an error if q cannot be asked of p: if q names a target
// label other than the one p was lowered with, or its bound is malformed.
func (q Query) Validate(p *ir.Program) error {
	if q.Target != "" && q.Target != p.Target {
		return fmt.Errorf("engine: query target %q, but the program was lowered with target %q", q.Target, p.Target)
	}
	if q.MaxNodes < 0 {
		return fmt.Errorf("engine: negative node limit %d", q.MaxNodes)
	}
	if err := q.Bound.Validate(); err != nil {
		return fmt.Errorf("engine: %v", err)
	}
	return nil
}

// The causes of a context's end that Run reports. The CLI cancels with
// these (context.WithTimeoutCause, context.WithCancelCause); a plain
// context.WithTimeout's expiry is also a timeout, and any other
// cancellation is an interruption.
var (
	ErrTimeout     = errors.New(ReasonTimeout)
	ErrInterrupted = errors.New(ReasonInterrupted)
)

// The Unknown reasons of a run whose context ended.
const (
	ReasonTimeout     = "timeout"
	ReasonInterrupted = "interrupted"
)

// StopReason returns why ctx ended: ReasonTimeout when its cause is
// ErrTimeout or context.DeadlineExceeded, ReasonInterrupted otherwise, or ""
// if it has not ended.
func StopReason(ctx context.Context) string {
	if ctx.Err() == nil {
		return ""
	}
	cause := context.Cause(ctx)
	if errors.Is(cause, ErrTimeout) || errors.Is(cause, context.DeadlineExceeded) {
		return ReasonTimeout
	}
	return ReasonInterrupted
}

// InternalErrorPrefix starts the reason of every internal error.
const InternalErrorPrefix = "internal error: "

// Run runs eng on p and always returns a result:
//
//   - a query that does not fit p (Query.Validate) is an internal error;
//   - an engine that does not support p (Supporter) answers Unknown with
//     its reason;
//   - an engine that returns an error answers Unknown "internal error: ...",
//     unless ctx has ended, when it answers Unknown "timeout" or
//     "interrupted" (StopReason), as does an Unknown result without a
//     reason while ctx has ended;
//   - a panic in the engine answers Unknown "internal error: <value>", with
//     the Go stack in Result.Debug only;
//   - the result's Engine, Stats.Time (the whole run), Bound (for a Safe
//     answer to a bounded query) and Property (from the trace's last step)
//     are filled when the engine left them empty.
//
// Run does not replay traces; the caller decides whether to.
func Run(ctx context.Context, eng Engine, p *ir.Program, q Query) (res *result.Result) {
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			res = result.NewUnknown(eng.Name(), fmt.Sprintf("%s%v", InternalErrorPrefix, r))
			res.Debug = string(debug.Stack())
		}
		res.Stats.Time = time.Since(start)
	}()
	if err := q.Validate(p); err != nil {
		return result.NewUnknown(eng.Name(), InternalErrorPrefix+err.Error())
	}
	q.Analyses = q.AnalysesFor(p)
	if s, ok := eng.(Supporter); ok {
		if err := s.Supports(p, q); err != nil {
			return result.NewUnknown(eng.Name(), err.Error())
		}
	}
	if why := StopReason(ctx); why != "" {
		return result.NewUnknown(eng.Name(), why)
	}
	res, err := eng.Check(ctx, p, q)
	switch {
	case err != nil && ctx.Err() != nil:
		r := result.NewUnknown(eng.Name(), StopReason(ctx))
		if res != nil {
			r.Stats = res.Stats
		}
		return r
	case err != nil:
		return result.NewUnknown(eng.Name(), InternalErrorPrefix+err.Error())
	case res == nil:
		return result.NewUnknown(eng.Name(), InternalErrorPrefix+"the engine returned no result")
	}
	if res.Engine == "" {
		res.Engine = eng.Name()
	}
	switch res.Verdict {
	case result.Unknown:
		if res.Reason == "" || (res.Reason == ReasonTimeout && ctx.Err() != nil) {
			if why := StopReason(ctx); why != "" {
				res.Reason = why
			}
		}
	case result.Safe:
		if res.Bound.Kind == result.Unbounded {
			res.Bound = q.Bound
		}
	case result.Unsafe:
		if res.Property == nil {
			res.Property = result.PropertyOf(p, res.Trace)
		}
		if res.Trace == nil && !res.TraceCut {
			return result.NewUnknown(eng.Name(), InternalErrorPrefix+"an unsafe verdict without a trace")
		}
	}
	return res
}

// ErrorUnreachable returns the answer to a sequential program in which no
// error location can be reached from main's entry even in the control-flow
// graph (ir.Program.ErrorReachableInCFG): Safe, a proof, with the counter
// cfg_unreachable_error set. It returns nil when the engine has work to do:
// for a concurrent program, when an error location is reachable in the
// graph, or when q asks for every reachable state (which only the search
// computes). An engine that checks only error locations calls it first, so
// that a program without a reachable assertion is answered at once however
// large its state space.
func ErrorUnreachable(p *ir.Program, q Query) *result.Result {
	if p.Concurrent || q.AllReachable {
		return nil
	}
	if _, reachable := p.ErrorReachableInCFG(); reachable {
		return nil
	}
	res := &result.Result{Verdict: result.Safe}
	res.Stats.Set("cfg_unreachable_error", 1)
	return res
}
