package progress

import (
	"io"
	"testing"
)

// Finding 7: the progress line appears on a terminal or with -v, never
// with -q.
func TestProgressWanted(t *testing.T) {
	tests := []struct {
		tty, verbose, quiet, want bool
	}{
		{false, false, false, false},
		{true, false, false, true},
		{false, true, false, true},
		{true, false, true, false},
		{true, true, true, false},
	}
	for _, tt := range tests {
		p := New(io.Discard, tt.tty, tt.verbose, tt.quiet)
		if (p != nil) != tt.want {
			t.Errorf("tty %v, -v %v, -q %v: progress %v, want %v", tt.tty, tt.verbose, tt.quiet, p != nil, tt.want)
		}
		p.Set("parse", "x.bp")
		p.Clear()
		p.Stop()
		p.Stop()
	}
}
