package summary_test

import (
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"fmt"
	"path/filepath"
	"testing"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/result"
)

// TestRandomPrograms compares the engine with the explicit engine on
// generated programs (seeds 1..100; 1..30 with -short, 1..1000 with -long,
// 1..5000 with -full or
// BOOLPROG_LONG=full): the same verdict, and for unsafe programs a trace that
// replays and has exactly as many steps as the explicit engine's (both are
// shortest). Every fifth seed also runs each optimisation switched off,
// and the all-reachable mode.
func TestRandomPrograms(t *testing.T) {
	n := testflags.N(30, 100, 1000, 5000)
	var unsafe, safe, skipped int
	for seed := int64(1); seed <= int64(n); seed++ {
		src := gen.Random(seed, gen.Options{})
		name := fmt.Sprintf("seed%d.bp", seed)
		p := testsuite.Lower(t, name, src, "")
		ex := oracle(t, p, engine.Query{})
		if ex.Verdict == result.Unknown {
			skipped++
			continue
		}
		configs := allOptions[:1]
		if seed%5 == 0 {
			configs = allOptions
		}
		for _, o := range configs {
			res := check(t, p, engine.Query{}, o.opts)
			if res.Verdict != ex.Verdict {
				t.Errorf("seed %d (%s): verdict %s (%s), explicit %s\n%s", seed, o.name, res.Verdict, res.Reason, ex.Verdict, src)
				continue
			}
			if res.Verdict == result.Unsafe && len(res.Trace.Steps) != len(ex.Trace.Steps) {
				t.Errorf("seed %d (%s): %d steps, explicit %d\nsummary:\n%s\nexplicit:\n%s\n%s", seed, o.name,
					len(res.Trace.Steps), len(ex.Trace.Steps), traceText(res.Trace), traceText(ex.Trace), src)
			}
		}
		if seed%5 == 0 {
			if all := check(t, p, engine.Query{AllReachable: true}, allOptions[0].opts); all.Verdict != ex.Verdict {
				t.Errorf("seed %d: all-reachable verdict %s, explicit %s", seed, all.Verdict, ex.Verdict)
			}
		}
		switch ex.Verdict {
		case result.Unsafe:
			unsafe++
		case result.Safe:
			safe++
		}
	}
	t.Logf("%d programs: %d unsafe, %d safe, %d too big for the explicit engine", n, unsafe, safe, skipped)
	if unsafe == 0 || safe == 0 {
		t.Errorf("the generator should produce both safe and unsafe programs")
	}
}

// TestRegressions runs the programs kept in testdata/ (each a disagreement
// once found, or a corner case): the verdict and trace length must equal the
// explicit engine's under every configuration.
func TestRegressions(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.bp")
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			p := testsuite.LowerFile(t, path, "")
			ex := oracle(t, p, engine.Query{})
			t.Logf("explicit: %s", ex.Verdict)
			for _, o := range allOptions {
				res := check(t, p, engine.Query{}, o.opts)
				if res.Verdict != ex.Verdict {
					t.Errorf("%s: verdict %s, explicit %s", o.name, res.Verdict, ex.Verdict)
				} else if res.Verdict == result.Unsafe && len(res.Trace.Steps) != len(ex.Trace.Steps) {
					t.Errorf("%s: %d steps, explicit %d", o.name, len(res.Trace.Steps), len(ex.Trace.Steps))
				}
			}
		})
	}
}
