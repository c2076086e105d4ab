package explicit

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// globals returns a program with n globals and `assert(F)` in main.
func globals(n int) string {
	var b strings.Builder
	b.WriteString("decl ")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "g%d", i)
	}
	b.WriteString(";\nvoid main() begin assert(F); end\n")
	return b.String()
}

// TestWidthLimits checks the programs at the width of a valuation (issue
// 16, findings 1 and 2): no shift or enumeration may overflow into a wrong
// SUCCESSFUL; the engine answers Unknown with its reason instead.
func TestWidthLimits(t *testing.T) {
	ret64 := "void main() begin f(); assert(F); end\nbool<64> f() begin skip; end\n"
	for _, c := range []struct {
		name   string
		src    string
		opts   Options
		reason string
	}{
		{"64 returned values", ret64, Options{}, "f returns 64 values: more than the explicit engine enumerates (limit 20)"},
		{"64 returned values, max-vars 64", ret64, Options{MaxVars: 64}, "state budget exhausted (2097152 states)"},
		{"64 globals", globals(64), Options{MaxVars: 64}, "state budget exhausted"},
		{"63 globals", globals(63), Options{MaxVars: 64}, "state budget exhausted"},
		{"24 globals", globals(24), Options{MaxVars: 24}, "state budget exhausted"},
		{"21 globals, default", globals(21), Options{}, "too many variables in scope for the explicit engine: 21 in main (limit 20)"},
		{"small budget", globals(10), Options{MaxStates: 100}, "state budget exhausted (100 states)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := testsuite.Lower(t, "w.bp", c.src, "")
			eng, err := NewWithOptions(c.opts)
			if err != nil {
				t.Fatal(err)
			}
			res := engine.Run(context.Background(), eng, p, engine.Query{})
			if res.Verdict != result.Unknown || !strings.HasPrefix(res.Reason, c.reason) {
				t.Errorf("%s %q, want Unknown %q", res.Verdict, res.Reason, c.reason)
			}
		})
	}
	// Within the budget the wide programs are decided.
	for _, c := range []struct {
		src  string
		opts Options
	}{
		{"void main() begin f(); assert(F); end\nbool<16> f() begin skip; end\n", Options{}},
		{globals(16), Options{}},
	} {
		p := testsuite.Lower(t, "w.bp", c.src, "")
		eng, _ := NewWithOptions(c.opts)
		if res := engine.Run(context.Background(), eng, p, engine.Query{}); res.Verdict != result.Unsafe {
			t.Errorf("%s: %s %q", c.src, res.Verdict, res.Reason)
		}
	}
}

// countdown is a context whose Err becomes context.Canceled after a given
// number of calls: a deterministic way to end a search at a chosen poll.
type countdown struct {
	context.Context
	left atomic.Int64
	done chan struct{}
}

func newCountdown(n int64) *countdown {
	c := &countdown{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

func (c *countdown) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

func (c *countdown) Done() <-chan struct{} { return c.done }

// polls is a context that counts the calls of Err and never ends.
type polls struct {
	context.Context
	n atomic.Int64
}

func (c *polls) Err() error { c.n.Add(1); return nil }

// TestTraceCut checks that a search stopped after the error is established
// answers FAILED with the note that the trace was cut, and one stopped
// before answers Unknown (issue 16, finding 4).
func TestTraceCut(t *testing.T) {
	loop := "decl a, b, c, d, e, f;\nvoid main() begin\n L: a, b, c, d, e, f := *, *, *, *, *, *; goto L, M;\n M: SLIC_ERROR: skip;\nend\n"
	p := testsuite.Lower(t, "loop.bp", loop, "")
	// Count the polls of phase 1.
	pc := &polls{Context: context.Background()}
	s := newSearch(pc, p, DefaultMaxStates)
	if err := s.reach(); err != nil || !s.errorFound {
		t.Fatalf("reach: %v, error found %v", err, s.errorFound)
	}
	reachPolls := pc.n.Load()
	// One engine.Run poll comes before Check.
	res := engine.Run(newCountdown(reachPolls+1), New(), p, engine.Query{})
	if res.Verdict != result.Unsafe || !res.TraceCut || res.Trace != nil || res.Property == nil ||
		res.Note() != "the error is reachable, but the trace was cut: interrupted" {
		t.Errorf("stopped after reach: %s cut=%v %q property %+v", res.Verdict, res.TraceCut, res.Note(), res.Property)
	}
	res = engine.Run(newCountdown(reachPolls/2), New(), p, engine.Query{})
	if res.Verdict != result.Unknown || res.Reason != engine.ReasonInterrupted || res.Stats.States == 0 {
		t.Errorf("stopped during reach: %s %q, %d states so far", res.Verdict, res.Reason, res.Stats.States)
	}
	if res := engine.Run(context.Background(), New(), p, engine.Query{}); res.Verdict != result.Unsafe || res.TraceCut {
		t.Errorf("not stopped: %s cut=%v", res.Verdict, res.TraceCut)
	}
}

// TestBudgetPromptly checks that the case of issue 16 (24 variables with
// --max-vars 24, which ran 34 s and took 6.2 GB) ends with Unknown without
// exploring: the 2^24 initial valuations do not fit the budget. The time
// is not asserted (the machine is shared); the test's own timeout would
// catch a regression to the old behaviour.
func TestBudgetPromptly(t *testing.T) {
	src := "decl a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23;\n" +
		"void main() begin L: a0, a1 := *, *; goto L, M; M: assert(!(a0 & a1 & a23)); end\n"
	p := testsuite.Lower(t, "v24.bp", src, "")
	eng, _ := NewWithOptions(Options{MaxVars: 24})
	ctx, cancel := context.WithTimeoutCause(context.Background(), 5*time.Second, engine.ErrTimeout)
	defer cancel()
	res := engine.Run(ctx, eng, p, engine.Query{})
	if res.Verdict != result.Unknown || !strings.HasPrefix(res.Reason, "state budget exhausted") {
		t.Errorf("%s %q", res.Verdict, res.Reason)
	}
}

// TestStopInsideWideStep checks that the concurrent search stops inside
// one step with many outcomes (an assignment of n `*`: 2^n successors, up
// to 2^20, seconds of work) when its context ends, instead of adding every
// outcome first: the context ends at its first poll, which must come from
// the enumeration of the first wide step, before its outcomes are added.
func TestStopInsideWideStep(t *testing.T) {
	const n = 14
	var gs, stars, fs []string
	for i := range n {
		gs, stars, fs = append(gs, fmt.Sprintf("g%d", i)), append(stars, "*"), append(fs, "F")
	}
	body := fmt.Sprintf("begin while (T) do assert(g0 | !g0); %s := %s; od end\n", strings.Join(gs, ", "), strings.Join(stars, ", "))
	src := fmt.Sprintf("decl %s;\nvoid init() begin %s := %s; end\nvoid thread1() %svoid thread2() %s",
		strings.Join(gs, ", "), strings.Join(gs, ", "), strings.Join(fs, ", "), body, body)
	p := testsuite.Lower(t, "wide.bp", src, "")
	res, err := New().Check(newCountdown(0), p, engine.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != result.Unknown || res.Reason != engine.ReasonInterrupted || res.Stats.States >= 1<<n {
		t.Errorf("%s %q after %d configurations; want Unknown %q before the %d outcomes of one step are added",
			res.Verdict, res.Reason, res.Stats.States, engine.ReasonInterrupted, 1<<n)
	}
}

// TestStopBeforeMainContexts checks that a search whose context has ended
// does not first build the list of main's 2^24 contexts (256 MB, seconds
// that no poll interrupted): they are enumerated one by one, with polls.
// The bytes allocated are measured, not the time.
func TestStopBeforeMainContexts(t *testing.T) {
	p := testsuite.Lower(t, "v24.bp", globals(24), "")
	eng, err := NewWithOptions(Options{MaxVars: 24, MaxStates: 1 << 26})
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := eng.Check(newCountdown(0), p, engine.Query{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != result.Unknown || res.Reason != engine.ReasonInterrupted {
		t.Errorf("%s %q, want Unknown %q", res.Verdict, res.Reason, engine.ReasonInterrupted)
	}
	if mb := (after.TotalAlloc - before.TotalAlloc) >> 20; mb > 64 {
		t.Errorf("a search stopped at its first poll allocated %d MB", mb)
	}
}

// TestWideConcurrentStep: a thread step that sets 30 observable globals
// to `*` (2^30 outcomes) and a SATABS main whose 30 globals are all live
// at the start (2^30 initial configurations) are enumerated one
// configuration at a time: the state budget, not a cap on the choices of
// one step, ends the search (issue 25). Within the budget, a step of 10
// choices is decided.
func TestWideConcurrentStep(t *testing.T) {
	wide := func(n int) string {
		var gs, stars, fs []string
		for i := range n {
			gs, stars, fs = append(gs, fmt.Sprintf("g%d", i)), append(stars, "*"), append(fs, "F")
		}
		return fmt.Sprintf("decl %s;\nvoid init() begin %s := %s; end\nvoid thread1() begin %s := %s; assert(!(%s)); end\nvoid thread2() begin skip; end\n",
			strings.Join(gs, ", "), strings.Join(gs, ", "), strings.Join(fs, ", "), strings.Join(gs, ", "), strings.Join(stars, ", "), strings.Join(gs, " & "))
	}
	var gs []string
	for i := range 30 {
		gs = append(gs, fmt.Sprintf("g%d", i))
	}
	live := fmt.Sprintf("decl %s;\nvoid t() begin skip; end\nvoid main() begin start_thread t(); assert(!(%s)); end\n", strings.Join(gs, ", "), strings.Join(gs, " & "))
	eng, err := NewWithOptions(Options{MaxStates: 5000})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, src string }{{"wide step", wide(30)}, {"wide start", live}} {
		p := testsuite.Lower(t, "w.bp", c.src, "")
		res := engine.Run(context.Background(), eng, p, engine.Query{Bound: result.Bound{Kind: result.ContextSwitches, K: 2}})
		if res.Verdict != result.Unknown || !strings.HasPrefix(res.Reason, "state budget exhausted (5000 states)") {
			t.Errorf("%s: %s %q, want Unknown: state budget exhausted", c.name, res.Verdict, res.Reason)
		}
	}
	p := testsuite.Lower(t, "w.bp", wide(10), "")
	if res := engine.Run(context.Background(), New(), p, engine.Query{Bound: result.Bound{Kind: result.ContextSwitches, K: 2}}); res.Verdict != result.Unsafe {
		t.Errorf("10 choices: %s %q, want unsafe", res.Verdict, res.Reason)
	}
}
