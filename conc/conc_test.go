package conc_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"boolprog/conc"
	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// brute decides by exhaustive search over interp.Successors whether an
// error is reachable within k round-robin rounds: in each round every
// thread existing when its turn comes has one context (possibly empty),
// in the order of thread numbers; Getafix's init runs before the rounds.
// ok is false if the search met more than limit configurations or a step
// with too many choices.
func brute(p *ir.Program, k, limit, slots int) (reach, ok bool) {
	inits, err := interp.Initials(p)
	if err != nil {
		return false, false
	}
	type node struct {
		c           interp.Config
		round, turn int
	}
	seen := make(map[string]bool)
	var work []node
	push := func(n node) {
		key := fmt.Sprintf("%s#%d#%d", n.c.Key(), n.round, n.turn)
		if !seen[key] {
			seen[key] = true
			work = append(work, n)
		}
	}
	for _, c := range inits {
		if c.AtError(p) {
			return true, true
		}
		push(node{c, 1, 0})
	}
	for len(work) > 0 {
		if len(seen) > limit {
			return false, false
		}
		n := work[len(work)-1]
		work = work[:len(work)-1]
		ts, err := interp.Successors(p, n.c)
		if err != nil {
			return false, false
		}
		for _, t := range ts {
			if !n.c.Init && t.Thread != n.turn || slots > 0 && len(t.Next.Threads) > slots {
				continue
			}
			if t.Next.AtError(p) {
				return true, true
			}
			push(node{t.Next, n.round, n.turn})
		}
		if n.c.Init {
			continue
		}
		// The context ends: the next thread's turn, or the next round.
		switch {
		case n.turn+1 < len(n.c.Threads):
			push(node{n.c, n.round, n.turn + 1})
		case n.round < k:
			push(node{n.c, n.round + 1, 0})
		}
	}
	return false, true
}

// check runs the sequentialisation of p for k rounds with the summary
// engine, maps an error's trace back and replays it.
func check(t *testing.T, p *ir.Program, m *conc.Model, k int, lazy bool, goal conc.Goal) result.Verdict {
	t.Helper()
	build := conc.Eager
	if lazy {
		build = conc.Lazy
	}
	s, err := build(m, k, goal)
	if err != nil {
		t.Fatalf("k=%d lazy=%v: %v", k, lazy, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := engine.Run(ctx, summary.New(summary.Options{}), s.Prog, engine.Query{})
	if r.Verdict == result.Unknown {
		t.Fatalf("k=%d lazy=%v: %s", k, lazy, r.Reason)
	}
	if r.Verdict == result.Unsafe && goal == conc.GoalError {
		tr, err := s.Trace(r.Trace)
		if err != nil {
			t.Fatalf("k=%d lazy=%v: mapping the trace: %v", k, lazy, err)
		}
		if err := interp.Replay(p, tr); err != nil {
			var b strings.Builder
			result.WriteTrace(&b, tr, result.Forward)
			t.Fatalf("k=%d lazy=%v: the mapped trace does not replay: %v\n%s", k, lazy, err, b.String())
		}
	}
	return r.Verdict
}

var programs = []struct {
	name, src string
	threads   string // --threads, if any
}{
	{"race", `
decl g;
void main() begin
  g := T;
  start_thread t();
  assume(!g);
  assert(F);
end
void t() begin g := F; end
`, ""},
	{"pingpong", `
decl a, b;
void main() begin
  a, b := F, F;
  start_thread t();
  a := T;
  assume(b);
  a := F;
  assume(b);
  SLIC_ERROR: skip;
end
void t() begin
  assume(a);
  b := T;
  b := F;
  assume(!a);
  b := T;
end
`, ""},
	{"atomic-section", `
decl lock;
void main() begin
  lock := F;
  start_thread foo();
  start_thread foo();
end
void foo() begin
  atomic_begin;
  assume(!lock);
  lock := T;
  atomic_end;
  assert(lock);
  lock := F;
end
`, ""},
	{"args-recursion-endthread", `
decl g, h;
void main() begin
  g, h := F, F;
  start_thread w(T);
  start_thread w(F);
  assume(g & h);
  assert(F);
end
void w(x) begin
  if (x) then rec(T); else h := T; end_thread; fi
  g := T;
end
void rec(y) begin
  if (*) then leaf(!y); fi
  end_thread;
end
void leaf(z) begin
  g := z;
  end_thread;
end
`, ""},
	{"goto-start", `
decl g;
void main() begin
  decl l;
  l, g := T, F;
  start_thread goto L;
  assume(g);
  assert(!l);
  L: g := l;
end
`, ""},
	{"getafix-atomic", `
decl atomic, x;
void init() begin
  atomic, x := F, F;
end
void thread1() begin
  atomic := T;
  x := T;
  x := F;
  atomic := F;
end
void thread2() begin
  assert(!x);
end
`, ""},
	{"getafix-init-atomic", `
decl atomic, g;
void init() begin
  atomic, g := T, F;
end
void thread1() begin
  atomic := F;
  assume(g);
  SLIC_ERROR: skip;
end
void thread2() begin
  g := T;
  atomic := F;
end
`, ""},
	{"calls-globals-enforce", `
decl g, h;
bool f() begin
  h := !h;
  return !g;
end
void main() begin
  enforce !(g & h);
  g := f();
  g := f();
  assert(!h);
end
void other() begin
  h := T;
  h := F;
end
`, "main,other"},
	{"loop-overflow", `
decl g0;
void t1() begin
  decl local;
  local, g0 := g0, F;
  assert(local);
end
void main() begin
  g0 := T;
  loop:
  ASYNC_1: t1();
  goto loop;
end
`, ""},
}

func lowerThreads(t *testing.T, name, src, threads string) *ir.Program {
	t.Helper()
	p := testsuite.Lower(t, name, src, "")
	if threads != "" {
		var err error
		p, err = conc.WithThreads(p, strings.Split(threads, ","))
		if err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// TestAgainstBruteForce compares both sequentialisations with the
// exhaustive search on the hand-written programs, for 1 to 3 rounds and
// 1 to 2 threads created at run time.
func TestAgainstBruteForce(t *testing.T) {
	for _, tc := range programs {
		t.Run(tc.name, func(t *testing.T) {
			p := lowerThreads(t, tc.name+".bp", tc.src, tc.threads)
			for _, mt := range []int{0, 2} {
				m, err := conc.NewModel(p, conc.Options{MaxThreads: mt})
				if err != nil {
					if mt > 0 {
						continue // no threads created at run time
					}
					t.Fatal(err)
				}
				for k := 1; k <= 3; k++ {
					want, ok := bruteModel(t, p, m, k)
					if !ok {
						t.Fatalf("k=%d: the brute force did not finish", k)
					}
					for _, lazy := range []bool{false, true} {
						got := check(t, p, m, k, lazy, conc.GoalError)
						if (got == result.Unsafe) != want {
							t.Errorf("max-threads %d, %d rounds, lazy=%v: %s, brute force says reachable=%v", m.MaxThreads, k, lazy, got, want)
						}
					}
				}
			}
		})
	}
}

// bruteModel runs brute on p with the model's thread limit: a creation
// beyond it is cut, as in the sequentialisations.
func bruteModel(t *testing.T, p *ir.Program, m *conc.Model, k int) (bool, bool) {
	t.Helper()
	limit := 0
	if m.Convention == conc.Dynamic {
		limit = m.Slots()
	}
	return brute(p, k, 50000, limit)
}

// TestOverflow checks the thread-overflow goal: a creation in a loop can
// always exceed the limit; nine creations in a row cannot exceed nine.
func TestOverflow(t *testing.T) {
	p := testsuite.Lower(t, "loop.bp", programs[len(programs)-1].src, "")
	m, err := conc.NewModel(p, conc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, lazy := range []bool{false, true} {
		if got := check(t, p, m, 1, lazy, conc.GoalOverflow); got != result.Unsafe {
			t.Errorf("lazy=%v: overflow %s, want reachable", lazy, got)
		}
	}
	p = testsuite.Lower(t, "race.bp", programs[0].src, "")
	m, _ = conc.NewModel(p, conc.Options{})
	for _, lazy := range []bool{false, true} {
		if got := check(t, p, m, 2, lazy, conc.GoalOverflow); got != result.Safe {
			t.Errorf("lazy=%v: overflow %s, want unreachable", lazy, got)
		}
	}
}

// TestModelErrors: mixed conventions, undefined threads, a wrong atomic.
func TestModelErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, threads, want string }{
		{"mixed", "decl atomic;\nvoid init() begin atomic := F; end\nvoid thread1() begin start_thread f(); end\nvoid f() begin skip; end\n", "", "cannot be mixed"},
		{"mixed-atomic", "decl atomic;\nvoid thread1() begin atomic_begin; atomic_end; end\nvoid thread2() begin skip; end\n", "", "cannot be mixed"},
		{"local-atomic", "decl atomic;\nvoid thread1() begin decl atomic; atomic := T; end\nvoid thread2() begin skip; end\n", "", "local `atomic`"},
		{"undefined", "void main() begin skip; end\nvoid f() begin skip; end\n", "f,nope", "no procedure \"nope\""},
		{"named-and-dynamic", "void main() begin start_thread f(); end\nvoid f() begin skip; end\n", "f", "cannot be mixed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testsuite.Lower(t, tc.name+".bp", tc.src, "")
			var err error
			if tc.threads != "" {
				_, err = conc.WithThreads(p, strings.Split(tc.threads, ","))
			} else {
				_, err = conc.NewModel(p, conc.Options{})
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestRandomNamedThreads compares the sequentialisations with the brute
// force on random programs (package gen, no recursion, so that the search
// is finite) whose procedures run as named threads: 15 programs, 1,000
// with -long.
func TestRandomNamedThreads(t *testing.T) {
	n := testflags.N(5, 8, 15, 1000)
	opt := gen.Options{Globals: 2, MaxLocals: 2, Procs: 3, Stmts: 3, Omit: gen.Recursion | gen.While}
	agree, skipped := 0, 0
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, opt)
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		var names []string
		for _, pr := range p.Procs[:min(3, len(p.Procs))] {
			names = append(names, pr.Name)
		}
		if len(names) == 1 {
			names = append(names, names[0])
		}
		q, err := conc.WithThreads(p, names)
		if err != nil {
			skipped++
			continue
		}
		m, err := conc.NewModel(q, conc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		k := 1 + int(seed%3)
		want, ok := brute(q, k, 20000, 0)
		if !ok {
			skipped++
			continue
		}
		for _, lazy := range []bool{false, true} {
			got := check(t, q, m, k, lazy, conc.GoalError)
			if (got == result.Unsafe) != want {
				t.Errorf("seed %d, threads %v, %d rounds, lazy=%v: %s, brute force says reachable=%v\n%s", seed, names, k, lazy, got, want, src)
			}
		}
		// The bound in context switches whose runs fit in k rounds.
		if want, ok = bruteSwitches(q, k-1, 20000, 0); ok {
			for _, lazy := range []bool{false, true} {
				if got := checkSwitches(t, q, m, k-1, lazy); (got == result.Unsafe) != want {
					t.Errorf("seed %d, threads %v, cs:%d, lazy=%v: %s, brute force says reachable=%v\n%s", seed, names, k-1, lazy, got, want, src)
				}
			}
		}
		agree++
	}
	t.Logf("%d programs agree (eager, lazy, brute force), %d skipped", agree, skipped)
}

// TestPrintRoundTrip prints the sequentialisations of the hand-written
// programs, reads the text back (parse, check, lower) and checks that it
// gets the verdict of the program printed.
func TestPrintRoundTrip(t *testing.T) {
	for _, tc := range programs {
		p := lowerThreads(t, tc.name+".bp", tc.src, tc.threads)
		m, err := conc.NewModel(p, conc.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, lazy := range []bool{false, true} {
			build := conc.Eager
			if lazy {
				build = conc.Lazy
			}
			s, err := build(m, 2, conc.GoalError)
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := conc.Print(&b, s.Prog); err != nil {
				t.Fatal(err)
			}
			q := testsuite.Lower(t, tc.name+"-seq.bp", b.String(), s.Prog.Target)
			want := engine.Run(context.Background(), summary.New(summary.Options{}), s.Prog, engine.Query{}).Verdict
			got := engine.Run(context.Background(), summary.New(summary.Options{}), q, engine.Query{}).Verdict
			if got != want || want == result.Unknown {
				t.Errorf("%s lazy=%v: the printed program answers %s, the program %s", tc.name, lazy, got, want)
			}
		}
	}
}

// bruteSwitches decides by exhaustive search over interp.Successors
// whether an error is reachable with at most k context switches (a step by
// another thread than the last one; Config.Running is -1 where the next
// thread is a free choice); slots bounds the threads as in brute.
func bruteSwitches(p *ir.Program, k, limit, slots int) (reach, ok bool) {
	inits, err := interp.Initials(p)
	if err != nil {
		return false, false
	}
	type node struct {
		c  interp.Config
		sw int
	}
	seen := make(map[string]bool)
	var work []node
	push := func(n node) {
		key := fmt.Sprintf("%s#%d", n.c.Key(), n.sw)
		if !seen[key] {
			seen[key] = true
			work = append(work, n)
		}
	}
	for _, c := range inits {
		if c.AtError(p) {
			return true, true
		}
		push(node{c, 0})
	}
	for len(work) > 0 {
		if len(seen) > limit {
			return false, false
		}
		n := work[len(work)-1]
		work = work[:len(work)-1]
		ts, err := interp.Successors(p, n.c)
		if err != nil {
			return false, false
		}
		for _, t := range ts {
			sw := n.sw
			if n.c.Running >= 0 && n.c.Running != t.Thread {
				sw++
			}
			if sw > k || slots > 0 && len(t.Next.Threads) > slots {
				continue
			}
			if t.Next.AtError(p) {
				return true, true
			}
			push(node{t.Next, sw})
		}
	}
	return false, true
}

// checkSwitches runs the sequentialisation of p for k context switches
// (k+1 rounds, at most k+1 non-empty contexts) with the summary engine,
// and checks that a mapped trace replays and has at most k switches.
func checkSwitches(t *testing.T, p *ir.Program, m *conc.Model, k int, lazy bool) result.Verdict {
	t.Helper()
	s, err := conc.Build(m, conc.SeqOptions{Rounds: k + 1, Lazy: lazy, Contexts: k + 1})
	if err != nil {
		t.Fatalf("cs:%d lazy=%v: %v", k, lazy, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r := engine.Run(ctx, summary.New(summary.Options{}), s.Prog, engine.Query{})
	if r.Verdict == result.Unknown {
		t.Fatalf("cs:%d lazy=%v: %s", k, lazy, r.Reason)
	}
	if r.Verdict == result.Unsafe {
		tr, err := s.Trace(r.Trace)
		if err != nil {
			t.Fatalf("cs:%d lazy=%v: mapping the trace: %v", k, lazy, err)
		}
		if err := interp.Replay(p, tr); err != nil {
			t.Fatalf("cs:%d lazy=%v: the mapped trace does not replay: %v\n%s", k, lazy, err, testsuite.TraceText(tr))
		}
		if n := tr.Switches(); n > k {
			t.Fatalf("cs:%d lazy=%v: the mapped trace has %d switches\n%s", k, lazy, n, testsuite.TraceText(tr))
		}
	}
	return r.Verdict
}

// chain needs two context switches (thread 0, then 1, then 2) but only
// one round: k+1 rounds alone would find it at 1 switch.
const chain = `
decl a, b;
void init() begin a := F; b := F; end
void main() begin a := T; end
void thread1() begin if (a) then b := T; fi; end
void thread2() begin assume(b); assert(F); end
`

// TestContextLimit compares the sequentialisations with a context limit
// (Build's Contexts) against the exhaustive search with a switch bound on
// the hand-written programs and chain, at 0 to 2 switches; the runs
// without the limit at k+1 rounds find chain's error at 1 switch, where it
// does not exist.
func TestContextLimit(t *testing.T) {
	cases := append(programs[:len(programs):len(programs)], struct{ name, src, threads string }{"chain", chain, ""})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := lowerThreads(t, tc.name+".bp", tc.src, tc.threads)
			m, err := conc.NewModel(p, conc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			slots := 0
			if m.Convention == conc.Dynamic {
				slots = m.Slots()
			}
			for k := 0; k <= 2; k++ {
				want, ok := bruteSwitches(p, k, 50000, slots)
				if !ok {
					t.Fatalf("cs:%d: the brute force did not finish", k)
				}
				for _, lazy := range []bool{false, true} {
					if got := checkSwitches(t, p, m, k, lazy); (got == result.Unsafe) != want {
						t.Errorf("cs:%d lazy=%v: %s, brute force says reachable=%v", k, lazy, got, want)
					}
				}
			}
		})
	}
	p := testsuite.Lower(t, "chain.bp", chain, "")
	m, err := conc.NewModel(p, conc.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r1, _ := bruteSwitches(p, 1, 1000, 0); r1 {
		t.Fatal("chain: the brute force reaches the error with 1 switch")
	}
	if r2, _ := bruteSwitches(p, 2, 1000, 0); !r2 {
		t.Fatal("chain: the brute force does not reach the error with 2 switches")
	}
	for _, lazy := range []bool{false, true} {
		if got := check(t, p, m, 2, lazy, conc.GoalError); got != result.Unsafe {
			t.Errorf("chain, 2 rounds without a context limit, lazy=%v: %s; the test lost its point", lazy, got)
		}
	}
}

// TestCreations: Model.Creations counts the threads a run can create,
// those the created threads create included, taking every branch; a
// creation on a loop or in a recursion of procedures that create threads
// has no bound (-1). A recursion that creates nothing does not matter.
func TestCreations(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      int
	}{
		{"none", `void main() begin skip; end`, 0},
		{"line", `void t() begin skip; end
void main() begin start_thread t(); start_thread t(); start_thread t(); end`, 3},
		{"branch", `void t() begin skip; end
void main() begin goto a, b; a: start_thread t(); return; b: start_thread t(); start_thread t(); end`, 2},
		{"nested", `void u() begin skip; end
void t() begin start_thread u(); end
void main() begin start_thread t(); start_thread t(); end`, 4},
		{"call", `void t() begin skip; end
void two() begin start_thread t(); start_thread t(); end
void main() begin two(); two(); end`, 4},
		{"loop", `void t() begin skip; end
void main() begin l: start_thread t(); goto l; end`, -1},
		{"recursion", `void t() begin skip; end
void r() begin start_thread t(); r(); end
void main() begin r(); end`, -1},
		{"quiet recursion", `decl g;
void t() begin skip; end
void r() begin if (g) then r(); fi; end
void main() begin r(); r(); start_thread t(); end`, 1},
		{"goto", `decl g;
void main() begin start_thread goto l; l: skip; end`, 1},
		{"goto loop", `decl g;
void main() begin l: start_thread goto l; end`, -1},
	} {
		p := testsuite.Lower(t, c.name+".bp", c.src, "")
		m, err := conc.NewModel(p, conc.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if m.Creations != c.want {
			t.Errorf("%s: %d creations, want %d", c.name, m.Creations, c.want)
		}
	}
}
