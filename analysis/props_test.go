package analysis_test

import (
	"testing"

	"boolprog/analysis"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/ir"
)

// programs returns the satabs-boppo programs (when ../shared is there) and
// random ones with recursion.
func programs(t *testing.T) map[string]*ir.Program {
	ps := map[string]*ir.Program{}
	cases, err := testsuite.SatabsBoppo()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		ps[c.Name] = testsuite.LowerFile(t, c.File, c.Target)
	}
	for seed := int64(1); seed <= 60; seed++ {
		src := gen.Random(seed, gen.Options{Procs: 2 + int(seed%7), Globals: 5})
		ps["random"+string(rune('0'+seed%10))+string(rune('a'+seed/10))] = testsuite.Lower(t, "random.bp", src, "")
	}
	return ps
}

// reaches returns reach[i][j]: procedure j is reachable from i by one or
// more Call edges (and thread starts, if starts).
func reaches(p *ir.Program, starts bool) [][]bool {
	n := len(p.Procs)
	r := make([][]bool, n)
	for i, pr := range p.Procs {
		r[i] = make([]bool, n)
		for _, e := range pr.Edges {
			switch op := e.Op.(type) {
			case *ir.Call:
				r[i][op.Proc] = true
			case *ir.StartThread:
				if starts && op.Proc >= 0 {
					r[i][op.Proc] = true
				}
			}
		}
	}
	for k := 0; k < n; k++ { // Warshall
		for i := 0; i < n; i++ {
			if r[i][k] {
				for j := 0; j < n; j++ {
					r[i][j] = r[i][j] || r[k][j]
				}
			}
		}
	}
	return r
}

// TestProperties checks the analyses against their definitions, computed
// the direct way: components are the classes of mutual reachability, in an
// order where no call goes to a later one; MOD/REF is the union of the
// procedures' own writes and reads over everything they reach; the
// reverse postorder is a permutation with the entry first and every
// location reachable from the entry before the unreachable ones.
func TestProperties(t *testing.T) {
	for name, p := range programs(t) {
		c := analysis.NewCache(p)
		comps := analysis.Of(c, analysis.SCC)
		mr := analysis.Of(c, analysis.ModRef)
		order := analysis.Of(c, analysis.RPO)
		calls := reaches(p, false)
		all := reaches(p, true)
		n := len(p.Procs)
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				same := i == j || calls[i][j] && calls[j][i]
				if same != (comps.Of[i] == comps.Of[j]) {
					t.Errorf("%s: %s and %s: mutually reachable %v, same component %v", name, p.Procs[i].Name, p.Procs[j].Name, same, !same)
				}
				if calls[i][j] && comps.Of[j] > comps.Of[i] {
					t.Errorf("%s: %s calls %s of a later component", name, p.Procs[i].Name, p.Procs[j].Name)
				}
			}
			if comps.Recursive(analysis.Of(c, analysis.CallGraph), i) != calls[i][i] {
				t.Errorf("%s: %s recursive %v, reaches itself %v", name, p.Procs[i].Name, !calls[i][i], calls[i][i])
			}
			mod, ref := map[int]bool{}, map[int]bool{}
			for j := 0; j < n; j++ {
				if j != i && !all[i][j] {
					continue
				}
				for _, e := range p.Procs[j].Edges {
					for _, v := range ir.Writes(e.Op) {
						if v.Global {
							mod[v.Index] = true
						}
					}
					for _, v := range ir.Reads(e.Op) {
						if v.Global {
							ref[v.Index] = true
						}
					}
				}
			}
			for g := range p.Globals {
				if mr.Mod[i].Has(g) != mod[g] || mr.Ref[i].Has(g) != ref[g] {
					t.Errorf("%s: %s global %s: mod %v ref %v, want %v %v", name, p.Procs[i].Name, p.Globals[g],
						mr.Mod[i].Has(g), mr.Ref[i].Has(g), mod[g], ref[g])
				}
			}
			pr := p.Procs[i]
			rank := order.Rank[i]
			seen := make([]bool, len(rank))
			reachable := reachableLocs(pr)
			maxReach := -1
			for loc, r := range rank {
				if r < 0 || int(r) >= len(rank) || seen[r] {
					t.Fatalf("%s: %s: ranks %v are not a permutation", name, pr.Name, rank)
				}
				seen[r] = true
				if reachable[loc] {
					maxReach = max(maxReach, int(r))
				}
			}
			count := 0
			for _, b := range reachable {
				if b {
					count++
				}
			}
			if rank[pr.Entry] != 0 || maxReach != count-1 {
				t.Errorf("%s: %s: entry rank %d, reachable locations ranked up to %d of %d", name, pr.Name, rank[pr.Entry], maxReach, count)
			}
		}
	}
}

func reachableLocs(pr *ir.Proc) []bool {
	seen := make([]bool, len(pr.Locations))
	stack := []int{pr.Entry}
	seen[pr.Entry] = true
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range pr.Locations[l].Out {
			if to := pr.Edges[e].To; !seen[to] {
				seen[to] = true
				stack = append(stack, to)
			}
		}
	}
	return seen
}
