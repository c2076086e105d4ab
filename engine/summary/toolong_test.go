package summary_test

import (
	"boolprog/internal/testsuite"
	"context"
	"fmt"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/engine/summary"
)

// TestTraceTooLong: when every path to the error runs through 2^29 calls,
// reachability is quick (summaries), but no trace can be shown, so the
// answer must be Unsafe with a cut trace saying why, neither Unsafe with a
// trace nor Unknown nor an internal error.
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
	want := "the shortest counterexample has more than 50000000 steps"
	if !traceCut(res, want) || res.Property.Label != "SLIC_ERROR" {
		t.Errorf("got %v cut=%v %q property %+v, want unsafe with a cut trace: %q", res.Verdict, res.TraceCut, res.Reason, res.Property, want)
	}
}
