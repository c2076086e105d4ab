package engines

import (
	"context"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/internal/portfolio"
	"boolprog/internal/replay"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestRegistered: every engine the defaults name is registered by this
// package's imports (conc-product where it is linked in), so that the
// command and the API can run them.
func TestRegistered(t *testing.T) {
	if _, ok := engine.Lookup(Default); !ok {
		t.Errorf("engine %s is not registered", Default)
	}
	for _, entry := range append(Concurrent, Recursive) {
		found := false
		for _, name := range entry {
			_, ok := engine.Lookup(name)
			found = found || ok
		}
		if !found {
			t.Errorf("no engine of %v is registered", entry)
		}
	}
}

// TestMembers: a recursive program adds the Recursive member.
func TestMembers(t *testing.T) {
	plain := testsuite.Lower(t, "f.bp", "decl g;\nvoid t() begin g := F; end\nvoid main() begin start_thread t(); assert(g); end\n", "")
	rec := testsuite.Lower(t, "r.bp", "decl g;\nvoid t() begin if (*) then t(); fi g := F; end\nvoid main() begin start_thread t(); assert(g); end\n", "")
	if got := len(Members(plain, nil)); got != len(Concurrent) {
		t.Errorf("plain program: %d entries, want %d", got, len(Concurrent))
	}
	if got := Members(rec, nil); len(got) != len(Concurrent)+1 || got[len(got)-1][0] != Recursive[0] {
		t.Errorf("recursive program: entries %v, want Concurrent and %v", got, Recursive)
	}
	if len(Concurrent) != 2 {
		t.Error("Members changed Concurrent") // append must not write into it
	}
}

// TestPortfolioSuite runs portfolios of the engines registered now on the
// concurrent programs of the satabs-boppo suite: the verdict is the
// expected one whoever wins, and the winner's trace replays.
func TestPortfolioSuite(t *testing.T) {
	for _, members := range [][][]string{
		{{"explicit"}, {"conc-eager"}},
		{{"explicit"}, {"conc-lazy"}},
	} {
		n := 0
		for _, c := range testsuite.SatabsBoppoOrSkip(t) {
			p := testsuite.LowerFile(t, c.File, c.Target)
			if !p.Concurrent || (c.Name == "Threads5" && !testflags.Long()) {
				continue
			}
			n++
			pf, err := portfolio.New(members...)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			res := engine.Run(ctx, pf, p, engine.Query{})
			cancel()
			want := result.Safe
			if c.Failed {
				want = result.Unsafe
			}
			if res.Verdict != want {
				t.Errorf("%v on %s: %s (%s, %s), want %s", pf.Members(), c.Name, res.Verdict, res.Engine, res.Reason, want)
				continue
			}
			if res.Verdict == result.Unsafe {
				if judged, note := replay.Judge(context.Background(), p, res); judged.Verdict != result.Unsafe || note != "" {
					t.Errorf("%v on %s: %s's trace does not replay: %s %s", pf.Members(), c.Name, res.Engine, judged.Reason, note)
				}
			}
		}
		if n == 0 {
			t.Fatal("no concurrent program in the suite")
		}
	}
}
