package summary_test

import (
	"boolprog/internal/testsuite"
	"context"
	"fmt"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/result"
)

// TestTraceTooLong: when every path to the error runs through 2^29 calls,
// reachability is quick (summaries), but no trace can be shown, so the
// verdict must be Unknown with that reason, neither Unsafe without a trace
// nor an internal error.
func TestTraceTooLong(t *testing.T) {
	const n = 30
	var b strings.Builder
	b.WriteString("void main() begin l1(); SLIC_ERROR: skip; end\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "void l%d() begin l%d(); l%d(); end\n", i, i+1, i+1)
	}
	fmt.Fprintf(&b, "void l%d() begin skip; end\n", n)
	p := testsuite.Lower(t, "exp.bp", b.String(), "")
	res, err := summary.New(summary.Options{}).Check(context.Background(), p, engine.Query{})
	if err != nil {
		t.Fatal(err)
	}
	want := "the error is reachable, but the shortest counterexample has more than 50000000 steps"
	if res.Verdict != result.Unknown || res.Reason != want {
		t.Errorf("got %v %q, want unknown %q", res.Verdict, res.Reason, want)
	}
}
