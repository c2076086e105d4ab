package bdd

import (
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// ErrMemoryLimit is the sticky error recorded when an operation needs more
// nodes and the node table cannot grow within the memory budget
// (SetMemoryLimit), even after garbage collection. The error a Manager
// records is not ErrMemoryLimit itself but matches it with errors.Is, and
// matches ErrNodeLimit too: to a client both mean that the BDDs outgrew
// what the manager may hold, and code that turns the node limit into an
// answer (Unknown) handles both; LimitReason tells them apart.
var ErrMemoryLimit = errors.New("bdd: memory limit reached")

// memoryLimitError is the sticky error of a Manager stopped by the memory
// budget.
type memoryLimitError struct {
	nodes  int   // the size of the node table that could not grow
	budget int64 // the budget, in bytes
}

func (e *memoryLimitError) Error() string {
	return fmt.Sprintf("memory limit (%s: the BDD node table cannot grow beyond %d nodes)", FormatBytes(e.budget), e.nodes)
}

// Is makes the error match ErrMemoryLimit and ErrNodeLimit.
func (e *memoryLimitError) Is(target error) bool {
	return target == ErrMemoryLimit || target == ErrNodeLimit
}

// LimitReason returns the reason of an Unknown answer for err, an error
// that errors.Is ErrNodeLimit: "memory limit (...)" when the memory
// budget stopped the manager, else "BDD node limit reached (maxNodes
// nodes)" (without the count if maxNodes <= 0).
func LimitReason(err error, maxNodes int) string {
	var me *memoryLimitError
	if errors.As(err, &me) {
		return me.Error()
	}
	if maxNodes <= 0 {
		return "BDD node limit reached"
	}
	return fmt.Sprintf("BDD node limit reached (%d nodes)", maxNodes)
}

// FormatBytes writes a number of bytes for people: "512 MiB", "1.5 GiB".
func FormatBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	s := fmt.Sprintf("%.1f", v)
	if v >= 100 || s[len(s)-2:] == ".0" {
		s = fmt.Sprintf("%.0f", v)
	}
	return s + " " + "KMGTP"[exp:exp+1] + "iB"
}

// memoryLimit is the budget of SetMemoryLimit, in bytes (0: none).
var memoryLimit atomic.Int64

// growMu serialises the decisions to grow of concurrent Managers, so that
// two of them do not both take the last of the budget.
var growMu sync.Mutex

// SetMemoryLimit sets the memory budget of the BDD node tables, in bytes,
// and returns the previous one; 0 (the default) means none. The budget is
// for the whole process (its Go heap), which the Managers share with
// everything else: a Manager grows its tables only while the heap, with
// the new tables, stays within it (after a garbage collection if needed);
// it grows them in steps up to doubling, the last step to what still
// fits, and when even that is too little, operations fail with an error
// matching ErrMemoryLimit (and ErrNodeLimit) instead of the process dying
// out of memory. A process that sets a budget should also set
// runtime/debug.SetMemoryLimit above it, so that the Go collector keeps
// the garbage of old tables in check.
func SetMemoryLimit(bytes int64) int64 {
	if bytes < 0 {
		bytes = 0
	}
	return memoryLimit.Swap(bytes)
}

// MemoryLimit returns the budget of SetMemoryLimit (0: none).
func MemoryLimit() int64 { return memoryLimit.Load() }

// HeapBytes returns the bytes of the Go heap's objects (live or not yet
// swept): what the budget of SetMemoryLimit is measured against, and
// what a search that keeps its states in the heap can measure itself by.
func HeapBytes() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// tableBytes is the memory that a node table of n entries allocates anew
// when the table grows to n: the nodes, the unique table, the mark bits
// and the computed caches (the old ones are garbage only once they are
// replaced, so all of it counts).
func (m *Manager) tableBytes(n int) int64 {
	b := int64(n)*16 + int64(1)<<bits.Len(uint(n-1))*4 + int64(n+63)/64*8
	c := m.cacheFixed
	if c <= 0 {
		c = n / m.cacheRatio
	}
	if c < 1024 {
		c = 1024
	}
	c = 1 << bits.Len(uint(c-1))
	return b + int64(numCaches)*int64(c)*20
}

// budgetSize returns the size to grow the node table of n entries to,
// wanting want (> n): want if the budget allows it, else the largest size
// that fits if it is worth a growth (at least n/8 more), else 0. Without
// a budget it returns want.
func (m *Manager) budgetSize(n, want int) int {
	limit := memoryLimit.Load()
	if limit <= 0 {
		return want
	}
	if m.deniedAt == n {
		// Refused at this size already: do not collect the Go heap
		// again each time an operation runs out of nodes.
		m.memLimited = true
		return 0
	}
	growMu.Lock()
	defer growMu.Unlock()
	fits := func(heap int64, k int) bool { return heap+m.tableBytes(k) <= limit }
	heap := HeapBytes()
	if !fits(heap, want) {
		// The heap may hold the garbage of old tables and of other
		// managers: collect it before deciding.
		runtime.GC()
		heap = HeapBytes()
	}
	if fits(heap, want) {
		return want
	}
	lo, hi := n, want // fits(lo) is assumed, fits(hi) is false
	for hi-lo > 1 && hi-lo > n/64 {
		mid := lo + (hi-lo)/2
		if fits(heap, mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	if lo < n+n/8 {
		m.memLimited = true
		m.deniedAt = n
		return 0
	}
	return lo
}
