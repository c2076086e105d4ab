package testsuite

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boolprog/conc"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// ConcBench is a concurrent benchmark program with the smallest bounds at
// which its error appears (the explicit oracle's, with MaxThreads threads).
type ConcBench struct {
	Name string
	// File is the path below shared/benchmarks.
	File string
	// Src, if set, is the program's text instead (a case of ours, read
	// with the CProver precedence).
	Src    string
	Target string // the error label ("" : SLIC_ERROR)
	// Getafix says to read the file (or Src) with the Getafix precedence
	// (as the CLI's auto dialect does for the Getafix convention).
	Getafix bool
	// Switches and Rounds are the smallest bounds of the error in
	// context switches and in rounds (Rounds 0: not listed); Safe
	// programs have neither, and are checked at SafeBounds.
	Switches, Rounds int
	Safe             bool
	// MaxThreads is the thread limit, the initial threads included, at
	// which the bounds hold (0: the engine's default).
	MaxThreads int
	// Slow marks a case that takes the sequentialisations minutes (run
	// with ConcurrentConfig.Long).
	Slow bool
	// AtomicCalls lowers the program as the pipeline does by default,
	// its calls of __VERIFIER_atomic_* procedures atomic
	// (conc.AtomicCalls); without it they interleave, as with
	// --interleave-atomic-calls.
	AtomicCalls bool
}

// ConcBenchmarks are the 14 concurrent satabs-boppo tests, cases of ours
// (Src) and Getafix's fib programs with their first-error bounds. Threads3
// and Threads5 start threads in a loop and fail with 3 and 5 of them;
// Threads4 starts them in a loop too (safe with 5).
var ConcBenchmarks = []ConcBench{
	{Name: "Simple4", File: "satabs-boppo/Simple4/main.bp", Switches: 2, Rounds: 2},
	{Name: "Threads1", File: "satabs-boppo/Threads1/main.bp", Switches: 1, Rounds: 1},
	{Name: "Threads2", File: "satabs-boppo/Threads2/main.bp", Switches: 2, Rounds: 2},
	{Name: "Threads3", File: "satabs-boppo/Threads3/main.bp", Switches: 2, Rounds: 1, MaxThreads: 5},
	{Name: "Threads4", File: "satabs-boppo/Threads4/main.bp", Safe: true, MaxThreads: 5, Slow: true},
	{Name: "Threads5", File: "satabs-boppo/Threads5/main.bp", Switches: 5, Rounds: 2, MaxThreads: 5, Slow: true},
	{Name: "Threads6", File: "satabs-boppo/Threads6/main.bp", Target: "SLIC_ERROR", Switches: 1, Rounds: 1},
	{Name: "Threads7", File: "satabs-boppo/Threads7/main.bp", Safe: true, Slow: true},
	{Name: "Threads8", File: "satabs-boppo/Threads8/main.bp", Switches: 2, Rounds: 2},
	{Name: "n-conc", File: "satabs-boppo/n-conc/n-conc.bp", Target: "SLIC_ERROR", Switches: 3, Rounds: 2},
	{Name: "n-conc2", File: "satabs-boppo/n-conc2/n-conc2.bp", Target: "SLIC_ERROR", Switches: 3, Rounds: 2},
	{Name: "n-peterson", File: "satabs-boppo/n-peterson/n-peterson.bp", Target: "SLIC_ERROR", Switches: 1, Rounds: 1},
	{Name: "p-conc", File: "satabs-boppo/p-conc/p-conc.bp", Target: "SLIC_ERROR", Safe: true},
	{Name: "p-peterson", File: "satabs-boppo/p-peterson/p-peterson.bp", Target: "SLIC_ERROR", Safe: true, Slow: true},
	// A thread started with a local of the starting frame that is read
	// by nothing else: the explicit search once took it as dead there and
	// started the thread with one value of it (SUCCESSFUL).
	{Name: "start-argument", Src: startArgument, Target: "ERROR", Switches: 1, Rounds: 1},
	// A call of a __VERIFIER_atomic_* procedure that sets a global and
	// clears it again: atomic, no other thread sees it set; interleaved,
	// one switch does. In both conventions, and a call inside an atomic
	// stretch of Getafix's, which the call must not end.
	{Name: "atomic-call", Src: atomicCall, Getafix: true, Target: "ERROR", Safe: true, AtomicCalls: true},
	{Name: "atomic-call-interleaved", Src: atomicCall, Getafix: true, Target: "ERROR", Switches: 1, Rounds: 1},
	{Name: "atomic-call-reached", Src: atomicCallReached, Getafix: true, Target: "ERROR", Switches: 1, Rounds: 1, AtomicCalls: true},
	{Name: "atomic-call-started-reached", Src: atomicCallStartedReached, Target: "ERROR", Switches: 1, Rounds: 1, AtomicCalls: true},
	{Name: "atomic-call-in-stretch", Src: atomicCallInStretch, Getafix: true, Target: "ERROR", Safe: true, AtomicCalls: true},
	{Name: "atomic-call-started", Src: atomicCallStarted, Target: "ERROR", Safe: true, AtomicCalls: true},
	{Name: "atomic-call-started-interleaved", Src: atomicCallStarted, Target: "ERROR", Switches: 1, Rounds: 1},
	{Name: "fib_3_safe", File: "getafix/fib_3_safe.bp", Getafix: true, Safe: true, Slow: true},
	{Name: "fib_3_unsafe", File: "getafix/fib_3_unsafe.bp", Getafix: true, Switches: 6, Rounds: 4, Slow: true},
	{Name: "fib_4_unsafe", File: "getafix/fib_4_unsafe.bp", Getafix: true, Switches: 8, Rounds: 5, Slow: true},
	{Name: "fib_5_unsafe", File: "getafix/fib_5_unsafe.bp", Getafix: true, Switches: 10, Rounds: 6, Slow: true},
}

const startArgument = `void main()
begin
  decl l;
  l := *;
  start_thread t(l);
end
void t(x)
begin
  if (x) then ERROR: skip; fi
end
`

const atomicCall = `decl atomic, g;
void init() begin atomic, g := F, F; end
void thread0() begin __VERIFIER_atomic_flip(); end
void thread1() begin if (g) then ERROR: skip; fi end
void __VERIFIER_atomic_flip() begin g := T; g := F; return; end
`

const atomicCallReached = `decl atomic, g;
void init() begin atomic, g := F, F; end
void thread0() begin __VERIFIER_atomic_set(); end
void thread1() begin if (g) then ERROR: skip; fi end
void __VERIFIER_atomic_set() begin g := T; return; end
`

const atomicCallStartedReached = `decl g;
void main() begin g := F; start_thread t(); __VERIFIER_atomic_set(); end
void t() begin if (g) then ERROR: skip; fi end
void __VERIFIER_atomic_set() begin g := T; end
`

const atomicCallInStretch = `decl atomic, g;
void init() begin atomic, g := F, F; end
void thread0() begin atomic := T; __VERIFIER_atomic_nop(); g := T; g := F; atomic := F; end
void thread1() begin if (g) then ERROR: skip; fi end
void __VERIFIER_atomic_nop() begin skip; return; end
`

const atomicCallStarted = `decl g;
void main() begin g := F; start_thread t(); __VERIFIER_atomic_flip(); end
void t() begin if (g) then ERROR: skip; fi end
void __VERIFIER_atomic_flip() begin g := T; g := F; end
`

// SafeBounds are the bounds at which ConcurrentConformance checks the safe
// benchmarks.
var SafeBounds = []result.Bound{{Kind: result.ContextSwitches, K: 2}, {Kind: result.Rounds, K: 2}}

// ConcEngineOptions say how ConcurrentConfig.New should configure the
// engine for one check.
type ConcEngineOptions struct {
	// MaxThreads is the thread limit, the initial threads included (0:
	// the engine's default).
	MaxThreads int
	// Deepen asks for the smallest bound of an error within the query's
	// bound (--deepen); an engine that always reports it may ignore it.
	Deepen bool
}

// ConcurrentConfig describes a bounded-concurrent conformance run.
type ConcurrentConfig struct {
	// New returns the engine under test configured by o; it is called
	// for every check.
	New func(o ConcEngineOptions) engine.Engine
	// Oracle returns the interleaving oracle (the explicit engine) for
	// the random programs; nil: no random programs (the oracle's own
	// run).
	Oracle func() engine.Engine
	// Kinds are the kinds of bound the engine answers (nil: context
	// switches and rounds).
	Kinds []result.BoundKind
	// Skip, if set, names the benchmarks the engine does not take, with
	// the reason ("" : take it); e.g. an engine for the Getafix
	// convention only.
	Skip func(b ConcBench) string
	// Long runs the Slow benchmarks and the benchmarks' checks with
	// deepening at every level (by default only the fast ones).
	Long bool
	// Random shapes the random programs against the oracle (Programs 0:
	// 3, or 100 with Long; New, Oracle and Bounds are filled in from
	// this Config).
	Random ConcConfig
	// Timeout bounds each check (0: 10 minutes); a check that runs out
	// fails the test.
	Timeout time.Duration
}

// ConcurrentConformance runs the bounded-concurrent conformance suite on an
// engine, one subtest per part:
//
//   - Benchmarks: every ConcBench (the slow ones with Long) at each kind
//     of bound: an unsafe one is Unsafe at its first-error bound K, with
//     K as the answer's bound and a trace that interp.Replay accepts and
//     that fits K (TraceFits: at most K switches, or a schedule of K
//     rounds), and Safe at K-1 with K-1 as the answer's bound (or, for a
//     benchmark with a thread limit, Unknown because a run could create
//     more threads than the limit); asked with
//     deepening at a bound above K, it answers K. A safe one is Safe at
//     each of SafeBounds, which its answer names.
//   - Random: random concurrent programs against the oracle
//     (ConcurrentDifferential: verdicts agree wherever both decide, every
//     trace replays and fits its bound).
//
// Every check goes through Check (engine.Run, no internal error, a valid
// JSON report).
func ConcurrentConformance(t *testing.T, c ConcurrentConfig) {
	t.Run("Benchmarks", func(t *testing.T) { concBenchmarks(t, c) })
	t.Run("Random", func(t *testing.T) {
		if c.Oracle == nil {
			t.Skip("no oracle: the oracle's own run")
		}
		r := c.Random
		r.New = func() engine.Engine { return c.New(ConcEngineOptions{}) }
		r.Oracle = c.Oracle
		if r.Programs == 0 {
			r.Programs = 3
			if c.Long {
				r.Programs = 100
			}
		}
		if r.Bounds == nil {
			for _, b := range DefaultConcBounds {
				if c.takes(b.Kind) {
					r.Bounds = append(r.Bounds, b)
				}
			}
		}
		ConcurrentDifferential(t, r)
	})
}

func (c ConcurrentConfig) takes(k result.BoundKind) bool {
	if c.Kinds == nil {
		return true
	}
	for _, x := range c.Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// ConcBenchDir returns the directory of shared/benchmarks, or skips the
// test (fails it in CI) if it is not found.
func ConcBenchDir(t testing.TB) string {
	t.Helper()
	cases := SatabsBoppoOrSkip(t)
	return filepath.Dir(filepath.Dir(filepath.Dir(cases[0].File)))
}

// LowerConcBench reads and lowers a benchmark.
func LowerConcBench(t testing.TB, b ConcBench) *ir.Program {
	t.Helper()
	if b.AtomicCalls {
		p, err := conc.AtomicCalls(lowerConcBench(t, b))
		if err != nil {
			t.Fatal(err)
		}
		if p.AtomicCalls == 0 {
			t.Fatalf("%s: no call made atomic (%s)", b.Name, p.AtomicCallsWhy)
		}
		return p
	}
	return lowerConcBench(t, b)
}

// lowerConcBench reads and lowers a benchmark as written.
func lowerConcBench(t testing.TB, b ConcBench) *ir.Program {
	t.Helper()
	if b.Src != "" {
		d := syntax.CProver
		if b.Getafix {
			d = syntax.Getafix
		}
		return LowerDialect(t, b.Name+".bp", b.Src, d, b.Target)
	}
	path := filepath.Join(ConcBenchDir(t), filepath.FromSlash(b.File))
	if !b.Getafix {
		return LowerFile(t, path, b.Target)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return LowerDialect(t, path, string(src), syntax.Getafix, b.Target)
}

func concBenchmarks(t *testing.T, c ConcurrentConfig) {
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 10 * time.Minute
	}
	check := func(t *testing.T, p *ir.Program, o ConcEngineOptions, b result.Bound) *result.Result {
		t.Helper()
		ctx, cancel := context.WithTimeoutCause(context.Background(), timeout, engine.ErrTimeout)
		defer cancel()
		start := time.Now()
		res := CheckContext(ctx, t, c.New(o), p, engine.Query{Bound: b})
		t.Logf("at %s (deepen %v): %s %s %s in %v", b, o.Deepen, res.Verdict, res.Bound, res.Reason, time.Since(start).Round(time.Millisecond))
		return res
	}
	for _, bench := range ConcBenchmarks {
		t.Run(bench.Name, func(t *testing.T) {
			if c.Skip != nil {
				if why := c.Skip(bench); why != "" {
					t.Skip(why)
				}
			}
			if bench.Slow && !c.Long {
				t.Skip("slow: run with -long")
			}
			p := LowerConcBench(t, bench)
			o := ConcEngineOptions{MaxThreads: bench.MaxThreads}
			if bench.Safe {
				for _, b := range SafeBounds {
					if !c.takes(b.Kind) {
						continue
					}
					if res := check(t, p, o, b); res.Verdict != result.Safe || res.Bound != b {
						t.Errorf("at %s: %s %s, want safe at %s", b, res.Verdict, res.Bound, b)
					}
				}
				return
			}
			for _, kind := range []result.BoundKind{result.ContextSwitches, result.Rounds} {
				k := bench.Switches
				if kind == result.Rounds {
					k = bench.Rounds
				}
				if k == 0 || !c.takes(kind) {
					continue
				}
				at := result.Bound{Kind: kind, K: k}
				res := check(t, p, o, at)
				if res.Verdict != result.Unsafe || res.Bound != at {
					t.Errorf("at %s: %s %s, want unsafe at %s", at, res.Verdict, res.Bound, at)
				} else if err := TraceFits(res.Trace, at); err != nil {
					t.Errorf("at %s: the trace does not fit: %v\n%s", at, err, TraceText(res.Trace))
				}
				below := result.Bound{Kind: kind, K: k - 1}
				if below.K >= 0 && !(kind == result.Rounds && below.K == 0) {
					res := check(t, p, o, below)
					// A program that starts threads in a loop may
					// create more than the limit below the error: an
					// engine may say so (Unknown) rather than cut.
					capped := bench.MaxThreads > 0 && res.Verdict == result.Unknown && strings.Contains(res.Reason, "thread")
					if !capped && (res.Verdict != result.Safe || res.Bound != below) {
						t.Errorf("at %s: %s %s (%s), want safe at %s", below, res.Verdict, res.Bound, res.Reason, below)
					}
				}
				// Deepening finds the smallest bound (at every level
				// only with Long: the levels below cost as much again).
				if !c.Long && k > 2 {
					continue
				}
				above := result.Bound{Kind: kind, K: k + 1}
				o := o
				o.Deepen = true
				if res := check(t, p, o, above); res.Verdict != result.Unsafe || res.Bound != at {
					t.Errorf("at %s with deepening: %s %s, want unsafe at %s", above, res.Verdict, res.Bound, at)
				} else if err := TraceFits(res.Trace, at); err != nil {
					t.Errorf("at %s with deepening: the trace does not fit %s: %v\n%s", above, at, err, TraceText(res.Trace))
				}
			}
		})
	}
}
