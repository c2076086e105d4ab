package interruptible

import (
	"context"
	"testing"
)

func TestRun(t *testing.T) {
	if v, ok := Run(context.Background(), func() int { return 7 }); v != 7 || !ok {
		t.Errorf("background: %d %v, want 7 true", v, ok)
	}
	ctx, cancel := context.WithCancel(context.Background())
	if v, ok := Run(ctx, func() int { return 8 }); v != 8 || !ok {
		t.Errorf("live context: %d %v, want 8 true", v, ok)
	}
	cancel()
	block := make(chan struct{})
	defer close(block) // let the abandoned goroutine end
	if v, ok := Run(ctx, func() int { <-block; return 9 }); v != 0 || ok {
		t.Errorf("ended context: %d %v, want 0 false", v, ok)
	}
}
