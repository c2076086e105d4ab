package dataflow

import (
	"fmt"
	"testing"

	"boolprog/gen"
	"boolprog/internal/testsuite"
)

// BenchmarkUninit runs the analysis on larger random programs and on the
// Bebop template T(N), with the chaotic saturation and with FWPDS; the
// counts are those of the post* saturation.
func BenchmarkUninit(b *testing.B) {
	type prog struct {
		name, src string
	}
	progs := []prog{
		{"random-10procs", gen.Random(3, gen.Options{Globals: 8, MaxLocals: 8, Procs: 10, Stmts: 10, Depth: 3})},
		{"random-30procs", gen.Random(4, gen.Options{Globals: 16, MaxLocals: 8, Procs: 30, Stmts: 12, Depth: 3})},
		{"T(100)", gen.BebopTemplate(100)},
	}
	for _, pr := range progs {
		p := testsuite.Lower(b, pr.name+".bp", pr.src, "")
		for _, fw := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/fwpds=%v", pr.name, fw), func(b *testing.B) {
				var res *Result
				for i := 0; i < b.N; i++ {
					var err error
					if res, err = PossiblyUninitialised(p, Options{FWPDS: fw}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(res.Stats.Extends), "extends")
				b.ReportMetric(float64(res.Stats.Combines), "combines")
				b.ReportMetric(float64(res.Stats.Merges), "merges")
				b.ReportMetric(float64(res.Stats.Transitions), "transitions")
			})
		}
	}
}
