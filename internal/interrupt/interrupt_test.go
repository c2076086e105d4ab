//go:build unix

package interrupt

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"boolprog/engine"
)

// TestNotify: SIGTERM sent to the process ends the context with the
// signal as its cause, an engine.ErrInterrupted with exit code 143.
func TestNotify(t *testing.T) {
	ctx, stop := Notify(context.Background())
	defer stop()
	if Of(ctx) != nil {
		t.Fatal("interrupted before any signal")
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the signal did not end the context")
	}
	sig := Of(ctx)
	if sig == nil || sig.ExitCode() != 143 || !errors.Is(context.Cause(ctx), engine.ErrInterrupted) {
		t.Errorf("cause %v", context.Cause(ctx))
	}
	if (&Signal{syscall.SIGINT}).ExitCode() != 130 {
		t.Error("SIGINT's exit code is not 130")
	}
}
