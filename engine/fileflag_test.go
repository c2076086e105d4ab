package engine

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO gives its content once: a second FileFlag set to it (the next
// engine build) gets what the first read, without opening it again.
func TestFileFlagFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "cfg")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	go func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			f.WriteString("merge = sep\n")
			f.Close()
		}
	}()
	for i := range 2 {
		var f FileFlag
		f.Set(fifo)
		if string(f.Data) != "merge = sep\n" || f.Err != nil || !f.IsFile() {
			t.Errorf("read %d: %q, %v", i+1, f.Data, f.Err)
		}
	}
}
