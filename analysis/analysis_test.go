package analysis_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"boolprog/analysis"
	"boolprog/internal/testsuite"
	"boolprog/ir"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// dump renders every analysis of p as text: the call graph, the components,
// the reverse postorder, MOD/REF and the live slots at every labelled
// location, with names.
func dump(p *ir.Program) string {
	c := analysis.NewCache(p)
	calls := analysis.Of(c, analysis.CallGraph)
	comps := analysis.Of(c, analysis.SCC)
	order := analysis.Of(c, analysis.RPO)
	mr := analysis.Of(c, analysis.ModRef)
	lv := analysis.Of(c, analysis.Liveness)
	sl := analysis.SlotsOf(p)
	procs := func(ids []int) string {
		var s []string
		for _, i := range ids {
			s = append(s, p.Procs[i].Name)
		}
		return "[" + strings.Join(s, " ") + "]"
	}
	slots := func(pr *ir.Proc, set analysis.Set) string {
		var s []string
		for _, x := range set.Elems() {
			switch {
			case sl.IsGlobal(x):
				s = append(s, p.Globals[x])
			case sl.IsLocal(x):
				s = append(s, pr.Locals[x-sl.G])
			default:
				s = append(s, fmt.Sprintf("ret%d", x-sl.G-sl.L))
			}
		}
		return "[" + strings.Join(s, " ") + "]"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "slots: %d globals, %d locals, %d returned values\n", sl.G, sl.L, sl.R)
	b.WriteString("components (callees first):")
	for _, comp := range comps.Comps {
		b.WriteString(" " + procs(comp))
	}
	b.WriteString("\n")
	for i, pr := range p.Procs {
		fmt.Fprintf(&b, "%s: calls %s, called by %s, starts %s, rank %d, recursive %v\n", pr.Name,
			procs(calls.Callees[i]), procs(calls.Callers[i]), procs(calls.Starts[i]), comps.Rank[i], comps.Recursive(calls, i))
		fmt.Fprintf(&b, "  mod %s ref %s\n", slots(pr, mr.Mod[i]), slots(pr, mr.Ref[i]))
		fmt.Fprintf(&b, "  rpo %v\n", order.Rank[i])
		fmt.Fprintf(&b, "  live at entry %s, exit %s\n", slots(pr, lv.Live[i][pr.Entry]), slots(pr, lv.Live[i][pr.Exit]))
		labels := make([]string, 0, len(pr.Labels))
		for l := range pr.Labels {
			labels = append(labels, l)
		}
		slices.Sort(labels)
		for _, l := range labels {
			for _, loc := range pr.Labels[l] {
				fmt.Fprintf(&b, "  live at %s %s\n", l, slots(pr, lv.Live[i][loc]))
			}
		}
	}
	return b.String()
}

// TestGolden compares the analyses of the test programs with golden files:
// this package's testdata, the examples and the summary engine's testdata.
func TestGolden(t *testing.T) {
	var files []string
	for _, pat := range []string{"testdata/*.bp", "../examples/*.bp", "../engine/summary/testdata/*.bp"} {
		m, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d test programs found", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			got := dump(testsuite.LowerFile(t, f, ""))
			golden := filepath.Join("testdata", "golden", strings.TrimSuffix(filepath.Base(f), ".bp")+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("analyses of %s differ from %s:\n%s", f, golden, got)
			}
		})
	}
}

// TestCacheFor: a cache of the program is reused; nil or another
// program's gives a new cache of the program.
func TestCacheFor(t *testing.T) {
	p := testsuite.Lower(t, "p.bp", "void main() begin skip; end\n", "")
	q := testsuite.Lower(t, "q.bp", "void main() begin skip; end\n", "")
	c := analysis.NewCache(p)
	if analysis.CacheFor(c, p) != c {
		t.Errorf("the program's own cache was not reused")
	}
	for _, other := range []*analysis.Cache{nil, analysis.NewCache(q)} {
		if got := analysis.CacheFor(other, p); got == nil || got == other || got.Prog() != p {
			t.Errorf("CacheFor(%v, p) = %v: want a new cache of p", other, got)
		}
	}
}
