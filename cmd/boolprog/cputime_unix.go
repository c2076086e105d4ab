//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the process has used so
// far; the hard set reports it beside the wall time, which the load of a
// shared machine inflates.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
