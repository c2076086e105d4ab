package conc_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"boolprog/engine"
	conceng "boolprog/engine/conc"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// BenchmarkSATABS runs conc-lazy on SATABS' thread benchmarks at the
// bounds of issue 25: Threads3 and Threads5 at 6 context switches (both
// fail, with 3 and 5 threads: the thread limit must grow), Threads7 at 3
// and 6 (safe: its only assertion is assert(T)). Each run has a minute (an
// Unknown answer is reported with decided=0); run with -benchtime 1x.
// On a loaded 2-core machine Threads3 and Threads7 at 3 switches are
// decided in a fraction of a second and Threads7 at 6 in about 12 CPU
// seconds: at k switches at most k created threads step, so the
// sequentialisation gives only those a slot; Threads7's nine creations
// need no creation counter (no run creates more than the limit), and its
// threads write no shared state, so their records are no copies. Threads5
// is not decided within the minute (issue 25): its 5 threads each write
// the shared state, and the lazy program replays them over 5 rounds.
func BenchmarkSATABS(b *testing.B) {
	for _, c := range []struct {
		name string
		k    int
		want result.Verdict
	}{{"Threads3", 6, result.Unsafe}, {"Threads5", 6, result.Unsafe}, {"Threads7", 3, result.Safe}, {"Threads7", 6, result.Safe}} {
		b.Run(fmt.Sprintf("%s/cs%d", c.name, c.k), func(b *testing.B) {
			p := testsuite.LowerFile(b, filepath.Join(bench, "satabs-boppo", c.name, "main.bp"), "")
			q := engine.Query{Bound: result.Bound{Kind: result.ContextSwitches, K: c.k}}
			decided := 0.0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				res := engine.Run(ctx, &conceng.Engine{Lazy: true}, p, q)
				cancel()
				switch {
				case res.Verdict == result.Unknown:
					decided = 0
					b.Logf("%s at %s: %s", c.name, q.Bound, res.Reason)
				case res.Verdict != c.want:
					b.Fatalf("%s at %s: %s (%s), want %s", c.name, q.Bound, res.Verdict, res.Reason, c.want)
				default:
					decided = 1
				}
			}
			b.ReportMetric(decided, "decided")
		})
	}
}
