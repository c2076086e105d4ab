package concprod_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concprod"
	"boolprog/engine/explicit"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

func cs(k int) result.Bound { return result.Bound{Kind: result.ContextSwitches, K: k} }

func rounds(k int) result.Bound { return result.Bound{Kind: result.Rounds, K: k} }

func newEngine(t testing.TB, o concprod.Options) engine.Engine {
	e, err := concprod.NewWithOptions(o)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func oracle(t testing.TB) func() engine.Engine {
	return func() engine.Engine {
		e, err := explicit.NewWithOptions(explicit.Options{MaxStates: 20000})
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
}

func lowerGetafix(t testing.TB, path string) *ir.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return testsuite.LowerDialect(t, path, string(src), syntax.Getafix, "")
}

// TestConcurrentConformance runs the bounded-concurrent conformance suite:
// the satabs-boppo Threads* tests and Getafix's fib at their first-error
// bounds (the slow ones with -long), and random non-recursive programs
// against the explicit oracle.
func TestConcurrentConformance(t *testing.T) {
	testsuite.ConcurrentConformance(t, testsuite.ConcurrentConfig{
		New: func(o testsuite.ConcEngineOptions) engine.Engine {
			return newEngine(t, concprod.Options{MaxThreads: o.MaxThreads})
		},
		Oracle: oracle(t),
		Long:   testflags.Long(),
		Random: testsuite.ConcConfig{Options: gen.Options{Omit: gen.Recursion}, Seed: 500},
	})
}

// TestDifferential runs the engine against the explicit oracle on random
// concurrent programs without recursion (both conventions), at 0, 1 and 2
// context switches, 1 and 2 rounds and without a bound (-long: 250
// programs; -full: 1,000). Check replays every trace.
func TestDifferential(t *testing.T) {
	n := testflags.N(10, 24, 250, 1000)
	st := testsuite.ConcurrentDifferential(t, testsuite.ConcConfig{
		New:      func() engine.Engine { return newEngine(t, concprod.Options{}) },
		Oracle:   oracle(t),
		Programs: n,
		Bounds:   []result.Bound{cs(0), cs(1), cs(2), rounds(1), rounds(2), {}},
		Threads:  []int{2, 2, 3},
		Options:  gen.Options{Omit: gen.Recursion},
		Timeout:  10 * time.Second,
	})
	// Unknown only where the time runs out or a run could create more
	// threads than the limit: never more often than the oracle.
	if st.EngineUnknown > st.OracleUnknown {
		t.Errorf("the engine left %d checks unknown, the oracle %d: %s", st.EngineUnknown, st.OracleUnknown, st)
	}
	if st.Agree == 0 || st.Unsafe == 0 || st.Unsafe == st.Agree {
		t.Errorf("the run decided too little to mean anything: %s", st)
	}
}

// TestRecursion checks that a recursive thread gets UNKNOWN with the
// cycle named.
func TestRecursion(t *testing.T) {
	src := `decl g, atomic;
void init() begin g := F; atomic := F; end
void f() begin if (*) then f(); fi g := T; end
void thread0() begin f(); end
void thread1() begin assert(!g); end
`
	p := testsuite.LowerDialect(t, "rec.bp", src, syntax.Getafix, "")
	res := testsuite.Check(t, concprod.New(), p, engine.Query{Bound: cs(2)})
	if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "recursion (f → f)") {
		t.Errorf("got %s (%s), want unknown for the recursion f → f", res.Verdict, res.Reason)
	}
}

// TestUnbounded checks proofs without a bound: a program whose error
// needs an interleaving that no bound below 3 switches allows, and a
// safe one whose SUCCESSFUL is a proof (no bound on the answer).
func TestUnbounded(t *testing.T) {
	src := `decl x, y, atomic;
void init() begin x, y, atomic := F, F, F; end
void thread0() begin x := T; y := T; x := F; end
void thread1() begin if (x & !y) then skip; fi assert(!(y & !x)); end
`
	p := testsuite.LowerDialect(t, "u.bp", src, syntax.Getafix, "")
	res := testsuite.Check(t, concprod.New(), p, engine.Query{})
	if res.Verdict != result.Unsafe || res.Bound.Kind != result.Unbounded {
		t.Errorf("got %s %s, want unsafe without a bound", res.Verdict, res.Bound)
	}
	safe := `decl x, atomic;
void init() begin x, atomic := F, F; end
void thread0() begin atomic := T; x := T; x := F; atomic := F; end
void thread1() begin assert(!x); end
`
	p = testsuite.LowerDialect(t, "s.bp", safe, syntax.Getafix, "")
	res = testsuite.Check(t, concprod.New(), p, engine.Query{})
	if res.Verdict != result.Safe || res.Bound.Kind != result.Unbounded || res.Stats.Counters["exhaustive"] != 1 {
		t.Errorf("got %s %s %v, want a proof", res.Verdict, res.Bound, res.Stats.Counters)
	}
}

// TestBluetooth checks the Bluetooth model against the Getafix paper's
// table (Fig. 3): 1 adder + 1 stopper safe up to 6 switches, 1+2 first
// error at 3, 2+1 at 4, 2+2 at 3; and 1+1 without a bound.
func TestBluetooth(t *testing.T) {
	for _, c := range []struct {
		file  string
		bound result.Bound
		first int // -1: safe
	}{
		{"bluetooth_1_1.bp", cs(6), -1},
		{"bluetooth_1_2.bp", cs(6), 3},
		{"bluetooth_2_1.bp", cs(6), 4},
		{"bluetooth_2_2.bp", cs(6), 3},
	} {
		p := lowerGetafix(t, filepath.Join("../../examples/bluetooth", c.file))
		res := testsuite.Check(t, concprod.New(), p, engine.Query{Bound: c.bound})
		want := result.Bound{Kind: c.bound.Kind, K: c.first}
		switch {
		case c.first < 0 && res.Verdict != result.Safe:
			t.Errorf("%s at %s: %s (%s), want safe", c.file, c.bound, res.Verdict, res.Reason)
		case c.first >= 0 && (res.Verdict != result.Unsafe || res.Bound != want):
			t.Errorf("%s at %s: %s at %s, want the first error at %s", c.file, c.bound, res.Verdict, res.Bound, want)
		case c.first >= 0:
			if err := testsuite.TraceFits(res.Trace, want); err != nil {
				t.Errorf("%s: the trace does not fit %s: %v", c.file, want, err)
			}
		}
	}
}

// fibDir returns Getafix's benchmark directory, or skips.
func fibDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(testsuite.ConcBenchDir(t), "getafix")
}

// TestFib checks Getafix's fib programs at 4 rounds against Mucke's values
// on Getafix's own models: fib_3_unsafe reachable, the others not.
func TestFib(t *testing.T) {
	for _, c := range []struct {
		name   string
		unsafe bool
	}{
		{"fib_3_unsafe", true}, {"fib_3_safe", false}, {"fib_4_unsafe", false}, {"fib_5_unsafe", false},
	} {
		p := lowerGetafix(t, filepath.Join(fibDir(t), c.name+".bp"))
		res := testsuite.Check(t, concprod.New(), p, engine.Query{Bound: rounds(4)})
		if got := res.Verdict == result.Unsafe; got != c.unsafe || res.Verdict == result.Unknown {
			t.Errorf("%s at rounds:4: %s (%s), want unsafe %v", c.name, res.Verdict, res.Reason, c.unsafe)
		}
	}
}

// TestWholeThreadBlocks checks the blocks of the partitioned relation: by
// default a thread's relation is one block where that block is no larger
// than the blocks merged by size (testdata/blocks.bp: one block for each
// thread and one for init), never when the user sets the blocks' size;
// and the answer, its bound and the trace do not depend on the blocks.
func TestWholeThreadBlocks(t *testing.T) {
	p := lowerGetafix(t, filepath.Join("testdata", "blocks.bp"))
	tests := []struct {
		name            string
		cluster         int
		atLeast, atMost int // relation_groups
	}{
		{"default", 0, 4, 4},
		{"2000 given", concprod.DefaultClusterNodes, 5, 1 << 20},
		{"one per changed set", -1, 5, 1 << 20},
	}
	first := make(map[result.Bound]*result.Result)
	for _, tt := range tests {
		for _, b := range []result.Bound{rounds(2), cs(2)} {
			res := testsuite.Check(t, newEngine(t, concprod.Options{ClusterNodes: tt.cluster}), p, engine.Query{Bound: b})
			if n := int(res.Stats.Counters["relation_groups"]); n < tt.atLeast || n > tt.atMost {
				t.Errorf("%s, %s: %d blocks, want %d to %d", tt.name, b, n, tt.atLeast, tt.atMost)
			}
			if res.Verdict == result.Unknown {
				t.Fatalf("%s, %s: %s (%s)", tt.name, b, res.Verdict, res.Reason)
			}
			f, ok := first[b]
			if !ok {
				first[b] = res
				continue
			}
			if res.Verdict != f.Verdict || res.Bound != f.Bound || steps(res) != steps(f) {
				t.Errorf("%s, %s: %s %s (%d steps), by default %s %s (%d steps)", tt.name, b, res.Verdict, res.Bound, steps(res), f.Verdict, f.Bound, steps(f))
			}
		}
	}
}

// steps returns the length of res's trace (0: none).
func steps(res *result.Result) int {
	if res.Trace == nil {
		return 0
	}
	return len(res.Trace.Steps)
}
