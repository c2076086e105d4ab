package pushdown_test

import (
	"context"
	"fmt"
	"testing"

	"boolprog/engine"
	"boolprog/engine/pushdown"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// BenchmarkTemplate checks the Bebop template T(N) for its label reach
// (unsafe: the trace is built) with post* and pre*, plain and with FWPDS,
// and reports the saturation's extends.
func BenchmarkTemplate(b *testing.B) {
	for _, n := range []int{100, 200} {
		p := testsuite.Lower(b, fmt.Sprintf("t%d.bp", n), gen.BebopTemplate(n), "reach")
		for _, dir := range directions {
			for _, o := range []pushdown.Options{{}, {FWPDS: true}} {
				eng := pushdown.NewWithOptions(dir, o)
				b.Run(fmt.Sprintf("%s/fwpds=%v/N=%d", eng.Name(), o.FWPDS, n), func(b *testing.B) {
					var res *result.Result
					for i := 0; i < b.N; i++ {
						res = engine.Run(context.Background(), eng, p, engine.Query{})
						if res.Verdict != result.Unsafe {
							b.Fatalf("%s: %s", res.Verdict, res.Reason)
						}
					}
					b.ReportMetric(float64(res.Stats.Counters["extends"]), "extends")
				})
			}
		}
	}
}
