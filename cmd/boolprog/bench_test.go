package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/result"
	"boolprog/sema"
	"boolprog/syntax"
)

// c2bpStyle returns a program of about size bytes in the style of c2bp
// output: several labels per statement, nondeterministic gotos, schoose,
// constrain, enforce and many small procedures.
func c2bpStyle(size int) []byte {
	var b strings.Builder
	b.WriteString("decl {p==q}, {*x>0}, g0, g1, g2, g3;\n")
	for p := 0; b.Len() < size; p++ {
		fmt.Fprintf(&b, "bool<2> proc%d(a, b) begin\n  decl l0, l1, l2;\n  enforce !(l0 & l1);\n", p)
		for s := 0; s < 40; s++ {
			fmt.Fprintf(&b, "  bp_stmt_%d_%d: c2bp_%d_%d: SLIC_%d_%d: L%d_%d: LL%d_%d: ", p, s, p, s, p, s, p, s, p, s)
			switch s % 5 {
			case 0:
				fmt.Fprintf(&b, "l0, l1 := schoose[a & {p==q}, !b], * constrain !('l0 & 'l1);\n")
			case 1:
				fmt.Fprintf(&b, "goto L%d_%d, L%d_%d;\n", p, (s+1)%40, p, (s+3)%40)
			case 2:
				fmt.Fprintf(&b, "if ({*x>0} = g0) then g1 := !g1 | (g2 ^ a); elsif * then skip; else assume(b => l2); fi\n")
			case 3:
				if p > 0 {
					fmt.Fprintf(&b, "l2, _ := proc%d(l0, g3);\n", p-1)
				} else {
					b.WriteString("dead l2;\n")
				}
			case 4:
				b.WriteString("assert(!(g0 & g1 & g2 & g3 & l0 & l1 & l2));\n")
			}
		}
		b.WriteString("  return l0, l1;\nend\n")
	}
	b.WriteString("void main() begin skip; end\n")
	return []byte(b.String())
}

// BenchmarkLoad400KB measures parsing plus checking of a 400 KB
// machine-generated file (the target: well under a second).
func BenchmarkLoad400KB(b *testing.B) {
	src := c2bpStyle(400 << 10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f, err := syntax.ParseFile("big.bp", src, syntax.CProver)
		if err != nil {
			b.Fatal(err)
		}
		if _, errs, _ := sema.Check(f); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// TestC2bpStyleIsValid keeps the benchmark honest: its input must be a
// correct program, or the benchmark would measure error paths.
func TestC2bpStyleIsValid(t *testing.T) {
	f, err := syntax.ParseFile("big.bp", c2bpStyle(20<<10), syntax.CProver)
	if err != nil {
		t.Fatal(err)
	}
	if _, errs, _ := sema.Check(f); len(errs) > 0 {
		t.Fatal(errs)
	}
}

// BenchmarkTemplateTrace is `boolprog bench`'s default measurement as a Go
// benchmark (issue 9): T(N) checked for the label reach the way check does
// by default (search, trace, replay), N = 100 ... 3200. The target is
// T(3200) under a second and T(3200)/T(800) at most 4.5 (linear traces);
// reach-ms is the search alone, the time without a trace. Run it with
// -benchtime 1x: T(3200) takes long before the traces are linear.
func BenchmarkTemplateTrace(b *testing.B) {
	for _, n := range []int{100, 200, 400, 800, 1600, 3200} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			p, err := templateProgram(n, gen.NoError, "reach")
			if err != nil {
				b.Fatal(err)
			}
			info, _ := engine.Lookup(defaultEngine)
			cfg := benchConfig{target: "reach", replay: true, timeout: time.Hour}
			var m benchRun
			for i := 0; i < b.N; i++ {
				eng, err := info.New()
				if err != nil {
					b.Fatal(err)
				}
				m = checkTemplate(context.Background(), eng, p, cfg)
				if m.res.Verdict != result.Unsafe || m.replayErr != nil {
					b.Fatalf("T(%d): %s, replay: %v", n, m.res.Banner(), m.replayErr)
				}
			}
			b.ReportMetric(float64(m.reach)/1e6, "reach-ms")
			b.ReportMetric(float64(m.trace)/1e6, "trace-ms")
			b.ReportMetric(float64(m.replay)/1e6, "replay-ms")
			b.ReportMetric(float64(traceLen(m.res.Trace)), "steps")
		})
	}
}
