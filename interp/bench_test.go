package interp_test

import (
	"context"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// templateTrace returns T(n) (Bebop template without an error, target label
// `reach`) and the summary engine's trace to it. To reach `reach`, g must
// start false, and every level then calls the next one: the trace descends
// to the deepest level, n+1 frames, and has about 8n steps.
func templateTrace(b *testing.B, n int) (*ir.Program, *result.Trace) {
	b.Helper()
	p := testsuite.Lower(b, fmt.Sprintf("T%d.bp", n), gen.BebopTemplate(n), "reach")
	res, err := summary.New(summary.Options{}).Check(context.Background(), p, engine.Query{})
	if err != nil {
		b.Fatal(err)
	}
	if res.Verdict != result.Unsafe {
		b.Fatalf("T(%d): verdict %s, want unsafe", n, res.Verdict)
	}
	return p, res.Trace
}

// BenchmarkReplayTemplate replays the summary engine's trace of T(N) to its
// deepest level, N = 100 … 3200, and logs how the time grows from N = 800
// to 3200 (4 for linear time; the target is at most 4.5). Besides ns/op it
// reports the process's CPU time per replay (the collector's included) and
// the fastest replay, steadier measures on a loaded machine; the ratio is
// taken between the fastest replays. Run with
//
//	go test ./interp -run NONE -bench ReplayTemplate -benchtime 5x -v
func BenchmarkReplayTemplate(b *testing.B) {
	fastest := make(map[int]time.Duration)
	for _, n := range benchSizes {
		p, tr := templateTrace(b, n)
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			runtime.GC() // the engine's garbage is not the replay's
			b.ResetTimer()
			best, cpu := time.Duration(1<<62), cpuTime()
			for range b.N {
				start := time.Now()
				if err := interp.Replay(p, tr); err != nil {
					b.Fatal(err)
				}
				best = min(best, time.Since(start))
			}
			b.ReportMetric(float64((cpuTime()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(best.Nanoseconds()), "fastest-ns")
			b.ReportMetric(float64(len(tr.Steps)), "steps")
			if f, ok := fastest[n]; !ok || best < f {
				fastest[n] = best
			}
		})
	}
	if fastest[800] > 0 && fastest[3200] > 0 {
		b.Logf("T(3200)/T(800) replay time ratio: %.2f (fastest: T(800) %v, T(3200) %v)",
			float64(fastest[3200])/float64(fastest[800]), fastest[800], fastest[3200])
	}
}

var benchSizes = []int{100, 200, 400, 800, 1600, 3200}

// cpuTime returns the CPU time the process has used (user and system, all
// threads: the garbage collector's work included). On a loaded machine it
// is a steadier measure than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
