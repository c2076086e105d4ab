package bench

import "testing"

// TestEnginesAgree runs the workloads on small instances on boolprog/bdd
// and rudd and checks the known answers.
func TestEnginesAgree(t *testing.T) {
	solutions := map[int]float64{4: 2, 5: 10, 6: 4, 7: 40, 8: 92}
	for n, want := range solutions {
		c := Config{Vars: n * n, Nodes: 1 << 12, Cache: 1 << 10}
		if got, _ := NQueens(NewOurs(c), n); got != want {
			t.Errorf("ours: %d-queens %v, want %v", n, got, want)
		}
		if got, _ := NQueens(NewRudd(c), n); got != want {
			t.Errorf("rudd: %d-queens %v, want %v", n, got, want)
		}
	}
	for _, n := range []int{3, 6} {
		c := Config{Vars: MilnerVars(n), Nodes: 1 << 12, Cache: 1 << 10}
		so, io, no := Milner(NewOurs(c), n)
		sr, ir, nr := Milner(NewRudd(c), n)
		if so != sr || io != ir || no != nr {
			t.Errorf("milner %d: ours (%v,%d,%d) rudd (%v,%d,%d)", n, so, io, no, sr, ir, nr)
		}
	}
	if d := RenameOurs(10000, 100, false); d <= 0 {
		t.Error("rename did not run")
	}
}
