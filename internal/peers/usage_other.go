//go:build !unix

package peers

import (
	"os"
	"time"
)

// Usage returns the CPU time (user + system) of a finished process; the
// peak memory is not measured on this system (0).
func Usage(st *os.ProcessState) (cpu time.Duration, peak int64) {
	if st == nil {
		return 0, 0
	}
	return st.UserTime() + st.SystemTime(), 0
}
