// Package portfolio runs several engines on one program at once and
// answers with the first that decides, cancelling the others: the default
// of the check pipeline on a concurrent program, where no one engine is
// fastest on every program (the explicit interleaving search on most,
// a symbolic engine where the interleavings are too many to enumerate).
//
// The members start together, but the first is preferred for a moment
// (HeadStart): an answer another member decides within it is held until
// the first ends or the moment passes, so that where the first decides
// quickly its answer (and trace) is the one given, from run to run. A
// member's answer is decided when it is final for the query asked:
//
//   - Unsafe: an error is reachable (with a trace, which the pipeline
//     replays; or established with its trace cut by the time limit). An
//     error found within a bound is an error all the same.
//   - Safe for every run the query asks about: unbounded (a proof), or,
//     for a bounded query, up to at least the query's bound.
//
// A Safe for fewer runs (a bound the engine chose itself, e.g. conc-eager's
// default of 4 rounds on an unbounded query) is no proof: it is reported
// only if no member decides, the first such in member order. If every
// member answers Unknown, the answer is Unknown with every member's
// reason, in member order. The verdict therefore does not depend on which
// member is faster, as long as the members are sound and the limits do
// not cut one short; the trace (and Result.Engine) are the winner's.
//
// The members share the context, hence the deadline: a time limit bounds
// the whole portfolio, not each member. They share the BDD node budget
// too: a query's MaxNodes (or, without one, bdd.DefaultMaxNodes) is
// divided among the members that use BDDs, so that the portfolio never
// holds more nodes than one engine would.
//
// Where goroutines are not preempted (GOOS=js, the playground), a member
// runs until it blocks or ends, so the members take turns rather than run
// at once; the answer is the same, since it does not depend on who wins.
//
// The package imports no engine: members are named and built through the
// registry (package engine).
package portfolio

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
)

// Portfolio is an engine that runs its members at once (see the package
// doc). Build it with New; it has at least one member.
type Portfolio struct {
	members   []member
	headStart time.Duration // HeadStart
}

// HeadStart is how long the first member's answer is preferred: another
// member's decided answer within it waits for the first to end (or for
// the moment to pass). The explicit search, the first member of the
// concurrent default, decides most programs in milliseconds: there its
// answer is given, the same from run to run. The others are not held
// back from running meanwhile (an earlier version started them only after
// HeadStart): on a program explicit cannot decide quickly, that cost every
// answer 100 ms of wall time (Getafix's fib_5 at 4 rounds: 0.1 s of a
// 0.45 s check on an idle 2-core machine).
const HeadStart = 100 * time.Millisecond

type member struct {
	eng         engine.Engine
	nodeLimited bool
}

// errLost is the cause with which the portfolio cancels the members that
// lost the race.
var errLost = errors.New("portfolio: another engine decided")

// New returns the portfolio of the engines named, each built with its
// default flags from the registry. Each entry lists alternatives: the
// first registered name is the member, and an entry with no registered
// name is skipped (an engine not linked in). It is an error if no entry
// names a registered engine.
func New(entries ...[]string) (*Portfolio, error) {
	pf := &Portfolio{headStart: HeadStart}
	for _, names := range entries {
		for _, name := range names {
			info, ok := engine.Lookup(name)
			if !ok {
				continue
			}
			e, err := info.New()
			if err != nil {
				return nil, fmt.Errorf("engine %s: %w", info.Name(), err)
			}
			pf.members = append(pf.members, member{eng: e, nodeLimited: info.NodeLimited})
			break
		}
	}
	if len(pf.members) == 0 {
		return nil, fmt.Errorf("no engine of the portfolio %v is registered", entries)
	}
	return pf, nil
}

// Name returns the name of the first member: the portfolio stands for it
// where an answer comes before any member runs.
func (pf *Portfolio) Name() string { return pf.members[0].eng.Name() }

// Members returns the names of the members, in order.
func (pf *Portfolio) Members() []string {
	names := make([]string, len(pf.members))
	for i, m := range pf.members {
		names[i] = m.eng.Name()
	}
	return names
}

// NodeLimited reports whether some member uses BDDs, so that a node limit
// has an effect.
func (pf *Portfolio) NodeLimited() bool {
	for _, m := range pf.members {
		if m.nodeLimited {
			return true
		}
	}
	return false
}

// Check runs the members at once on p and returns the first decided
// answer (the first member's if it decides within HeadStart), or the best
// undecided one when all have ended; the members that lost are cancelled,
// and Check returns once they have returned.
func (pf *Portfolio) Check(parent context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	ctx, cancel := context.WithCancelCause(parent)
	defer cancel(errLost)
	share := pf.nodeShare(q.MaxNodes)
	done := make(chan int, len(pf.members))
	results := make([]*result.Result, len(pf.members))
	for i, m := range pf.members {
		mq := q
		mq.MaxNodes = 0 // an engine without BDDs has no node limit
		if m.nodeLimited {
			mq.MaxNodes = share
		}
		if q.Progress != nil {
			name := m.eng.Name()
			mq.Progress = func(phase, detail string) { q.Progress(phase, name+": "+detail) }
		}
		go func() {
			defer func() { done <- i }()
			results[i] = engine.Run(ctx, m.eng, p, mq)
		}()
	}
	window := time.NewTimer(pf.headStart)
	defer window.Stop()
	var winner, held *result.Result
	preferFirst := true // until the first ends or HeadStart passes
	win := func(r *result.Result) {
		winner = r
		cancel(errLost)
	}
	for left := len(pf.members); left > 0; {
		select {
		case i := <-done:
			left--
			r := results[i]
			switch {
			case winner != nil:
			case i == 0:
				preferFirst = false
				if decided(r, q.Bound) {
					win(r)
				} else if held != nil {
					win(held)
				}
			case !decided(r, q.Bound):
			case preferFirst:
				if held == nil {
					held = r
				}
			default:
				win(r)
			}
		case <-window.C:
			preferFirst = false
			if winner == nil && held != nil {
				win(held)
			}
		}
	}
	if winner != nil {
		return winner, nil
	}
	for _, r := range results {
		if r.Verdict == result.Safe {
			return r, nil
		}
	}
	if parent.Err() != nil {
		// The time limit or the caller ended every member: Run words the
		// reason from the context.
		last := results[len(results)-1]
		return &result.Result{Verdict: result.Unknown, Engine: last.Engine, Stats: last.Stats}, nil
	}
	var why []string
	for _, r := range results {
		why = append(why, r.Engine+": "+r.Reason)
	}
	last := *results[len(results)-1]
	last.Reason = strings.Join(why, "; ")
	return &last, nil
}

// nodeShare is the node limit of each member that uses BDDs: the query's
// limit, or the BDD package's default, divided among them.
func (pf *Portfolio) nodeShare(limit int) int {
	n := 0
	for _, m := range pf.members {
		if m.nodeLimited {
			n++
		}
	}
	if n <= 1 {
		return limit
	}
	if limit == 0 {
		limit = bdd.DefaultMaxNodes
	}
	return max(limit/n, 1)
}

// decided reports whether res is final for a query with bound b (see the
// package doc).
func decided(res *result.Result, b result.Bound) bool {
	switch res.Verdict {
	case result.Unsafe:
		return true
	case result.Safe:
		return covers(res.Bound, b)
	}
	return false
}

// covers reports whether a Safe answer up to have speaks of every run up to
// want: it is unbounded, or of want's kind with at least its K.
func covers(have, want result.Bound) bool {
	switch {
	case have.Kind == result.Unbounded:
		return true
	case want.Kind == result.Unbounded:
		return false
	}
	return have.Kind == want.Kind && have.K >= want.K
}
