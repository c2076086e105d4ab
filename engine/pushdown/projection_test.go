package pushdown_test

import (
	"context"
	"fmt"
	"testing"

	"boolprog/engine/pushdown"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/ir"
)

// bruteProjection computes the error projection by brute force over the
// concrete configurations of interp: every configuration reachable from an
// initial one (runs stop at the first error) from which an error
// configuration is reachable, as (procedure, location) → the set of states
// of the top frame (globals, then locals, as a string of 0s and 1s).
// Stacks deeper than maxDepth are not explored, and at most maxConfigs
// configurations; complete is false if either cut anything off.
func bruteProjection(t *testing.T, p *ir.Program, maxDepth, maxConfigs int) (proj map[[2]int]map[string]bool, complete bool) {
	t.Helper()
	inits, err := interp.Initials(p)
	if err != nil {
		t.Fatal(err)
	}
	index := map[string]int{}
	var configs []interp.Config
	var succ [][]int
	add := func(c interp.Config) int {
		k := c.Key()
		if i, ok := index[k]; ok {
			return i
		}
		index[k] = len(configs)
		configs = append(configs, c)
		succ = append(succ, nil)
		return len(configs) - 1
	}
	for _, c := range inits {
		add(c)
	}
	complete = true
	for i := 0; i < len(configs); i++ {
		c := configs[i]
		if c.AtError(p) || c.Ended() {
			continue
		}
		if c.Depth() >= maxDepth || len(configs) >= maxConfigs {
			complete = false
			continue
		}
		ts, err := interp.Successors(p, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range ts {
			j := add(tr.Next)
			succ[i] = append(succ[i], j)
		}
	}
	pred := make([][]int, len(configs))
	for i, ss := range succ {
		for _, j := range ss {
			pred[j] = append(pred[j], i)
		}
	}
	co := make([]bool, len(configs))
	var work []int
	for i, c := range configs {
		if c.AtError(p) {
			co[i] = true
			work = append(work, i)
		}
	}
	for len(work) > 0 {
		j := work[len(work)-1]
		work = work[:len(work)-1]
		for _, i := range pred[j] {
			if !co[i] {
				co[i] = true
				work = append(work, i)
			}
		}
	}
	proj = map[[2]int]map[string]bool{}
	for i, c := range configs {
		if !co[i] {
			continue
		}
		f := c.Top()
		k := [2]int{f.Proc, f.Loc}
		if proj[k] == nil {
			proj[k] = map[string]bool{}
		}
		proj[k][bitString(append(append([]bool(nil), c.Globals...), f.Locals...))] = true
	}
	return proj, complete
}

func bitString(vs []bool) string {
	b := make([]byte, len(vs))
	for i, v := range vs {
		b[i] = '0'
		if v {
			b[i] = '1'
		}
	}
	return string(b)
}

// TestErrorProjectionRandom checks ErrorProjection against the brute-force
// projection on small random programs: every location and state the brute
// force finds is in the projection, and when the brute force explored
// everything, the projection (exit locations aside, which interp never
// shows: arriving there returns) is exactly the brute force's.
func TestErrorProjectionRandom(t *testing.T) {
	n := testflags.N(15, 30, 120, 120)
	opts := gen.Options{Globals: 2, MaxLocals: 2, Procs: 3, Stmts: 4}
	var exact, partial, nonEmpty int
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, opts)
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		want, complete := bruteProjection(t, p, 6, 50000)
		got, err := pushdown.ErrorProjection(context.Background(), p, 0, 1<<12)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		have := map[[2]int]map[string]bool{}
		for _, pl := range got.Locations {
			if pl.Truncated {
				t.Fatalf("seed %d: too many states at %v", seed, pl)
			}
			if p.Procs[pl.Proc].Exit == pl.Loc {
				continue
			}
			set := map[string]bool{}
			for _, st := range pl.States {
				set[bitString(st)] = true
			}
			if float64(len(set)) != pl.Count {
				t.Errorf("seed %d: %v: %d states listed, Count %v", seed, pl, len(set), pl.Count)
			}
			have[[2]int{pl.Proc, pl.Loc}] = set
		}
		name := func(k [2]int) string {
			pr := p.Procs[k[0]]
			return fmt.Sprintf("%s line %d (%q)", pr.Name, pr.Locations[k[1]].Pos.Line, pr.Locations[k[1]].Text)
		}
		for k, states := range want {
			for st := range states {
				if !have[k][st] {
					t.Errorf("seed %d: %s with state %s is on an error run but not in the projection\n%s", seed, name(k), st, src)
				}
			}
		}
		if complete {
			exact++
			for k, states := range have {
				for st := range states {
					if !want[k][st] {
						t.Errorf("seed %d: %s with state %s is in the projection but on no error run\n%s", seed, name(k), st, src)
					}
				}
			}
		} else {
			partial++
		}
		if len(want) > 0 {
			nonEmpty++
		}
	}
	t.Logf("%d programs: %d compared exactly, %d with the brute force cut off (inclusion only); %d with a non-empty projection", n, exact, partial, nonEmpty)
	if exact == 0 || nonEmpty == 0 {
		t.Errorf("the test compares nothing")
	}
}
