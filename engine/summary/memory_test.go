package summary_test

import (
	"context"
	"runtime"
	"strings"
	"testing"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestMemoryLimit checks that the memory budget (bdd.SetMemoryLimit) makes
// the summary engine answer Unknown with the reason "memory limit (...)"
// on the program (64 globals, 20 procedures, nesting depth 8),
// where without a budget the node table doubled until the process died
// out of memory under `ulimit -v 2000000`.
func TestMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("a large program")
	}
	src := gen.Random(1, gen.Options{Globals: 64, MaxLocals: 8, Procs: 20, Stmts: 20, Depth: 8})
	p := testsuite.Lower(t, "big.bp", src, "")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	prev := bdd.SetMemoryLimit(int64(ms.HeapAlloc) + 32<<20)
	defer bdd.SetMemoryLimit(prev)
	res := engine.Run(context.Background(), summary.New(summary.Options{}), p, engine.Query{})
	if res.Verdict != result.Unknown || !strings.HasPrefix(res.Reason, "memory limit (") {
		t.Fatalf("%s (%s), want Unknown: memory limit", res.Verdict, res.Reason)
	}
	t.Log(res.Reason)
}
