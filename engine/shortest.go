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
// the first search's time plus a constant (summary's; conc-product's auto
// is the constant alone). Summary's ring search is a second search by
// distance, from the start, whatever the first search's order; its history
// trace costs about one first search more. The constant was 1 s while
// summary's first search went callees first; since it alternates, it
// reaches the hard set's errors 10-100 times sooner, and its errors' ring
// searches (0.1-9.4 s on five of the six measured) went over a budget of
// twice the first search plus 1 s on four of them. With 5 s they fit, and
// the shortest trace costs less than the history trace would after the
// spent budget (g24l4-s3: 3.7 s search, 9.4 s rings).
const (
	DefaultShortestFactor = 2
	DefaultShortestSlack  = 5 * time.Second
)

// ShortestFlag is the value of a --shortest flag: a budget, written auto
// (0: the default, ShortestBudget of the first search's time; an engine
// that gives 0 for that time gets DefaultShortestSlack), always
// (ShortestAlways), never (negative: no search for a shortest trace) or as
// a positive duration.
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
