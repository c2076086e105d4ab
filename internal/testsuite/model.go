package testsuite

import (
	"bytes"
	"context"
	"testing"

	"boolprog/fix"
	"boolprog/fix/program"
	"boolprog/ir"
)

// SolveModel writes the model of p for the built-in algorithm alg (as
// boolprog mucke --emit does) and solves it with package fix alone,
// failing the test if the model does not parse, solve or ask a query. It
// returns the query's value (an error location is reachable) and the
// model's text, for the failure messages of the caller.
func SolveModel(t testing.TB, p *ir.Program, alg string) (unsafe bool, model string) {
	t.Helper()
	text, err := program.Algorithm(alg)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := program.WriteModel(&buf, program.NewEncoding(p), text); err != nil {
		t.Fatal(err)
	}
	f, err := fix.ParseFile(alg+".mu", buf.Bytes())
	if err != nil {
		t.Fatalf("the model does not parse: %v\n%s", err, buf.String())
	}
	ans, err := fix.Solve(context.Background(), f, fix.Options{})
	if err != nil {
		t.Fatalf("the model does not solve: %v", err)
	}
	if !ans.HasQuery {
		t.Fatal("the model has no query")
	}
	return ans.Value, buf.String()
}
