package boolprog_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"boolprog"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
)

// TestNodeLimitNeverUnsafe runs every engine that uses BDDs on safe
// programs with node limits that stop it at different points of its
// search, and fails on a FAILED answer: an operation of a manager out of
// nodes (or interrupted by a timeout, the same path) returns bdd.Invalid,
// which is not bdd.False, and a test "is the error set empty?" that does
// not look for it reads a stopped search as an error found. The node
// limit makes the stop deterministic where a timeout would not.
func TestNodeLimitNeverUnsafe(t *testing.T) {
	type program struct {
		name  string
		src   string
		bound boolprog.Bound
		// limits from first to last in steps of step (finer steps in the
		// long tier): below what the engines need.
		first, last, step int
	}
	sweep := func(t *testing.T, p program) {
		step := p.step
		if testflags.Long() {
			step = max(step/3, 250)
		}
		for _, e := range boolprog.Engines() {
			if !e.NodeLimited {
				continue
			}
			for n := p.first; n <= p.last; n += step {
				t.Run(fmt.Sprintf("%s/%d", e.Name, n), func(t *testing.T) {
					o := boolprog.Options{Filename: p.name + ".bp", Engine: e.Name, MaxNodes: n, Bound: p.bound}
					res, err := boolprog.Check(context.Background(), []byte(p.src), o)
					if err != nil {
						t.Skipf("not for this engine: %v", err)
					}
					if res.Verdict == boolprog.Unsafe {
						t.Errorf("FAILED on a safe program with %d nodes (%s)", n, res.Reason)
					}
				})
			}
		}
	}
	// The Bebop template with an unreachable error: every engine explores
	// what it can reach before it answers.
	tn, tlast := 120, 12000
	if testflags.Long() {
		tn, tlast = 200, 24000
	}
	name := fmt.Sprintf("T(%d)", tn)
	t.Run(name, func(t *testing.T) {
		sweep(t, program{name, gen.BebopTemplateWith(tn, gen.UnreachableError), boolprog.Bound{}, 1000, tlast, 1500})
	})
	// Safe at 4 rounds (Getafix's model says so too).
	t.Run("fib_3_safe", func(t *testing.T) {
		src, err := os.ReadFile(filepath.Join(testsuite.ConcBenchDir(t), "getafix", "fib_3_safe.bp"))
		if err != nil {
			t.Fatal(err)
		}
		sweep(t, program{"fib_3_safe", string(src), boolprog.Bound{Kind: boolprog.Rounds, K: 4}, 2000, 20000, 1500})
	})
}
