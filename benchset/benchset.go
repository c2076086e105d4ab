// Package benchset holds the benchmark sets of `boolprog bench` and their
// runners: the Bebop template T(N) at several sizes (Template), the hard
// set of generated programs (Hard), the Bluetooth models under every
// concurrent engine (Bluetooth), and the Getafix-translated models solved
// by `boolprog mucke` beside Mucke (Mucke). Each runner checks its set
// the way `boolprog check` does and writes its table as the rows come.
//
// A runner stopped by a signal (its context's cause an
// engine.ErrInterrupted) flushes what it has and returns that cause; a
// setting it cannot run with is an *OptionError.
package benchset

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/internal/procstat"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/sema"
	"boolprog/syntax"
)

// An OptionError is a setting a set cannot run with: the command reports
// it as a usage error.
type OptionError struct{ Msg string }

func (e *OptionError) Error() string { return e.Msg }

func optionError(format string, args ...any) error {
	return &OptionError{Msg: fmt.Sprintf(format, args...)}
}

// An InputError is a file of a set that cannot be read or checked.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

func (e *InputError) Unwrap() error { return e.Err }

// interrupted returns the cause of ctx if a signal ended it, else nil.
func interrupted(ctx context.Context) error {
	if cause := context.Cause(ctx); errors.Is(cause, engine.ErrInterrupted) {
		return cause
	}
	return nil
}

// lower parses, checks and lowers the program src, named name, for target.
func lower(name string, src []byte, dialect syntax.Dialect, target string) (*ir.Program, error) {
	f, err := syntax.ParseFile(name, src, dialect)
	if err != nil {
		return nil, err
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		return nil, errs
	}
	return ir.Lower(f, info, ir.Options{Target: target})
}

// round rounds a duration for a table: to the millisecond from a second
// on, to 10µs from a millisecond on, else to the microsecond.
func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// config is what one measured check does.
type config struct {
	// kind is T(N)'s variant, with target "" (SLIC_ERROR): without an
	// error it computes every reachable state.
	kind gen.TemplateError
	// target is the error label; "" for SLIC_ERROR.
	target string
	// replay replays the trace in the interpreter, as check does.
	replay  bool
	timeout time.Duration
	// firstError stops at the first error, as check does, whatever the
	// kind (the hard set).
	firstError bool
	// all computes every reachable state whatever the rest says (the
	// hard set's programs without an error site in reach, which check
	// would answer at once: the set measures the search).
	all bool
}

// measurement is the measurement of one check.
type measurement struct {
	res                         *result.Result
	reach, trace, replay, total time.Duration
	// peak is the peak live heap above the heap before the run (bytes).
	peak      uint64
	replayErr error
}

// median returns the run with the median total time (the peak heap is the
// largest of all runs).
func median(ms []measurement) measurement {
	sorted := slices.Clone(ms)
	slices.SortFunc(sorted, func(a, b measurement) int { return cmp.Compare(a.total, b.total) })
	m := sorted[len(sorted)/2]
	for _, x := range ms {
		m.peak = max(m.peak, x.peak)
	}
	return m
}

// measure runs one check the way `boolprog check` does (search, trace,
// replay) after a full GC, and samples the heap every millisecond while it
// runs: the peak is approximate, but taken the same way for every size.
func measure(ctx context.Context, eng engine.Engine, p *ir.Program, cfg config) measurement {
	runtime.GC()
	heap := procstat.NewHeap()
	base := heap.Bytes()
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		h := procstat.NewHeap()
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if b := h.Bytes(); b > peak.Load() {
					peak.Store(b)
				}
			}
		}
	}()
	m := check(ctx, eng, p, cfg)
	close(done)
	<-sampled
	m.peak = max(peak.Load(), heap.Bytes())
	if m.peak > base {
		m.peak -= base
	} else {
		m.peak = 0
	}
	return m
}

// check runs one check the way `boolprog check` does: search, trace, and
// (unless cfg says not to) replay of the trace.
func check(ctx context.Context, eng engine.Engine, p *ir.Program, cfg config) measurement {
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.timeout, engine.ErrTimeout)
	defer cancel()
	var m measurement
	start := time.Now()
	q := engine.Query{AllReachable: cfg.all || cfg.kind == gen.NoError && cfg.target == "" && !cfg.firstError}
	m.res = engine.Run(ctx, eng, p, q)
	if m.res.Verdict == result.Unsafe && !m.res.TraceCut && cfg.replay { // a cut trace has no steps
		t := time.Now()
		m.replayErr = interp.ReplayContext(ctx, p, m.res.Trace)
		m.replay = time.Since(t)
	}
	m.total = time.Since(start)
	m.reach = phaseTime(&m.res.Stats, result.PhaseReach, "time_reach_ns")
	m.trace = phaseTime(&m.res.Stats, result.PhaseTrace, "time_trace_ns")
	return m
}

// phaseTime returns the time of an engine's phase: from Stats.Phases, or
// from the counter in which engines reported it before phases existed.
func phaseTime(st *result.Stats, phase, counter string) time.Duration {
	if d, ok := st.Phases[phase]; ok {
		return d
	}
	return time.Duration(st.Counters[counter])
}

// traceLen is the number of steps of a trace that may be nil.
func traceLen(tr *result.Trace) int {
	if tr == nil {
		return 0
	}
	return tr.Len()
}

// machine names the machine's settings that a table's figures depend on.
func machine() string {
	return fmt.Sprintf("GOMAXPROCS=%d, %s/%s", runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
}
