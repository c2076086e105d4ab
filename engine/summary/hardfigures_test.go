package summary

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"boolprog/analysis"
	"boolprog/bdd"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/syntax"
)

// TestHardFigures is a measurement, not a test: for the programs of the
// hard set named in BOOLPROG_HARD_FIGURES (comma-separated; "all" for
// every one), it runs the reachability search of the default engine for
// BOOLPROG_HARD_TIME (default 60s, wall clock), then reports why the
// program is hard: the peak and live nodes, the largest path-edge and
// summary BDDs, the size of the largest under the order that sifting to
// convergence reaches for it alone (the layout's slot groups kept
// together), and a sound lower bound on its size under every order: the
// largest exact minimum (bdd.MinSize) of a cofactor of it over 12 free
// variables among the tries. If BOOLPROG_HARD_DUMP names a directory,
// the largest BDD is saved there, before it is sifted, as <program>.bdd
// (bdd.Manager.Save). Run as
//
//	BOOLPROG_HARD_FIGURES=g16l8-s2 go test -run TestHardFigures -v ./engine/summary/
func TestHardFigures(t *testing.T) {
	which := os.Getenv("BOOLPROG_HARD_FIGURES")
	if which == "" {
		t.Skip("a measurement: set BOOLPROG_HARD_FIGURES")
	}
	limit := 60 * time.Second
	if s := os.Getenv("BOOLPROG_HARD_TIME"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		limit = d
	}
	for _, h := range gen.HardSet() {
		if which != "all" && !strings.Contains(","+which+",", ","+h.Name+",") {
			continue
		}
		hardFigures(t, h, limit)
	}
}

type sized struct {
	what  string
	n     bdd.Node
	nodes int
	vars  int
}

func hardFigures(t *testing.T, h gen.HardProgram, limit time.Duration) {
	p := testsuite.LowerDialect(t, h.Name, h.Source(), syntax.CProver, "")
	m := bdd.New(bdd.Config{Reorder: DefaultReorder, InitialNodes: 1 << 16})
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	md := newModel(p, analysis.NewCache(p), m, Options{})
	r := newReach(ctx, md, false, false, func(string) {})
	start := time.Now()
	cpu0 := cpuTime()
	err := r.run()
	cpu := cpuTime() - cpu0
	m.SetInterrupt(nil)
	m.ClearErr()
	st := m.Stats()
	t.Logf("%s: %v after %v (%v CPU; error found: %v), %d iterations; peak %d nodes, %d live; %d reorderings",
		h.Name, err, time.Since(start).Round(time.Millisecond), cpu.Round(time.Millisecond), r.errorFound, r.iterations, st.PeakNodes, st.Nodes, st.Reorders)
	var all []sized
	for i, pi := range md.procs {
		for loc, x := range r.pe[i] {
			if x != nil {
				all = append(all, sized{what: pi.proc.Name + " path edges at location " + strconv.Itoa(loc) + locKind(pi, loc), n: x.Node()})
			}
		}
		for _, ei := range pi.edges {
			if ei.summary != nil {
				all = append(all, sized{what: "summary of the call of " + ei.callee.proc.Name + " in " + pi.proc.Name + " (edge " + strconv.Itoa(ei.edge.ID) + ")", n: ei.summary.Node()})
			}
		}
	}
	for i := range all {
		all[i].nodes = m.NodeCount(all[i].n)
		all[i].vars = len(m.Support(all[i].n))
	}
	sort.Slice(all, func(i, j int) bool { return all[i].nodes > all[j].nodes })
	for _, s := range all[:min(5, len(all))] {
		t.Logf("  %8d nodes, %2d variables: %s", s.nodes, s.vars, s.what)
	}
	if len(all) == 0 {
		return
	}
	big := all[0]
	keep := m.Keep(big.n)
	r.release()
	md.release()
	m.GC()
	if dir := os.Getenv("BOOLPROG_HARD_DUMP"); dir != "" {
		// The largest BDD as the search left it (order and blocks), for
		// bench's bddbench -sift-saved, which sifts it in BuDDy too.
		if err := dumpBDD(m, filepath.Join(dir, h.Name+".bdd"), keep.Node()); err != nil {
			t.Errorf("%s: %v", h.Name, err)
		}
	}
	before := m.NodeCount(keep.Node())
	rounds := 0
	start = time.Now()
	for {
		n0 := m.NodeCount(keep.Node())
		m.Reorder()
		rounds++
		if n1 := m.NodeCount(keep.Node()); n1 >= n0 || rounds >= 8 {
			break
		}
	}
	sifted := m.NodeCount(keep.Node())
	siftTime := time.Since(start)
	t.Logf("  largest: %d nodes; %d after sifting it alone to convergence (%d rounds, %v)", before, sifted, rounds, siftTime.Round(time.Millisecond))
	start = time.Now()
	// The lower bound: cofactors over 12 free variables, the others fixed
	// along random paths of the BDD (so that the cofactor is not
	// constant), the free ones chosen at random from its support.
	f := keep.Node()
	support := m.Support(f)
	sort.Slice(support, func(i, j int) bool { return m.Level(support[i]) < m.Level(support[j]) })
	rng := rand.New(rand.NewSource(1))
	bound, tries := 0, 16
	const free = 12
	for try := 0; try < tries && len(support) > free; try++ {
		// Free: a window of consecutive levels, where a subfunction
		// reached by the path above it is most likely to depend on all
		// of them; half the tries take the variables at random instead.
		var pick []int
		if try%2 == 0 {
			w := rng.Intn(len(support) - free + 1)
			for i := w; i < w+free; i++ {
				pick = append(pick, i)
			}
		} else {
			pick = rng.Perm(len(support))[:free]
		}
		freeVars := make([]int, 0, free)
		isFree := make(map[int]bool)
		for _, i := range pick {
			freeVars = append(freeVars, support[i])
			isFree[support[i]] = true
		}
		// A random path: values of the fixed variables on it, random
		// values for the others.
		val := make(map[int]bool)
		for g := f; g != bdd.True && g != bdd.False; {
			lo, hi := m.Low(g), m.High(g)
			b := rng.Intn(2) == 1
			if lo == bdd.False {
				b = true
			} else if hi == bdd.False {
				b = false
			}
			val[m.Var(g)] = b
			if b {
				g = hi
			} else {
				g = lo
			}
		}
		var fixed []int
		var vals []bool
		for _, v := range support {
			if isFree[v] {
				continue
			}
			b, ok := val[v]
			if !ok {
				b = rng.Intn(2) == 1
			}
			fixed = append(fixed, v)
			vals = append(vals, b)
		}
		cof := m.Exists(m.And(f, m.Assignment(fixed, vals)), m.VarSet(fixed...))
		n, err := m.MinSize(cof, freeVars)
		if err != nil {
			t.Logf("  try %d: %v", try, err)
			continue
		}
		bound = max(bound, n)
	}
	t.Logf("  lower bound on the largest under every order: %d nodes (the most of %d cofactors over %d free variables, exact minima; %v)", bound, tries, free, time.Since(start).Round(time.Millisecond))
	keep.Release()
}

// dumpBDD saves f (bdd.Manager.Save) to the file path.
func dumpBDD(m *bdd.Manager, path string, f bdd.Node) error {
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := m.Save(out, f); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

func locKind(pi *procInfo, loc int) string {
	switch loc {
	case pi.proc.Entry:
		return " (entry)"
	case pi.proc.Exit:
		return " (exit)"
	}
	return ""
}
