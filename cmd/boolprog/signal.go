package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"boolprog"
	"boolprog/engine"
)

// interrupted is the cause of a context cancelled by SIGINT or SIGTERM. Its
// exit code is the shell's convention for a process ended by the signal,
// 128 + the signal's number: 130 for SIGINT, 143 for SIGTERM.
type interrupted struct{ sig os.Signal }

func (e *interrupted) Error() string { return "interrupted by " + e.sig.String() }

// Unwrap makes an interruption an engine.ErrInterrupted.
func (e *interrupted) Unwrap() error { return engine.ErrInterrupted }

// exitCode returns 128 + the signal number.
func (e *interrupted) exitCode() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 128 + int(syscall.SIGINT)
}

// notifyInterrupt returns a context cancelled, with an *interrupted cause,
// by the first SIGINT or SIGTERM. The first signal only cancels: the run
// then ends promptly with "VERIFICATION UNKNOWN: interrupted" and its
// statistics. The signals' default action is restored at once, so a second
// signal kills the process (for an engine that does not poll its context
// often enough). (signal.NotifyContext gives the signal as the cause only
// from Go 1.26 on; the module supports older Go, hence this small copy.)
func notifyInterrupt(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch) // the next signal has its default effect: exit
			cancel(&interrupted{sig})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(context.Canceled)
	}
}

// interruption returns the *interrupted cause of ctx, if any.
func interruption(ctx context.Context) *interrupted {
	var e *interrupted
	if errors.As(context.Cause(ctx), &e) {
		return e
	}
	return nil
}

// versionLine describes the build (boolprog.Version).
func versionLine() string { return "boolprog " + boolprog.Version() }
