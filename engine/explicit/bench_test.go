package explicit

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/internal/testsuite"
	"boolprog/result"
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
