package dataflow

import (
	"fmt"
	"testing"

	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
)

// oracle answers the same question one variable at a time with a
// different algorithm: the tabulation of Reps, Horwitz and Sagiv over the
// exploded graph whose nodes are (location, "the variable is
// uninitialised" true or false), with the summaries of procedures per
// entry value. uninit reports, per procedure and location, whether the
// variable v may be uninitialised there.
func oracle(p *ir.Program, v ir.VarRef) [][]bool {
	n := len(p.Procs)
	type key struct{ proc, entry int }
	entered := map[key]bool{{p.Main, 1}: true}
	summary := map[key][2]bool{} // exit values per entry value
	reach := map[key][][2]bool{} // per location, values reached
	// effect gives the variable's value after an intraprocedural edge.
	effect := func(op ir.Op, val int) int {
		if as, ok := op.(*ir.Assign); ok {
			for i, t := range as.Targets {
				if t == v {
					if ir.IsNondet(as.Values[i]) {
						return 1
					}
					return 0
				}
			}
		}
		return val
	}
	for changed := true; changed; {
		changed = false
		for proc := 0; proc < n; proc++ {
			pr := p.Procs[proc]
			for entry := 0; entry < 2; entry++ {
				k := key{proc, entry}
				if !entered[k] {
					continue
				}
				r := make([][2]bool, len(pr.Locations))
				r[pr.Entry][entry] = true
				work := [][2]int{{pr.Entry, entry}}
				for len(work) > 0 {
					loc, val := work[0][0], work[0][1]
					work = work[1:]
					add := func(l, x int) {
						if !r[l][x] {
							r[l][x] = true
							work = append(work, [2]int{l, x})
						}
					}
					for _, id := range pr.Locations[loc].Out {
						ed := pr.Edges[id]
						c, ok := ed.Op.(*ir.Call)
						if !ok {
							add(ed.To, effect(ed.Op, val))
							continue
						}
						callee := p.Procs[c.Proc]
						in := val
						if !v.Global {
							in = 1
							if v.Index < callee.Params {
								in = 0
							}
						}
						ck := key{c.Proc, in}
						if !entered[ck] {
							entered[ck] = true
							changed = true
						}
						target := false
						for _, t := range c.Targets {
							if !t.Discard && t.Var == v {
								target = true
							}
						}
						for out := 0; out < 2; out++ {
							if !summary[ck][out] {
								continue
							}
							after := out
							if !v.Global {
								after = val // the caller's frame comes back
							}
							if target {
								after = 0
							}
							add(ed.To, after)
						}
					}
				}
				reach[k] = r
				s := r[pr.Exit]
				if s != summary[k] {
					summary[k] = s
					changed = true
				}
			}
		}
	}
	out := make([][]bool, n)
	for proc, pr := range p.Procs {
		out[proc] = make([]bool, len(pr.Locations))
		for entry := 0; entry < 2; entry++ {
			if r, ok := reach[key{proc, entry}]; ok {
				for l := range pr.Locations {
					out[proc][l] = out[proc][l] || r[l][1]
				}
			}
		}
	}
	return out
}

// reachable is plain interprocedural reachability of locations (a call's
// return point counts only if the callee can return): the oracle for a
// global that nothing assigns, which is uninitialised wherever control is.
func reachable(p *ir.Program) [][]bool {
	return oracle(p, ir.VarRef{Global: true, Index: -1})
}

func TestAgainstOracle(t *testing.T) {
	n := 150
	if testflags.Full() {
		n = 1000
	}
	var programs, checked, uninit, fallbacks int
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, gen.Options{})
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
		if p.Concurrent || p.Main < 0 {
			continue
		}
		for _, fw := range []bool{false, true} {
			res, err := PossiblyUninitialised(p, Options{FWPDS: fw})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if res.Stats.Fallback {
				fallbacks++
			}
			reach := reachable(p)
			var vars []ir.VarRef
			for i := range p.Globals {
				vars = append(vars, ir.VarRef{Global: true, Index: i})
			}
			maxLocals := 0
			for _, pr := range p.Procs {
				maxLocals = max(maxLocals, len(pr.Locals))
			}
			for i := 0; i < maxLocals; i++ {
				vars = append(vars, ir.VarRef{Index: i})
			}
			want := map[ir.VarRef][][]bool{}
			for _, v := range vars {
				want[v] = oracle(p, v)
			}
			for proc, pr := range p.Procs {
				for loc := range pr.Locations {
					got, ok := res.At(proc, loc)
					if ok != reach[proc][loc] {
						t.Fatalf("seed %d fwpds=%v: %s location %d reachable %v, oracle %v\n%s", seed, fw, pr.Name, loc, ok, reach[proc][loc], src)
					}
					for _, v := range vars {
						if !v.Global && v.Index >= len(pr.Locals) {
							continue
						}
						bit := got.Locals&(1<<uint(v.Index)) != 0
						if v.Global {
							bit = got.Globals&(1<<uint(v.Index)) != 0
						}
						if bit != want[v][proc][loc] {
							t.Fatalf("seed %d fwpds=%v: %s location %d (%s) variable %v: analysis %v, oracle %v\n%s",
								seed, fw, pr.Name, loc, pr.Locations[loc].Text, v, bit, want[v][proc][loc], src)
						}
						checked++
						if bit {
							uninit++
						}
					}
				}
			}
		}
		programs++
	}
	t.Logf("%d programs, %d (location, variable) pairs compared, %d possibly uninitialised; FWPDS fell back on %d", programs, checked, uninit, fallbacks)
	if programs < n/2 || uninit == 0 || uninit == checked {
		t.Fatalf("the comparison is too weak: %d programs, %d of %d pairs uninitialised", programs, uninit, checked)
	}
}

func TestRefuses(t *testing.T) {
	tests := []struct{ name, src string }{
		{"threads", "void main() begin start_thread goto L; L: skip; end\n"},
		{"too many variables", func() string {
			s := "decl "
			for i := 0; i < 65; i++ {
				if i > 0 {
					s += ", "
				}
				s += fmt.Sprintf("g%d", i)
			}
			return s + ";\nvoid main() begin skip; end\n"
		}()},
	}
	for _, tc := range tests {
		p := testsuite.Lower(t, tc.name+".bp", tc.src, "")
		if _, err := PossiblyUninitialised(p, Options{}); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
