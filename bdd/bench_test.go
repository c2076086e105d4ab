package bdd

import (
	"fmt"
	"math/rand"
	"runtime"
	"testing"
)

// queens builds the n-queens constraint (row-major variables) and returns
// the number of solutions.
func queens(m *Manager, n int) float64 {
	x := func(i, j int) int { return i*n + j }
	q := m.Keep(True)
	defer q.Release()
	for i := 0; i < n; i++ {
		row := False
		for j := 0; j < n; j++ {
			row = m.Or(row, m.Ithvar(x(i, j)))
		}
		q.Set(m.And(q.Node(), row))
		m.Safepoint()
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			a := True
			for k := 0; k < n; k++ {
				if k != j {
					a = m.And(a, m.NIthvar(x(i, k)))
				}
				if k != i {
					a = m.And(a, m.NIthvar(x(k, j)))
					if d := j + k - i; d >= 0 && d < n {
						a = m.And(a, m.NIthvar(x(k, d)))
					}
					if d := j + i - k; d >= 0 && d < n {
						a = m.And(a, m.NIthvar(x(k, d)))
					}
				}
			}
			q.Set(m.And(q.Node(), m.Or(m.NIthvar(x(i, j)), a)))
			m.Safepoint()
		}
	}
	all := make([]int, n*n)
	for i := range all {
		all[i] = i
	}
	return m.SatCount(q.Node(), m.VarSet(all...))
}

func TestQueens(t *testing.T) {
	for n, want := range map[int]float64{1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4} {
		if got := queens(New(Config{}), n); got != want {
			t.Errorf("%d-queens: %v solutions, want %v", n, got, want)
		}
	}
}

func benchQueens(b *testing.B, n int) {
	for i := 0; i < b.N; i++ {
		m := New(Config{})
		queens(m, n)
		st := m.Stats()
		b.ReportMetric(float64(st.PeakNodes), "peak-nodes")
		b.ReportMetric(st.CacheHitRate(), "cache-hit-rate")
	}
}

func BenchmarkQueens8(b *testing.B)  { benchQueens(b, 8) }
func BenchmarkQueens10(b *testing.B) { benchQueens(b, 10) }

// BenchmarkGCChurn runs a long loop that keeps a bounded working set of
// rooted BDDs and throws away everything else at each Safepoint. The
// reported node-table capacity, peak live nodes and Go heap must stay
// flat as b.N grows (compare -benchtime 1000x with 100000x).
func BenchmarkGCChurn(b *testing.B) {
	m := New(Config{InitialNodes: 1 << 12})
	rng := rand.New(rand.NewSource(1))
	const nv, keep = 24, 16
	roots := make([]*Root, keep)
	for i := range roots {
		roots[i] = m.Keep(m.Ithvar(i))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		x, y := roots[rng.Intn(keep)].Node(), roots[rng.Intn(keep)].Node()
		v := rng.Intn(nv)
		var f Node
		switch rng.Intn(4) {
		case 0:
			f = m.And(x, m.Or(y, m.Ithvar(v)))
		case 1:
			f = m.Xor(x, m.Ithvar(v))
		case 2:
			f = m.Exists(m.Or(x, y), m.VarSet(v))
		default:
			f = m.Ite(m.Ithvar(v), y, x)
		}
		if m.NodeCount(f) > 2000 { // keep the working set bounded
			f = m.Ithvar(v)
		}
		roots[rng.Intn(keep)].Set(f)
		m.Safepoint()
	}
	b.StopTimer()
	if m.Err() != nil {
		b.Fatal(m.Err())
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	st := m.Stats()
	b.ReportMetric(float64(st.Capacity), "table-capacity")
	b.ReportMetric(float64(st.PeakNodes), "peak-nodes")
	b.ReportMetric(float64(st.GCs), "collections")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
}

// BenchmarkSmallBDDLargeManager renames and quantifies a BDD over 4
// variables in managers of 10 and 10,000 variables, with renamings and
// sets that mention every variable of the manager in the "all" cases:
// the time per operation must not depend on the manager's size (the
// cost the Bebop paper hit with CUDD's substitution).
func BenchmarkSmallBDDLargeManager(b *testing.B) {
	for _, vars := range []int{10, 10000} {
		// A tiny fixed cache, cleared at every iteration, so that every
		// operation is computed, not found in the cache.
		m := New(Config{Vars: vars, CacheSize: 16})
		f := m.Or(m.And(m.Ithvar(0), m.Ithvar(1)), m.Xor(m.Ithvar(2), m.Ithvar(3)))
		defer m.Keep(f).Release()
		m.Safepoint()
		// A renaming of all variables (shift by 4 within the first 10 is
		// the part that matters for f) and the set of all variables.
		from, to := make([]int, vars), make([]int, vars)
		all := make([]int, vars)
		for v := range from {
			from[v], to[v], all[v] = v, (v+4)%vars, v
		}
		b.Run(fmt.Sprintf("replace/vars=%d", vars), func(b *testing.B) {
			p := m.NewPairs(from, to)
			for i := 0; i < b.N; i++ {
				p.Set(from[:4], to[:4])
				m.Replace(f, p)
				m.Safepoint()
			}
		})
		b.Run(fmt.Sprintf("replace-all-pairs/vars=%d", vars), func(b *testing.B) {
			ps := []*Pairs{m.NewPairs(from, to), m.NewPairs(to, from)}
			for i := 0; i < b.N; i++ {
				m.Replace(f, ps[i&1])
				m.Safepoint()
				m.clearCache()
			}
		})
		b.Run(fmt.Sprintf("exists-all/vars=%d", vars), func(b *testing.B) {
			s := m.VarSet(all...)
			g := m.And(f, m.Ithvar(vars-1))
			defer m.Keep(g).Release()
			for i := 0; i < b.N; i++ {
				m.Exists(g, s)
				m.Safepoint()
				m.clearCache()
			}
		})
	}
}

// BenchmarkSift measures one sifting (Manager.Reorder) of BDDs with a bad
// order: ∧_i (x_i ↔ y_i) and ∨_i (x_i ∧ y_{i+1 mod n}) with every x before
// every y (about 2^n nodes each; sifting brings each x_i to its y_i). It
// reports the swaps and the time per swap, the cost sifting is made of.
func BenchmarkSift(b *testing.B) {
	for _, n := range []int{12, 15} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var swaps uint64
			var before, after int
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				m := New(Config{})
				eq, or := True, False
				for k := 0; k < n; k++ {
					eq = m.And(eq, m.Equiv(m.Ithvar(k), m.Ithvar(n+k)))
					or = m.Or(or, m.And(m.Ithvar(k), m.Ithvar(n+(k+1)%n)))
				}
				r1, r2 := m.Keep(eq), m.Keep(or)
				m.GC()
				before = m.Stats().Nodes
				b.StartTimer()
				m.Reorder()
				b.StopTimer()
				st := m.Stats()
				swaps, after = st.ReorderSwaps, st.Nodes
				r1.Release()
				r2.Release()
			}
			b.ReportMetric(float64(before), "nodes-before")
			b.ReportMetric(float64(after), "nodes-after")
			b.ReportMetric(float64(swaps), "swaps")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(swaps), "ns/swap")
		})
	}
}
