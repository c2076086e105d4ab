package wpds

import (
	"math/rand"
	"testing"
)

// TestFWPDSLarger compares FWPDS with the chaotic saturation on systems
// larger than the brute-force ones: program-like systems with loops,
// branches and (mutual) recursion, where the path expressions must be
// used, and a dense random system, where FWPDS must fall back.
func TestFWPDSLarger(t *testing.T) {
	minpath := func(r *rand.Rand) Dist { return Dist(1 + r.Intn(9)) }
	tests := []struct {
		name     string
		check    func(t *testing.T, post bool) (fallback bool, st, fst Stats)
		fallback bool
	}{
		{"program bitvector", func(t *testing.T, post bool) (bool, Stats, Stats) {
			return compareFWPDS(t, programPDS[GenKill](BitVector{}, 30, 40, 3, genKillWeight, nil), post)
		}, false},
		{"program minpath", func(t *testing.T, post bool) (bool, Stats, Stats) {
			return compareFWPDS(t, programPDS[Dist](MinPath{}, 30, 40, 4, minpath, nil), post)
		}, false},
		{"program relations", func(t *testing.T, post bool) (bool, Stats, Stats) {
			return compareFWPDS(t, programPDS[rel](relN{6}, 20, 40, 5, genRel(6), nil), post)
		}, false},
		{"chain bool", func(t *testing.T, post bool) (bool, Stats, Stats) {
			return compareFWPDS(t, chainPDS(200), post)
		}, false},
		{"dense random minpath", func(t *testing.T, post bool) (bool, Stats, Stats) {
			return compareFWPDS(t, randomBig(25, 25), post)
		}, true},
	}
	for _, tc := range tests {
		for _, post := range []bool{false, true} {
			fb, st, fst := tc.check(t, post)
			if fb != tc.fallback {
				t.Errorf("%s post=%v: fallback %v, want %v", tc.name, post, fb, tc.fallback)
			}
			if !fb && fst.Combines >= st.Combines {
				t.Errorf("%s post=%v: FWPDS %d combines, plain %d", tc.name, post, fst.Combines, st.Combines)
			}
			t.Logf("%s post=%v: plain %d extends %d combines, FWPDS %d extends %d combines %d stars", tc.name, post, st.Extends, st.Combines, fst.Extends, fst.Combines, fst.Stars)
		}
	}
}

// compareFWPDS runs post* from ⟨0, 0⟩ or pre* of ⟨0, ε⟩ both ways and
// checks that the automata are the same.
func compareFWPDS[W any](t *testing.T, p *PDS[W], post bool) (bool, Stats, Stats) {
	t.Helper()
	s := NewSet(p.controls)
	if post {
		s.AddConfig(Config{0, []Symbol{0}})
	} else {
		s.SetFinal(0)
	}
	run := func(opt Options) *Automaton[W] {
		var a *Automaton[W]
		var err error
		if post {
			a, err = Poststar(p, s, opt)
		} else {
			a, err = Prestar(p, s, opt)
		}
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	a, b := run(Options{}), run(Options{FWPDS: true})
	sameAutomaton(t, 0, "large", a, b)
	if len(a.Transitions()) < 100 {
		t.Fatalf("only %d transitions: the system is too small to test anything", len(a.Transitions()))
	}
	return b.Stats().Fallback, a.Stats(), b.Stats()
}

func TestFWPDSBadOptions(t *testing.T) {
	p := chainPDS(2)
	for _, opt := range []Options{{FWPDS: true, Differential: true}, {FWPDS: true, Differential: true, Witnesses: true}} {
		if _, err := Prestar(p, NewSet(1), opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
		if _, err := Poststar(p, NewSet(1), opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
}
