package explicit_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// lowerGetafix lowers a file in the Getafix convention with the getafix
// operator precedence (as the CLI's auto dialect does).
func lowerGetafix(t *testing.T, path string) *ir.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return testsuite.LowerDialect(t, path, string(src), syntax.Getafix, "")
}

func cs(k int) result.Bound     { return result.Bound{Kind: result.ContextSwitches, K: k} }
func rounds(k int) result.Bound { return result.Bound{Kind: result.Rounds, K: k} }

// firstError checks that p's error appears first at bound want: Unsafe at
// the query's bound with want as the answer's bound, not Unsafe one below
// (Safe, or Unknown if the program could create more threads than the
// engine's limit).
func firstError(t *testing.T, eng engine.Engine, p *ir.Program, query, want result.Bound) {
	t.Helper()
	res := testsuite.Check(t, eng, p, engine.Query{Bound: query})
	if res.Verdict != result.Unsafe || res.Bound != want {
		t.Fatalf("at %s: %s (%s) with bound %s, want the error at %s", query, res.Verdict, res.Reason, res.Bound, want)
	}
	if err := testsuite.TraceFits(res.Trace, want); err != nil {
		t.Fatal(err)
	}
	below := want
	below.K--
	if below.K >= 0 {
		if res := testsuite.Check(t, eng, p, engine.Query{Bound: below}); res.Verdict == result.Unsafe {
			t.Fatalf("at %s: unsafe, want the first error at %s", below, want)
		}
	}
}

// TestBluetooth checks the first-error bounds of our Bluetooth driver
// model against Getafix's Fig. 3: 1 adder + 1 stopper safe up to 6
// context switches (and, the oracle finds, in every interleaving), 1+2
// first error at 3 switches, 2+1 at 4, 2+2 at 3.
func TestBluetooth(t *testing.T) {
	for _, c := range []struct {
		file  string
		first int // -1: safe
	}{
		{"bluetooth_1_1.bp", -1},
		{"bluetooth_1_2.bp", 3},
		{"bluetooth_2_1.bp", 4},
		{"bluetooth_2_2.bp", 3},
	} {
		t.Run(c.file, func(t *testing.T) {
			if c.file == "bluetooth_2_2.bp" && !testflags.Long() {
				t.Skip("the largest model (tens of seconds): the long tier's")
			}
			p := lowerGetafix(t, filepath.Join("../../examples/bluetooth", c.file))
			if c.first < 0 {
				for _, q := range []engine.Query{{Bound: cs(6)}, {}} {
					if res := testsuite.Check(t, explicit.New(), p, q); res.Verdict != result.Safe || res.Bound != q.Bound {
						t.Fatalf("%s: %s %s (%s)", q.Bound, res.Verdict, res.Bound, res.Reason)
					}
				}
				return
			}
			firstError(t, explicit.New(), p, cs(6), cs(c.first))
		})
	}
}

// TestSatabsConcurrent runs the 14 concurrent satabs-boppo tests without a
// bound (thread limit 5: Threads3 and Threads5 start threads in a loop and
// fail with 3 and 5 of them) and at 0 to 3 context switches. Each FAILED
// one is found, at the smallest bound that the log lists; each SUCCESSFUL
// one is proved safe by exhaustive exploration and safe at every bound.
func TestSatabsConcurrent(t *testing.T) {
	eng, err := explicit.NewWithOptions(explicit.Options{MaxThreads: 5})
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	n := 0
	for _, d := range testsuite.SatabsBoppoOrSkip(t) {
		p := testsuite.LowerFile(t, d.File, d.Target)
		if !p.Concurrent {
			continue
		}
		n++
		t.Run(d.Name, func(t *testing.T) {
			if d.Name == "Threads5" && !testflags.Full() {
				t.Skip("tens of seconds: run with -full (the conformance suite's Golden checks its verdict with -long)")
			}
			res := testsuite.Check(t, eng, p, engine.Query{})
			if d.Failed {
				if res.Verdict != result.Unsafe {
					t.Fatalf("%s (%s), want unsafe", res.Verdict, res.Reason)
				}
				found = append(found, d.Name+" at "+res.Bound.String())
				if res.Bound.K <= 3 {
					firstError(t, eng, p, cs(3), res.Bound)
				}
				return
			}
			if res.Verdict != result.Safe || res.Bound.Kind != result.Unbounded {
				t.Fatalf("%s %s (%s), want a proof", res.Verdict, res.Bound, res.Reason)
			}
			for k := 0; k <= 3; k++ {
				for _, b := range []result.Bound{cs(k), rounds(k + 1)} {
					if res := testsuite.Check(t, eng, p, engine.Query{Bound: b}); res.Verdict != result.Safe {
						t.Fatalf("at %s: %s", b, res.Verdict)
					}
				}
			}
		})
	}
	if n != 14 {
		t.Errorf("%d concurrent tests, want 14", n)
	}
	t.Logf("first errors: %s", strings.Join(found, "; "))
}

// TestGetafixFib checks Getafix's fib programs: each unsafe one is found
// at its smallest bound (in context switches and in rounds: its bug needs
// more rounds than the 4 of the Mucke models for fib_4 and fib_5, as the
// benchmarks' README says), and fib_3_safe is proved safe.
func TestGetafixFib(t *testing.T) {
	dir := ""
	if cases := testsuite.SatabsBoppoOrSkip(t); len(cases) > 0 {
		dir = filepath.Join(filepath.Dir(filepath.Dir(cases[0].File)), "..", "getafix")
	}
	for _, c := range []struct {
		name       string
		cs, rounds int // smallest bounds; 0: safe
		long       bool
	}{
		{"fib_3_unsafe", 6, 4, false},
		{"fib_3_safe", 0, 0, false},
		{"fib_4_unsafe", 8, 5, true},
		{"fib_5_unsafe", 10, 6, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.long && !testflags.Full() {
				t.Skip("tens of seconds: run with -full")
			}
			p := lowerGetafix(t, filepath.Join(dir, c.name+".bp"))
			if c.cs == 0 {
				if res := testsuite.Check(t, explicit.New(), p, engine.Query{}); res.Verdict != result.Safe || res.Bound.Kind != result.Unbounded {
					t.Fatalf("%s %s (%s), want a proof", res.Verdict, res.Bound, res.Reason)
				}
				return
			}
			res := testsuite.Check(t, explicit.New(), p, engine.Query{})
			if res.Verdict != result.Unsafe || res.Bound != cs(c.cs) {
				t.Fatalf("%s at %s, want unsafe at %s", res.Verdict, res.Bound, cs(c.cs))
			}
			firstError(t, explicit.New(), p, rounds(c.rounds+2), rounds(c.rounds))
		})
	}
}
