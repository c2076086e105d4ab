package concprod_test

import (
	"context"
	"os"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concprod"
	"boolprog/internal/testsuite"
	"boolprog/syntax"
)

func TestZZProf(t *testing.T) {
	f := os.Getenv("ZZFILE")
	if f == "" {
		t.Skip()
	}
	src, _ := os.ReadFile(f)
	p := testsuite.LowerDialect(t, f, string(src), syntax.Getafix, "SLIC_ERROR")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	q := engine.Query{Bound: rounds(4), Target: "SLIC_ERROR"}
	res := engine.Run(ctx, concprod.New(), p, q)
	t.Logf("%s %s %v", res.Verdict, res.Reason, res.Stats)
}
