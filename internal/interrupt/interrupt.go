// Package interrupt turns the first SIGINT or SIGTERM into the end of a
// context, with the signal as its cause, so that a run stopped by the
// user still reports what it has ("VERIFICATION UNKNOWN: interrupted")
// and exits with the shell's code for the signal.
package interrupt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"boolprog/engine"
)

// Signal is the cause of a context ended by SIGINT or SIGTERM. It is an
// engine.ErrInterrupted.
type Signal struct{ Sig os.Signal }

func (e *Signal) Error() string { return "interrupted by " + e.Sig.String() }

// Unwrap makes an interruption an engine.ErrInterrupted.
func (e *Signal) Unwrap() error { return engine.ErrInterrupted }

// ExitCode is the shell's convention for a process ended by the signal,
// 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM.
func (e *Signal) ExitCode() int {
	if s, ok := e.Sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// Notify returns a context ended, with a *Signal cause, by the first
// SIGINT or SIGTERM. The first signal only cancels: the run then ends
// promptly with its verdict and statistics. The signals' default action
// is restored at once, so a second signal kills the process (for work
// that does not poll its context often enough). (signal.NotifyContext
// gives the signal as the cause only from Go 1.26 on; the module supports
// older Go.) The function returned releases the signals.
func Notify(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch) // the next signal has its default effect: exit
			cancel(&Signal{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(context.Canceled)
	}
}

// Of returns the *Signal that ended ctx, or nil.
func Of(ctx context.Context) *Signal {
	var e *Signal
	if errors.As(context.Cause(ctx), &e) {
		return e
	}
	return nil
}
