package interp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// names returns "x0, x1, …" (n names).
func names(prefix string, n int) string {
	var s []string
	for i := range n {
		s = append(s, fmt.Sprintf("%s%d", prefix, i))
	}
	return strings.Join(s, ", ")
}

// summaryTrace returns the summary engine's error trace of p.
func summaryTrace(t *testing.T, p *ir.Program) *result.Trace {
	t.Helper()
	res, err := summary.New(summary.Options{}).Check(context.Background(), p, engine.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != result.Unsafe {
		t.Fatalf("verdict %s, want unsafe", res.Verdict)
	}
	return res.Trace
}

// TestWide checks programs at the limits of the width: 64 returned values
// falling off the end (discarded, or assigned to 64 locals), 64 globals.
// Replay takes the values the trace states instead of enumerating 2^64 of
// them; where the trace omits them, it reports an error instead.
func TestWide(t *testing.T) {
	for _, c := range []struct {
		name, src string
	}{
		{"discarded", "void main() begin f(); assert(F); end\nbool<64> f() begin skip; end\n"},
		{"assigned", fmt.Sprintf("void main() begin decl %s; %s := f(); assert(F); end\nbool<64> f() begin skip; end\n", names("x", 64), names("x", 64))},
		{"assigned and returned", fmt.Sprintf("void main() begin decl %s; %s := f(); assert(F); end\nbool<64> f() begin decl %s; %s := g(); end\nbool<64> g() begin skip; end\n", names("x", 64), names("x", 64), names("x", 64), names("x", 64))},
		{"globals", fmt.Sprintf("decl %s;\nvoid main() begin %s := f(); assert(F); end\nbool<64> f() begin skip; end\n", names("g", 64), names("g", 64))},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := testsuite.Lower(t, "w.bp", c.src, "")
			tr := summaryTrace(t, p)
			if err := interp.Replay(p, tr); err != nil {
				t.Fatalf("Replay: %v", err)
			}
			// Without values, every choice would have to be enumerated.
			for i := range tr.Steps {
				tr.Steps[i].Values = nil
			}
			err := interp.Replay(p, tr)
			if c.name == "discarded" {
				if err != nil {
					t.Errorf("Replay without values: %v", err)
				}
				return
			}
			if !errors.Is(err, interp.ErrTooManyChoices) || !strings.Contains(err.Error(), "omits") {
				t.Errorf("Replay without values: %v, want too many choices", err)
			}
		})
	}
}

// TestTooManyChoices checks that Exec, Successors and Initials refuse to
// enumerate more than MaxOmitted choices instead of wrapping or blowing up.
func TestTooManyChoices(t *testing.T) {
	src := fmt.Sprintf("decl %s;\nvoid main() begin decl %s; %s := f(); skip; end\nbool<64> f() begin skip; end\n", names("g", 64), names("x", 64), names("x", 64))
	p := testsuite.Lower(t, "w.bp", src, "")
	if _, err := interp.Initials(p); err == nil || !strings.Contains(err.Error(), "128 variables") {
		t.Errorf("Initials: %v, want an error about 128 variables", err)
	}
	c := interp.Initial(p, make([]bool, 64), make([]bool, 64))
	succ, err := interp.Successors(p, c) // the call: f has no locals
	if err != nil || len(succ) != 1 {
		t.Fatalf("Successors of the call: %d, %v", len(succ), err)
	}
	// f's skip falls off the end: 64 returned values, all observable.
	if _, err := interp.Successors(p, succ[0].Next); !errors.Is(err, interp.ErrTooManyChoices) {
		t.Errorf("Successors of the return: %v, want too many choices", err)
	}
}

func TestReplayContext(t *testing.T) {
	p := testsuite.LowerFile(t, "../examples/bebop-fig1.bp", "R")
	tr := search(t, p, 10)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := interp.ReplayContext(ctx, p, tr)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("ReplayContext with a cancelled context: %v", err)
	}
	if err := interp.ReplayContext(context.Background(), p, tr); err != nil {
		t.Errorf("ReplayContext: %v", err)
	}

	// A long enumeration (2^19 initial states: the trace omits 19 of 64
	// globals) stops too.
	w := testsuite.Lower(t, "w.bp", fmt.Sprintf("decl %s;\nvoid main() begin assert(F); end\n", names("g", 64)), "")
	wt := summaryTrace(t, w)
	wt.Steps[0].Values = wt.Steps[0].Values[19:]
	if err := interp.ReplayContext(ctx, w, wt); !errors.Is(err, context.Canceled) {
		t.Errorf("ReplayContext of a long enumeration with a cancelled context: %v", err)
	}
}

// TestSuccessorsContext checks that SuccessorsContext stops a long
// enumeration when its context ends: a parallel assignment of 17 `*` to
// observable globals has 2^17 outcomes.
func TestSuccessorsContext(t *testing.T) {
	const n = 17
	src := fmt.Sprintf("decl %s;\nvoid main() begin %s := %s; assert(%s); end\n",
		names("g", n), names("g", n), strings.TrimSuffix(strings.Repeat("*, ", n), ", "), strings.ReplaceAll(names("g", n), ",", " &"))
	p := testsuite.Lower(t, "w.bp", src, "")
	c := interp.Initial(p, make([]bool, n), nil)
	live, err := interp.SuccessorsContext(context.Background(), p, c)
	if err != nil || len(live) != 1<<n {
		t.Fatalf("SuccessorsContext with a live context: %d transitions, %v; want %d", len(live), err, 1<<n)
	}
	ctx := &countingCtx{Context: context.Background(), after: 3}
	got, err := interp.SuccessorsContext(ctx, p, c)
	if !errors.Is(err, context.Canceled) || got != nil {
		t.Fatalf("SuccessorsContext with a context that ends: %d transitions, %v; want none, context canceled", len(got), err)
	}
	// It stopped at the first poll that saw the end, not after the
	// enumeration: 2^17 outcomes polled every 1024 would be 128 polls.
	if ctx.polls != ctx.after {
		t.Errorf("SuccessorsContext polled %d times, want it to stop at poll %d", ctx.polls, ctx.after)
	}
}

// countingCtx is a context that can end (Done is not nil) and reports
// context.Canceled from the after'th call of Err on; it counts the calls.
type countingCtx struct {
	context.Context
	after, polls int
}

func (c *countingCtx) Done() <-chan struct{} { return make(chan struct{}) }

func (c *countingCtx) Err() error {
	c.polls++
	if c.polls >= c.after {
		return context.Canceled
	}
	return nil
}

// TestEachSuccessor checks that EachSuccessor gives the outcomes of a
// step with more than MaxOmitted free choices one at a time, where
// Successors refuses the step, and stops when fn says so: a parallel
// assignment of 40 `*` to observable globals.
func TestEachSuccessor(t *testing.T) {
	const n = 40
	src := fmt.Sprintf("decl %s;\nvoid main() begin %s := %s; assert(%s); end\n",
		names("g", n), names("g", n), strings.TrimSuffix(strings.Repeat("*, ", n), ", "), strings.ReplaceAll(names("g", n), ",", " &"))
	p := testsuite.Lower(t, "w.bp", src, "")
	c := interp.Initial(p, make([]bool, n), nil)
	if _, err := interp.Successors(p, c); !errors.Is(err, interp.ErrTooManyChoices) {
		t.Fatalf("Successors: %v, want too many choices", err)
	}
	enough := errors.New("enough")
	seen := map[string]bool{}
	err := interp.EachSuccessor(context.Background(), p, c, nil, func(tr interp.Transition) error {
		seen[fmt.Sprint(tr.Next.Globals)] = true
		if len(seen) == 5000 {
			return enough
		}
		return nil
	})
	if err != enough || len(seen) != 5000 {
		t.Errorf("EachSuccessor: %v after %d distinct outcomes, want %v after 5000", err, len(seen), enough)
	}
	// The outcomes and their order are Successors' where it enumerates.
	small := testsuite.Lower(t, "s.bp", "decl a, b;\nvoid main() begin a, b := *, *; end\n", "")
	sc := interp.Initial(small, make([]bool, 2), nil)
	want, err := interp.Successors(small, sc)
	if err != nil {
		t.Fatal(err)
	}
	var got []interp.Transition
	if err := interp.EachSuccessor(context.Background(), small, sc, nil, func(tr interp.Transition) error { got = append(got, tr); return nil }); err != nil {
		t.Fatal(err)
	}
	key := func(ts []interp.Transition) string {
		var b strings.Builder
		for _, tr := range ts {
			fmt.Fprintf(&b, "%d %d %s\n", tr.Thread, tr.Edge, tr.Next.Key())
		}
		return b.String()
	}
	if key(got) != key(want) || len(want) != 4 {
		t.Errorf("EachSuccessor:\n%sSuccessors:\n%s", key(got), key(want))
	}
}

// TestEachSuccessorLive checks that EachSuccessor chooses one value, not
// both, for a local that a step chooses and that cannot be observed
// after it (LiveLocals), and both for one that can: the end of Getafix's
// init starts two threads whose locals are mostly written before they are
// read, and a call enters a procedure whose locals are.
func TestEachSuccessorLive(t *testing.T) {
	const src = `decl atomic, g;
void init() begin g := F; end
void thread1() begin decl a, b, c, d; a, b, c := g, g, g; g := a & b & c & d; end
void thread2() begin decl a, b, c; a, b, c := g, g, g; g := f(a); end
bool f(x) begin decl y, z; y, z := x, x; return y & z; end
`
	p := testsuite.LowerDialect(t, "l.bp", src, syntax.Getafix, "")
	// d of thread1 and the parameter x are read before they are written.
	live := func(proc *ir.Proc, loc, i int) bool {
		name := proc.Locals[i]
		return name == "d" || name == "x"
	}
	// step returns the number of outcomes of thread's steps from c, and
	// one of them.
	step := func(c interp.Config, thread int, live interp.LiveLocals) (n int, next interp.Config) {
		t.Helper()
		err := interp.EachSuccessor(context.Background(), p, c, live, func(tr interp.Transition) error {
			if tr.Thread == thread {
				n++
				next = tr.Next
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return n, next
	}
	c := interp.Initial(p, make([]bool, len(p.Globals)), nil)
	for i := 0; c.Init; i++ {
		if i > 10 {
			t.Fatal("init does not end")
		}
		n, next := step(c, 0, live)
		if !next.Init {
			// init's last step: thread1's d is observable, the other six
			// locals are not.
			if all, _ := step(c, 0, nil); n != 2 || all != 1<<7 {
				t.Errorf("the end of init: %d outcomes with LiveLocals, %d without; want 2 and %d", n, all, 1<<7)
			}
		}
		c = next
	}
	t2 := len(c.Threads) - 1 // thread2: a, b, c := g, g, g; then the call
	_, c = step(c, t2, live)
	if n, _ := step(c, t2, live); n != 1 {
		t.Errorf("the call: %d outcomes with LiveLocals, want 1 (y and z are written first)", n)
	}
	if all, _ := step(c, t2, nil); all != 4 {
		t.Errorf("the call: %d outcomes without LiveLocals, want 4", all)
	}
}
