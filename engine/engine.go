// Package engine defines what every verification engine implements, so that
// the CLI, the tests and the benchmarks treat all engines alike.
package engine

import (
	"context"
	"fmt"

	"boolprog/ir"
	"boolprog/result"
)

// Engine is a verification engine.
type Engine interface {
	// Name returns the engine's name as used by `--engine NAME`.
	Name() string
	// Check decides whether an error location of p is reachable from the
	// start of main. The error return is for internal failures only:
	// resource limits, unsupported programs, cancellation and timeouts
	// are Unknown verdicts with a reason ("timeout" when ctx is done).
	// An Unsafe result carries a trace that interp.Replay accepts.
	Check(ctx context.Context, p *ir.Program, q Query) (*result.Result, error)
}

// Query holds what is asked of an engine and the limits it must respect.
// The zero Query asks the default question with default limits.
type Query struct {
	// Target is the error label. Error locations are marked when the
	// program is lowered (ir.Options.Target), so Target must be empty or
	// equal to the program's Target; see Validate.
	Target string
	// MaxVars bounds the number of variables in scope (globals plus the
	// locals of one procedure) an explicit-state engine enumerates; above
	// it the engine answers Unknown. 0 means the engine's default.
	MaxVars int
	// MaxNodes bounds the number of BDD nodes of symbolic engines; above
	// it the engine answers Unknown. 0 means the engine's default.
	MaxNodes int
	// AllReachable asks the engine to compute the whole reachable state
	// space (and report it in Stats) instead of stopping at the first
	// error found. It does not change the verdict.
	AllReachable bool
}

// Validate reports an error if q cannot be asked of p: if q names a target
// label other than the one p was lowered with.
func (q Query) Validate(p *ir.Program) error {
	if q.Target != "" && q.Target != p.Target {
		return fmt.Errorf("engine: query target %q, but the program was lowered with target %q", q.Target, p.Target)
	}
	return nil
}

// ReasonTimeout is the Unknown reason of an engine whose context was
// cancelled or timed out.
const ReasonTimeout = "timeout"
