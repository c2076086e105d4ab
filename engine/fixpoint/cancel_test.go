package fixpoint_test

import (
	"context"
	"sync"
	"testing"

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
