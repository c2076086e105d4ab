package concprod_test

import (
	"context"
	"os"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concprod"
)

func TestTmpProf(t *testing.T) {
	f := os.Getenv("PROF_FILE")
	if f == "" {
		t.Skip()
	}
	p := lowerGetafix(t, f)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	q := engine.Query{Bound: rounds(4), Progress: func(ph, d string) { t.Log(ph, d) }}
	res := engine.Run(ctx, concprod.New(), p, q)
	t.Logf("%s %s %v", res.Verdict, res.Reason, res.Stats)
}
