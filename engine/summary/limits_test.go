package summary_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

// chainProgram is a call chain main → p1 → … → pn whose deepest procedure
// fails an assertion: the trace has n+1 steps at depths 0..n.
func chainProgram(n int) string {
	var b strings.Builder
	b.WriteString("decl g;\nvoid main() begin p1(); end\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "void p%d() begin g := !g; p%d(); end\n", i, i+1)
	}
	fmt.Fprintf(&b, "void p%d() begin assert(F); end\n", n)
	return b.String()
}

// globalsProgram declares n globals and assigns and asserts a few.
func globalsProgram(n int) string {
	var b strings.Builder
	b.WriteString("decl g0")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, ", g%d", i)
	}
	fmt.Fprintf(&b, ";\nvoid main() begin g0 := g1; g%d := T; assert(!g%d); end\n", n-1, n-1)
	return b.String()
}

// TestLimitsPrograms checks the programs of the limit tests without limits:
// they are unsafe, with the expected trace lengths.
func TestLimitsPrograms(t *testing.T) {
	for _, c := range []struct {
		name  string
		src   string
		steps int
	}{
		{"chain", chainProgram(2000), 2*2000 - 1 + 1},
		{"globals", globalsProgram(3000), 3},
	} {
		p := testsuite.Lower(t, c.name, c.src, "")
		res := check(t, p, engine.Query{}, summary.Options{})
		if res.Verdict != result.Unsafe || len(res.Trace.Steps) != c.steps {
			t.Errorf("%s: %s (%s) with %d steps, want unsafe with %d", c.name, res.Verdict, res.Reason, stepsOf(res), c.steps)
		}
	}
}

func stepsOf(r *result.Result) int {
	if r.Trace == nil {
		return 0
	}
	return len(r.Trace.Steps)
}

// TestContextBoundsEveryPhase checks that a context that times out ends the
// run in every phase (reachability, ring search, trace): with Unknown
// "timeout" before the error is established, Unsafe with TraceCut after;
// never an error. The context is
// cancelled up front, or after a delay that falls in a later phase on
// programs whose phases are long: a 10,000-deep call chain (long trace),
// 100,000 globals (a wide layout), T(3200) with the error at the deepest
// level. No time is asserted: the machine may be slow, so the delays only
// make it likely (not certain) that later phases are cut; a run that
// finishes before the delay must then be the right verdict with a trace.
func TestContextBoundsEveryPhase(t *testing.T) {
	if testing.Short() {
		t.Skip("large generated programs")
	}
	progs := []struct{ name, src, target string }{
		{"chain10000", chainProgram(10000), ""},
		{"globals100000", globalsProgram(100000), ""},
		{"T(3200)", gen.BebopTemplate(3200), "reach"},
	}
	for _, pg := range progs {
		p := testsuite.Lower(t, pg.name, pg.src, pg.target)
		for _, delay := range []time.Duration{0, time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond} {
			ctx, cancel := context.WithCancelCause(context.Background())
			if delay == 0 {
				cancel(engine.ErrTimeout)
			} else {
				time.AfterFunc(delay, func() { cancel(engine.ErrTimeout) })
			}
			res, err := summary.New(summary.Options{}).Check(ctx, p, engine.Query{})
			cancel(nil)
			if err != nil {
				t.Fatalf("%s after %v: %v", pg.name, delay, err)
			}
			switch {
			case res.Verdict == result.Unknown && res.Reason == engine.ReasonTimeout:
			case traceCut(res, engine.ReasonTimeout):
			case res.Verdict == result.Unsafe && res.Trace != nil && len(res.Trace.Steps) > 0 && delay > 0:
				// Finished before the cancellation.
			default:
				t.Errorf("%s cancelled after %v: %s (%s)", pg.name, delay, res.Verdict, res.Reason)
			}
			if delay == 0 && (res.Verdict != result.Unknown || res.Reason != engine.ReasonTimeout) {
				t.Errorf("%s cancelled up front: %s (%s), want unknown (timeout)", pg.name, res.Verdict, res.Reason)
			}
		}
	}
}

// traceCut reports whether r is Unsafe with a cut trace: no trace, the
// error's property, and the given reason.
func traceCut(r *result.Result, reason string) bool {
	return r.Verdict == result.Unsafe && r.TraceCut && r.Trace == nil && r.Property != nil && r.Reason == reason
}

// pollCtx is a context whose Err reports cancellation from its cancelAt-th
// call on (never if cancelAt < 0), and counts the calls: the engine polls
// Err in its loops, so cancelling at a given poll is deterministic.
type pollCtx struct {
	context.Context
	polls, cancelAt int
}

func (c *pollCtx) Err() error {
	c.polls++
	if c.cancelAt >= 0 && c.polls >= c.cancelAt {
		return context.DeadlineExceeded
	}
	return nil
}

// TestCancelAtEveryPoll cancels the context at polls spread over a whole
// run, the last one included: before the error is found the verdict is
// Unknown "timeout", after it Unsafe with TraceCut and no trace (never
// Safe); and the answer changes once, from the first to the second.
func TestCancelAtEveryPoll(t *testing.T) {
	for _, c := range []struct {
		name, src, target string
		all               bool // compute every reachable state
	}{
		{"chain", chainProgram(3000), "", false},
		{"T(100)", gen.BebopTemplate(100), "reach", false},
		{"T(100) all states", gen.BebopTemplate(100), "reach", true},
		{"T(3) unreachable", gen.BebopTemplateWith(3, gen.UnreachableError), "", false},
	} {
		p := testsuite.Lower(t, c.name, c.src, c.target)
		q := engine.Query{AllReachable: c.all}
		full := &pollCtx{Context: context.Background(), cancelAt: -1}
		want, err := summary.New(summary.Options{}).Check(full, p, q)
		if err != nil {
			t.Fatal(err)
		}
		n := full.polls
		if n < 3 {
			t.Fatalf("%s: the engine polled the context %d times", c.name, n)
		}
		sawTrace := false
		for _, k := range []int{1, 2, n / 4, n / 2, 3 * n / 4, n - 1, n} {
			res, err := summary.New(summary.Options{}).Check(&pollCtx{Context: context.Background(), cancelAt: k}, p, q)
			if err != nil {
				t.Fatalf("%s cancelled at poll %d of %d: %v", c.name, k, n, err)
			}
			switch {
			case res.Verdict == result.Unknown && res.Reason == engine.ReasonTimeout:
				if sawTrace {
					t.Errorf("%s cancelled at poll %d of %d: Unknown after a cut trace at an earlier poll", c.name, k, n)
				}
			case traceCut(res, engine.ReasonTimeout) && want.Verdict == result.Unsafe:
				sawTrace = true
			default:
				t.Errorf("%s cancelled at poll %d of %d: %s (%s)", c.name, k, n, res.Verdict, res.Reason)
			}
		}
		if want.Verdict == result.Unsafe && !sawTrace {
			t.Errorf("%s: cancelling at the last poll did not cut the trace", c.name)
		}
	}
}

// TestNodeLimitEverywhere runs unsafe programs under node limits from tiny
// to enough: each run is Unknown with a node-limit reason, or Unsafe with
// a cut trace and that reason when the limit struck while building the
// trace, or the right verdict with a trace that replays; never an internal
// error, whichever operation the limit strikes in.
func TestNodeLimitEverywhere(t *testing.T) {
	for _, c := range []struct{ name, src, target string }{
		{"T(6)", gen.BebopTemplate(6), "reach"},
		{"chain", chainProgram(50), ""},
		{"random", gen.Random(7, gen.Options{Globals: 6, MaxLocals: 6, Procs: 6, Stmts: 8}), ""},
	} {
		p := testsuite.Lower(t, c.name, c.src, c.target)
		want := check(t, p, engine.Query{}, summary.Options{})
		peak := int(want.Stats.Counters["peak_bdd_nodes"])
		sawTrace := false
		for limit := 8; limit <= 2*peak+64; limit += max(1, peak/40) {
			res := check(t, p, engine.Query{MaxNodes: limit}, summary.Options{})
			limited := strings.HasPrefix(res.Reason, "BDD node limit reached")
			switch {
			case res.TraceCut:
				sawTrace = true
				if !limited || want.Verdict != result.Unsafe || res.Verdict != result.Unsafe || res.Property == nil {
					t.Errorf("%s with %d nodes: %s cut (%s) for a %s program", c.name, limit, res.Verdict, res.Reason, want.Verdict)
				}
			case res.Verdict == want.Verdict:
			case res.Verdict == result.Unknown && limited:
			default:
				t.Errorf("%s with %d nodes: %s (%s), want %s or a node limit", c.name, limit, res.Verdict, res.Reason, want.Verdict)
			}
		}
		t.Logf("%s: peak %d nodes, a limit struck while tracing: %v", c.name, peak, sawTrace)
	}
}

// TestSupports: the engine refuses concurrent programs and bounded queries
// (it would answer an unbounded question), through engine.Run and Check.
func TestSupports(t *testing.T) {
	seq := testsuite.Lower(t, "seq.bp", "void main() begin assert(F); end\n", "")
	conc := testsuite.Lower(t, "conc.bp", "decl g;\nvoid main() begin start_thread w(); assert(!g); end\nvoid w() begin g := T; end\n", "")
	bounded := engine.Query{Bound: result.Bound{Kind: result.ContextSwitches, K: 2}}
	for _, c := range []struct {
		name string
		p    *ir.Program
		q    engine.Query
		want string
	}{
		{"bounded", seq, bounded, "a bound (2 context switches) applies only to concurrent programs"},
		{"concurrent", conc, engine.Query{}, summary.ReasonConcurrent},
	} {
		e := summary.New(summary.Options{})
		if err := e.Supports(c.p, c.q); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Supports = %v, want %q", c.name, err, c.want)
		}
		res := engine.Run(context.Background(), e, c.p, c.q)
		if res.Verdict != result.Unknown || !strings.Contains(res.Reason, c.want) {
			t.Errorf("%s: %s (%s), want unknown (%s)", c.name, res.Verdict, res.Reason, c.want)
		}
	}
	if err := summary.New(summary.Options{}).Supports(seq, engine.Query{}); err != nil {
		t.Errorf("a sequential unbounded query refused: %v", err)
	}
}

// TestProgress: a long search tells Query.Progress its figures every few
// thousand iterations, in the reach phase.
func TestProgress(t *testing.T) {
	p := testsuite.Lower(t, "t200.bp", gen.BebopTemplate(200), "")
	var details []string
	q := engine.Query{AllReachable: true, Progress: func(phase, detail string) {
		if phase == result.PhaseReach && detail != "" {
			details = append(details, detail)
		}
	}}
	res := testsuite.Check(t, summary.New(summary.Options{}), p, q)
	if res.Verdict != result.Safe {
		t.Fatalf("verdict %s (%s), want safe", res.Verdict, res.Reason)
	}
	if len(details) == 0 || !strings.Contains(details[0], "4096 iterations") {
		t.Errorf("progress details %q, want one at 4096 iterations", details)
	}
}
