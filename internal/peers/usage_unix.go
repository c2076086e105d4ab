//go:build unix

package peers

import (
	"os"
	"syscall"
	"time"
)

// Usage returns the CPU time (user + system) and the peak resident
// memory in bytes of a finished process.
func Usage(st *os.ProcessState) (cpu time.Duration, peak int64) {
	if st == nil {
		return 0, 0
	}
	cpu = st.UserTime() + st.SystemTime()
	if ru, ok := st.SysUsage().(*syscall.Rusage); ok {
		peak = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return cpu, peak
}
