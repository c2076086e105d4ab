package bdd

import (
	"errors"
	"strings"
	"testing"
)

// TestMemoryLimit builds a BDD that needs millions of nodes (the
// comparison x = y of 24-bit words with every x above every y) under a
// memory budget a few MiB above the heap: the node table grows in steps
// within the budget, then the operation fails with the memory limit (an
// error matching ErrMemoryLimit and ErrNodeLimit, whose LimitReason says
// "memory limit"), not with a crash and not with the node limit, which
// is far away.
func TestMemoryLimit(t *testing.T) {
	budget := HeapBytes() + 24<<20
	prev := SetMemoryLimit(budget)
	defer SetMemoryLimit(prev)
	const n = 24
	m := New(Config{InitialNodes: 1 << 10, MaxNodes: 1 << 28})
	f := True
	for i := 0; i < n; i++ {
		f = m.And(f, m.Equiv(m.Ithvar(i), m.Ithvar(n+i)))
		if f == Invalid {
			break
		}
	}
	err := m.Err()
	if !errors.Is(err, ErrMemoryLimit) || !errors.Is(err, ErrNodeLimit) {
		t.Fatalf("error %v (capacity %d), want the memory limit", err, m.Stats().Capacity)
	}
	if r := LimitReason(err, 1<<28); !strings.HasPrefix(r, "memory limit (") {
		t.Errorf("reason %q", r)
	}
	st := m.Stats()
	if bytes := m.tableBytes(st.Capacity); bytes > budget {
		t.Errorf("capacity %d nodes (%s of tables) beyond the budget %s", st.Capacity, FormatBytes(bytes), FormatBytes(budget))
	}
	if st.Capacity&(st.Capacity-1) == 0 {
		t.Logf("capacity %d: the last step was a doubling", st.Capacity)
	}
	t.Logf("capacity %d nodes, %d grows, reason: %s", st.Capacity, st.Grows, LimitReason(err, 0))

	// Without a budget the same manager's limit is the node limit.
	SetMemoryLimit(0)
	m2 := New(Config{InitialNodes: 1 << 10, MaxNodes: 1 << 12})
	g := True
	for i := 0; i < n && g != Invalid; i++ {
		g = m2.And(g, m2.Equiv(m2.Ithvar(i), m2.Ithvar(n+i)))
	}
	if err := m2.Err(); !errors.Is(err, ErrNodeLimit) || errors.Is(err, ErrMemoryLimit) {
		t.Errorf("node limit: error %v", err)
	} else if r := LimitReason(err, 1<<12); r != "BDD node limit reached (4096 nodes)" {
		t.Errorf("node limit reason %q", r)
	}
}

func TestFormatBytes(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"}, {512 << 20, "512 MiB"}, {3 << 29, "1.5 GiB"}, {2000000 << 10, "1.9 GiB"}} {
		if got := FormatBytes(tc.n); got != tc.want {
			t.Errorf("FormatBytes(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
