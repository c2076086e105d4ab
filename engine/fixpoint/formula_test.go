package fixpoint_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/engine/fixpoint"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestFormulaExample runs the user-written algorithm of
// examples/formulas/ef-plain.mu (entry-forward without the split return)
// through --formula's path on the satabs suite and on random programs:
// the verdicts of the suite and of the explicit engine, with traces that
// replay (taken from ef's rounds, as for any user formula).
func TestFormulaExample(t *testing.T) {
	const path = "../../examples/formulas/ef-plain.mu"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	e, err := fixpoint.New("ef", fixpoint.Options{Formula: string(src), FormulaFile: path})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range testsuite.SatabsBoppoOrSkip(t) {
		p := testsuite.LowerFile(t, c.File, c.Target)
		if p.Concurrent {
			continue
		}
		res := testsuite.Check(t, e, p, engine.Query{})
		if got := res.Verdict == result.Unsafe; got != c.Failed || res.Verdict == result.Unknown {
			t.Errorf("%s: %s %s, want failed=%v", c.Name, res.Verdict, res.Reason, c.Failed)
		}
	}
	n := 40
	if testing.Short() {
		n = 10
	}
	for seed := int64(1); seed <= int64(n); seed++ {
		p := testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), gen.Random(seed, gen.Options{}), "")
		ex := engine.Run(context.Background(), explicit.New(), p, engine.Query{})
		if ex.Verdict == result.Unknown {
			continue
		}
		if res := testsuite.Check(t, e, p, engine.Query{}); res.Verdict != ex.Verdict {
			t.Errorf("seed %d: %s %s, explicit %s", seed, res.Verdict, res.Reason, ex.Verdict)
		}
	}
}

// TestFormulaErrors: a user's formula is checked when the engine is made,
// with positions in its own file.
func TestFormulaErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"syntax", "mu bool S(State u) ( Init(u) | );\n", "f.mu:1:32: expected a formula"},
		{"undefined relation", "mu bool S(State u) ( Init(u) | Nope(u) );\nS(u);\n", "f.mu:1:32: undefined relation Nope"},
		{"wrong arity", "mu bool S(State u) ( ProgramInt(u) );\n(exists State u. S(u));\n", "f.mu:1:22: ProgramInt takes 2 arguments, not 1"},
		{"no such field", "mu bool S(State u) ( Init(u) & u.g7 );\n(exists State u. S(u));\n", "f.mu:1:32: class State has no field g7"},
	} {
		_, err := fixpoint.New("ef", fixpoint.Options{Formula: tc.src, FormulaFile: "f.mu"})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// A formula without a query cannot answer.
	_, err := fixpoint.New("ef", fixpoint.Options{Formula: "mu bool S(State u) ( Init(u) );\n", FormulaFile: "f.mu"})
	if err == nil || !strings.Contains(err.Error(), "f.mu: the algorithm has no query") {
		t.Errorf("no query: %v", err)
	}
}

// TestFormulaFlagReadOnce checks that --formula's file is read when the
// flag is parsed: the CLI builds the engine more than once, and a pipe
// reads empty the second time. An empty formula file is bad input, never
// the built-in algorithm.
func TestFormulaFlagReadOnce(t *testing.T) {
	// A formula whose query holds whenever an initial state exists: on a
	// safe program the engine answers Unknown naming the file, where the
	// built-in ef proves the program.
	file := t.TempDir() + "/f.mu"
	if err := os.WriteFile(file, []byte("mu bool S(State u) ( Init(u) );\n(exists State u. S(u));\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := testsuite.Lower(t, "safe.bp", "decl g;\nvoid main() begin g := T; assert(g); end\n", "")
	info, _ := engine.Lookup("ef")
	fs, build := info.FlagSet()
	if err := fs.Parse([]string{"--formula", file}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		e, err := build()
		if err != nil {
			t.Fatalf("build %d: %v", i+1, err)
		}
		res := testsuite.Check(t, e, p, engine.Query{})
		if res.Verdict != result.Unknown || !strings.Contains(res.Reason, file) {
			t.Errorf("build %d: %s (%s), want Unknown from the user's formula", i+1, res.Verdict, res.Reason)
		}
	}
	// The file is empty now: read again, it is an input error.
	fs, build = info.FlagSet()
	if err := fs.Parse([]string{"--formula", file}); err != nil {
		t.Fatal(err)
	}
	_, err := build()
	var in *engine.InputError
	if !errors.As(err, &in) || err.Error() != file+": empty formula file" {
		t.Errorf("empty formula: %v, want an input error %s: empty formula file", err, file)
	}
}
