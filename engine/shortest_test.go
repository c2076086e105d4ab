package engine_test

import (
	"context"
	"testing"
	"time"

	"boolprog/engine"
)

// TestShortestFlag: --shortest reads auto, always, never and positive
// durations, prints them back, and refuses the rest.
func TestShortestFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		text string
	}{
		{"auto", 0, "auto"},
		{"always", engine.ShortestAlways, "always"},
		{"never", -1, "never"},
		{"10s", 10 * time.Second, "10s"},
	} {
		var f engine.ShortestFlag
		if err := f.Set(c.in); err != nil || time.Duration(f) != c.want || f.String() != c.text {
			t.Errorf("Set(%q): %v, %v, %q; want %v, %q", c.in, err, time.Duration(f), f.String(), c.want, c.text)
		}
	}
	for _, bad := range []string{"", "0s", "-1s", "soon"} {
		var f engine.ShortestFlag
		if err := f.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}

// TestShortestBudget: auto is twice the first search plus the slack; the
// other values are kept; with a deadline, a budget is at most half the time
// left, except always.
func TestShortestBudget(t *testing.T) {
	for _, c := range []struct{ flag, first, want time.Duration }{
		{0, 3 * time.Second, 11 * time.Second},
		{0, 0, engine.DefaultShortestSlack},
		{-1, time.Second, -1},
		{engine.ShortestAlways, time.Second, engine.ShortestAlways},
		{10 * time.Second, time.Hour, 10 * time.Second},
	} {
		if got := engine.ShortestBudget(context.Background(), c.flag, c.first); got != c.want {
			t.Errorf("ShortestBudget(%v, %v) = %v, want %v", c.flag, c.first, got, c.want)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	if got := engine.ShortestBudget(ctx, 0, time.Second); got > 2*time.Second || got <= 0 {
		t.Errorf("auto with 4 s left: %v, want at most 2 s", got)
	}
	if got := engine.ShortestBudget(ctx, time.Second, time.Hour); got != time.Second {
		t.Errorf("1 s with 4 s left: %v, want 1 s", got)
	}
	if got := engine.ShortestBudget(ctx, engine.ShortestAlways, time.Second); got != engine.ShortestAlways {
		t.Errorf("always with 4 s left: %v, want always", got)
	}
	if got := engine.ShortestBudget(ctx, -1, time.Second); got != -1 {
		t.Errorf("never with 4 s left: %v, want never", got)
	}
}
