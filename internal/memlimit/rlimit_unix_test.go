//go:build linux

package memlimit

import (
	"strings"
	"syscall"
	"testing"
)

// TestDetectAddressSpace lowers the soft RLIMIT_AS to 256 MiB above the
// address space the process has now (what `ulimit -v` does before the
// process starts) and checks that Detect gives the heap what is left, not
// the whole limit: the Go runtime's reservations count against it.
func TestDetectAddressSpace(t *testing.T) {
	var prev syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &prev); err != nil {
		t.Skip(err)
	}
	now := virtualSize()
	if now == 0 {
		t.Skip("no /proc/self/status")
	}
	lim := prev
	lim.Cur = uint64(now + 256<<20)
	if prev.Cur < lim.Cur {
		t.Skip("the address space is limited already")
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &lim); err != nil {
		t.Skip(err)
	}
	l := Detect()
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &prev); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(l.Source, "RLIMIT_AS") || l.Bytes <= 0 || l.Bytes > 256<<20 {
		t.Errorf("Detect() = %v, want at most 256 MiB from RLIMIT_AS", l)
	}
}
