package engine_test

import (
	"context"
	"errors"
	"flag"
	"strings"
	"testing"
	"time"

	"boolprog/analysis"
	"boolprog/engine"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

// fake is an engine whose Check does what the test says.
type fake struct {
	check    func(ctx context.Context, p *ir.Program) (*result.Result, error)
	supports error
}

func (*fake) Name() string { return "fake" }

func (f *fake) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	return f.check(ctx, p)
}

func (f *fake) Supports(*ir.Program, engine.Query) error { return f.supports }

const prog = "decl g;\nvoid main() begin g := T; assert(!g); end\n"

// unsafeTrace is the two-step trace of prog.
func unsafeTrace(p *ir.Program) *result.Trace {
	main := p.Procs[p.Main]
	vals := []result.Value{{Name: "g", Value: false}}
	assign := main.Locations[main.Entry].Out[0]
	next := main.Edges[assign].To
	var fail int
	for _, id := range main.Locations[next].Out {
		if main.Locations[main.Edges[id].To].Error {
			fail = id
		}
	}
	return &result.Trace{Steps: []result.Step{
		result.NewStep(p, main, main.Entry, assign, vals, 0, 0),
		result.NewStep(p, main, next, fail, []result.Value{{Name: "g", Value: true}}, 0, 0),
	}}
}

func TestRun(t *testing.T) {
	p := testsuite.Lower(t, "p.bp", prog, "")
	expired, cancel := context.WithTimeout(context.Background(), time.Nanosecond)
	defer cancel()
	<-expired.Done()
	timeoutCause, cancel2 := context.WithTimeoutCause(context.Background(), time.Nanosecond, engine.ErrTimeout)
	defer cancel2()
	<-timeoutCause.Done()
	interrupted, stop := context.WithCancelCause(context.Background())
	stop(engine.ErrInterrupted)
	cancelled, stop2 := context.WithCancel(context.Background())
	stop2()

	// blocking waits for the context and reports it as an error.
	blocking := func(ctx context.Context, _ *ir.Program) (*result.Result, error) {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	for _, c := range []struct {
		name    string
		ctx     context.Context
		eng     *fake
		q       engine.Query
		verdict result.Verdict
		reason  string // prefix
		debug   bool
	}{
		{"unsupported", context.Background(), &fake{supports: errors.New("no threads here")}, engine.Query{}, result.Unknown, "no threads here", false},
		{"panic", context.Background(), &fake{check: func(context.Context, *ir.Program) (*result.Result, error) { panic("boom") }}, engine.Query{}, result.Unknown, "internal error: boom", true},
		{"error", context.Background(), &fake{check: func(context.Context, *ir.Program) (*result.Result, error) { return nil, errors.New("bad") }}, engine.Query{}, result.Unknown, "internal error: bad", false},
		{"nil result", context.Background(), &fake{check: func(context.Context, *ir.Program) (*result.Result, error) { return nil, nil }}, engine.Query{}, result.Unknown, "internal error: ", false},
		{"other target", context.Background(), &fake{}, engine.Query{Target: "OTHER"}, result.Unknown, "internal error: engine: query target", false},
		{"bad bound", context.Background(), &fake{}, engine.Query{Bound: result.Bound{K: 3}}, result.Unknown, "internal error: engine: bound 3 without a kind", false},
		{"deadline", expired, &fake{check: blocking}, engine.Query{}, result.Unknown, "timeout", false},
		{"timeout cause", timeoutCause, &fake{check: blocking}, engine.Query{}, result.Unknown, "timeout", false},
		{"interrupted", interrupted, &fake{check: blocking}, engine.Query{}, result.Unknown, "interrupted", false},
		{"cancelled", cancelled, &fake{check: blocking}, engine.Query{}, result.Unknown, "interrupted", false},
		{"unsafe without trace", context.Background(), &fake{check: func(context.Context, *ir.Program) (*result.Result, error) {
			return &result.Result{Verdict: result.Unsafe}, nil
		}}, engine.Query{}, result.Unknown, "internal error: an unsafe verdict without a trace", false},
		{"safe", context.Background(), &fake{check: func(context.Context, *ir.Program) (*result.Result, error) {
			return &result.Result{Verdict: result.Safe}, nil
		}}, engine.Query{}, result.Safe, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := engine.Run(c.ctx, c.eng, p, c.q)
			if res.Verdict != c.verdict || !strings.HasPrefix(res.Reason, c.reason) || res.Engine != "fake" {
				t.Errorf("got %s %q (engine %q), want %s %q", res.Verdict, res.Reason, res.Engine, c.verdict, c.reason)
			}
			if strings.Contains(res.Reason, "goroutine") || strings.Contains(res.Reason, "\n") {
				t.Errorf("the reason shows a stack: %q", res.Reason)
			}
			if c.debug != (res.Debug != "") {
				t.Errorf("Debug %q", res.Debug)
			}
		})
	}
}

func TestRunFills(t *testing.T) {
	p := testsuite.Lower(t, "p.bp", prog, "")
	// A bounded safe answer carries the query's bound.
	q := engine.Query{Bound: result.Bound{Kind: result.ContextSwitches, K: 6}}
	res := engine.Run(context.Background(), &fake{check: func(context.Context, *ir.Program) (*result.Result, error) {
		return &result.Result{Verdict: result.Safe}, nil
	}}, p, q)
	if got := res.Banner(); got != "VERIFICATION SUCCESSFUL up to 6 context switches" {
		t.Errorf("banner %q", got)
	}
	// An unsafe answer gets the property of its trace's last step.
	res = engine.Run(context.Background(), &fake{check: func(_ context.Context, p *ir.Program) (*result.Result, error) {
		return &result.Result{Verdict: result.Unsafe, Trace: unsafeTrace(p)}, nil
	}}, p, engine.Query{})
	want := result.Property{Kind: result.PropertyAssertion, Text: "assert(!g)", File: "p.bp", Proc: "main", Line: 2, Col: 27}
	if res.Property == nil || *res.Property != want {
		t.Errorf("property %+v, want %+v", res.Property, want)
	}
	// A cut trace keeps its verdict and its note.
	res = engine.Run(context.Background(), &fake{check: func(context.Context, *ir.Program) (*result.Result, error) {
		return &result.Result{Verdict: result.Unsafe, TraceCut: true, Reason: "timeout"}, nil
	}}, p, engine.Query{})
	if res.Verdict != result.Unsafe || res.Note() != "the error is reachable, but the trace was cut: timeout" {
		t.Errorf("cut trace: %s %q", res.Verdict, res.Note())
	}
}

func TestRegistry(t *testing.T) {
	var built int
	engine.Register(engine.Info{
		Names: []string{"test-fake", "tf"},
		Doc:   "a fake engine for the registry test",
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			n := fs.Int("fake-n", 1, "a number")
			return func() (engine.Engine, error) {
				if *n < 0 {
					return nil, errors.New("fake-n must not be negative")
				}
				built = *n
				return &fake{}, nil
			}
		},
	})
	info, ok := engine.Lookup("tf")
	if !ok || info.Name() != "test-fake" {
		t.Fatalf("Lookup(tf) = %v, %v", info.Names, ok)
	}
	if _, err := info.New(); err != nil || built != 1 {
		t.Errorf("New: %v, n=%d", err, built)
	}
	fs, build := info.FlagSet()
	if err := fs.Parse([]string{"-fake-n", "7"}); err != nil {
		t.Fatal(err)
	}
	if _, err := build(); err != nil || built != 7 {
		t.Errorf("build: %v, n=%d", err, built)
	}
	fs.Set("fake-n", "-2")
	if _, err := build(); err == nil {
		t.Errorf("a bad flag value was accepted")
	}
	if !strings.Contains(engine.NamesText(), "test-fake|tf") {
		t.Errorf("NamesText %q", engine.NamesText())
	}
	defer func() {
		if recover() == nil {
			t.Errorf("a name registered twice was accepted")
		}
	}()
	engine.Register(engine.Info{Names: []string{"tf"}, Flags: engine.NoFlags(func() engine.Engine { return &fake{} })})
}

// TestConfigure: the one way to configure an engine from strings, as
// settings or parsed from a command line.
func TestConfigure(t *testing.T) {
	var built struct {
		n    int
		deep bool
	}
	engine.Register(engine.Info{
		Names: []string{"test-configure"},
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			n := fs.Int("n", 1, "a number")
			deep := fs.Bool("deep", false, "a switch")
			return func() (engine.Engine, error) {
				if *n < 0 {
					return nil, errors.New("n must not be negative")
				}
				built.n, built.deep = *n, *deep
				return &fake{}, nil
			}
		},
	})
	info, _ := engine.Lookup("test-configure")
	for _, tc := range []struct {
		args     []string
		parseErr string
		settings []engine.Setting
		err      string
		n        int
		deep     bool
	}{
		{args: nil, n: 1},
		{args: []string{"--n", "3", "--deep"}, n: 3, deep: true},
		{args: []string{"-n=4", "-n", "5"}, n: 5}, // the last wins, as on a command line
		{args: []string{"--n", "x"}, parseErr: `invalid value "x" for flag -n`},
		{args: []string{"--m", "1"}, parseErr: "flag provided but not defined: -m"},
		{args: []string{"--n", "1", "extra"}, parseErr: `unexpected "extra" (only flags follow the name)`},
		{settings: []engine.Setting{{"m", "1"}}, err: `"m" is not an option of the test-configure engine (its options: deep, n)`},
		{settings: []engine.Setting{{"n", "x"}}, err: `n: parse error`},
		{settings: []engine.Setting{{"n", "-1"}}, err: "n must not be negative"},
	} {
		settings := tc.settings
		if tc.settings == nil {
			var err error
			settings, err = info.ParseSettings(tc.args)
			if tc.parseErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.parseErr) {
					t.Errorf("%v: parse error %v, want %q", tc.args, err, tc.parseErr)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%v: %v", tc.args, err)
			}
		}
		_, err := info.Configure(settings)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%v: error %v, want %q", settings, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%v: %v", settings, err)
		case tc.err == "" && (built.n != tc.n || built.deep != tc.deep):
			t.Errorf("%v: built n=%d deep=%v, want %d %v", settings, built.n, built.deep, tc.n, tc.deep)
		}
	}
}

// TestErrorUnreachable checks the answer given without a search: a proof
// exactly when no error location is reachable in the control-flow graph of
// a sequential program and not every reachable state was asked for.
func TestErrorUnreachable(t *testing.T) {
	tests := []struct {
		name, src string
		all       bool
		proof     bool
	}{
		{"no assertion", "decl g;\nvoid main() begin g := *; end\n", false, true},
		{"no assertion, every state asked", "decl g;\nvoid main() begin g := *; end\n", true, false},
		{"assertion reached", prog, false, false},
		{"assertion behind assume(F)", "decl g;\nvoid main() begin assume(F); assert(g); end\n", false, false},
		{"assertion in a callee", "decl g;\nvoid main() begin f(); end\nvoid f() begin assert(g); end\n", false, false},
		{"assertion after a call", "decl g;\nvoid main() begin f(); assert(g); end\nvoid f() begin skip; end\n", false, false},
		{"assertion in a procedure never called", "decl g;\nvoid main() begin g := T; end\nvoid f() begin assert(g); end\n", false, true},
		{"error label in a procedure never called", "void main() begin skip; end\nvoid f() begin SLIC_ERROR: skip; end\n", false, true},
		{"thread", "decl g;\nvoid main() begin start_thread goto t; g := T; return; t: skip; end_thread; end\n", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := testsuite.Lower(t, "p.bp", tc.src, "")
			res := engine.ErrorUnreachable(p, engine.Query{AllReachable: tc.all})
			if got := res != nil; got != tc.proof {
				t.Fatalf("answered without a search: %v, want %v", got, tc.proof)
			}
			if res != nil && (res.Verdict != result.Safe || res.Stats.Counters["cfg_unreachable_error"] != 1) {
				t.Errorf("answer %v, counters %v; want a proof with cfg_unreachable_error", res.Verdict, res.Stats.Counters)
			}
		})
	}
}

// closer is an optional interface that only the engine registered by
// TestImplementing has.
type closer interface{ Close() }

type closingFake struct{ fake }

func (*closingFake) Close() {}

// TestImplementing: the registry finds an engine by an optional interface,
// and reports false when no registered engine has it.
func TestImplementing(t *testing.T) {
	if _, ok := engine.Implementing[interface{ NoSuchMethod() }](); ok {
		t.Errorf("an engine implements an interface that none has")
	}
	engine.Register(engine.Info{Names: []string{"test-closing"}, Flags: engine.NoFlags(func() engine.Engine { return &closingFake{} })})
	c, ok := engine.Implementing[closer]()
	if _, isFake := c.(*closingFake); !ok || !isFake {
		t.Errorf("Implementing[closer] = %T, %v, want the closing fake", c, ok)
	}
}

// TestAnalyses: Run gives the engine the query's cache of the program,
// and a cache of its own program when the query's is another's.
func TestAnalyses(t *testing.T) {
	p := testsuite.Lower(t, "p.bp", prog, "")
	other := testsuite.Lower(t, "q.bp", prog, "")
	c := analysis.NewCache(p)
	var got *analysis.Cache
	eng := &fake{check: func(context.Context, *ir.Program) (*result.Result, error) {
		return &result.Result{Verdict: result.Safe}, nil
	}}
	spy := &analysesSpy{fake: eng, got: &got}
	engine.Run(context.Background(), spy, p, engine.Query{Analyses: c})
	if got != c {
		t.Errorf("the engine did not get the query's cache")
	}
	engine.Run(context.Background(), spy, other, engine.Query{Analyses: c})
	if got == nil || got == c || got.Prog() != other {
		t.Errorf("the engine got a cache of another program")
	}
	engine.Run(context.Background(), spy, p, engine.Query{})
	if got == nil || got.Prog() != p {
		t.Errorf("no cache without one in the query")
	}
}

// analysesSpy records the cache its Check is given.
type analysesSpy struct {
	*fake
	got **analysis.Cache
}

func (s *analysesSpy) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	*s.got = q.Analyses
	return s.fake.Check(ctx, p, q)
}
