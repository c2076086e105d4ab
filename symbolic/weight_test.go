package symbolic_test

import (
	"math/rand/v2"
	"testing"

	"boolprog/bdd"
	"boolprog/symbolic"
)

// TestWeights checks Extend, Combine, Zero and One on random relations over
// three globals (each changing a random subset) against enumeration of
// their pairs of states, and the semiring laws.
func TestWeights(t *testing.T) {
	p := lower(t, "decl a, b, c;\nvoid main() begin skip; end\n")
	m := bdd.New(bdd.Config{})
	l := symbolic.NewLayoutWith(m, p, symbolic.LayoutOptions{Copies: 4})
	all := l.Globals()
	slots := []int{0, 1, 2}
	bitsOf := func(x int) []bool { return []bool{x&1 != 0, x&2 != 0, x&4 != 0} }
	pair := func(x, y int) bdd.Node {
		return m.And(l.Cube(symbolic.Cur, slots, bitsOf(x)), l.Cube(symbolic.Next, slots, bitsOf(y)))
	}
	// pairs enumerates a relation with its frame over all three slots.
	pairs := func(r symbolic.Rel) [8][8]bool {
		var out [8][8]bool
		full := l.Full(r, all)
		for x := 0; x < 8; x++ {
			for y := 0; y < 8; y++ {
				out[x][y] = m.And(full, pair(x, y)) != bdd.False
			}
		}
		return out
	}
	r := rand.New(rand.NewPCG(7, 8))
	random := func() symbolic.Rel {
		ch := symbolic.NewSet(l.N())
		for s := range slots {
			if r.IntN(2) == 0 {
				ch.Add(s)
			}
		}
		// Random pairs over Cur and the Next copies of the changed slots.
		rel := bdd.False
		for x := 0; x < 8; x++ {
			for y := 0; y < 8; y++ {
				if r.IntN(3) == 0 {
					cube := l.Cube(symbolic.Cur, slots, bitsOf(x))
					for s := range slots {
						if ch.Has(s) {
							cube = m.And(cube, l.Cube(symbolic.Next, []int{s}, []bool{y>>s&1 != 0}))
						}
					}
					rel = m.Or(rel, cube)
				}
			}
		}
		return symbolic.Rel{R: rel, Changed: ch}
	}
	for i := 0; i < 200; i++ {
		a, b, c := random(), random(), random()
		pa, pb := pairs(a), pairs(b)
		ext, comb := pairs(l.Extend(a, b)), pairs(l.Combine(a, b))
		for x := 0; x < 8; x++ {
			for z := 0; z < 8; z++ {
				want := false
				for y := 0; y < 8; y++ {
					want = want || pa[x][y] && pb[y][z]
				}
				if ext[x][z] != want {
					t.Fatalf("%d: Extend %d -> %d: %v, want %v", i, x, z, ext[x][z], want)
				}
				if comb[x][z] != (pa[x][z] || pb[x][z]) {
					t.Fatalf("%d: Combine %d -> %d: %v", i, x, z, comb[x][z])
				}
			}
		}
		laws := []struct {
			name string
			x, y symbolic.Rel
		}{
			{"one extend", l.Extend(l.One(), a), a},
			{"extend one", l.Extend(a, l.One()), a},
			{"zero extend", l.Extend(l.Zero(), a), l.Zero()},
			{"zero combine", l.Combine(l.Zero(), a), a},
			{"associative", l.Extend(l.Extend(a, b), c), l.Extend(a, l.Extend(b, c))},
			{"distributive", l.Extend(a, l.Combine(b, c)), l.Combine(l.Extend(a, b), l.Extend(a, c))},
			{"idempotent", l.Combine(a, a), a},
		}
		for _, law := range laws {
			if !l.SameRel(law.x, law.y) {
				t.Fatalf("%d: law %s fails", i, law.name)
			}
		}
		m.Safepoint()
	}
}
