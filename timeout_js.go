//go:build js

package boolprog

import (
	"context"
	"sync"
	"time"

	"boolprog/engine"
)

// withTimeout returns a context that ends after d with the cause
// engine.ErrTimeout. WebAssembly runs one goroutine at a time without
// preemption, so the timer of context.WithTimeout cannot fire while an
// engine searches: the context would end only when the search is over.
// The engines poll Err instead, so this context compares the clock with
// its deadline whenever Err is called, and cancels itself once it has
// passed (the timer still ends it when the search yields, e.g. while the
// front end's goroutine is waited for).
func withTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	deadline := time.Now().Add(d)
	inner, cancel := context.WithDeadlineCause(parent, deadline, engine.ErrTimeout)
	c, cancelCause := context.WithCancelCause(inner)
	pc := &pollingCtx{Context: c, deadline: deadline, cancel: cancelCause}
	return pc, func() { cancelCause(context.Canceled); cancel() }
}

// pollingCtx is a context whose Err notices its deadline without a timer.
type pollingCtx struct {
	context.Context
	deadline time.Time
	once     sync.Once
	cancel   context.CancelCauseFunc
}

func (c *pollingCtx) Err() error {
	if err := c.Context.Err(); err != nil {
		return err
	}
	if !time.Now().Before(c.deadline) {
		c.once.Do(func() { c.cancel(engine.ErrTimeout) })
	}
	return c.Context.Err()
}
