//go:build !linux

package batch

import (
	"os"
	"os/exec"
)

// CanLimitMemory says that Runner.Memory can be enforced here: it needs Linux's
// /proc.
const CanLimitMemory = false

func residentSize(pid int) (int64, bool) { return 0, false }

func isolate(cmd *exec.Cmd) {}

// terminate asks a child to stop; where SIGTERM cannot be sent, it is
// killed.
func terminate(p *os.Process) {
	if p.Signal(os.Interrupt) != nil {
		p.Kill()
	}
}

func peakResident(ps *os.ProcessState) int64 { return 0 }

func exitSignal(ps *os.ProcessState) string { return "" }
