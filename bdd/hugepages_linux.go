package bdd

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on linux/amd64 and
// arm64 (with 4 KiB base pages).
const hugePage = 2 << 20

// madvHugepage is MADV_HUGEPAGE, which package syscall does not name on
// every architecture.
const madvHugepage = 14

// makeTable returns make([]T, n) and, where the slice is large enough to
// hold whole huge pages, asks the kernel to back it with transparent huge
// pages (madvise MADV_HUGEPAGE).
//
// Why: the node table, the unique table's buckets and the computed caches
// are addressed by hash, so on a large manager nearly every access of mk
// and of a cache lookup touches a page of its own; with 4 KiB pages the
// TLB covers a few MiB of them and most accesses also walk the page
// tables. With 2 MiB pages it covers a GiB or more. Most Linux systems
// ship with transparent huge pages in "madvise" mode, where memory is
// backed by them only when asked. On conc-product's proof of Getafix's
// `twoforloop` (1 GB of tables) this took 10% off the time
// (bench/RESULTS.md). A kernel that refuses (THP "never", or no THP at
// all) leaves the slice as it is: the advice is only a hint.
//
// The advice comes right after make: a page already faulted in as small
// pages is only merged later, in the background. A fresh large
// allocation the Go runtime takes zeroed from the operating system
// without touching it, so it gets huge pages at its first faults; memory
// the runtime reuses, and clears, has been touched already (the
// measured run had 440 MB of its 1 GB of tables in huge pages). The
// slices hold no pointers, so the collector never scans them.
func makeTable[T any](n int) []T {
	s := make([]T, n)
	if n == 0 {
		return s
	}
	base := unsafe.Pointer(&s[0])
	size := uintptr(n) * unsafe.Sizeof(s[0])
	skip := -uintptr(base) & (hugePage - 1) // to the first huge-page boundary
	if size > skip {
		if whole := (size - skip) &^ (hugePage - 1); whole > 0 {
			// The error is ignored on purpose: EINVAL means a kernel
			// without THP, and then the table works as well, only slower.
			_ = syscall.Madvise(unsafe.Slice((*byte)(unsafe.Add(base, skip)), whole), madvHugepage)
		}
	}
	return s
}
