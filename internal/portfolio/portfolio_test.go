package portfolio

import (
	"context"
	"flag"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

// fake answers after a delay, or when its context ends (cancelled: it
// counts that), with a fixed verdict; it records the node limit it got.
type fake struct {
	name      string
	verdict   result.Verdict
	bound     result.Bound
	delay     time.Duration
	nodes     *atomic.Int64
	cancelled *atomic.Int32
	started   *atomic.Int32
}

func (f *fake) Name() string { return f.name }

func (f *fake) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	f.started.Add(1)
	f.nodes.Store(int64(q.MaxNodes))
	select {
	case <-time.After(f.delay):
	case <-ctx.Done():
		f.cancelled.Add(1)
		return &result.Result{Verdict: result.Unknown}, nil
	}
	switch f.verdict {
	case result.Unknown:
		return result.NewUnknown(f.name, "gave up"), nil
	case result.Unsafe:
		return &result.Result{Verdict: result.Unsafe, Engine: f.name, TraceCut: true}, nil
	}
	return &result.Result{Verdict: result.Safe, Engine: f.name, Bound: f.bound}, nil
}

// register registers fakes for the tests by name: pf-<verdict>-<delay>.
func register(t *testing.T, f *fake, nodeLimited bool) string {
	t.Helper()
	f.nodes, f.cancelled, f.started = new(atomic.Int64), new(atomic.Int32), new(atomic.Int32)
	if _, ok := engine.Lookup(f.name); !ok {
		engine.Register(engine.Info{Names: []string{f.name}, NodeLimited: nodeLimited,
			Flags: func(*flag.FlagSet) func() (engine.Engine, error) {
				return func() (engine.Engine, error) { return registered[f.name], nil }
			}})
	}
	registered[f.name] = f
	return f.name
}

var registered = map[string]*fake{}

func TestPortfolio(t *testing.T) {
	p := testsuite.Lower(t, "f.bp", "void main() begin skip; end\n", "")
	const fast, slow, never = time.Millisecond, 100 * time.Millisecond, time.Hour
	rounds4 := result.Bound{Kind: result.Rounds, K: 4}
	for _, tc := range []struct {
		name       string
		members    []*fake
		query      result.Bound
		want       result.Verdict
		wantEngine string
		wantReason string
		cancelled  string // per member: y stopped by the portfolio, n not, ? either (it depends on the scheduling)
	}{
		{"the first to decide wins; the others are cancelled",
			[]*fake{{name: "pf-slow-safe", verdict: result.Safe, delay: never}, {name: "pf-fast-unsafe", verdict: result.Unsafe, delay: fast}},
			result.Bound{}, result.Unsafe, "pf-fast-unsafe", "", "yn"},
		{"an unbounded proof wins over a faster bounded one",
			[]*fake{{name: "pf-slow-safe2", verdict: result.Safe, delay: slow}, {name: "pf-fast-bounded", verdict: result.Safe, bound: rounds4, delay: fast}},
			result.Bound{}, result.Safe, "pf-slow-safe2", "", "n?"},
		{"a bounded safe answer when no one decides",
			[]*fake{{name: "pf-unknown", verdict: result.Unknown, delay: slow}, {name: "pf-fast-bounded2", verdict: result.Safe, bound: rounds4, delay: fast}},
			result.Bound{}, result.Safe, "pf-fast-bounded2", "", "nn"},
		{"a bounded query: a bound at least the query's decides",
			[]*fake{{name: "pf-never", verdict: result.Safe, delay: never}, {name: "pf-fast-bounded3", verdict: result.Safe, bound: rounds4, delay: fast}},
			result.Bound{Kind: result.Rounds, K: 3}, result.Safe, "pf-fast-bounded3", "", "yn"},
		{"every reason, in member order",
			[]*fake{{name: "pf-unknown-slow", verdict: result.Unknown, delay: slow}, {name: "pf-unknown-fast", verdict: result.Unknown, delay: fast}},
			result.Bound{}, result.Unknown, "pf-unknown-fast", "pf-unknown-slow: gave up; pf-unknown-fast: gave up", "nn"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var names [][]string
			for _, f := range tc.members {
				names = append(names, []string{"pf-not-registered", register(t, f, false)})
			}
			pf, err := New(append(names, []string{"pf-nowhere"})...)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(pf.Members()); got != len(tc.members) {
				t.Fatalf("%d members %v, want %d: an engine not registered is skipped", got, pf.Members(), len(tc.members))
			}
			res := engine.Run(context.Background(), pf, p, engine.Query{Bound: tc.query})
			if res.Verdict != tc.want || res.Engine != tc.wantEngine || res.Reason != tc.wantReason {
				t.Errorf("got %s from %s (%q), want %s from %s (%q)", res.Verdict, res.Engine, res.Reason, tc.want, tc.wantEngine, tc.wantReason)
			}
			for i, f := range tc.members {
				if want := tc.cancelled[i]; want != '?' {
					if got := f.cancelled.Load() > 0; got != (want == 'y') {
						t.Errorf("%s cancelled: %v, want %v", f.name, got, want == 'y')
					}
				}
			}
		})
	}
}

// TestDeadline: the members share the deadline; when it ends them all
// the reason is the context's.
func TestDeadline(t *testing.T) {
	p := testsuite.Lower(t, "f.bp", "void main() begin skip; end\n", "")
	a := register(t, &fake{name: "pf-wait-a", delay: time.Hour}, false)
	b := register(t, &fake{name: "pf-wait-b", delay: time.Hour}, false)
	pf, err := New([]string{a}, []string{b})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeoutCause(context.Background(), 20*time.Millisecond, engine.ErrTimeout)
	defer cancel()
	res := engine.Run(ctx, pf, p, engine.Query{})
	if res.Verdict != result.Unknown || res.Reason != engine.ReasonTimeout {
		t.Errorf("got %s (%q), want unknown (timeout)", res.Verdict, res.Reason)
	}
}

// TestNodeShare: the node budget is divided among the members that use
// BDDs; the others get none.
func TestNodeShare(t *testing.T) {
	p := testsuite.Lower(t, "f.bp", "void main() begin skip; end\n", "")
	explicit := &fake{name: "pf-nobdd", verdict: result.Unknown, delay: time.Millisecond}
	s1 := &fake{name: "pf-bdd1", verdict: result.Unknown, delay: time.Millisecond}
	s2 := &fake{name: "pf-bdd2", verdict: result.Unknown, delay: time.Millisecond}
	pf, err := New([]string{register(t, explicit, false)}, []string{register(t, s1, true)}, []string{register(t, s2, true)})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ limit, want int }{{1000, 500}, {0, bdd.DefaultMaxNodes / 2}} {
		engine.Run(context.Background(), pf, p, engine.Query{MaxNodes: tc.limit})
		if explicit.nodes.Load() != 0 || s1.nodes.Load() != int64(tc.want) || s2.nodes.Load() != int64(tc.want) {
			t.Errorf("limit %d: nodes %d, %d, %d; want 0, %d, %d", tc.limit, explicit.nodes.Load(), s1.nodes.Load(), s2.nodes.Load(), tc.want, tc.want)
		}
	}
	if !pf.NodeLimited() {
		t.Error("NodeLimited false with two BDD members")
	}
	if _, err := New([]string{"pf-nowhere"}); err == nil || !strings.Contains(err.Error(), "registered") {
		t.Errorf("New of no registered engine: %v", err)
	}
}

// TestHeadStart: the members start together; the first member's answer is
// preferred for HeadStart (another's decided answer waits for the first to
// end or the moment to pass), and no longer.
func TestHeadStart(t *testing.T) {
	p := testsuite.Lower(t, "f.bp", "void main() begin skip; end\n", "")
	for _, tc := range []struct {
		name        string
		first, then *fake
		headStart   time.Duration
		want        string // the engine whose answer is given
	}{{
		name:      "the first decides within the moment, after the other",
		first:     &fake{name: "pf-head-first", verdict: result.Safe, delay: 50 * time.Millisecond},
		then:      &fake{name: "pf-head-quick", verdict: result.Safe},
		headStart: time.Hour,
		want:      "pf-head-first",
	}, {
		name:      "the first gives up: the held answer is given at once",
		first:     &fake{name: "pf-head-gaveup", verdict: result.Unknown, delay: time.Millisecond},
		then:      &fake{name: "pf-head-second", verdict: result.Unsafe, delay: time.Millisecond},
		headStart: time.Hour, // the test would time out if the answer waited for it
		want:      "pf-head-second",
	}, {
		name:      "the moment passes while the first runs on",
		first:     &fake{name: "pf-head-slow", verdict: result.Safe, delay: time.Hour},
		then:      &fake{name: "pf-head-other", verdict: result.Safe, delay: time.Millisecond},
		headStart: 20 * time.Millisecond,
		want:      "pf-head-other",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			pf, err := New([]string{register(t, tc.first, false)}, []string{register(t, tc.then, false)})
			if err != nil {
				t.Fatal(err)
			}
			pf.headStart = tc.headStart
			res := engine.Run(context.Background(), pf, p, engine.Query{})
			if res.Engine != tc.want {
				t.Errorf("answer %s from %s, want %s's", res.Verdict, res.Engine, tc.want)
			}
			if tc.then.started.Load() != 1 {
				t.Errorf("the second member started %d times, want once, with the first", tc.then.started.Load())
			}
		})
	}
}
