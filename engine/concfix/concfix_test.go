package concfix_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concfix"
	"boolprog/engine/explicit"
	"boolprog/fix"
	"boolprog/gen"
	"boolprog/internal/peers"
	"boolprog/internal/testdesc"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

func lowerGetafix(t testing.TB, name string, src []byte) *ir.Program {
	t.Helper()
	return testsuite.LowerDialect(t, name, string(src), syntax.Getafix, "")
}

func cs(k int) result.Bound { return result.Bound{Kind: result.ContextSwitches, K: k} }

func rounds(k int) result.Bound { return result.Bound{Kind: result.Rounds, K: k} }

func oracle(t *testing.T) func() engine.Engine {
	return func() engine.Engine {
		e, err := explicit.NewWithOptions(explicit.Options{MaxStates: 20000})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

// TestDifferential runs conc-fix with §5.1's summaries (also where the
// threads call no procedure, Options.Summaries) against the explicit
// oracle on random Getafix-convention programs at 0, 1 and 2 context
// switches and 1 and 2 rounds (6 programs; -long: 12; -full: 1,000).
func TestDifferential(t *testing.T) {
	n := testflags.N(4, 6, 12, 1000)
	st := testsuite.ConcurrentDifferential(t, testsuite.ConcConfig{
		New: func() engine.Engine {
			e, err := concfix.NewWithOptions(concfix.Options{Summaries: true})
			if err != nil {
				t.Fatal(err)
			}
			return e
		},
		Oracle:   oracle(t),
		Programs: n,
		Style:    gen.Getafix,
		Bounds:   []result.Bound{cs(0), cs(1), cs(2), rounds(1), rounds(2)},
		Threads:  []int{2, 2, 3},
		// Smaller threads than gen's default, and a time limit per check
		// (a check that runs out is not compared): the fixed point is
		// solved at each bound.
		Options: gen.Options{Stmts: 3, Procs: 2, MaxLocals: 2},
		Timeout: 5 * time.Second,
	})
	if st.Agree == 0 || st.Unsafe == 0 || st.Unsafe == st.Agree {
		t.Errorf("the run decided too little to mean anything: %s", st)
	}
}

// productOnly is conc-fix that fails the test when it does not use the
// product encoding.
type productOnly struct {
	*concfix.Engine
	t *testing.T
}

func (e productOnly) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	res, err := e.Engine.Check(ctx, p, q)
	if err == nil && res.Stats.Counters["product"] != 1 && res.Stats.Counters["no_error_location"] == 0 && res.Verdict != result.Unknown {
		e.t.Errorf("a program whose threads call no procedure was not solved over the product (%s)", res.Verdict)
	}
	return res, err
}

// TestDifferentialProduct runs conc-fix's product encoding (threads that
// call no procedure: one procedure per thread) against the explicit
// oracle on random Getafix-convention programs at 0, 1 and 2 context
// switches and 1 and 2 rounds (-long: 250 programs; -full: 1,000).
func TestDifferentialProduct(t *testing.T) {
	n := testflags.N(8, 16, 250, 1000)
	st := testsuite.ConcurrentDifferential(t, testsuite.ConcConfig{
		New:      func() engine.Engine { return productOnly{concfix.New(), t} },
		Oracle:   oracle(t),
		Programs: n,
		Seed:     7000,
		Style:    gen.Getafix,
		Bounds:   []result.Bound{cs(0), cs(1), cs(2), rounds(1), rounds(2)},
		Threads:  []int{2, 2, 3},
		Options:  gen.Options{Stmts: 4, Procs: 1, MaxLocals: 2},
		Timeout:  5 * time.Second,
	})
	if st.Agree == 0 || st.Unsafe == 0 || st.Unsafe == st.Agree {
		t.Errorf("the run decided too little to mean anything: %s", st)
	}
}

// TestBluetooth checks the Bluetooth model's first errors against the
// Getafix paper's table: 1 adder + 1 stopper safe up to 6 switches (-full;
// 2 otherwise), 1+2 first error at 3, 2+1 at 4, 2+2 at 3 (the last two
// with -long). The traces come from the strata and must fit the bound
// found (Check replays them).
func TestBluetooth(t *testing.T) {
	for _, c := range []struct {
		file  string
		bound int
		first int // -1: safe
		long  bool
		full  bool
	}{
		{"bluetooth_1_1.bp", 2, -1, false, false},
		{"bluetooth_1_2.bp", 6, 3, false, false},
		{"bluetooth_2_1.bp", 6, 4, true, false},
		{"bluetooth_2_2.bp", 6, 3, true, false},
		{"bluetooth_1_1.bp", 6, -1, true, true},
	} {
		if c.long && !testflags.Long() || c.full && !testflags.Full() {
			continue
		}
		path := filepath.Join("../../examples/bluetooth", c.file)
		checkFile(t, path, cs(c.bound), c.first)
	}
}

// checkFile checks a Getafix-convention file at bound b: safe if first
// is -1, else the first error at first switches, its trace fitting it.
func checkFile(t *testing.T, path string, b result.Bound, first int) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := lowerGetafix(t, path, src)
	res := testsuite.Check(t, concfix.New(), p, engine.Query{Bound: b})
	want := result.Bound{Kind: b.Kind, K: first}
	switch {
	case first < 0 && res.Verdict != result.Safe:
		t.Errorf("%s at %s: %s (%s), want safe", path, b, res.Verdict, res.Reason)
	case first >= 0 && (res.Verdict != result.Unsafe || res.Bound != want):
		t.Errorf("%s at %s: %s at %s, want the first error at %s", path, b, res.Verdict, res.Bound, want)
	case first >= 0:
		if res.Trace == nil || res.TraceCut {
			t.Fatalf("%s: no whole trace", path)
		}
		if err := testsuite.TraceFits(res.Trace, want); err != nil {
			t.Errorf("%s: the trace does not fit %s: %v", path, want, err)
		}
	}
}

// TestFib checks the Getafix fork's fib programs, whose threads call no
// procedure (the product encoding), at 4 rounds, the bound of Getafix's
// own models, whose values Mucke gives (fib_3_unsafe reachable; the
// others not: fib_4_unsafe's and fib_5_unsafe's bug needs more rounds),
// as the explicit oracle does: fib_3's two by default, fib_4 and fib_5
// (seconds each) and every one at 6 context switches (fib_3_unsafe's
// first error there) with -long.
func TestFib(t *testing.T) {
	for _, c := range []struct {
		file  string
		b     result.Bound
		first int
		long  bool
	}{
		{"fib_3_unsafe.bp", rounds(4), 4, false},
		{"fib_3_safe.bp", rounds(4), -1, false},
		{"fib_4_unsafe.bp", rounds(4), -1, true},
		{"fib_5_unsafe.bp", rounds(4), -1, true},
		{"fib_3_unsafe.bp", cs(6), 6, true},
		{"fib_3_safe.bp", cs(6), -1, true},
		{"fib_4_unsafe.bp", cs(6), -1, true},
		{"fib_5_unsafe.bp", cs(6), -1, true},
	} {
		if c.long && !testflags.Long() {
			continue
		}
		checkFile(t, filepath.Join("../../../shared/benchmarks/getafix", c.file), c.b, c.first)
	}
}

// TestModel checks that the model written for `boolprog mucke` (the
// relations as formulas) gives the engine's answer when solved on its own
// (Bluetooth beyond one switch, which takes the solver tens of seconds,
// in the long tier).
func TestModel(t *testing.T) {
	for _, c := range []struct {
		file string
		b    result.Bound
		long bool
	}{
		{"../../cmd/boolprog/testdata/getafix.bp", cs(0), false},
		{"../../cmd/boolprog/testdata/getafix.bp", cs(1), false},
		{"../../cmd/boolprog/testdata/getafix.bp", rounds(1), false},
		{"../../examples/bluetooth/bluetooth_1_2.bp", cs(1), false},
		{"../../examples/bluetooth/bluetooth_1_2.bp", cs(3), true},
		{"../../examples/bluetooth/bluetooth_1_2.bp", rounds(2), true},
		// The product encoding (no thread calls a procedure).
		{"../../../shared/benchmarks/getafix/fib_3_unsafe.bp", rounds(4), false},
		{"../../../shared/benchmarks/getafix/fib_3_safe.bp", rounds(4), false},
		{"../../../shared/benchmarks/getafix/fib_3_unsafe.bp", cs(2), false},
	} {
		if c.long && !testflags.Long() {
			continue
		}
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		p := lowerGetafix(t, c.file, src)
		var b bytes.Buffer
		if err := concfix.WriteModel(&b, p, c.b); err != nil {
			t.Fatal(err)
		}
		f, err := fix.ParseFile("model.mu", b.Bytes())
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		ans, err := fix.Solve(context.Background(), f, fix.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res := testsuite.Check(t, concfix.New(), p, engine.Query{Bound: c.b})
		if ans.Value != (res.Verdict == result.Unsafe) {
			t.Errorf("%s at %s: the model says %v, the engine %s", c.file, c.b, ans.Value, res.Verdict)
		}
	}
}

// TestRefuses checks the programs and queries conc-fix does not handle.
func TestRefuses(t *testing.T) {
	gotoStart := testsuite.Lower(t, "s.bp", `decl g;
void main() begin
  start_thread goto L;
  L: g := T;
  assert(!g);
end
`, "")
	loop := testsuite.Lower(t, "loop.bp", `decl g;
void f() begin
  g := F;
end
void main() begin
  g := T;
  L: start_thread f();
  goto L;
  assert(g);
end
`, "")
	getafix := lowerGetafix(t, "g.bp", []byte(gen.RandomConcurrent(1, gen.ConcOptions{Threads: 2, Style: gen.Getafix})))
	for _, c := range []struct {
		p      *ir.Program
		q      engine.Query
		reason string
	}{
		{gotoStart, engine.Query{Bound: cs(1)}, "start_thread goto"},
		{loop, engine.Query{Bound: cs(1)}, "can create more"},
	} {
		res := testsuite.Check(t, concfix.New(), c.p, c.q)
		if res.Verdict != result.Unknown || !strings.Contains(res.Reason, c.reason) {
			t.Errorf("%s: %s (%s), want unknown: %s", c.q.Bound, res.Verdict, res.Reason, c.reason)
		}
	}
	// No bound: the default's answer, which names it (never a proof).
	for seed := int64(1); seed <= 6; seed++ {
		p := lowerGetafix(t, "g.bp", []byte(gen.RandomConcurrent(seed, gen.ConcOptions{Threads: 2, Style: gen.Getafix})))
		res := testsuite.Check(t, concfix.New(), p, engine.Query{})
		want := testsuite.Check(t, concfix.New(), p, engine.Query{Bound: concfix.DefaultBound})
		if res.Stats.Counters["no_error_location"] == 1 {
			// Nothing to reach: a proof, with or without a bound.
			if res.Verdict != result.Safe || res.Bound.Kind != result.Unbounded {
				t.Errorf("seed %d without an error location: %s at %s", seed, res.Verdict, res.Bound)
			}
			continue
		}
		t.Logf("seed %d without a bound: %s at %s", seed, res.Verdict, res.Bound)
		switch {
		case res.Verdict != want.Verdict || res.Bound != want.Bound:
			t.Errorf("seed %d without a bound: %s at %s (%s), want %s at %s as with %s", seed, res.Verdict, res.Bound, res.Reason, want.Verdict, want.Bound, concfix.DefaultBound)
		case res.Verdict == result.Safe && res.Bound != concfix.DefaultBound:
			t.Errorf("seed %d without a bound: safe up to %s, want up to %s", seed, res.Bound, concfix.DefaultBound)
		case res.Verdict == result.Unknown:
			t.Errorf("seed %d without a bound: unknown (%s)", seed, res.Reason)
		}
	}
	e, err := concfix.NewWithOptions(concfix.Options{MaxThreads: 3})
	if err != nil {
		t.Fatal(err)
	}
	if res := testsuite.Check(t, e, getafix, engine.Query{Bound: cs(1)}); res.Verdict != result.Unknown || !strings.Contains(res.Reason, "--max-threads") {
		t.Errorf("--max-threads on a Getafix program: %s (%s), want unknown", res.Verdict, res.Reason)
	}
}

// TestDifferentialSatabs runs conc-fix against the explicit oracle on
// random SATABS-convention programs (threads created at run time, atomic
// sections) at 0, 1 and 2 context switches and 1 and 2 rounds (4
// programs; -long: 8; -full: 1,000).
func TestDifferentialSatabs(t *testing.T) {
	n := testflags.N(3, 4, 8, 1000)
	st := testsuite.ConcurrentDifferential(t, testsuite.ConcConfig{
		New:      func() engine.Engine { return concfix.New() },
		Oracle:   oracle(t),
		Programs: n,
		Seed:     5000,
		Style:    gen.Satabs,
		Options:  gen.Options{Stmts: 3, Procs: 2, MaxLocals: 2},
		Timeout:  5 * time.Second,
	})
	if st.Agree == 0 || st.Unsafe == 0 || st.Unsafe == st.Agree {
		t.Errorf("the run decided too little to mean anything: %s", st)
	}
}

// TestDifferentialSatabsProduct runs conc-fix's product encoding on
// random SATABS-convention programs whose threads call no procedure
// (threads created at run time: unborn slots, starts from the globals of
// the first switch, empty contexts of slots not created) against the
// explicit oracle at 0, 1 and 2 context switches and 1 and 2 rounds (8
// programs; -long: 100; -full: 1,000).
func TestDifferentialSatabsProduct(t *testing.T) {
	n := testflags.N(4, 8, 100, 1000)
	st := testsuite.ConcurrentDifferential(t, testsuite.ConcConfig{
		New:      func() engine.Engine { return productOnly{concfix.New(), t} },
		Oracle:   oracle(t),
		Programs: n,
		Seed:     9000,
		Style:    gen.Satabs,
		Options:  gen.Options{Stmts: 4, Procs: 1, MaxLocals: 2},
		Timeout:  5 * time.Second,
	})
	if st.Agree == 0 || st.Unsafe == 0 || st.Unsafe == st.Agree {
		t.Errorf("the run decided too little to mean anything: %s", st)
	}
}

// TestSatabs checks the 14 concurrent tests of the SATABS suite (the
// SATABS convention: ASYNC_n calls, start_thread, atomic sections): each
// FAILED one at the smallest bound at which the explicit oracle finds
// its error (with enough threads for those that create threads in a
// loop), each SUCCESSFUL one safe at the bound run; the slow ones with
// -long. Check replays the traces, which come from the strata.
func TestSatabs(t *testing.T) {
	for _, c := range []struct {
		test       string
		bound      int
		first      int // -1: safe
		maxThreads int
		long       bool
	}{
		{"Simple4", 3, 2, 0, false},
		{"Threads1", 3, 1, 0, false},
		{"Threads2", 3, 2, 0, false},
		{"Threads3", 3, 2, 3, false},
		{"Threads4", 3, -1, 3, false},
		{"Threads6", 3, 1, 0, false},
		{"Threads8", 3, 2, 0, false},
		{"n-conc", 3, 3, 0, false},
		{"n-conc2", 3, 3, 0, false},
		{"n-peterson", 3, 1, 0, false},
		{"p-conc", 3, -1, 0, false},
		{"p-peterson", 2, -1, 0, true},
		// The product of 10 and 5 threads: a second or two each.
		{"Threads7", 3, -1, 0, false},
		{"Threads5", 5, 5, 5, false},
	} {
		if c.long && !testflags.Full() {
			continue
		}
		t.Run(c.test, func(t *testing.T) {
			dir := filepath.Join("../../../shared/benchmarks/satabs-boppo", c.test)
			desc, err := testdesc.Read(filepath.Join(dir, "test.desc"))
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, desc.File)
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			p := testsuite.Lower(t, path, string(src), desc.Target)
			eng, err := concfix.NewWithOptions(concfix.Options{MaxThreads: c.maxThreads})
			if err != nil {
				t.Fatal(err)
			}
			res := testsuite.Check(t, eng, p, engine.Query{Bound: cs(c.bound)})
			switch {
			case c.first < 0 && res.Verdict != result.Safe:
				t.Errorf("%s at %d: %s (%s), want safe", c.test, c.bound, res.Verdict, res.Reason)
			case c.first >= 0 && (res.Verdict != result.Unsafe || res.Bound != cs(c.first)):
				t.Errorf("%s at %d: %s at %s (%s), want the first error at %d", c.test, c.bound, res.Verdict, res.Bound, res.Reason, c.first)
			case c.first >= 0:
				if err := testsuite.TraceFits(res.Trace, cs(c.first)); err != nil {
					t.Errorf("%s: the trace does not fit: %v", c.test, err)
				}
			}
		})
	}
}

// TestStopsBeforeSolver checks that a context that has ended stops Check
// before it parses and checks the model and builds the solver (seconds for
// a high bound: 6 MB for Bluetooth at 20 rounds), which did not look at
// the context: the answer is Unknown and no build time is recorded.
func TestStopsBeforeSolver(t *testing.T) {
	p := testsuite.LowerFile(t, "../../examples/bluetooth/bluetooth_2_2.bp", "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := concfix.New().Check(ctx, p, engine.Query{Bound: rounds(3)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != result.Unknown || res.Reason != engine.ReasonInterrupted {
		t.Errorf("%s %q, want Unknown %q", res.Verdict, res.Reason, engine.ReasonInterrupted)
	}
	for _, name := range res.Stats.CounterNames() {
		if name == "time_build_ns" {
			t.Error("the solver was built after the context ended")
		}
	}
}

// TestReturnIsOneStep: no thread is switched out at a called procedure's
// exit, between the return and the caller's assignment, which interp
// does in one step. With such a switch, return-global.bp failed its
// assertion (a run interp does not have, so the trace did not replay),
// and seed249.bp's error came with a trace that did not replay.
func TestReturnIsOneStep(t *testing.T) {
	cases := []struct {
		file  string
		bound result.Bound
		want  result.Verdict
	}{
		{"return-global.bp", cs(2), result.Safe},
		{"return-global.bp", cs(4), result.Safe},
		{"return-global.bp", rounds(3), result.Safe},
		{"seed249.bp", cs(2), result.Safe},
		{"seed249.bp", cs(3), result.Unsafe},
		{"seed249.bp", rounds(2), result.Unsafe},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.bound.String(), func(t *testing.T) {
			p := testsuite.LowerFile(t, filepath.Join("testdata", c.file), "")
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			// CheckContext replays every trace and fails on one that
			// does not replay.
			res := testsuite.CheckContext(ctx, t, concfix.New(), p, engine.Query{Bound: c.bound})
			if res.Verdict != c.want {
				t.Errorf("%s (%s), want %s", res.Verdict, res.Reason, c.want)
			}
		})
	}
}

// TestMoreThreads: without --max-threads, a run that creates more
// threads than the default allows is solved again with more, so an
// error that needs them is found; with --max-threads it is not, and
// the answer says why.
func TestMoreThreads(t *testing.T) {
	src, err := os.ReadFile("testdata/second-thread.bp")
	if err != nil {
		t.Fatal(err)
	}
	p := testsuite.Lower(t, "testdata/second-thread.bp", string(src), "")
	res := testsuite.Check(t, concfix.New(), p, engine.Query{Bound: cs(3)})
	if res.Verdict != result.Unsafe {
		t.Fatalf("default threads: %s (%s), want unsafe", res.Verdict, res.Reason)
	}
	e, err := concfix.NewWithOptions(concfix.Options{MaxThreads: 2})
	if err != nil {
		t.Fatal(err)
	}
	res = testsuite.Check(t, e, p, engine.Query{Bound: cs(3)})
	if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "can create more") {
		t.Errorf("--max-threads 2: %s (%s), want unknown: can create more", res.Verdict, res.Reason)
	}
}

// TestConcurrentConformance runs the bounded-concurrent conformance suite
// on conc-fix: the benchmarks at their first-error bounds and random
// programs against the explicit oracle. The suite's slow benchmarks run in
// the long tier, but for those that take minutes (fullTierBenchmarks),
// which run in the full tier. Its strata and levels always report the
// smallest bound, so it ignores Deepen.
func TestConcurrentConformance(t *testing.T) {
	testsuite.ConcurrentConformance(t, testsuite.ConcurrentConfig{
		New: func(o testsuite.ConcEngineOptions) engine.Engine {
			e, err := concfix.NewWithOptions(concfix.Options{MaxThreads: o.MaxThreads})
			if err != nil {
				t.Fatal(err)
			}
			return e
		},
		Oracle: oracle(t),
		Long:   testflags.Long(),
		Skip: func(b testsuite.ConcBench) string {
			if why := fullTierBenchmarks[b.Name]; why != "" && !testflags.Full() {
				return why + ": full tier"
			}
			return ""
		},
		// The random programs: 3, and 25 in the long tier (a minute
		// there), 100 in the full tier.
		Random: testsuite.ConcConfig{Programs: testflags.N(3, 3, 25, 100), Options: gen.Options{Stmts: 3, Procs: 2, MaxLocals: 2}, Timeout: 5 * time.Second},
	})
}

// fullTierBenchmarks are the conformance benchmarks that take conc-fix
// minutes, with the reason (wall time on a loaded 2-core machine, where
// the rest of the slow ones, SATABS Threads5 and Threads7 over the
// product among them, take seconds).
var fullTierBenchmarks = map[string]string{
	"p-peterson":   "3 minutes at 2 rounds (its threads call procedures: §5.1's strata)",
	"fib_4_unsafe": "30 s at 7 to 9 switches",
	"fib_5_unsafe": "2 minutes at 9 to 11 switches",
}

// atomicAfterInit: init leaves Getafix's atomic T. The threads start with
// no thread running, so any may run first (interp's rule); thread1 ends
// the atomic section, after which thread2 may run and fail: in one round
// (main, which does nothing, is not switched out of).
const atomicAfterInit = `
decl atomic, g;
void init() begin atomic := T; g := F; end
void main() begin skip; end
void thread1() begin g := T; atomic := F; end
void thread2() begin if (g) then SLIC_ERROR: skip; fi; end
`

// TestProductStart: the product encoding lets any thread run first in the
// first round, as §5.1's strata and the explicit oracle do (it once
// started with thread 0, whose empty context then needed a switch that
// atomic forbids: safe at 1 and 2 rounds, wrongly).
func TestProductStart(t *testing.T) {
	p := lowerGetafix(t, "atomic.bp", []byte(atomicAfterInit))
	summaries, err := concfix.NewWithOptions(concfix.Options{Summaries: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []result.Bound{rounds(1), rounds(2), cs(1), cs(2)} {
		want := testsuite.Check(t, oracle(t)(), p, engine.Query{Bound: b})
		for _, e := range []engine.Engine{concfix.New(), summaries} {
			res := testsuite.Check(t, e, p, engine.Query{Bound: b})
			if res.Verdict != want.Verdict || res.Verdict != result.Unsafe || res.Bound != want.Bound {
				t.Errorf("at %s: %s at %s (product %d), explicit %s at %s", b, res.Verdict, res.Bound, res.Stats.Counters["product"], want.Verdict, want.Bound)
			}
		}
	}
}

// TestModelSatabs checks the product models of SATABS-convention programs
// (threads created at run time, unborn until started): solved on their
// own, and by Mucke where ../shared/peers has it, they give the engine's
// answer.
func TestModelSatabs(t *testing.T) {
	bin := peers.Find(".", "mucke")
	for _, c := range []struct {
		test string
		b    result.Bound
	}{
		{"Threads1", cs(1)}, {"Threads2", cs(1)}, {"Threads6", rounds(1)}, {"Threads2", rounds(2)},
	} {
		path := filepath.Join("../../../shared/benchmarks/satabs-boppo", c.test, "main.bp")
		p := testsuite.LowerFile(t, path, "")
		var b bytes.Buffer
		if err := concfix.WriteModel(&b, p, c.b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "P0_1(") {
			t.Errorf("%s at %s: not a product model", c.test, c.b)
		}
		f, err := fix.ParseFile("model.mu", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		ours, err := fix.Solve(context.Background(), f, fix.Options{})
		if err != nil {
			t.Fatal(err)
		}
		res := testsuite.Check(t, concfix.New(), p, engine.Query{Bound: c.b})
		if ours.Value != (res.Verdict == result.Unsafe) {
			t.Errorf("%s at %s: the model says %v, the engine %s", c.test, c.b, ours.Value, res.Verdict)
		}
		if bin == "" {
			continue
		}
		model := filepath.Join(t.TempDir(), c.test+".mu")
		if err := os.WriteFile(model, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		theirs, err := peers.Mucke(ctx, bin, model, 0)
		cancel()
		switch {
		case err != nil:
			t.Errorf("%s at %s: Mucke: %v", c.test, c.b, err)
		case theirs.Complaint != "":
			t.Errorf("%s at %s: Mucke complains: %s", c.test, c.b, theirs.Complaint)
		case theirs.Value != ours.Value:
			t.Errorf("%s at %s: Mucke %v, ours %v", c.test, c.b, theirs.Value, ours.Value)
		}
	}
}
