package interp_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// threadStep describes thread t of configuration c about to take edge e as
// a trace step (marked as a context switch if another thread ran last).
func threadStep(p *ir.Program, c interp.Config, t, e int) result.Step {
	top := c.Thread(t)
	proc := p.Procs[top.Proc]
	loc := proc.Locations[top.Loc]
	s := result.Step{Proc: proc.Name, Loc: loc.ID, Edge: e, Line: loc.Pos.Line, Col: loc.Pos.Col, Text: loc.Text, Depth: top.Depth, Thread: t,
		Switch: c.Running >= 0 && c.Running != t}
	if e != result.NoEdge {
		s.Text = proc.Edges[e].Text
	}
	for i, g := range p.Globals {
		s.Values = append(s.Values, result.Value{Name: g, Value: c.Globals[i]})
	}
	for i, l := range proc.Locals {
		s.Values = append(s.Values, result.Value{Name: l, Value: top.Locals[i]})
	}
	return s
}

// searchConcurrent is a breadth-first search over concrete configurations
// of a concurrent program with at most maxSwitches context switches, stacks
// of at most maxDepth frames, at most maxThreads threads and at most
// maxConfigs configurations; it
// returns a shortest error trace within those bounds, or nil. Like search,
// it is a brute-force judge used only by the tests.
func searchConcurrent(t testing.TB, p *ir.Program, maxSwitches, maxDepth, maxThreads, maxConfigs int) *result.Trace {
	t.Helper()
	type node struct {
		c        interp.Config
		switches int
		parent   *node
		thread   int
		edge     int
	}
	inits, err := interp.Initials(p)
	if err != nil {
		t.Fatal(err)
	}
	return searchFrom(t, p, inits, maxSwitches, maxDepth, maxThreads, maxConfigs)
}

// searchFrom is searchConcurrent from the given initial configurations.
func searchFrom(t testing.TB, p *ir.Program, inits []interp.Config, maxSwitches, maxDepth, maxThreads, maxConfigs int) *result.Trace {
	t.Helper()
	type node struct {
		c        interp.Config
		switches int
		parent   *node
		thread   int
		edge     int
	}
	var queue []*node
	seen := make(map[string]bool)
	key := func(c interp.Config, sw int) string { return c.Key() + "#" + string(rune('0'+sw)) }
	for _, c := range inits {
		if k := key(c, 0); !seen[k] {
			seen[k] = true
			queue = append(queue, &node{c: c, edge: result.NoEdge})
		}
	}
	trace := func(x *node, last result.Step) *result.Trace {
		steps := []result.Step{last}
		for ; x.parent != nil; x = x.parent {
			steps = append(steps, threadStep(p, x.parent.c, x.thread, x.edge))
		}
		for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
			steps[i], steps[j] = steps[j], steps[i]
		}
		return &result.Trace{Steps: steps}
	}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		succ, err := interp.Successors(p, x.c)
		if err != nil {
			t.Fatal(err)
		}
		// A thread that starts at an error location has reached it too
		// (the final step shows it there, if the thread may run).
		for _, tr := range succ {
			if top := x.c.Thread(tr.Thread); p.Procs[top.Proc].Locations[top.Loc].Error {
				return trace(x, threadStep(p, x.c, tr.Thread, result.NoEdge))
			}
		}
		for _, tr := range succ {
			sw := x.switches
			if x.c.Running >= 0 && tr.Thread != x.c.Running {
				sw++
			}
			if sw > maxSwitches || len(tr.Next.Threads) > maxThreads {
				continue
			}
			if top := tr.Next.Thread(tr.Thread); top != nil {
				loc := p.Procs[top.Proc].Locations[top.Loc]
				if loc.Kind == ir.FailLoc {
					return trace(x, threadStep(p, x.c, tr.Thread, tr.Edge))
				}
				if loc.Error {
					n := &node{c: tr.Next, parent: x, thread: tr.Thread, edge: tr.Edge}
					return trace(n, threadStep(p, tr.Next, tr.Thread, result.NoEdge))
				}
				if top.Depth >= maxDepth {
					continue
				}
			}
			if tr.Next.Ended() {
				continue
			}
			if k := key(tr.Next, sw); !seen[k] {
				seen[k] = true
				if len(seen) > maxConfigs {
					return nil
				}
				queue = append(queue, &node{c: tr.Next, switches: sw, parent: x, thread: tr.Thread, edge: tr.Edge})
			}
		}
	}
	return nil
}

// TestConcurrentBenchmarks searches the concurrent satabs-boppo tests with
// up to 5 context switches and 5 threads: a FAILED test must have an error
// trace within the bounds, which Replay accepts; a SUCCESSFUL one must
// have none (within the bounds and the configuration cap).
func TestConcurrentBenchmarks(t *testing.T) {
	cases := testsuite.SatabsBoppoOrSkip(t)
	n := 0
	for _, d := range cases {
		p := testsuite.LowerFile(t, d.File, d.Target)
		if !p.Concurrent {
			continue
		}
		n++
		t.Run(d.Name, func(t *testing.T) {
			if d.Name == "Threads5" {
				// The error needs 4 started threads and 5 switches: too
				// many interleavings for breadth-first brute force.
				t.Skip("too large for brute force")
			}
			tr := searchConcurrent(t, p, 5, 6, 5, 30000)
			if got := tr != nil; got != d.Failed {
				t.Fatalf("error found = %v, want %v", got, d.Failed)
			}
			if tr == nil {
				return
			}
			if err := interp.Replay(p, tr); err != nil {
				t.Errorf("Replay: %v\n%s", err, traceString(tr))
			}
			if thin := thinned(tr, 1); interp.Replay(p, thin) != nil {
				if err := interp.Replay(p, thin); !errors.Is(err, interp.ErrTooManyChoices) {
					t.Errorf("Replay with values left out: %v\n%s", err, traceString(thin))
				}
			}
			if len(tr.Steps) > 1 && !hasSwitch(tr) && strings.HasPrefix(d.Name, "Threads") {
				t.Logf("trace without a context switch (%d steps)", len(tr.Steps))
			}
		})
	}
	if n == 0 {
		t.Error("no concurrent test found")
	}
}

func hasSwitch(tr *result.Trace) bool {
	for _, s := range tr.Steps {
		if s.Switch {
			return true
		}
	}
	return false
}

func traceString(tr *result.Trace) string {
	var b strings.Builder
	result.WriteTrace(&b, tr, result.Forward)
	return b.String()
}

// threadsOf returns the threads of the transitions, e.g. "0 0 1".
func threadsOf(succ []interp.Transition) string {
	var s []string
	for _, tr := range succ {
		s = append(s, string(rune('0'+tr.Thread)))
	}
	return strings.Join(s, " ")
}

// run follows a schedule from c: at each step, the first transition of the
// given thread.
func run(t *testing.T, p *ir.Program, c interp.Config, schedule ...int) interp.Config {
	t.Helper()
	for i, th := range schedule {
		succ, err := interp.Successors(p, c)
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, tr := range succ {
			if tr.Thread == th {
				c, found = tr.Next, true
				break
			}
		}
		if !found {
			t.Fatalf("schedule step %d: thread %d cannot run in %s (runnable: %s)", i, th, c.String(p), threadsOf(succ))
		}
	}
	return c
}

func TestThreadSemantics(t *testing.T) {
	src := `decl g;
void main() begin
  decl m;
  m := T;
  ASYNC_1: f(m);
  start_thread goto L;
  atomic_begin;
  g := T;
  atomic_end;
  end_thread;
  L: m := F;
end
void f(a) begin
  decl x;
  g := a;
end
`
	p := testsuite.Lower(t, "t.bp", src, "")
	start := interp.Initial(p, []bool{false}, []bool{false})
	for _, c := range []struct {
		schedule []int
		want     string // the configuration after the schedule
		runnable string // the threads of its successors
	}{
		{nil, "g=0 || t0: main@4 m=0", "0"},
		{[]int{0}, "g=0 || t0: main@5 m=1", "0 0"}, // x is a choice
		// The thread's parameter is bound, its other local is a choice.
		{[]int{0, 0}, "g=0 || t0: main@6 m=1 || t1: f@15 a=1 x=0", "0 1"},
		// start_thread goto L: a copy of main's frame at L.
		{[]int{0, 0, 0}, "g=0 || t0: main@7 m=1 || t1: f@15 a=1 x=0 || t2: main@11 m=1", "0 1 2"},
		// Inside the atomic section only its owner runs.
		{[]int{0, 0, 0, 0}, "g=0 || t0: main@8 m=1 || t1: f@15 a=1 x=0 || t2: main@11 m=1 (atomic: t0)", "0"},
		{[]int{0, 0, 0, 0, 0, 0}, "g=1 || t0: main@10 m=1 || t1: f@15 a=1 x=0 || t2: main@11 m=1", "0 1 2"},
		// end_thread ends thread 0; the others go on; f's return ends t1.
		{[]int{0, 0, 0, 0, 0, 0, 0}, "g=1 || t0: ended || t1: f@15 a=1 x=0 || t2: main@11 m=1", "1 2"},
		{[]int{0, 0, 0, 0, 0, 0, 0, 1}, "g=1 || t0: ended || t1: ended || t2: main@11 m=1", "2"},
		{[]int{0, 0, 0, 0, 0, 0, 0, 1, 2}, "g=1 || t0: ended || t1: ended || t2: ended", ""},
	} {
		got := run(t, p, start, c.schedule...)
		if s := got.String(p); s != c.want {
			t.Errorf("after %v: %s, want %s", c.schedule, s, c.want)
		}
		succ, err := interp.Successors(p, got)
		if err != nil {
			t.Fatal(err)
		}
		if s := threadsOf(succ); s != c.runnable {
			t.Errorf("after %v: runnable threads %q, want %q", c.schedule, s, c.runnable)
		}
	}
	if end := run(t, p, start, 0, 0, 0, 0, 0, 0, 0, 1, 2); !end.Ended() {
		t.Errorf("the program has not ended: %s", end.String(p))
	}
}

// getafixSrc is in the Getafix convention: thread0 makes a, b, c pass
// through F, F, T inside its atomic section (the global atomic is T), so
// thread1 can never see it and SLIC_ERROR is unreachable; renaming the
// global makes it reachable.
const getafixSrc = `decl atomic, a, b, c;
void init() begin
  a, b, c := F, F, F;
  atomic := F;
end
void thread0() begin
  decl at;
  atomic, at := T, T;
  a, b, c := F, F, T;
  a, b, c := F, T, F;
  atomic, at := F, F;
end
void thread1() begin
  if (!a & !b & c) then
    SLIC_ERROR: skip;
  fi
end
`

func TestGetafixConvention(t *testing.T) {
	p := testsuite.Lower(t, "g.bp", getafixSrc, "")
	if tr := searchConcurrent(t, p, 4, 4, 4, 100000); tr != nil {
		t.Fatalf("error reached despite the atomic global:\n%s", traceString(tr))
	}
	// init runs alone, as thread 0; then thread0 and thread1 are threads 0
	// and 1, and the first to run is a free choice.
	start := interp.Initial(p, []bool{true, true, true, true}, nil)
	if s := start.String(p); s != "atomic=1 a=1 b=1 c=1 || t0: init@3" {
		t.Errorf("start: %s", s)
	}
	c := run(t, p, start, 0, 0)
	if s := c.String(p); s != "atomic=0 a=0 b=0 c=0 || t0: thread0@8 at=0 || t1: thread1@14" {
		t.Errorf("after init: %s", s)
	}
	c = run(t, p, c, 1, 0) // thread1 tests its condition, thread0 sets atomic
	succ, err := interp.Successors(p, c)
	if err != nil {
		t.Fatal(err)
	}
	if s := threadsOf(succ); s != "0" {
		t.Errorf("with atomic = T, runnable threads %q, want only thread 0", s)
	}

	q := testsuite.Lower(t, "g.bp", strings.ReplaceAll(getafixSrc, "atomic", "atomix"), "")
	tr := searchConcurrent(t, q, 4, 4, 4, 100000)
	if tr == nil {
		t.Fatal("no error without the atomic global")
	}
	if err := interp.Replay(q, tr); err != nil {
		t.Fatalf("Replay: %v", err)
	}
	// The same trace with the global named atomic switches while it is T.
	for i := range tr.Steps {
		for j := range tr.Steps[i].Values {
			tr.Steps[i].Values[j].Name = strings.ReplaceAll(tr.Steps[i].Values[j].Name, "atomix", "atomic")
		}
		tr.Steps[i].Text = strings.ReplaceAll(tr.Steps[i].Text, "atomix", "atomic")
	}
	err = interp.Replay(p, tr)
	if err == nil || !strings.Contains(err.Error(), "while the global atomic is T") {
		t.Errorf("Replay of a switch while atomic is T: %v", err)
	}
}

// atomicSrc: w can fail only if it runs between g := T and g := F, inside
// main's atomic section.
const atomicSrc = `decl g;
void main() begin
  g := F;
  start_thread w();
  atomic_begin;
  g := T;
  g := F;
  atomic_end;
end
void w() begin
  assert(!g);
end
`

func TestReplayConcurrentRejects(t *testing.T) {
	p := testsuite.Lower(t, "a.bp", atomicSrc, "")
	if tr := searchConcurrent(t, p, 4, 4, 4, 100000); tr != nil {
		t.Fatalf("error reached inside an atomic section:\n%s", traceString(tr))
	}
	// Without the section (same lines and edges, other texts) the error
	// is reachable; that trace, relabelled, switches inside the section.
	q := testsuite.Lower(t, "a.bp", strings.NewReplacer("atomic_begin", "skip", "atomic_end", "skip").Replace(atomicSrc), "")
	bad := searchConcurrent(t, q, 4, 4, 4, 100000)
	if bad == nil {
		t.Fatal("no error without the atomic section")
	}
	if err := interp.Replay(q, bad); err != nil {
		t.Fatalf("Replay: %v", err)
	}
	for i := range bad.Steps {
		s := &bad.Steps[i]
		if s.Edge >= 0 {
			s.Text = p.Proc(s.Proc).Edges[s.Edge].Text
		}
	}
	if err := interp.Replay(p, bad); err == nil || !strings.Contains(err.Error(), "a context switch to thread 1 inside the atomic section of thread 0") {
		t.Errorf("switch inside an atomic section: %v", err)
	}

	// A valid trace of Threads2's shape, corrupted.
	src := `decl g0;
void t1() begin
  assert(g0);
end
void main() begin
  g0 := T;
  ASYNC_1: t1();
  g0 := F;
end
`
	p = testsuite.Lower(t, "t.bp", src, "")
	good := searchConcurrent(t, p, 2, 4, 4, 100000)
	if good == nil {
		t.Fatal("no error found")
	}
	if err := interp.Replay(p, good); err != nil {
		t.Fatalf("Replay: %v\n%s", err, traceString(good))
	}
	if got := len(good.Steps); got != 4 || good.Steps[2].Thread != 0 || good.Steps[3].Thread != 1 {
		t.Fatalf("unexpected trace:\n%s", traceString(good))
	}
	clone := func() *result.Trace {
		tr := &result.Trace{Steps: append([]result.Step(nil), good.Steps...)}
		return tr
	}
	for _, c := range []struct {
		name    string
		corrupt func(tr *result.Trace)
		want    string
	}{
		{"thread not yet created", func(tr *result.Trace) { tr.Steps[1].Thread = 1 }, "step 2: thread 1: line 7: thread 1 does not exist (1 threads started)"},
		{"wrong thread", func(tr *result.Trace) { tr.Steps[2].Thread = 1 }, "step 3: thread 1: line 8: the execution is in t1, not main"},
		{"thread 2", func(tr *result.Trace) { tr.Steps[3].Thread = 2 }, "thread 2 does not exist (2 threads started)"},
		{"ended thread", func(tr *result.Trace) {
			// main ends after g0 := F; then a step of thread 0 again.
			tr.Steps = append(tr.Steps[:3:3], tr.Steps[2], tr.Steps[3])
		}, "step 4: thread 0: line 8: thread 0 has ended"},
		{"negative thread", func(tr *result.Trace) { tr.Steps[0].Thread = -1 }, "step 1: the trace does not start at the entry of main"},
		{"unmarked switch", func(tr *result.Trace) { tr.Steps[3].Switch = false }, "step 4: thread 1: line 3: a context switch from thread 0 to thread 1 that the step does not mark"},
		{"marked non-switch", func(tr *result.Trace) { tr.Steps[1].Switch = true }, "step 2: thread 0: line 7: the step is marked as a context switch, but it is not one"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := clone()
			c.corrupt(tr)
			err := interp.Replay(p, tr)
			if err == nil {
				t.Fatalf("corrupted trace accepted")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want it to contain %q", err, c.want)
			}
		})
	}

	// A thread in a sequential program.
	p = testsuite.Lower(t, "s.bp", "void main() begin assert(F); end\n", "")
	tr := &result.Trace{Steps: []result.Step{threadStep(p, interp.Initial(p, nil, nil), 0, 1)}}
	if err := interp.Replay(p, tr); err != nil {
		t.Fatalf("Replay: %v", err)
	}
	tr.Steps = append(tr.Steps, tr.Steps[0])
	tr.Steps[0].Thread = 0
	tr.Steps[1].Thread = 1
	tr.Steps = tr.Steps[1:]
	if err := interp.Replay(p, tr); err == nil || !strings.Contains(err.Error(), "thread 1") {
		t.Errorf("thread 1 in a sequential program: %v", err)
	}
}

// TestGetafixBenchmarks searches Getafix's regression programs from the
// state where every variable is F (init assigns every global): the two
// test programs are safe (an atomic section hides the bad state; the label
// follows assume(F)), and fib_3_unsafe's error (i or j reaches 21 after
// three additions in each thread: six contexts, then main) is found within
// 6 context switches and replays.
func TestGetafixBenchmarks(t *testing.T) {
	dir := "../../shared/benchmarks/getafix/"
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("Getafix benchmarks not found (the repository must sit beside shared/, see README): %v", err)
	}
	for _, c := range []struct {
		name     string
		switches int
		unsafe   bool
	}{
		{"testGetafix", 4, false},
		{"testGetafixAtomic", 4, false},
		{"fib_3_unsafe", 6, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.unsafe && !testflags.Long() {
				t.Skip("a million configurations: the long tier's")
			}
			p := testsuite.LowerFile(t, dir+c.name+".bp", "")
			start := interp.Initial(p, make([]bool, len(p.Globals)), make([]bool, interp.StartLocals(p)))
			tr := searchFrom(t, p, []interp.Config{start}, c.switches, 3, 3, 1000000)
			if got := tr != nil; got != c.unsafe {
				t.Fatalf("error found = %v, want %v", got, c.unsafe)
			}
			if tr != nil {
				if err := interp.Replay(p, tr); err != nil {
					t.Errorf("Replay: %v\n%s", err, traceString(tr))
				}
				if err := interp.Replay(p, thinned(tr, 2)); err != nil && !errors.Is(err, interp.ErrTooManyChoices) {
					t.Errorf("Replay with values left out: %v", err)
				}
			}
		})
	}
}

// thinned returns tr with about a third of its values left out, chosen
// with the given seed.
func thinned(tr *result.Trace, seed uint64) *result.Trace {
	rng := rand.New(rand.NewPCG(seed, 2))
	thin := &result.Trace{Steps: append([]result.Step(nil), tr.Steps...)}
	for i := range thin.Steps {
		var kept []result.Value
		for _, v := range thin.Steps[i].Values {
			if rng.IntN(3) > 0 {
				kept = append(kept, v)
			}
		}
		thin.Steps[i].Values = kept
	}
	return thin
}
