package cpa_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"boolprog/cpa/observer"
	"boolprog/engine"
	cpaengine "boolprog/engine/cpa"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// FuzzConfig feeds arbitrary text to the configuration parser: it must
// never panic, and a configuration it accepts must run (on a small
// program with calls, an assertion and the locking automaton as its
// observer) without panicking, within its limits, and never answer wrongly:
// the program is unsafe, so Safe is a wrong answer.
func FuzzConfig(f *testing.F) {
	if paths, err := filepath.Glob("configs/*.cfg"); err == nil {
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	for _, seed := range []string{
		"",
		"# only a comment\n",
		"analyses = location, summary, explicitval, observer\nobserver.spec = locking.spec\n",
		"analyses = location, callstack, bdd\ncallstack.depth = 2\nmerge = join\nstop = join\n",
		"analyses = location, summary, reachdef, explicitval\nmerge = agree\nwaitlist = dfs\nlimit.states = 3\n",
		"analyses=location,summary,explicitval\ncegar=on\ncegar.refinements=0\nexplicitval.track=none\n",
	} {
		f.Add(seed)
	}
	spec, err := observer.Parse("locking.spec", "states u l\non call lock: u -> l\non call lock: l -> error \"twice\"\non call unlock: l -> u\n")
	if err != nil {
		f.Fatal(err)
	}
	p := testsuite.Lower(f, "f.bp", `decl held, g;
void lock() begin held := T; end
void unlock() begin held := F; end
bool flip(x) begin return !x; end
void main()
begin
  lock();
  g := flip(g);
  if (*) then unlock(); fi
  if (g) then assert(held); fi
end
`, "")
	f.Fuzz(func(t *testing.T, text string) {
		c, err := cpaengine.ParseConfig("f.cfg", text)
		if err != nil {
			return
		}
		if c.Observer != "" {
			c.Spec = spec
		}
		e := cpaengine.New(c)
		if e.Supports(p, engine.Query{}) != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		res, err := e.Check(ctx, p, engine.Query{})
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			t.Fatalf("%v", err)
		}
		if res.Verdict == result.Safe {
			t.Fatalf("Safe on an unsafe program with\n%s", text)
		}
	})
}
