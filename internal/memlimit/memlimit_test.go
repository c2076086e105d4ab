package memlimit

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"

	"boolprog/bdd"
)

func TestParseSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true},
		{"4096", 4096, true},
		{"512M", 512 << 20, true},
		{"512MiB", 512 << 20, true},
		{"512mb", 512 << 20, true},
		{"1.5G", 3 << 29, true},
		{"2000000K", 2000000 << 10, true},
		{" 2T ", 2 << 40, true},
		{"", 0, false},
		{"G", 0, false},
		{"-1G", 0, false},
		{"lots", 0, false},
		{"1e30", 0, false},
		{"NaN", 0, false},
	} {
		got, err := ParseSize(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// TestApply checks the shares a limit gives the Go collector and the BDD
// budget, and that a zero limit removes both.
func TestApply(t *testing.T) {
	prevGo := debug.SetMemoryLimit(-1)
	prevBDD := bdd.MemoryLimit()
	defer func() {
		debug.SetMemoryLimit(prevGo)
		bdd.SetMemoryLimit(prevBDD)
	}()
	budget := Apply(Limit{Bytes: 1000 << 20, Source: "test"})
	if budget != bdd.MemoryLimit() || budget != int64(float64(1000<<20)*bddShare) {
		t.Errorf("budget %d, bdd limit %d", budget, bdd.MemoryLimit())
	}
	if got := debug.SetMemoryLimit(-1); got != int64(float64(1000<<20)*goShare) {
		t.Errorf("Go limit %d", got)
	}
	if Apply(Limit{}) != 0 || bdd.MemoryLimit() != 0 || debug.SetMemoryLimit(-1) != math.MaxInt64 {
		t.Errorf("a zero limit left a limit")
	}
}

// TestDetect checks that a machine with /proc/meminfo has a limit, no
// larger than its physical memory.
func TestDetect(t *testing.T) {
	phys := physicalMemory()
	if phys == 0 {
		t.Skip("no /proc/meminfo")
	}
	l := Detect()
	if l.Bytes <= 0 || l.Bytes > phys || l.Source == "" {
		t.Errorf("Detect() = %v, physical memory %d", l, phys)
	}
}

// TestOver: without a limit the heap is never over; with a limit it is
// over once the heap holds more than 70% of it, and Over names the limit.
func TestOver(t *testing.T) {
	t.Cleanup(func() { Apply(Limit{}) })
	Apply(Limit{})
	if _, _, over := Over(); over {
		t.Error("over without a limit")
	}
	keep := make([]byte, 8<<20) // 8 MiB live, so the heap is at least that
	Apply(Limit{Bytes: 4 << 20, Source: "test"})
	heap, limit, over := Over()
	if !over || limit != 4<<20 || heap < int64(len(keep)) {
		t.Errorf("4 MiB limit, 8 MiB held: heap %d, limit %d, over %v", heap, limit, over)
	}
	Apply(Limit{Bytes: 1 << 40, Source: "test"})
	if heap, _, over := Over(); over {
		t.Errorf("1 TiB limit: over with a heap of %d", heap)
	}
	runtime.KeepAlive(keep)
}
