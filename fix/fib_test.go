package fix

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// mucke is where the Getafix models live: ../shared as seen from the
// repository root.
const mucke = "../../shared/benchmarks/getafix/mucke"

// fibWant are the values Mucke gives (see the benchmarks' README).
var fibWant = []struct {
	file string
	want bool
}{
	{"fib_3_safe.mu", false},
	{"fib_3_unsafe.mu", true},
	{"fib_4_unsafe.mu", false},
	{"fib_5_unsafe.mu", false},
}

func readBench(tb testing.TB, name string) []byte {
	tb.Helper()
	path := filepath.Join(mucke, name)
	src, err := os.ReadFile(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("benchmark input missing under CI: %v", err)
		}
		tb.Skipf("skipping: %s not found (%v)", path, err)
	}
	return src
}

func TestFib(t *testing.T) {
	for _, tc := range fibWant {
		t.Run(tc.file, func(t *testing.T) {
			src := readBench(t, tc.file)
			f, err := ParseFile(tc.file, src)
			if err != nil {
				t.Fatal(err)
			}
			a, err := Solve(context.Background(), f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !a.HasQuery || a.Value != tc.want {
				t.Errorf("query = %v (has query %v), want %v", a.Value, a.HasQuery, tc.want)
			}
			if len(a.Sizes) == 0 {
				t.Errorf("no #size answers")
			}
			// Without the sizes: the same value, no counts.
			b, err := Solve(context.Background(), f, Options{NoSizes: true})
			if err != nil {
				t.Fatal(err)
			}
			if b.Value != a.Value || len(b.Sizes) != 0 {
				t.Errorf("NoSizes: query = %v, %d #size answers; want %v and none", b.Value, len(b.Sizes), a.Value)
			}
		})
	}
}

// TestFormulaFilesParse parses Getafix's published formula files: they
// are fragments (the program relations come from the translator), so only
// the syntax is checked. The template*.mu files hold <placeholders> for
// the translator and are not Mucke input.
func TestFormulaFilesParse(t *testing.T) {
	readBench(t, "fib_3_safe.mu")
	names, err := filepath.Glob(filepath.Join(mucke, "formulae", "formula*.mu"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no formula files: %v", err)
	}
	for _, n := range names {
		src, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseFile(n, src); err != nil {
			t.Errorf("%v", err)
		}
	}
}

func BenchmarkFib(b *testing.B) {
	for _, tc := range fibWant {
		b.Run(tc.file, func(b *testing.B) {
			src := readBench(b, tc.file)
			var peak, iters int
			for i := 0; i < b.N; i++ {
				f, err := ParseFile(tc.file, src)
				if err != nil {
					b.Fatal(err)
				}
				a, err := Solve(context.Background(), f, Options{})
				if err != nil || a.Value != tc.want {
					b.Fatalf("value %v, err %v", a != nil && a.Value, err)
				}
				peak, iters = a.PeakNodes, 0
				for _, r := range a.Relations {
					iters += r.Iterations
				}
			}
			b.ReportMetric(float64(peak), "peak-nodes")
			b.ReportMetric(float64(iters), "body-evals")
		})
	}
}
