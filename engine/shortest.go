package engine

import (
	"context"
	"fmt"
	"math"
	"time"
)

// The search for a shortest trace. An engine whose fastest search does not
// find shortest traces (the summary engine's worklist, conc-product's
// search stratified by rounds) finds the error first, then searches again
// by distance for a shortest trace within a budget; past it the trace of
// the first search is given, a real execution replayed like any, but not
// necessarily a shortest, and the stats say so (trace_shortest 0 and the
// reason). The --shortest flag, declared by each such engine, sets the
// budget.

// ShortestAlways is the shortest-trace budget that never gives up the
// search for a shortest trace (the run's time limit still holds).
const ShortestAlways = time.Duration(math.MaxInt64)

// The default budget of the search for a shortest trace, as a multiple of
// the first search's time plus a constant (see the summary engine, where
// the figures were measured: a budget of twice the first search plus 1 s
// was too small for four of six errors of its hard set, 5 s fitted).
const (
	DefaultShortestFactor = 2
	DefaultShortestSlack  = 5 * time.Second
)

// ShortestFlag is the value of a --shortest flag: a budget, written auto
// (0: DefaultShortestFactor times the first search's time plus
// DefaultShortestSlack), always (ShortestAlways), never (negative: no
// search for a shortest trace) or as a positive duration.
type ShortestFlag time.Duration

// String returns the flag's text.
func (f *ShortestFlag) String() string {
	switch d := time.Duration(*f); {
	case d == 0:
		return "auto"
	case d == ShortestAlways:
		return "always"
	case d < 0:
		return "never"
	default:
		return d.String()
	}
}

// Set parses auto, always, never or a positive duration.
func (f *ShortestFlag) Set(s string) error {
	switch s {
	case "auto":
		*f = 0
	case "always":
		*f = ShortestFlag(ShortestAlways)
	case "never":
		*f = -1
	default:
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return fmt.Errorf("want auto, always, never or a positive duration such as 10s")
		}
		*f = ShortestFlag(d)
	}
	return nil
}

// ShortestBudget returns the budget of the search for a shortest trace
// that the flag value budget (0: auto) gives after a first search that took
// first: negative for none, ShortestAlways for no bound. With a deadline in
// ctx, a budget other than ShortestAlways is at most half the time left, so
// that the first search's trace, and its replay, still fit when the search
// for a shorter one gives up.
func ShortestBudget(ctx context.Context, budget, first time.Duration) time.Duration {
	if budget == 0 {
		budget = DefaultShortestFactor*first + DefaultShortestSlack
	}
	if d, ok := ctx.Deadline(); ok && budget > 0 && budget != ShortestAlways {
		budget = max(min(budget, time.Until(d)/2), time.Nanosecond)
	}
	return budget
}

// ShortestUsage is the usage text of a --shortest flag.
const ShortestUsage = "the search for a shortest trace once an error is found, where the first search does not give one (summary; conc-product without a bound, or with one when this flag is given): auto (give up past 5s, for summary past twice its first search's time plus 5s, and past half the time left before --timeout, and give a trace of the first search, replayed but not necessarily a shortest: the stats say so), always, never, or a time budget such as 10s"
