package conc

import "testing"

// TestSwitchRounds: switchRounds(k, n) is the most rounds that any run of
// at most k context switches among n threads needs (1 plus its descents),
// found here by enumerating every sequence of contexts.
func TestSwitchRounds(t *testing.T) {
	for n := 1; n <= 4; n++ {
		for k := 0; k <= 6; k++ {
			most := 1
			var walk func(last, switches, rounds int)
			walk = func(last, switches, rounds int) {
				most = max(most, rounds)
				if switches == k {
					return
				}
				for next := 0; next < n; next++ {
					switch {
					case next == last:
					case next < last:
						walk(next, switches+1, rounds+1)
					default:
						walk(next, switches+1, rounds)
					}
				}
			}
			for first := 0; first < n; first++ {
				walk(first, 0, 1)
			}
			if got := switchRounds(k, n); got != most {
				t.Errorf("switchRounds(%d switches, %d threads) = %d, want %d", k, n, got, most)
			}
		}
	}
}
