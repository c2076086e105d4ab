package fix

import (
	"fmt"
	"slices"
	"testing"
)

// disorders counts the applications whose renaming does not keep the
// BDD variable order (Replace's slow path): the callee's bits, sorted,
// must map to increasing caller bits.
func disorders(t *testing.T, src string) (bad []string) {
	t.Helper()
	s := newTestSolver(t, src).s
	for a, def := range s.in.applies {
		type pair struct{ from, to int }
		var ps []pair
		for i, x := range a.Args {
			r := s.in.paths[asPath(x)]
			if r == nil || r.v == nil {
				continue
			}
			formal, actual := s.bits[def.params[i]], s.termBits(r)
			for j := range formal {
				ps = append(ps, pair{formal[j], actual[j]})
			}
		}
		slices.SortFunc(ps, func(x, y pair) int { return x.from - y.from })
		for i := 1; i < len(ps); i++ {
			if ps[i].to < ps[i-1].to {
				bad = append(bad, fmt.Sprintf("%s at %d:%d", a.Name, a.Pos.Line, a.Pos.Col))
				break
			}
		}
	}
	return bad
}

func TestLayoutKeepsRenamingsInOrder(t *testing.T) {
	tests := []struct {
		name, src string
	}{
		{"transition applied to (previous, current)", `
enum S {0..3};
bool T(S c, S d) c ~+ d (c=0 & d=1 | c=1 & d=2);
mu bool R(S s) (s=0 | exists S t. (R(t) & T(t, s)));
(exists S u. R(u) & u=2);`},
		{"transition applied to (current, next)", `
enum S {0..3};
bool T(S c, S d) c ~+ d (c=0 & d=1 | c=1 & d=2);
mu bool B(S s) (s=2 | exists S t. (T(s, t) & B(t)));
(exists S u. B(u) & u=0);`},
		{"query over a state of several variables", `
enum S {0..3};
mu bool R(S a, S b, S c) a < b, b < c (a=0 & b=0 & c=0 | exists S x. (R(x, b, c) & x=0 & a=1));
(exists S x, S y, S z, S w. R(x, y, z) & R(w, y, z) & x != w);`},
		{"query relating two copies", `
enum S {0..3};
bool T(S c, S d) c ~+ d (c=0 & d=1);
(exists S u, S v. T(u, v));`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if bad := disorders(t, tc.src); len(bad) > 0 {
				t.Errorf("renamings out of order: %v", bad)
			}
		})
	}
	t.Run("Getafix's fib models", func(t *testing.T) {
		for _, tc := range fibWant {
			if bad := disorders(t, string(readBench(t, tc.file))); len(bad) > 0 {
				t.Errorf("%s: %d renamings out of order, e.g. %s", tc.file, len(bad), bad[0])
			}
		}
	})
}
