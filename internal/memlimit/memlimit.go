// Package memlimit derives the memory the process may use from the limits
// it runs under (its address-space limit, its cgroup, the machine) and
// applies a limit: the Go collector's soft limit, the budget of the BDD
// node tables (bdd.SetMemoryLimit) and the share of a search that keeps
// its states in the Go heap (Over), so that a program whose BDDs or
// states outgrow the memory is answered "VERIFICATION UNKNOWN: memory
// limit (...)" instead of the process dying out of memory.
package memlimit

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"

	"boolprog/bdd"
)

// Limit is an amount of memory the process may use and where the figure
// comes from.
type Limit struct {
	Bytes  int64  // 0: no limit known
	Source string // "RLIMIT_AS", "cgroup memory.max", "physical memory", or the user's
}

func (l Limit) String() string {
	if l.Bytes <= 0 {
		return "no limit"
	}
	return bdd.FormatBytes(l.Bytes) + " (" + l.Source + ")"
}

// unlimited is the smallest figure taken for "no limit" (cgroup v1 writes
// 2^63 rounded down to a page).
const unlimited = int64(1) << 60

// Detect returns the smallest of the process's address-space limit
// (RLIMIT_AS, `ulimit -v`), its cgroup's memory limit (memory.max, or v1's
// memory.limit_in_bytes) and the machine's physical memory; Bytes is 0
// when none is known.
func Detect() Limit {
	var best Limit
	consider := func(n int64, source string) {
		if n > 0 && n < unlimited && (best.Bytes == 0 || n < best.Bytes) {
			best = Limit{Bytes: n, Source: source}
		}
	}
	if as := addressSpaceLimit(); as > 0 {
		// The address-space limit counts every mapping, and the Go
		// runtime reserves hundreds of MiB of address space at start
		// (744 MiB under a 977 MiB limit, 1.2 GiB under 1.9 GiB, with
		// 20-60 MiB resident): the heap has what is left.
		reserved := virtualSize()
		consider(as-reserved, fmt.Sprintf("RLIMIT_AS %s less %s reserved at start", bdd.FormatBytes(as), bdd.FormatBytes(reserved)))
	}
	consider(cgroupLimit(), "cgroup memory.max")
	consider(physicalMemory(), "physical memory")
	return best
}

// The shares of the limit given to the Go collector's soft limit and to
// the BDD node tables. An address-space limit counts the runtime's
// mappings too (stacks, the binary, freed spans not yet reused), so the
// heap stays well below it; the node tables get the larger part of the
// heap, and the rest of the program (engines' maps, traces, parsing) the
// remainder.
const (
	goShare  = 0.80
	bddShare = 0.55
	// searchShare is the part past which a search that keeps its states
	// in the Go heap (the explicit engine's maps) stops (Over): above the
	// node tables' budget, so that beside a BDD engine at its budget the
	// search still has room, and below the collector's soft limit, so
	// that the collector is not left thrashing at it.
	searchShare = 0.70
)

// applied is the limit Apply set, in bytes (0: none).
var applied atomic.Int64

// Over reports whether the Go heap's objects (bdd.HeapBytes) take more
// than 70% of the process's memory limit (Apply), after a collection of
// its garbage (then more than 95% of that 70%); it returns the heap and
// the limit. A search that keeps its states in the heap checks it every
// few thousand steps and, when over, stops with "memory limit" instead of
// growing past the limit. Without a limit it is never over.
func Over() (heap, limit int64, over bool) {
	limit = applied.Load()
	if limit <= 0 {
		return 0, 0, false
	}
	allowed := int64(float64(limit) * searchShare)
	heap = bdd.HeapBytes()
	if heap <= allowed {
		return heap, limit, false
	}
	// Objects not yet swept count too: collect before deciding. What is
	// left within 5% of the share counts as over: a search that far has
	// no room left, and each call would collect again.
	runtime.GC()
	heap = bdd.HeapBytes()
	return heap, limit, heap > allowed-allowed/20
}

// Apply makes l the process's memory limit: runtime/debug.SetMemoryLimit
// to 80% of it, bdd.SetMemoryLimit to 55%, the BDD budget, which it
// returns, and 70% for searches that keep their states in the Go heap
// (Over). A zero limit removes them (the Go limit back to none).
func Apply(l Limit) int64 {
	if l.Bytes <= 0 {
		debug.SetMemoryLimit(math.MaxInt64)
		bdd.SetMemoryLimit(0)
		applied.Store(0)
		return 0
	}
	applied.Store(l.Bytes)
	debug.SetMemoryLimit(int64(float64(l.Bytes) * goShare))
	budget := int64(float64(l.Bytes) * bddShare)
	bdd.SetMemoryLimit(budget)
	return budget
}

// ParseSize reads a size as a user writes it: a number of bytes with an
// optional binary unit, K, M, G or T (KiB, MiB, ... and KB, MB, ... too,
// all powers of 1024), such as "512M", "1.5G" or "2000000K". "0" is no
// limit.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "B"), "I")
	mult := int64(1)
	if n := len(t); n > 0 {
		if i := strings.IndexByte("KMGT", t[n-1]); i >= 0 {
			mult = int64(1) << (10 * (i + 1))
			t = t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) || v*float64(mult) >= float64(unlimited) {
		return 0, fmt.Errorf("bad size %q (want a number of bytes with an optional unit K, M, G or T, e.g. 512M or 1.5G)", s)
	}
	return int64(v * float64(mult)), nil
}

// cgroupLimit returns the memory limit of the process's cgroup (v2's
// memory.max or v1's memory.limit_in_bytes), 0 if none is known.
func cgroupLimit() int64 {
	f, err := os.Open("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	defer f.Close()
	var files []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// hierarchy-ID:controller-list:cgroup-path
		parts := strings.SplitN(sc.Text(), ":", 3)
		if len(parts) != 3 {
			continue
		}
		switch {
		case parts[0] == "0" && parts[1] == "":
			files = append(files, filepath.Join("/sys/fs/cgroup", parts[2], "memory.max"), "/sys/fs/cgroup/memory.max")
		case strings.Contains(","+parts[1]+",", ",memory,"):
			files = append(files, filepath.Join("/sys/fs/cgroup/memory", parts[2], "memory.limit_in_bytes"), "/sys/fs/cgroup/memory/memory.limit_in_bytes")
		}
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil {
			return n // "max" does not parse: no limit
		}
		return 0
	}
	return 0
}

// virtualSize returns the process's address space now (VmSize of
// /proc/self/status), 0 if unknown.
func virtualSize() int64 { return procField("/proc/self/status", "VmSize:") }

// physicalMemory returns MemTotal of /proc/meminfo, 0 if unknown.
func physicalMemory() int64 { return procField("/proc/meminfo", "MemTotal:") }

// procField returns the figure in kB of a field of a /proc file, in bytes,
// 0 if unknown.
func procField(file, field string) int64 {
	f, err := os.Open(file)
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 2 && fields[0] == field {
			if n, err := strconv.ParseInt(fields[1], 10, 64); err == nil {
				return n << 10 // kB
			}
		}
	}
	return 0
}
