package fix

import "testing"

// TestClosedApplication checks closed formulas over a relation that
// changes between rounds (Getafix's early termination: exists t.
// Thread(t) & target(t)), which the solver evaluates by renaming the rest
// of the formula back onto the relation's parameters: the value depends
// on which tuples go with which, not only on each side being non-empty.
func TestClosedApplication(t *testing.T) {
	const step = `
enum S {0..3};
bool Step(S a, S b) a ~+ b (a=0 & b=1 | a=1 & b=0 | a=2 & b=3);
`
	tests := []struct {
		name, src string
		want      bool
	}{
		{"target unreachable", step + `
mu bool R(S s, bool hit) ((s=0 & !hit) | (!hit & exists S t. (R(t, 0) & Step(t, s)))
  | (hit & s=0 & exists S t. (R(t, 0) & t=2)));
(exists S u. R(u, 1));`, false},
		{"target reachable", step + `
mu bool R(S s, bool hit) ((s=0 & !hit) | (!hit & exists S t. (R(t, 0) & Step(t, s)))
  | (hit & s=0 & exists S t. (R(t, 0) & t=1)));
(exists S u. R(u, 1));`, true},
		{"two arguments, one pair reachable", step + `
mu bool P(S a, S b) a ~+ b ((a=0 & b=0) | exists S x, S y. (P(x, y) & Step(x, a) & Step(y, b))
  | (a=3 & b=3 & exists S x, S y. (P(x, y) & x=1 & y=1)));
(P(3, 3));`, true},
		{"two arguments, no pair reachable", step + `
mu bool P(S a, S b) a ~+ b ((a=0 & b=1) | exists S x, S y. (P(x, y) & Step(x, a) & Step(y, b))
  | (a=3 & b=3 & exists S x, S y. (P(x, y) & x=1 & y=1)));
(P(3, 3));`, false},
		{"constant argument", step + `
mu bool Q(bool f, S s) ((!f & s=0) | (!f & exists S t. (Q(0, t) & Step(t, s)))
  | (f & s=2 & exists S t. (Q(0, t) & t=1)));
(Q(1, 2));`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := solveSrc(t, tc.src).Value; got != tc.want {
				t.Errorf("value %v, want %v", got, tc.want)
			}
		})
	}
}
