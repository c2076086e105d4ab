//go:build linux

package batch

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// CanLimitMemory says that Runner.Memory can be enforced here (it reads
// /proc).
const CanLimitMemory = true

// pageSize is the unit of /proc/PID/statm.
var pageSize = int64(os.Getpagesize())

// residentSize returns the resident set size of process pid in bytes, from
// /proc/PID/statm (its second field, in pages).
func residentSize(pid int) (int64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0, false
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * pageSize, true
}

// isolate puts the child in its own process group, so that a Ctrl-C at the
// terminal reaches only the batch (which then stops its children once,
// with SIGTERM), and has the kernel kill it if the batch dies.
func isolate(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// terminate asks a child to stop: check answers SIGTERM with UNKNOWN:
// interrupted.
func terminate(p *os.Process) { p.Signal(syscall.SIGTERM) }

// peakResident is the child's peak resident set size, as the kernel
// counted it (ru_maxrss, in KiB on Linux).
func peakResident(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10
	}
	return 0
}

// exitSignal names the signal that ended the child, or "".
func exitSignal(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}
