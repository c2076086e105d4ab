package interp_test

import (
	"testing"

	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/result"
)

// FuzzReplay corrupts one field of a valid trace (sequential: Figure 1;
// concurrent: two threads and an atomic section) and checks that Replay
// never panics. Run with go test ./interp -run NONE -fuzz FuzzReplay
// -fuzztime 20s.
func FuzzReplay(f *testing.F) {
	seq := testsuite.LowerFile(f, "../examples/bebop-fig1.bp", "R")
	conc := testsuite.Lower(f, "c.bp", `decl g0;
void t1() begin
  atomic_begin;
  assert(g0);
  atomic_end;
end
void main() begin
  g0 := T;
  ASYNC_1: t1();
  start_thread goto L;
  g0 := F;
  end_thread;
  L: skip;
end
`, "")
	traces := []*result.Trace{search(f, seq, 10), searchConcurrent(f, conc, 3, 4, 4, 100000)}
	for _, tr := range traces {
		if tr == nil {
			f.Fatal("no trace to corrupt")
		}
	}
	f.Add(false, 0, 0, 0)
	f.Add(true, 3, 3, 1)
	f.Add(true, 2, 5, -1)
	f.Fuzz(func(t *testing.T, concurrent bool, i, field, v int) {
		p, good := seq, traces[0]
		if concurrent {
			p, good = conc, traces[1]
		}
		tr := &result.Trace{Steps: append([]result.Step(nil), good.Steps...)}
		n := len(tr.Steps)
		s := &tr.Steps[((i%n)+n)%n]
		s.Values = append([]result.Value(nil), s.Values...)
		switch ((field % 10) + 10) % 10 {
		case 0:
			s.Loc = v
		case 1:
			s.Edge = v
		case 2:
			s.Depth = v
		case 3:
			s.Thread = v
		case 4:
			s.Line = v
		case 5:
			if len(s.Values) > 0 {
				s.Values = s.Values[:((v%len(s.Values))+len(s.Values))%len(s.Values)]
			}
		case 6:
			if len(s.Values) > 1 {
				s.Values[0].Name, s.Values[1].Name = s.Values[1].Name, s.Values[0].Name
			}
		case 7:
			s.Switch = !s.Switch
		case 8:
			k := ((v % n) + n) % n
			tr.Steps = append(tr.Steps[:k:k], tr.Steps[k+1:]...)
		case 9:
			if len(s.Values) > 0 {
				s.Values[0].Value = !s.Values[0].Value
			}
		}
		_ = interp.Replay(p, tr) // must not panic
	})
}
