package testsuite

import (
	"context"
	"fmt"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/internal/procstat"
	"boolprog/internal/testflags"
	"boolprog/ir"
	"boolprog/result"
)

// ConcConfig describes a concurrent differential run: an engine for
// concurrent programs against the interleaving oracle (the explicit engine)
// on random concurrent programs (gen.RandomConcurrent), at several bounds.
type ConcConfig struct {
	// New returns the engine under test, Oracle the reference (the
	// explicit engine, with a state budget that keeps each check short).
	// Both are called for every check.
	New, Oracle func() engine.Engine
	// Programs is the number of random programs (0: 20, 10 with -short,
	// 100 with -long).
	Programs int
	// Seed is the first seed; program i has seed Seed+i.
	Seed int64
	// Bounds are the bounds each program is checked at (nil: 0, 1 and 2
	// context switches and 1 and 2 rounds). An engine that answers
	// Unknown for a kind of bound (it cannot bound its search that way)
	// is simply not compared on it.
	Bounds []result.Bound
	// Threads are the thread counts, used in turn (nil: 2, 2, 3).
	Threads []int
	// Style is how the programs create their threads (zero: either, by
	// seed); an engine for the Getafix convention only asks gen.Getafix.
	Style gen.Style
	// Options shape each thread's code (zero: gen's defaults for
	// concurrent programs).
	Options gen.Options
	// Timeout bounds each check of either engine (0: 10 s); a check that
	// runs out is Unknown and not compared.
	Timeout time.Duration
}

// ConcStats are the figures of a concurrent differential run.
type ConcStats struct {
	Engine   string // the engine's name
	Programs int    // programs generated
	Checks   int    // (program, bound) pairs asked of both engines
	Agree    int    // both decided, the same way
	Unsafe   int    // of those, both Unsafe
	// EngineUnknown and OracleUnknown count the checks that the engine
	// or the oracle left Unknown (not compared).
	EngineUnknown, OracleUnknown int
	// Switched counts the engine's Unsafe traces with a context switch.
	Switched int
	Time     time.Duration // the engine's time over all checks
	// CPU is the process's CPU time (user and system) over the engine's
	// checks, where the system tells it (Unix), else 0: on a loaded
	// machine it measures the engine better than Time.
	CPU time.Duration
}

func (s ConcStats) String() string {
	return fmt.Sprintf("%d programs, %d checks: %d agree (%d unsafe, %d traces with a switch), engine unknown %d, oracle unknown %d; engine time %v, CPU %v",
		s.Programs, s.Checks, s.Agree, s.Unsafe, s.Switched, s.EngineUnknown, s.OracleUnknown, s.Time.Round(time.Millisecond), s.CPU.Round(time.Millisecond))
}

// DefaultConcBounds are the bounds of ConcConfig.Bounds when it is nil.
var DefaultConcBounds = []result.Bound{
	{Kind: result.ContextSwitches, K: 0},
	{Kind: result.ContextSwitches, K: 1},
	{Kind: result.ContextSwitches, K: 2},
	{Kind: result.Rounds, K: 1},
	{Kind: result.Rounds, K: 2},
}

// ConcurrentDifferential runs the engine and the oracle on random
// concurrent programs at every bound of c and fails the test where both
// decide and they disagree. Every check goes through Check (engine.Run, no
// internal error, Unsafe traces replayed by interp.Replay, a valid JSON
// report), and an Unsafe trace must fit the bound asked: at most K steps
// marked as context switches, or a schedule of at most K rounds
// (TraceRounds). It returns the figures, which it also logs.
func ConcurrentDifferential(t *testing.T, c ConcConfig) ConcStats {
	t.Helper()
	return ConcurrentDifferentials(t, c, c.New)[0]
}

// ConcurrentDifferentials is ConcurrentDifferential for several engines
// (c.New is not used) on the same programs at the same bounds, each
// against the oracle, which runs once per check: so their figures
// compare. Where the oracle leaves a check Unknown, the engines that
// decide it must still agree with each other. It returns each engine's
// figures, in the order given.
func ConcurrentDifferentials(t *testing.T, c ConcConfig, engines ...func() engine.Engine) []ConcStats {
	t.Helper()
	n := c.Programs
	if n == 0 {
		n = testflags.N(10, 20, 100, 100)
	}
	bounds := c.Bounds
	if bounds == nil {
		bounds = DefaultConcBounds
	}
	threads := c.Threads
	if threads == nil {
		threads = []int{2, 2, 3}
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	st := make([]ConcStats, len(engines))
	for i := 0; i < n; i++ {
		seed := c.Seed + int64(i)
		opt := gen.ConcOptions{Threads: threads[i%len(threads)], Style: c.Style, Thread: c.Options}
		src := gen.RandomConcurrent(seed, opt)
		name := fmt.Sprintf("conc-seed%d.bp", seed)
		p := Lower(t, name, src, "")
		for j := range st {
			st[j].Programs++
		}
		if (i+1)%100 == 0 {
			for j := range st {
				t.Logf("so far: %s: %s", st[j].Engine, st[j]) // a long run's progress (streamed with -v)
			}
		}
		for _, b := range bounds {
			q := engine.Query{Bound: b}
			want := checkTimed(t, c.Oracle(), p, q, timeout)
			if want.Verdict == result.Unsafe && want.Trace != nil {
				if err := TraceFits(want.Trace, b); err != nil {
					t.Fatalf("%s at %s: the oracle's trace does not fit the bound: %v\n%s\n%s", name, b, err, src, TraceText(want.Trace))
				}
			}
			var decided *result.Result // an engine's answer, when the oracle has none
			for j, newEngine := range engines {
				s := &st[j]
				start, cpu := time.Now(), cpuTime()
				got := checkTimed(t, newEngine(), p, q, timeout)
				s.Time += time.Since(start)
				s.CPU += cpuTime() - cpu
				s.Engine = got.Engine
				s.Checks++
				if got.Verdict == result.Unsafe && got.Trace != nil {
					if err := TraceFits(got.Trace, b); err != nil {
						t.Fatalf("%s at %s: %s's trace does not fit the bound: %v\n%s\n%s", name, b, got.Engine, err, src, TraceText(got.Trace))
					}
					if got.Trace.Switches() > 0 {
						s.Switched++
					}
				}
				switch {
				case got.Verdict == result.Unknown:
					s.EngineUnknown++
					t.Logf("%s at %s: %s unknown: %s (the oracle: %s)", name, b, got.Engine, got.Reason, want.Verdict)
				case want.Verdict == result.Unknown:
					s.OracleUnknown++
					if decided != nil && decided.Verdict != got.Verdict {
						t.Errorf("%s at %s: %s says %s, %s %s (the oracle does not decide)\n%s", name, b, got.Engine, got.Verdict, decided.Engine, decided.Verdict, src)
					}
					decided = got
				case got.Verdict != want.Verdict:
					t.Errorf("%s at %s: %s says %s, the oracle %s\n%s", name, b, got.Engine, got.Verdict, want.Verdict, src)
					if want.Trace != nil {
						t.Logf("the oracle's trace:\n%s", TraceText(want.Trace))
					}
				default:
					s.Agree++
					if got.Verdict == result.Unsafe {
						s.Unsafe++
					}
				}
			}
		}
	}
	for _, s := range st {
		t.Logf("concurrent differential: %s: %s", s.Engine, s)
	}
	return st
}

func checkTimed(t testing.TB, eng engine.Engine, p *ir.Program, q engine.Query, d time.Duration) *result.Result {
	t.Helper()
	ctx, cancel := context.WithTimeoutCause(context.Background(), d, engine.ErrTimeout)
	defer cancel()
	return CheckContext(ctx, t, eng, p, q)
}

// TraceRounds returns the fewest rounds of round-robin scheduling (threads
// 0, 1, … in index order, one context each per round, possibly empty)
// that the trace's order of threads fits: 1 plus the number of steps whose
// thread has a smaller number than the previous step's (0 for an empty
// trace).
func TraceRounds(tr *result.Trace) int {
	if len(tr.Steps) == 0 {
		return 0
	}
	n := 1
	for i := 1; i < len(tr.Steps); i++ {
		if tr.Steps[i].Thread < tr.Steps[i-1].Thread {
			n++
		}
	}
	return n
}

// TraceFits reports an error if tr needs more context switches or rounds
// than b allows.
func TraceFits(tr *result.Trace, b result.Bound) error {
	switch b.Kind {
	case result.ContextSwitches:
		if n := tr.Switches(); n > b.K {
			return fmt.Errorf("%d context switches, bound %d", n, b.K)
		}
	case result.Rounds:
		if n := TraceRounds(tr); n > b.K {
			return fmt.Errorf("%d rounds, bound %d", n, b.K)
		}
	}
	return nil
}

// cpuTime returns the process's CPU time so far (user and system), 0 where
// the system does not tell.
func cpuTime() time.Duration {
	d, _ := procstat.CPU()
	return d
}
