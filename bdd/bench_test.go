package bdd

import (
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
