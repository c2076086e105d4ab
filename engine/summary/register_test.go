package summary_test

import (
	"testing"
	"time"

	"boolprog/engine/summary"
)

// TestShortestFlag: --shortest reads auto, always, never and positive
// durations, prints them back, and refuses the rest.
func TestShortestFlag(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Duration
		text string
	}{
		{"auto", 0, "auto"},
		{"always", summary.ShortestAlways, "always"},
		{"never", -1, "never"},
		{"10s", 10 * time.Second, "10s"},
	} {
		var f summary.ShortestFlag
		if err := f.Set(c.in); err != nil || time.Duration(f) != c.want || f.String() != c.text {
			t.Errorf("Set(%q): %v, %v, %q; want %v, %q", c.in, err, time.Duration(f), f.String(), c.want, c.text)
		}
	}
	for _, bad := range []string{"", "0s", "-1s", "soon"} {
		var f summary.ShortestFlag
		if err := f.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}
