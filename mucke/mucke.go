// Package mucke evaluates a file of the fixed-point calculus in the input
// language of the solver Mucke (package fix documents the language), as
// `boolprog mucke FILE.mu` does: it reads, parses, checks and solves the
// file within a context and its limits, and words why an answer is
// unknown. A caller that wants the relations' values rather than the
// query's uses package fix directly.
package mucke

import (
	"context"
	"errors"
	"fmt"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/fix"
)

// Options are the limits of an evaluation.
type Options struct {
	// Timeout limits the whole evaluation, reading included (0: none);
	// past it the outcome is unknown, "timeout (5s)".
	Timeout time.Duration
	// MaxNodes bounds the BDD nodes (0: the BDD package's built-in
	// limit); past it the outcome is unknown with the reason.
	MaxNodes int
	// Sizes counts each relation's BDD nodes for the statistics (Mucke's
	// #size); without it the counts are skipped (11% of a fib model's
	// time, printed only with --stats).
	Sizes bool
}

// Validate refuses negative limits (the error's text is the command's
// usage error).
func (o Options) Validate() error {
	if o.Timeout < 0 || o.MaxNodes < 0 {
		return errors.New("limits must not be negative")
	}
	return nil
}

// Outcome is what an evaluation came to: the query's value, or why
// there is none.
type Outcome struct {
	// Answer is the solver's answer, with its statistics; when Reason is
	// set it holds what was computed before the evaluation stopped (nil
	// if it stopped before solving).
	Answer *fix.Answer
	// Reason is why the value is unknown: "timeout (5s)", "interrupted",
	// a node or memory limit, a definition that never stabilises; "" when
	// Answer is complete.
	Reason string
}

// Decided reports whether the outcome has the query's value (or says
// that the file has no query).
func (o *Outcome) Decided() bool { return o.Reason == "" }

// Evaluate reads the file name with read, then parses, checks and solves
// it. A file that cannot be read, or is malformed or ill-typed, is an
// error (a read error as read returns it, a fix.ErrorList of
// file:line:col: message diagnostics for the rest); the end of ctx or of
// Options.Timeout, a limit, or a definition without a fixed point gives
// an Outcome with its Reason. read runs inside the time limit, with a
// context that ends with it. Invalid Options are an error too.
func Evaluate(ctx context.Context, name string, read func(context.Context) ([]byte, error), opts Options) (*Outcome, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeoutCause(ctx, opts.Timeout, engine.ErrTimeout)
		defer cancel()
	}
	src, err := read(ctx)
	if err != nil {
		return nil, err
	}
	// A large file takes seconds to parse and check: the limit and the
	// caller's cancellation stop them too (and the outcome is unknown).
	f, err := fix.ParseFileContext(ctx, name, src)
	if err == nil {
		err = fix.CheckContext(ctx, f)
	}
	out := &Outcome{}
	switch {
	case err == nil:
		out.Answer, err = fix.Solve(ctx, f, fix.Options{MaxNodes: opts.MaxNodes, NoSizes: !opts.Sizes})
	case ctx.Err() == nil:
		return nil, err
	}
	if err != nil {
		out.Reason = reason(ctx, err, opts)
	}
	return out, nil
}

// reason words why an evaluation that ended with err has no value.
func reason(ctx context.Context, err error, opts Options) string {
	switch {
	case ctx.Err() != nil:
		why := engine.StopReason(ctx)
		if why == engine.ReasonTimeout {
			why = fmt.Sprintf("timeout (%v)", opts.Timeout)
		}
		return why
	case errors.Is(err, bdd.ErrNodeLimit):
		if opts.MaxNodes == 0 && !errors.Is(err, bdd.ErrMemoryLimit) {
			return "BDD node limit reached (the built-in limit)"
		}
		return bdd.LimitReason(err, opts.MaxNodes)
	case errors.Is(err, fix.ErrNoFixedPoint):
		return err.Error()
	}
	return "internal error: " + err.Error()
}
