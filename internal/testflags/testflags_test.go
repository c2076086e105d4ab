package testflags

import (
	"flag"
	"testing"
)

func TestN(t *testing.T) {
	t.Setenv("BOOLPROG_LONG", "")
	defer flag.Set("long", "false")
	shortFlag := flag.Lookup("test.short")
	defer shortFlag.Value.Set(shortFlag.Value.String())
	for _, c := range []struct {
		long, short string
		env         string
		want        int
	}{
		{"false", "false", "", 2},
		{"false", "true", "", 1},
		{"true", "false", "", 3},
		{"true", "true", "", 3},
		{"false", "true", "1", 3},
	} {
		flag.Set("long", c.long)
		shortFlag.Value.Set(c.short)
		t.Setenv("BOOLPROG_LONG", c.env)
		if got := N(1, 2, 3); got != c.want {
			t.Errorf("-long=%s -short=%s BOOLPROG_LONG=%q: N = %d, want %d", c.long, c.short, c.env, got, c.want)
		}
		if got := Long(); got != (c.want == 3) {
			t.Errorf("-long=%s BOOLPROG_LONG=%q: Long = %v", c.long, c.env, got)
		}
	}
}
