package benchset

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	_ "boolprog/internal/engines" // the engines, registered
	"boolprog/result"
)

// BenchmarkTemplateTrace is `boolprog bench`'s default measurement as a Go
// benchmark (issue 9): T(N) checked for the label reach the way check does
// by default (search, trace, replay), N = 100 ... 3200. The target is
// T(3200) under a second and T(3200)/T(800) at most 4.5 (linear traces);
// reach-ms is the search alone, the time without a trace. Run it with
// -benchtime 1x: T(3200) takes long before the traces are linear.
func BenchmarkTemplateTrace(b *testing.B) {
	for _, n := range []int{100, 200, 400, 800, 1600, 3200} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			p, err := TemplateProgram(n, gen.NoError, "reach")
			if err != nil {
				b.Fatal(err)
			}
			info, _ := engine.Lookup("summary") // check's default
			cfg := config{target: "reach", replay: true, timeout: time.Hour}
			var m measurement
			for i := 0; i < b.N; i++ {
				eng, err := info.New()
				if err != nil {
					b.Fatal(err)
				}
				m = check(context.Background(), eng, p, cfg)
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

// TestTemplate runs T(4) and T(8) once each: the label reach is reached
// with a trace that replays, a row per size, and the ratio of the sizes.
func TestTemplate(t *testing.T) {
	info, _ := engine.Lookup("summary")
	var out, errs strings.Builder
	err := Template(context.Background(), &out, &errs, TemplateOptions{Engine: info, EngineName: "summary", Sizes: []int{4, 8}, Runs: 1, Timeout: time.Minute})
	if err != nil || errs.Len() > 0 {
		t.Fatalf("Template: %v\n%s", err, errs.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 4 {
		t.Fatalf("want a header, two rows and the setting, got:\n%s", out.String())
	}
	for i, n := range []string{"4", "8"} {
		if f := strings.Fields(lines[1+i]); f[0] != n || f[2] != result.Unsafe.String() {
			t.Errorf("row %d: %q, want T(%s) unsafe", i, lines[1+i], n)
		}
	}
	if !strings.Contains(lines[3], "engine summary, label reach, trace built and replayed, 1 run(s) per size") {
		t.Errorf("setting line %q", lines[3])
	}
	none := gen.NoError
	out.Reset()
	if err := Template(context.Background(), &out, &errs, TemplateOptions{Engine: info, EngineName: "summary", Sizes: []int{3}, Runs: 1, Variant: &none, Timeout: time.Minute}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), result.Safe.String()) || !strings.Contains(out.String(), "--error none") {
		t.Errorf("--error none: want safe:\n%s", out.String())
	}
}

// TestMedian: the run of the median total, with the largest peak heap of
// all runs.
func TestMedian(t *testing.T) {
	m := median([]measurement{{total: 3, peak: 1}, {total: 1, peak: 9}, {total: 2, peak: 4}})
	if m.total != 2 || m.peak != 9 {
		t.Errorf("median = total %v peak %d, want 2 and 9", m.total, m.peak)
	}
}

// TestTemplateOptions: the sizes and runs Template refuses, as
// *OptionErrors `boolprog bench` prints as usage errors.
func TestTemplateOptions(t *testing.T) {
	for _, tc := range []struct {
		sizes string
		want  []int
		err   string
	}{
		{"100, 200,400", []int{100, 200, 400}, ""},
		{"1000000", []int{1_000_000}, ""},
		{"0", nil, `bad size "0" (want whole numbers from 1 to 1000000)`},
		{"10,x", nil, `bad size "x" (want whole numbers from 1 to 1000000)`},
		{"1000001", nil, `bad size "1000001" (want whole numbers from 1 to 1000000)`},
	} {
		got, err := ParseSizes(tc.sizes)
		var oe *OptionError
		switch {
		case tc.err != "" && (!errors.As(err, &oe) || oe.Msg != tc.err):
			t.Errorf("ParseSizes(%q): %v; want the option error %q", tc.sizes, err, tc.err)
		case tc.err == "" && (err != nil || !slices.Equal(got, tc.want)):
			t.Errorf("ParseSizes(%q) = %v, %v; want %v", tc.sizes, got, err, tc.want)
		}
	}
	info, _ := engine.Lookup("summary")
	var out strings.Builder
	err := Template(context.Background(), &out, &out, TemplateOptions{Engine: info, Sizes: []int{4}, Runs: 0})
	var oe *OptionError
	if !errors.As(err, &oe) || oe.Msg != "--runs must be at least 1" || out.Len() > 0 {
		t.Errorf("no runs: %v, output %q; want the option error and no output", err, out.String())
	}
}
