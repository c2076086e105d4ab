package fix

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"boolprog/bdd"
)

// chainSrc is a chain 0 -> 1 -> ... -> 20 over N {0..31}: R's least
// fixed point is {0..20}, reached in 21 rounds. evaluation picks how R is
// evaluated: "simultaneous" (alone), "frontier" (#frontier), "nested" (in
// a group with the nu relation G, positively), "negation" (R applies
// itself under a negation).
func chainSrc(evaluation string) string {
	var succ []string
	for y := 0; y < 20; y++ {
		succ = append(succ, fmt.Sprintf("(y=%d & x=%d)", y, y+1))
	}
	src := "enum N {0..31};\nbool Succ(N y, N x) (" + strings.Join(succ, " | ") + ");\n"
	switch evaluation {
	case "simultaneous":
		src += "mu bool R(N x) ( x=0 | exists N y. (R(y) & Succ(y, x)) );\n"
	case "frontier":
		src += "mu bool R(N x) ( x=0 | exists N y. (R(y) & Succ(y, x)) );\n#frontier R;\n"
	case "nested":
		src += "mu bool R(N x) ( x=0 | exists N y. (R(y) & G(y) & Succ(y, x)) );\n" +
			"nu bool G(N x) ( x != 25 & (G(x) | R(x)) );\n"
	case "negation":
		src += "mu bool R(N x) ( x=0 | exists N y. (R(y) & Succ(y, x)) | (x=30 & !R(31)) );\n"
	}
	return src + "R(20);\n"
}

// set is the BDD of R's tuples xs over the solver's bits of R.x.
func set(t *testing.T, sv *Solver, xs ...int) bdd.Node {
	t.Helper()
	bits, err := sv.Bits("R", "x")
	if err != nil {
		t.Fatal(err)
	}
	m := sv.Manager()
	out := bdd.False
	for _, x := range xs {
		vals := make([]bool, len(bits))
		for b := range vals {
			vals[b] = x>>(len(bits)-1-b)&1 == 1
		}
		out = m.Or(out, m.Assignment(bits, vals))
	}
	return out
}

// members lists the x with v(x), v over R.x's bits.
func members(t *testing.T, sv *Solver, v bdd.Node) []int {
	t.Helper()
	var out []int
	for x := 0; x < 32; x++ {
		if sv.Manager().And(v, set(t, sv, x)) != bdd.False {
			out = append(out, x)
		}
	}
	return out
}

func upTo(n int) []int {
	out := make([]int, n+1)
	for i := range out {
		out[i] = i
	}
	return out
}

// solveChain solves chainSrc(evaluation) with R started from the layers
// given (none: from false) and tracked, and returns R's value, its
// layers, as sets, and R's iterations.
func solveChain(t *testing.T, evaluation string, layers ...[]int) (val []int, ls [][]int, iterations int, err error) {
	t.Helper()
	sv := newTestSolver(t, chainSrc(evaluation))
	if err := sv.Track("R"); err != nil {
		t.Fatal(err)
	}
	if len(layers) > 0 {
		var ns []bdd.Node
		for _, l := range layers {
			ns = append(ns, set(t, sv, l...))
		}
		if err := sv.StartLayers("R", ns); err != nil {
			t.Fatal(err)
		}
	}
	ans, err := sv.Solve(context.Background())
	if err != nil {
		return nil, nil, 0, err
	}
	if !ans.Value {
		t.Errorf("the query R(20) is false")
	}
	for _, l := range sv.Layers("R") {
		ls = append(ls, members(t, sv, l))
	}
	for _, r := range ans.Relations {
		if r.Name == "R" {
			iterations += r.Iterations
		}
	}
	return members(t, sv, sv.Value("R")), ls, iterations, nil
}

func TestStart(t *testing.T) {
	lfp := upTo(20)
	tests := []struct {
		name       string
		evaluation string
		layers     [][]int
		want       []int
		// fewer says the solve takes fewer iterations of R than from
		// false: the start value was used.
		fewer bool
	}{
		{"simultaneous from false", "simultaneous", nil, lfp, false},
		{"simultaneous from the fixed point", "simultaneous", [][]int{lfp}, lfp, true},
		{"simultaneous from a part", "simultaneous", [][]int{upTo(12)}, lfp, true},
		{"simultaneous from scattered tuples", "simultaneous", [][]int{{3, 9, 14}}, lfp, false},
		{"frontier from the fixed point", "frontier", [][]int{lfp}, lfp, true},
		{"frontier from two layers", "frontier", [][]int{upTo(5), {6, 7, 8, 9, 10}}, lfp, true},
		{"nested from the fixed point", "nested", [][]int{lfp}, lfp, true},
		{"nested from a part", "nested", [][]int{upTo(15)}, lfp, true},
		// Above the least fixed point (26 is no run of the chain): the
		// value holds the start whole, as StartLayers says.
		{"simultaneous from above", "simultaneous", [][]int{{26}}, append(upTo(20), 26), false},
		{"frontier from above", "frontier", [][]int{{26}}, append(upTo(20), 26), false},
	}
	base := map[string]int{}
	for _, ev := range []string{"simultaneous", "frontier", "nested"} {
		val, _, it, err := solveChain(t, ev)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(val, lfp) {
			t.Fatalf("%s from false: %v, want %v", ev, val, lfp)
		}
		base[ev] = it
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			val, ls, it, err := solveChain(t, tc.evaluation, tc.layers...)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(val, tc.want) {
				t.Errorf("value %v, want %v", val, tc.want)
			}
			if tc.fewer && it >= base[tc.evaluation] {
				t.Errorf("%d iterations of R, from false %d: the start value was not used", it, base[tc.evaluation])
			}
			// The start's layers come first; the union is the value; a
			// tuple of a later layer follows from an earlier one.
			for i, l := range tc.layers {
				if i >= len(ls) || !slices.Equal(ls[i], l) {
					t.Fatalf("layers %v: the start's %v not first", ls, tc.layers)
				}
			}
			var union []int
			for _, l := range ls {
				union = append(union, l...)
			}
			slices.Sort(union)
			if !slices.Equal(union, val) {
				t.Errorf("layers %v, value %v", ls, val)
			}
			var earlier []int
			for i, l := range ls {
				for _, x := range l {
					if i >= len(tc.layers) && x != 0 && !slices.Contains(earlier, x-1) {
						t.Errorf("layer %d holds %d, no earlier layer %d (layers %v)", i, x, x-1, ls)
					}
				}
				earlier = append(earlier, l...)
			}
		})
	}
}

func TestStartRejects(t *testing.T) {
	sv := newTestSolver(t, chainSrc("nested")+"bool P(N x) (x=1);\n")
	gBits, _ := sv.Bits("G", "x")
	tests := []struct {
		name, rel string
		v         bdd.Node
		want      string
	}{
		{"unknown relation", "Q", bdd.True, "no relation Q"},
		{"nu relation", "G", bdd.True, "only mu relations"},
		{"plain relation", "P", bdd.True, "only mu relations"},
		{"another relation's bits", "R", sv.Manager().Ithvar(gBits[0]), "not a bit of its parameters"},
		{"Invalid", "R", bdd.Invalid, "Invalid"},
	}
	for _, tc := range tests {
		if err := sv.Start(tc.rel, tc.v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := sv.Solve(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := sv.Start("R", bdd.False); err == nil {
		t.Error("Start after Solve: no error")
	}
	// A group that applies itself under a negation has no monotone
	// iteration to start.
	if _, _, _, err := solveChain(t, "negation", []int{0}); err == nil || !strings.Contains(err.Error(), "R has a start value") {
		t.Errorf("negation: %v", err)
	}
	if _, _, _, err := solveChain(t, "negation"); err != nil {
		t.Errorf("negation without a start value: %v", err)
	}
}
