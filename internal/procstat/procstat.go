// Package procstat reads what the process has used: its CPU time (user
// and system), which benchmarks report beside the wall time that the load
// of a shared machine inflates, and its live heap.
package procstat

import (
	"runtime/metrics"
	"time"
)

// CPU returns the CPU time the process has used so far, and false where
// the system does not tell.
func CPU() (time.Duration, bool) { return process() }

// heapMetric is the live heap, read without stopping the world (unlike
// runtime.ReadMemStats, which would perturb the run it samples).
const heapMetric = "/memory/classes/heap/objects:bytes"

// Heap reads the live heap; one Heap is for one goroutine at a time.
type Heap struct{ sample []metrics.Sample }

// NewHeap returns a reader of the live heap.
func NewHeap() *Heap { return &Heap{sample: []metrics.Sample{{Name: heapMetric}}} }

// Bytes returns the live heap in bytes, 0 if the runtime does not tell.
func (h *Heap) Bytes() uint64 {
	metrics.Read(h.sample)
	if h.sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return h.sample[0].Value.Uint64()
}
