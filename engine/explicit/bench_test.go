package explicit

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// BenchmarkWide measures the engine on n globals, one nondeterministic
// loop and an assertion that fails when four globals start true: about
// 10·2^n path edges, for the reach and trace phases and the memory per
// state (reported as B/state from the heap allocated per path edge).
func BenchmarkWide(b *testing.B) {
	for _, n := range []int{12, 15} {
		b.Run(fmt.Sprintf("globals=%d", n), func(b *testing.B) {
			names := make([]string, n)
			for i := range names {
				names[i] = fmt.Sprintf("g%d", i)
			}
			src := "decl " + strings.Join(names, ", ") + ";\nvoid main() begin L: g0 := *; goto L, M; M: skip; assert(!(g0 & g1 & g2 & g3)); end\n"
			p := testsuite.Lower(b, "wide.bp", src, "")
			b.ReportAllocs()
			var res *result.Result
			for i := 0; i < b.N; i++ {
				res = engine.Run(context.Background(), New(), p, engine.Query{})
			}
			if res.Verdict != result.Unsafe {
				b.Fatalf("%s %s", res.Verdict, res.Reason)
			}
			b.ReportMetric(float64(res.Stats.States), "states")
			b.ReportMetric(float64(res.Stats.Phases[result.PhaseReach].Milliseconds()), "reach-ms")
			b.ReportMetric(float64(res.Stats.Phases[result.PhaseTrace].Milliseconds()), "trace-ms")
		})
	}
}

// BenchmarkPrograms measures the engine on concurrent programs of the
// shared benchmarks: SATABS's Threads3 and Getafix's fib_3_safe. Their
// search steps with package interp (its profile is interp's stepper and
// the deadness keys), so eval is not on its path: BenchmarkSequential
// and BenchmarkEval measure that.
func BenchmarkPrograms(b *testing.B) {
	for _, name := range []string{"Threads3", "fib_3_safe"} {
		b.Run(name, func(b *testing.B) {
			p := benchProgram(b, name)
			eng, err := NewWithOptions(Options{MaxThreads: 5})
			if err != nil {
				b.Fatal(err)
			}
			var res *result.Result
			for i := 0; i < b.N; i++ {
				res = engine.Run(context.Background(), eng, p, engine.Query{})
			}
			if res.Verdict == result.Unknown {
				b.Fatalf("%s: %s", res.Verdict, res.Reason)
			}
			b.ReportMetric(float64(res.Stats.States), "states")
		})
	}
}

// benchProgram lowers a program of the shared benchmarks: a satabs-boppo
// test by its directory's name, or a Getafix program (fib_3_safe) with
// Getafix precedence.
func benchProgram(b *testing.B, name string) *ir.Program {
	b.Helper()
	cases := testsuite.SatabsBoppoOrSkip(b)
	for _, d := range cases {
		if d.Name == name {
			return testsuite.LowerFile(b, d.File, d.Target)
		}
	}
	path := filepath.Join(filepath.Dir(filepath.Dir(cases[0].File)), "..", "getafix", name+".bp")
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return testsuite.LowerDialect(b, path, string(src), syntax.Getafix, "")
}

// BenchmarkSequential measures the engine on every sequential program of
// the satabs-boppo suite in turn (their verdicts are the conformance
// suite's business): the search that evaluates expressions with eval.
func BenchmarkSequential(b *testing.B) {
	var progs []*ir.Program
	for _, d := range testsuite.SatabsBoppoOrSkip(b) {
		if p := testsuite.LowerFile(b, d.File, d.Target); !p.Concurrent {
			progs = append(progs, p)
		}
	}
	eng := New()
	var states int64
	for i := 0; i < b.N; i++ {
		states = 0
		for _, p := range progs {
			res := engine.Run(context.Background(), eng, p, engine.Query{})
			states += res.Stats.States
		}
	}
	b.ReportMetric(float64(states), "states")
}

// BenchmarkEval measures the evaluator of the search on its own, on every
// expression of the programs' edges (guards, assigned values,
// constraints) in 64 random valuations: eval (ir.Eval) against
// ir.Possible in the algebra ir.Bools, which computes the same values
// with an explicit stack. The programs: every sequential satabs-boppo
// test, and Getafix's fib_3_safe (long chains of operators). Measured
// when the engine's own recursive evaluator was replaced by ir.Eval (12
// runs, benchstat, a 2-core machine at load 11): eval 74 ns/expr on
// satabs and 238 on fib_3_safe, the engine's former evaluator 97 and 251
// (no significant difference), ir.Possible 327 and 620 (3.4 and 2.6
// times eval).
func BenchmarkEval(b *testing.B) {
	sets := map[string][]*ir.Program{}
	for _, d := range testsuite.SatabsBoppoOrSkip(b) {
		if p := testsuite.LowerFile(b, d.File, d.Target); !p.Concurrent {
			sets["satabs"] = append(sets["satabs"], p)
		}
	}
	sets["fib_3_safe"] = []*ir.Program{benchProgram(b, "fib_3_safe")}
	for _, name := range []string{"satabs", "fib_3_safe"} {
		type item struct {
			lay layout
			e   ir.Expr
		}
		var items []item
		for _, p := range sets[name] {
			lay := layout{ng: len(p.Globals)}
			for _, proc := range p.Procs {
				for _, e := range proc.Edges {
					switch op := e.Op.(type) {
					case *ir.Assume:
						items = append(items, item{lay, op.Cond})
					case *ir.Assign:
						for _, v := range op.Values {
							items = append(items, item{lay, v})
						}
						if op.Constrain != nil {
							items = append(items, item{lay, op.Constrain})
						}
					}
				}
			}
		}
		vals := make([]valuation, 64)
		seed := uint64(1)
		for i := range vals {
			seed = seed*6364136223846793005 + 1442695040888963407
			vals[i] = seed
		}
		impls := []struct {
			name string
			eval func(l layout, e ir.Expr, cur, next valuation) (bool, bool)
		}{
			{"eval", layout.eval},
			{"possible", layout.possible},
		}
		for _, it := range items {
			for _, v := range vals {
				xt, xf := impls[0].eval(it.lay, it.e, v, ^v)
				yt, yf := impls[1].eval(it.lay, it.e, v, ^v)
				if xt != yt || xf != yf {
					b.Fatalf("%s: %s gives %v, %v; %s %v, %v", name, impls[0].name, xt, xf, impls[1].name, yt, yf)
				}
			}
		}
		for _, impl := range impls {
			b.Run(fmt.Sprintf("prog=%s/impl=%s", name, impl.name), func(b *testing.B) {
				sink := 0
				for i := 0; i < b.N; i++ {
					for _, v := range vals {
						for _, it := range items {
							if t, _ := impl.eval(it.lay, it.e, v, ^v); t {
								sink++
							}
						}
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(vals)*len(items)), "ns/expr")
				_ = sink
			})
		}
	}
}

// possible is eval computed by ir.Possible in the algebra ir.Bools.
func (l layout) possible(e ir.Expr, cur, next valuation) (canTrue, canFalse bool) {
	v := ir.Possible[bool](ir.Bools{}, e, func(v *ir.Var) (bool, bool) {
		x := l.get(cur, v.VarRef)
		if v.Primed {
			x = l.get(next, v.VarRef)
		}
		return x, !x
	})
	return v.True(ir.Bools{}), v.False(ir.Bools{})
}
