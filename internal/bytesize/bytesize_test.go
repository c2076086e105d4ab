package bytesize

import "testing"

// TestSize: sizes read with every unit, and write back in the largest
// binary unit that divides them.
func TestSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int64
		text string
	}{
		{"64MiB", 64 << 20, "64MiB"},
		{"1GiB", 1 << 30, "1GiB"},
		{"2048GiB", 2048 << 30, "2048GiB"},
		{"1536KiB", 1536 << 10, "1536KiB"},
		{"1024KiB", 1 << 20, "1MiB"},
		{"1KB", 1000, "1000"},
		{"3MB", 3e6, "3000000"},
		{"2GB", 2e9, "1953125KiB"},
		{"500000", 500000, "500000"},
		{"10 B", 10, "10"},
	} {
		var s Size
		if err := s.Set(tc.in); err != nil || int64(s) != tc.n || s.String() != tc.text {
			t.Errorf("Set(%q) = %d (%q), %v; want %d (%q)", tc.in, s, s.String(), err, tc.n, tc.text)
		}
	}
	for _, bad := range []string{"", "0", "-1", "1.5GiB", "64 megabytes", "9000000000GiB"} {
		var s Size
		if err := s.Set(bad); err == nil {
			t.Errorf("Set(%q) accepted", bad)
		}
	}
}
