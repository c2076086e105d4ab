package conc_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"boolprog/conc"
	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/internal/testsuite"
	"boolprog/result"
	"boolprog/syntax"
)

// BenchmarkBluetooth checks the eager and lazy sequentialisations of the
// four Bluetooth models (examples/bluetooth) at 2 rounds with the summary
// engine, in the declaration order that conc-eager and conc-lazy give it
// (seq/... ) and in summary's default order, FORCE placement (force/...):
// the order of the copies decides the size of the relations between
// them. Run with -benchtime 1x: one run takes seconds. Within 2 rounds
// 1+2 and 2+2 reach their errors (3 switches); 1+1 and 2+1 (4 switches,
// which need 3 rounds of 3 threads) are safe.
func BenchmarkBluetooth(b *testing.B) {
	for _, c := range []struct {
		config string
		want   result.Verdict
	}{{"1_1", result.Safe}, {"1_2", result.Unsafe}, {"2_1", result.Safe}, {"2_2", result.Unsafe}} {
		config, want := c.config, c.want
		path := filepath.Join("../examples/bluetooth", "bluetooth_"+config+".bp")
		src, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		p := testsuite.LowerDialect(b, path, string(src), syntax.Getafix, "")
		m, err := conc.NewModel(p, conc.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, lazy := range []bool{false, true} {
			seq, err := conc.Build(m, conc.SeqOptions{Rounds: 2, Lazy: lazy})
			if err != nil {
				b.Fatal(err)
			}
			kind := "eager"
			if lazy {
				kind = "lazy"
			}
			for _, o := range []struct {
				name string
				opts summary.Options
			}{{"seq", summary.Options{DeclarationOrder: true}}, {"force", summary.Options{}}} {
				b.Run(fmt.Sprintf("%s/%s/%s", o.name, kind, config), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						res := engine.Run(context.Background(), summary.New(o.opts), seq.Prog, engine.Query{})
						if res.Verdict != want {
							b.Fatalf("%s (%s), want %s", res.Verdict, res.Reason, want)
						}
						b.ReportMetric(float64(res.Stats.Counters["peak_bdd_nodes"]), "peak-nodes")
					}
				})
			}
		}
	}
}
