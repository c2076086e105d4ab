//go:build !unix

package summary

import "time"

// cpuTime is not measured on this system: TestHardFigures reports 0.
func cpuTime() time.Duration { return 0 }
