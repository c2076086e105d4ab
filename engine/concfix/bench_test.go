package concfix_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concfix"
	"boolprog/internal/testsuite"
	"boolprog/ir"
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

// BenchmarkGrowth runs conc-fix on programs whose runs create more
// threads than one per creation site, so that the thread count grows
// (SATABS Threads3 and Threads5, and random programs that create their
// worker in a loop, see growing; the product, and for those also §5.1's
// strata), with the solves of more threads starting from the levels
// solved with fewer (reuse) and from scratch, and reports the CPU seconds
// per check and the time of the last solve (final-solve-s). Run with
// -benchtime 5x.
func BenchmarkGrowth(b *testing.B) {
	type input struct {
		name      string
		p         func(b *testing.B) *ir.Program
		bound     result.Bound
		summaries bool
	}
	satabs := func(name string) func(b *testing.B) *ir.Program {
		return func(b *testing.B) *ir.Program {
			return testsuite.LowerFile(b, "../../../shared/benchmarks/satabs-boppo/"+name+"/main.bp", "")
		}
	}
	inputs := []input{
		{"Threads3/rounds2", satabs("Threads3"), rounds(2), false},
		{"Threads3/cs5", satabs("Threads3"), cs(5), false},
		{"Threads5/rounds2", satabs("Threads5"), rounds(2), false},
		{"Threads5/cs5", satabs("Threads5"), cs(5), false},
	}
	for _, seed := range []int64{7000, 7004, 7015} {
		p := func(b *testing.B) *ir.Program { p, _ := growing(b, seed); return p }
		inputs = append(inputs,
			input{fmt.Sprintf("growing%d/rounds2", seed), p, rounds(2), false},
			input{fmt.Sprintf("growing%d/summaries/cs2", seed), p, cs(2), true})
	}
	for _, in := range inputs {
		p := (*ir.Program)(nil)
		for _, scratch := range []bool{false, true} {
			name := in.name + "/reuse"
			if scratch {
				name = in.name + "/scratch"
			}
			b.Run(name, func(b *testing.B) {
				if p == nil {
					p = in.p(b)
				}
				e, err := concfix.NewWithOptions(concfix.Options{FromScratch: scratch, Summaries: in.summaries})
				if err != nil {
					b.Fatal(err)
				}
				final := int64(0)
				b.ResetTimer()
				start := cpuTime()
				for i := 0; i < b.N; i++ {
					res := engine.Run(context.Background(), e, p, engine.Query{Bound: in.bound})
					if res.Verdict == result.Unknown && !strings.Contains(res.Reason, "can create more") {
						b.Fatalf("%s", res.Reason)
					}
					final += res.Stats.Counters["time_solve_ns"]
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e9, "cpu-s/op")
				b.ReportMetric(float64(final)/float64(b.N)/1e9, "final-solve-s")
			})
		}
	}
}
