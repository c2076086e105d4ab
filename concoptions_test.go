package boolprog_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"boolprog"
)

// TestConcurrentIgnoredOptions: on a concurrent program without an
// engine named, AllReachable is refused, worded by the Options field or,
// with CommandLine, by the command's flag. (A node limit is refused the
// same way when no engine of the portfolio uses BDDs; today one does.)
func TestConcurrentIgnoredOptions(t *testing.T) {
	const conc = "decl g;\nvoid t() begin g := g; end\nvoid main() begin g := T; start_thread t(); assert(g); end\n"
	for _, tc := range []struct {
		opts   boolprog.Options
		option string
		msg    string
	}{
		{boolprog.Options{AllReachable: true}, "AllReachable", "it would have no effect"},
		{boolprog.Options{AllReachable: true, CommandLine: true}, "AllReachable", "a concurrent program: --all: "},
	} {
		_, err := boolprog.Check(context.Background(), []byte(conc), tc.opts)
		var oe *boolprog.OptionError
		if !errors.As(err, &oe) || oe.Option != tc.option || !strings.Contains(oe.Msg, tc.msg) {
			t.Errorf("%+v: %v, want an OptionError on %s with %q", tc.opts, err, tc.option, tc.msg)
		}
	}
}
