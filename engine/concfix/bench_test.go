package concfix_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concfix"
	"boolprog/result"
)

var fibTimeout = flag.Duration("fibtimeout", 90*time.Second, "BenchmarkFib: the time limit of one run")

// BenchmarkBluetooth runs conc-fix on the four Bluetooth models at 6
// context switches (the Getafix paper's Fig. 3): 1+1 safe, 1+2 error at
// 3, 2+1 at 4, 2+2 at 3. Run with -benchtime 3x: one run takes seconds.
func BenchmarkBluetooth(b *testing.B) {
	for _, c := range []struct {
		config string
		first  int // -1: safe
	}{{"1_1", -1}, {"1_2", 3}, {"2_1", 4}, {"2_2", 3}} {
		b.Run(c.config, func(b *testing.B) {
			path := filepath.Join("../../examples/bluetooth", "bluetooth_"+c.config+".bp")
			src, err := os.ReadFile(path)
			if err != nil {
				b.Fatal(err)
			}
			p := lowerGetafix(b, path, src)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res := engine.Run(context.Background(), concfix.New(), p, engine.Query{Bound: cs(6)})
				want := result.Unsafe
				if c.first < 0 {
					want = result.Safe
				}
				if res.Verdict != want || (c.first >= 0 && res.Bound != cs(c.first)) {
					b.Fatalf("%s: %s at %s (%s)", c.config, res.Verdict, res.Bound, res.Reason)
				}
			}
		})
	}
}

// BenchmarkFib runs conc-fix on the Getafix fork's fib programs at 4
// rounds (Getafix's own models' bound: fib_3_unsafe reachable, the others
// not), over the product of the threads' states (the default: their
// threads call no procedure) and with §5.1's summaries (Options.Summaries,
// the encoding before the product), each run with a time limit of
// -fibtimeout (a run that reaches it or the node limit is reported with
// decided=0). Run with -benchtime 1x.
func BenchmarkFib(b *testing.B) {
	for _, enc := range []struct {
		name      string
		summaries bool
	}{{"product", false}, {"summaries", true}} {
		for _, c := range []struct {
			file   string
			unsafe bool
		}{{"fib_3_unsafe", true}, {"fib_3_safe", false}, {"fib_4_unsafe", false}, {"fib_5_unsafe", false}} {
			b.Run(enc.name+"/"+c.file, func(b *testing.B) {
				path := filepath.Join("../../../shared/benchmarks/getafix", c.file+".bp")
				src, err := os.ReadFile(path)
				if err != nil {
					b.Fatal(err)
				}
				p := lowerGetafix(b, path, src)
				e, err := concfix.NewWithOptions(concfix.Options{Summaries: enc.summaries})
				if err != nil {
					b.Fatal(err)
				}
				decided := 0.0
				b.ResetTimer()
				start := cpuTime()
				for i := 0; i < b.N; i++ {
					ctx, cancel := context.WithTimeout(context.Background(), *fibTimeout)
					res := engine.Run(ctx, e, p, engine.Query{Bound: rounds(4)})
					cancel()
					switch {
					case res.Verdict == result.Unknown:
						decided = 0
					case (res.Verdict == result.Unsafe) != c.unsafe:
						b.Fatalf("%s: %s, want unsafe=%v", c.file, res.Verdict, c.unsafe)
					default:
						decided = 1
					}
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e9, "cpu-s/op")
				b.ReportMetric(decided, "decided")
			})
		}
	}
}

// cpuTime is the CPU time (user and system) of the process so far: on a
// shared machine it says more than the wall-clock time (as
// engine/fixpoint's benchmarks measure it).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
