package testflags

import (
	"flag"
	"testing"
)

func TestN(t *testing.T) {
	shortFlag := flag.Lookup("test.short")
	defer shortFlag.Value.Set(shortFlag.Value.String())
	defer flag.Set("long", "false")
	defer flag.Set("full", "false")
	for _, c := range []struct {
		long, full, short, env string
		want                   int
	}{
		{"false", "false", "false", "", 2},
		{"false", "false", "true", "", 1},
		{"true", "false", "false", "", 3},
		{"true", "false", "true", "", 3},
		{"false", "false", "true", "1", 3},
		{"false", "true", "false", "", 4},
		{"true", "false", "false", "full", 4},
	} {
		flag.Set("long", c.long)
		flag.Set("full", c.full)
		shortFlag.Value.Set(c.short)
		t.Setenv("BOOLPROG_LONG", c.env)
		if got := N(1, 2, 3, 4); got != c.want {
			t.Errorf("-long=%s -full=%s -short=%s BOOLPROG_LONG=%q: N = %d, want %d", c.long, c.full, c.short, c.env, got, c.want)
		}
		if got := Long(); got != (c.want >= 3) {
			t.Errorf("-long=%s -full=%s BOOLPROG_LONG=%q: Long = %v", c.long, c.full, c.env, got)
		}
		if got := Full(); got != (c.want == 4) {
			t.Errorf("-long=%s -full=%s BOOLPROG_LONG=%q: Full = %v", c.long, c.full, c.env, got)
		}
	}
}
