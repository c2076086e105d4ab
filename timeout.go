//go:build !js

package boolprog

import (
	"context"
	"time"

	"boolprog/engine"
)

// withTimeout returns a context that ends after d with the cause
// engine.ErrTimeout, which engine.Run reports as "timeout".
func withTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(parent, d, engine.ErrTimeout)
}
