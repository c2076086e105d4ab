package fixpoint_test

import (
	"context"
	"runtime"
	"strings"
	"sync"
	"testing"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/engine/fixpoint"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// pollCtx is a context that ends at its n-th poll of Err: the work an
// engine does after the end does not depend on the machine's speed.
type pollCtx struct {
	context.Context
	mu    sync.Mutex
	n     int
	polls int
	done  chan struct{}
}

func newPollCtx(n int) *pollCtx {
	return &pollCtx{Context: context.Background(), n: n, done: make(chan struct{})}
}

func (c *pollCtx) Done() <-chan struct{} { return c.done }

func (c *pollCtx) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.polls++
	if c.polls < c.n {
		return nil
	}
	if c.polls == c.n {
		close(c.done)
	}
	return context.Canceled
}

// TestBuildInterrupted checks that ef and efopt stop building a large
// program's relations soon after the context ends: they polled it only
// once the relations were built, which on this program (the issue's: 200
// globals, 100 procedures) took 14 s past a 2 s time limit and ignored
// SIGINT. The work done after the end is measured in BDD nodes, not in
// time: a full build makes millions, an interrupted one at most a few
// polls' worth (the manager polls every 65,536 node look-ups).
func TestBuildInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large program")
	}
	src := gen.Random(7, gen.Options{Globals: 200, MaxLocals: 10, Procs: 100, Stmts: 20})
	p := testsuite.Lower(t, "big.bp", src, "")
	for _, name := range []string{"ef", "efopt"} {
		t.Run(name, func(t *testing.T) {
			info, _ := engine.Lookup(name)
			e, err := info.New()
			if err != nil {
				t.Fatal(err)
			}
			ctx := newPollCtx(8)
			res, err := e.(*fixpoint.Engine).Check(ctx, p, engine.Query{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != result.Unknown {
				t.Fatalf("%s (%s), want Unknown", res.Verdict, res.Reason)
			}
			peak, ok := res.Stats.Counters["peak_bdd_nodes"]
			if !ok || peak > 1<<20 {
				t.Errorf("peak_bdd_nodes %d (reported: %v), want at most %d: the build went on after the context ended", peak, ok, 1<<20)
			}
			t.Logf("%d polls, peak %d nodes", ctx.polls, peak)
		})
	}
}

// TestMemoryLimit checks that a memory budget (bdd.SetMemoryLimit) that
// the relations and the fixed point outgrow makes ef and efopt answer
// Unknown with the reason "memory limit (...)", where without it the
// node table doubled until the process died out of memory (the issue's
// program: 64 globals, 20 procedures, nesting depth 8).
func TestMemoryLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a large program")
	}
	src := gen.Random(1, gen.Options{Globals: 64, MaxLocals: 8, Procs: 20, Stmts: 20, Depth: 8})
	p := testsuite.Lower(t, "big.bp", src, "")
	prev := bdd.SetMemoryLimit(0)
	defer bdd.SetMemoryLimit(prev)
	for _, name := range []string{"ef", "efopt"} {
		t.Run(name, func(t *testing.T) {
			runtime.GC()
			bdd.SetMemoryLimit(heapInUse() + 32<<20)
			defer bdd.SetMemoryLimit(0)
			info, _ := engine.Lookup(name)
			e, err := info.New()
			if err != nil {
				t.Fatal(err)
			}
			res := engine.Run(context.Background(), e, p, engine.Query{})
			if res.Verdict != result.Unknown || !strings.HasPrefix(res.Reason, "memory limit (") {
				t.Fatalf("%s (%s), want Unknown: memory limit", res.Verdict, res.Reason)
			}
			t.Log(res.Reason)
		})
	}
}

// heapInUse returns the bytes of the Go heap's objects.
func heapInUse() int64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}
