package procstat

import (
	"runtime"
	"testing"
)

// TestProcessGrows: the CPU time never goes back, and on a Unix system a
// busy loop adds to it.
func TestCPUGrows(t *testing.T) {
	before, ok := CPU()
	if !ok {
		if runtime.GOOS != "windows" && runtime.GOOS != "js" && runtime.GOOS != "wasip1" {
			t.Fatalf("no CPU time on %s", runtime.GOOS)
		}
		t.Skip("the system does not tell the CPU time")
	}
	x := 0
	for after := before; after <= before; after, _ = CPU() {
		for i := range 1_000_000 {
			x += i
		}
	}
	_ = x
	if after, _ := CPU(); after < before {
		t.Errorf("CPU time went back: %v after %v", after, before)
	}
}

// TestHeap: the live heap is read and grows with a live allocation.
func TestHeap(t *testing.T) {
	h := NewHeap()
	before := h.Bytes()
	if before == 0 {
		t.Fatal("no live heap")
	}
	keep := make([]byte, 64<<20)
	if after := h.Bytes(); after < before+32<<20 {
		t.Errorf("heap %d after allocating 64 MB, %d before", after, before)
	}
	runtime.KeepAlive(keep)
}
