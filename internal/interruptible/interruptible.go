// Package interruptible runs work that does not poll a context (parsing,
// lowering) so that the caller can stop waiting for it when the context
// ends, for the command's and the Go API's front ends alike.
package interruptible

import "context"

// Run returns work's result and true, or, if ctx ends first, the zero
// value and false at once. When ctx can end, work runs in a goroutine that
// is abandoned, not stopped: it finishes in the background and its result
// is dropped, so work must not have effects that outlive it. When ctx
// cannot end (ctx.Done() is nil), work runs in the caller's goroutine.
func Run[T any](ctx context.Context, work func() T) (T, bool) {
	if ctx.Done() == nil {
		return work(), true
	}
	done := make(chan T, 1)
	go func() { done <- work() }()
	select {
	case v := <-done:
		return v, true
	case <-ctx.Done():
		var zero T
		return zero, false
	}
}
