package concprod_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concprod"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// TestTransparentLocations checks which locations the search does not
// switch away from (transparent.go), by their count, and that the answer
// and its bound are those of a search that switches everywhere.
func TestTransparentLocations(t *testing.T) {
	const head = "decl g, h, atomic;\nvoid init() begin g, h, atomic := F, F, F; end\nvoid thread1() begin g := T; g := F; end\nbool f(x) begin return !x; end\n"
	tests := []struct {
		name   string
		thread string // thread2's body
		want   int
	}{
		// Before a := g: reads g. Before b := !a and c := a & b: local,
		// always enabled. Before h := c: writes h.
		{"straight", "decl a, b, c; a := g; b := !a; c := a & b; h := c; assert(!c);", 2},
		// The two branches of an if on a local are exhaustive; the
		// assignment after them is local too.
		{"branch", "decl a, b; a := g; if (a) then b := T; else b := F; fi b := !b; assert(b | !g);", 4},
		// An assume on a local can block: not transparent.
		{"assume", "decl a, b; a := g; assume(a); b := a; assert(!b);", 1},
		// A loop of local steps: none of its locations is transparent.
		{"loop", "decl a, b; a := g; while (a) do b := !b; od assert(!b);", 0},
		// A step into the exit is not transparent (it ends the thread).
		{"exit", "decl a; a := g; a := !a;", 0},
		// Nor a call, even of a procedure that touches no global.
		{"call", "decl a, b; a := g; b := f(a); b := !b; assert(b);", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := head + "void thread2() begin " + tt.thread + " end\n"
			p := testsuite.LowerDialect(t, tt.name+".bp", src, syntax.Getafix, "")
			for _, b := range []result.Bound{cs(2), rounds(2), {}} {
				q := engine.Query{Bound: b}
				got := testsuite.Check(t, concprod.New(), p, q)
				all := testsuite.Check(t, newEngine(t, concprod.Options{AllSwitchPoints: true}), p, q)
				if n := got.Stats.Counters["transparent_locations"]; n != int64(tt.want) {
					t.Errorf("%s: %d transparent locations, want %d", b, n, tt.want)
				}
				if got.Verdict != all.Verdict || got.Bound != all.Bound {
					t.Errorf("%s: %s %s, switching everywhere %s %s", b, got.Verdict, got.Bound, all.Verdict, all.Bound)
				}
			}
		})
	}
}

// TestSwitchPointsDifferential compares the search with and without the
// reduction on random programs rich in locals (few globals, many locals):
// the same answers at the same least bounds, traces replayed (-long: 200
// programs).
func TestSwitchPointsDifferential(t *testing.T) {
	n := testflags.N(2, 6, 200, 600)
	reduced, all, _, _, _ := reductionDifferential(t, n, gen.Options{Globals: 3, MaxLocals: 6, Procs: 2, Stmts: 6, Omit: gen.Recursion},
		[]result.Bound{cs(1), cs(2), rounds(2)}, 10*time.Second, concprod.Options{AllSwitchPoints: true})
	t.Logf("%d programs: peak BDD nodes summed, reduced %d, switching everywhere %d", n, reduced, all)
}

// TestMacroStepsDifferential compares the search by macro steps (the
// default) with the search one step at a time on random programs with
// atomic stretches and local code, the macro steps taken through their
// relations (built at once) and step by step: the same answers at the
// same least bounds, traces replayed (-long: 60 programs).
func TestMacroStepsDifferential(t *testing.T) {
	n := testflags.N(2, 3, 60, 400)
	bounds := []result.Bound{cs(1), cs(2), rounds(2)}
	if testflags.Long() {
		bounds = append(bounds, result.Bound{})
	}
	thread := gen.Options{Globals: 3, MaxLocals: 4, Procs: 2, Stmts: 8, Omit: gen.Recursion}
	for _, c := range []struct {
		name          string
		after, budget time.Duration
	}{
		{"step by step", time.Hour, 0},
		{"by their relations", 0, time.Minute},
		// Each try as long as the steps so far: most end late, and the
		// next goes on from where the last stopped.
		{"by their relations, built in pieces", 0, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			defer concprod.SetMacroRel(c.after, c.budget)()
			macro, micro, unsafe, built, tries := reductionDifferential(t, n, thread, bounds, 20*time.Second, concprod.Options{MicroSteps: true})
			if c.budget == 0 && c.after == 0 && tries <= built && n >= 3 {
				t.Errorf("%d programs: %d relations built in %d tries: no build was resumed", n, built, tries)
			}
			if unsafe == 0 && n >= 3 {
				t.Errorf("%d programs: no unsafe answer compared", n)
			}
			t.Logf("%d programs, %d unsafe answers: peak BDD nodes summed, macro steps %d, one step at a time %d", n, unsafe, macro, micro)
		})
	}
}

// reductionDifferential checks a reduction of the search, on by default,
// against the search with options off (the reduction turned off) on n
// random concurrent programs (seeds 1..n, 2 or 3 threads shaped by
// thread, CProver precedence), at each bound with the time limit each:
// the same answers at the same least bounds, every trace replayed. It
// returns the peak BDD nodes summed with the reduction and without, and
// the number of unsafe answers compared.
func reductionDifferential(t *testing.T, n int, thread gen.Options, bounds []result.Bound, limit time.Duration, off concprod.Options) (reduced, full, unsafe, built, tries int) {
	t.Helper()
	for seed := int64(1); seed <= int64(n); seed++ {
		src, p := randomProgram(t, seed, thread)
		for _, b := range bounds {
			ctx, cancel := context.WithTimeoutCause(context.Background(), limit, engine.ErrTimeout)
			q := engine.Query{Bound: b}
			got := testsuite.CheckContext(ctx, t, concprod.New(), p, q)
			want := testsuite.CheckContext(ctx, t, newEngine(t, off), p, q)
			cancel()
			if got.Verdict == result.Unknown || want.Verdict == result.Unknown {
				continue
			}
			if got.Verdict != want.Verdict || got.Bound != want.Bound {
				t.Errorf("seed %d at %s: %s %s, without the reduction %s %s\n%s", seed, b, got.Verdict, got.Bound, want.Verdict, want.Bound, src)
			}
			if got.Verdict == result.Unsafe {
				unsafe++
			}
			reduced += int(got.Stats.Counters["peak_nodes"])
			full += int(want.Stats.Counters["peak_nodes"])
			built += int(got.Stats.Counters["macro_relations"])
			tries += int(got.Stats.Counters["macro_relation_tries"])
		}
	}
	return reduced, full, unsafe, built, tries
}

// randomProgram is the random concurrent program of seed (2 or 3 threads,
// each shaped by thread, CProver precedence) the package's differentials
// check, as text and lowered.
func randomProgram(t *testing.T, seed int64, thread gen.Options) (string, *ir.Program) {
	t.Helper()
	src := gen.RandomConcurrent(seed, gen.ConcOptions{Threads: 2 + int(seed%2), Thread: thread})
	return src, testsuite.LowerDialect(t, fmt.Sprintf("r%d.bp", seed), src, syntax.CProver, "")
}
