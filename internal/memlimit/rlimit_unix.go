//go:build unix

package memlimit

import "syscall"

// addressSpaceLimit returns the soft RLIMIT_AS, 0 if there is none
// (RLIM_INFINITY is all ones, above unlimited).
func addressSpaceLimit() int64 {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur >= uint64(unlimited) {
		return 0
	}
	return int64(r.Cur)
}
