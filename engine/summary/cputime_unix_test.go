//go:build unix

package summary

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time (user and system) the process has used.
// getrusage rather than runtime/metrics, whose CPU classes are estimates
// brought up to date at collections: a search of a few seconds read 0 s.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
