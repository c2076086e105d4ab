// Package replay judges an engine's counterexample by replaying it in the
// concrete interpreter, for the command and the Go API alike: a verdict is
// a promise, and a FAILED is shown only with a trace that interp accepts.
package replay

import (
	"context"
	"fmt"

	"boolprog/engine"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// Judge replays the trace of an Unsafe result (one whose trace is not
// cut; any other result is returned as it is) within ctx. A trace that
// the concrete semantics rejects is a bug of the engine and must not be
// shown as proof: the result becomes Unknown with an internal error. If
// ctx ends during the replay, the engine has established the error and
// only its independent check was cut: the result stays Unsafe, with a
// note that says so ("the time limit cut the replay ..." or "the
// interruption cut ...", as engine.StopReason tells them apart).
func Judge(ctx context.Context, p *ir.Program, res *result.Result) (*result.Result, string) {
	if res.Verdict != result.Unsafe || res.TraceCut {
		return res, ""
	}
	err := interp.ReplayContext(ctx, p, res.Trace)
	switch {
	case err == nil:
		return res, ""
	case ctx.Err() != nil:
		what := "time limit"
		if engine.StopReason(ctx) == engine.ReasonInterrupted {
			what = "interruption"
		}
		return res, fmt.Sprintf("the %s cut the replay: the interpreter did not check this trace (%v)", what, err)
	}
	return &result.Result{Verdict: result.Unknown, Engine: res.Engine, Stats: res.Stats,
		Reason: engine.InternalErrorPrefix + "the engine's trace does not replay: " + err.Error()}, ""
}
