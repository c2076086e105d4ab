package explicit_test

import (
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"bytes"
	"fmt"
	"testing"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// TestRandomPrograms runs the engine on 1,000 generated programs: every
// unsafe verdict's trace must replay, and the verdict and trace length must
// agree with a brute-force breadth-first search over concrete
// configurations (package interp) wherever that search is conclusive.
func TestRandomPrograms(t *testing.T) {
	n := testflags.N(30, 60, 1000, 1000)
	var unsafe, safe, compared int
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, gen.Options{})
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		res := check(t, p, engine.Query{})
		switch res.Verdict {
		case result.Unsafe:
			unsafe++
		case result.Safe:
			safe++
		default:
			t.Fatalf("seed %d: %s %s", seed, res.Verdict, res.Reason)
		}
		if seed%5 != 0 || testing.Short() { // the brute force is slower: compare on a fifth
			continue
		}
		bf := bruteForce(p, 6, 50000)
		if bf.capped {
			continue
		}
		compared++
		fail := func(format string, args ...any) {
			var b bytes.Buffer
			result.WriteTrace(&b, res.Trace, result.Forward)
			t.Errorf("seed %d: %s\nexplicit trace:\n%s\nprogram:\n%s", seed, fmt.Sprintf(format, args...), b.String(), src)
		}
		switch {
		case bf.length >= 0 && res.Verdict != result.Unsafe:
			fail("brute force reaches an error in %d steps, explicit says %s", bf.length, res.Verdict)
		case bf.length >= 0 && len(res.Trace.Steps) > bf.length:
			fail("brute force reaches an error in %d steps, explicit trace has %d", bf.length, len(res.Trace.Steps))
		case res.Verdict == result.Unsafe && maxDepth(res.Trace) < 6-1 && bf.length != len(res.Trace.Steps):
			fail("explicit trace has %d steps within the stack bound, brute force found %d", len(res.Trace.Steps), bf.length)
		case bf.length < 0 && !bf.pruned && res.Verdict != result.Safe:
			fail("brute force exhausted the state space without error, explicit says %s", res.Verdict)
		}
	}
	t.Logf("%d programs: %d unsafe, %d safe; %d compared with brute force", n, unsafe, safe, compared)
	if unsafe == 0 || safe == 0 {
		t.Errorf("the generator should produce both safe and unsafe programs")
	}
}

func maxDepth(tr *result.Trace) int {
	d := 0
	for _, s := range tr.Steps {
		d = max(d, s.Depth)
	}
	return d
}

// bruteForceResult is the outcome of bruteForce.
type bruteForceResult struct {
	length int  // steps of a shortest error trace within the bounds, or -1
	pruned bool // some transition exceeded the stack bound
	capped bool // the configuration limit was hit: inconclusive
}

// bruteForce searches breadth-first over concrete configurations with at
// most maxStack frames, from every initial state, for the fewest steps to an
// error (counted as in result traces: a failing assert's step, or one final
// step at a target label).
func bruteForce(p *ir.Program, maxStack, maxConfigs int) bruteForceResult {
	type node struct {
		c interp.Config
		d int
	}
	seen := make(map[string]bool)
	var queue []node
	inits, err := interp.Initials(p)
	if err != nil {
		panic(err)
	}
	for _, c := range inits {
		if !seen[c.Key()] {
			seen[c.Key()] = true
			queue = append(queue, node{c, 0})
		}
	}
	r := bruteForceResult{length: -1}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if r.length >= 0 && x.d >= r.length {
			break // no later error can be shorter
		}
		if x.c.AtError(p) {
			cost := x.d + 1 // the final step at a target label
			top := x.c.Top()
			if p.Procs[top.Proc].Locations[top.Loc].Kind == ir.FailLoc {
				cost = x.d // the failing assert was the last step
			}
			if r.length < 0 || cost < r.length {
				r.length = cost
			}
			continue
		}
		succ, err := interp.Successors(p, x.c)
		if err != nil {
			panic(err)
		}
		for _, tr := range succ {
			if tr.Next.Ended() {
				continue
			}
			if tr.Next.Depth() >= maxStack {
				r.pruned = true
				continue
			}
			if k := tr.Next.Key(); !seen[k] {
				seen[k] = true
				if len(seen) > maxConfigs {
					return bruteForceResult{capped: true}
				}
				queue = append(queue, node{tr.Next, x.d + 1})
			}
		}
	}
	return r
}
