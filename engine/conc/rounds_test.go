package conc

import "testing"

// TestSwitchRounds: switchRounds(k, n, first0) is the most rounds that
// any run of at most k context switches among n threads needs (1 plus its
// descents), starting with any thread or (first0) with thread 0, found
// here by enumerating every sequence of contexts.
func TestSwitchRounds(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for k := 0; k <= 7; k++ {
			for _, first0 := range []bool{false, true} {
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
					if first0 && first > 0 {
						break
					}
					walk(first, 0, 1)
				}
				if got := switchRounds(k, n, first0); got != most {
					t.Errorf("switchRounds(%d switches, %d threads, thread 0 first %v) = %d, want %d", k, n, first0, got, most)
				}
			}
		}
	}
}
