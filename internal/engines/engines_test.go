package engines

import (
	"context"
	"testing"

	"boolprog/engine"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

// fixedEngine answers every program with the same verdict and counts its
// runs.
type fixedEngine struct {
	name    string
	verdict result.Verdict
	reason  string
	runs    *int
}

func (e fixedEngine) Name() string { return e.name }

func (e fixedEngine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	*e.runs++
	if e.verdict == result.Unknown {
		return result.NewUnknown(e.name, e.reason), nil
	}
	return &result.Result{Verdict: e.verdict, Engine: e.name}, nil
}

// TestFallback: the concurrent default runs its engines in turn until one
// decides, and an Unknown of all of them keeps every reason.
func TestFallback(t *testing.T) {
	p := testsuite.Lower(t, "f.bp", "void main() begin skip; end\n", "")
	for _, tc := range []struct {
		name         string
		first, then  result.Verdict
		want         result.Verdict
		wantRuns     [2]int
		wantReason   string
		wantAnswerer string
	}{
		{"first decides", result.Safe, result.Unsafe, result.Safe, [2]int{1, 0}, "", "a"},
		{"second decides", result.Unknown, result.Safe, result.Safe, [2]int{1, 1}, "", "b"},
		{"neither", result.Unknown, result.Unknown, result.Unknown, [2]int{1, 1}, "a: budget a; b: budget b", "b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs [2]int
			f := Fallback{
				fixedEngine{"a", tc.first, "budget a", &runs[0]},
				fixedEngine{"b", tc.then, "budget b", &runs[1]},
			}
			res := engine.Run(context.Background(), f, p, engine.Query{})
			if res.Verdict != tc.want || runs != tc.wantRuns || res.Reason != tc.wantReason || res.Engine != tc.wantAnswerer {
				t.Errorf("got %s (%q) from %s after runs %v; want %s (%q) from %s after %v", res.Verdict, res.Reason, res.Engine, runs, tc.want, tc.wantReason, tc.wantAnswerer, tc.wantRuns)
			}
		})
	}
}

// TestRegistered: every engine the defaults name is registered by this
// package's imports, so that the command and the API can run them.
func TestRegistered(t *testing.T) {
	for _, name := range append([]string{Default}, Concurrent...) {
		if _, ok := engine.Lookup(name); !ok {
			t.Errorf("engine %s is not registered", name)
		}
	}
	e, err := ConcurrentDefault()
	if err != nil {
		t.Fatal(err)
	}
	f, ok := e.(Fallback)
	if !ok || len(f) != len(Concurrent) || f.Name() != Concurrent[0] {
		t.Errorf("ConcurrentDefault() = %T named %s, want a Fallback of %v", e, e.Name(), Concurrent)
	}
}
