package wpds

import (
	"fmt"
	"math/rand"
	"testing"
)

// laws checks the bounded idempotent semiring laws (Defn. 2.4.1) and, when
// the domain has them, Diff and Star, on n random triples; it returns the
// first violation.
func laws[W any](sr Semiring[W], gen func(*rand.Rand) W, n int, seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	eq := sr.Equal
	z, o := sr.Zero(), sr.One()
	for i := 0; i < n; i++ {
		a, b, c := gen(rng), gen(rng), gen(rng)
		checks := []struct {
			name string
			ok   bool
		}{
			{"combine associative", eq(sr.Combine(sr.Combine(a, b), c), sr.Combine(a, sr.Combine(b, c)))},
			{"combine commutative", eq(sr.Combine(a, b), sr.Combine(b, a))},
			{"combine idempotent", eq(sr.Combine(a, a), a)},
			{"zero is combine identity", eq(sr.Combine(a, z), a)},
			{"extend associative", eq(sr.Extend(sr.Extend(a, b), c), sr.Extend(a, sr.Extend(b, c)))},
			{"one is left extend identity", eq(sr.Extend(o, a), a)},
			{"one is right extend identity", eq(sr.Extend(a, o), a)},
			{"zero annihilates left", eq(sr.Extend(z, a), z)},
			{"zero annihilates right", eq(sr.Extend(a, z), z)},
			{"left distributive", eq(sr.Extend(a, sr.Combine(b, c)), sr.Combine(sr.Extend(a, b), sr.Extend(a, c)))},
			{"right distributive", eq(sr.Extend(sr.Combine(a, b), c), sr.Combine(sr.Extend(a, c), sr.Extend(b, c)))},
			{"equal reflexive", eq(a, a)},
		}
		if d, ok := sr.(Differ[W]); ok {
			checks = append(checks, struct {
				name string
				ok   bool
			}{"b + diff(a,b) = a + b", eq(sr.Combine(b, d.Diff(a, b)), sr.Combine(a, b))})
		}
		if s, ok := sr.(Starrer[W]); ok {
			st := s.Star(a)
			checks = append(checks, struct {
				name string
				ok   bool
			}{"star(a) = 1 + a star(a)", eq(st, sr.Combine(o, sr.Extend(a, st)))})
		}
		for _, ch := range checks {
			if !ch.ok {
				return fmt.Errorf("%s fails on a=%v b=%v c=%v", ch.name, a, b, c)
			}
		}
	}
	return nil
}

func genDist(rng *rand.Rand) Dist {
	switch rng.Intn(6) {
	case 0:
		return Infinity
	case 1:
		return 0
	case 2:
		return Infinity - Dist(rng.Intn(10)) - 1 // near overflow
	}
	return Dist(rng.Intn(20))
}

func genGenKill(rng *rand.Rand) GenKill {
	if rng.Intn(6) == 0 {
		return BitVector{}.Zero()
	}
	return BitVector{}.Fn(rng.Uint64()&0xff, rng.Uint64()&0xff)
}

// maxPath is not a semiring: its combine (max) does not have Infinity as
// identity and extend does not distribute over it as required; the law
// checker must reject it.
type maxPath struct{ MinPath }

func (maxPath) Combine(a, b Dist) Dist { return max(a, b) }

// noIdem is min-plus without idempotence: combine is addition.
type noIdem struct{ MinPath }

func (noIdem) Combine(a, b Dist) Dist { return MinPath{}.Extend(a, b) }

func TestSemiringLaws(t *testing.T) {
	tests := []struct {
		name  string
		check func() error
		valid bool
	}{
		{"Bool", func() error {
			return laws[bool](Bool{}, func(r *rand.Rand) bool { return r.Intn(2) == 0 }, 200, 1)
		}, true},
		{"MinPath", func() error { return laws[Dist](MinPath{}, genDist, 2000, 2) }, true},
		{"BitVector", func() error { return laws[GenKill](BitVector{}, genGenKill, 2000, 3) }, true},
		{"relations", func() error { return laws[rel](relN{5}, genRel(5), 2000, 6) }, true},
		{"broken max-plus", func() error { return laws[Dist](maxPath{}, genDist, 2000, 4) }, false},
		{"broken non-idempotent", func() error { return laws[Dist](noIdem{}, genDist, 2000, 5) }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.check()
			if tc.valid && err != nil {
				t.Fatal(err)
			}
			if !tc.valid && err == nil {
				t.Fatal("law checker accepted a domain that is not a semiring")
			}
		})
	}
}

func TestBitVectorApply(t *testing.T) {
	bv := BitVector{}
	tests := []struct {
		name string
		w    GenKill
		in   uint64
		want uint64
	}{
		{"identity", bv.One(), 0b1010, 0b1010},
		{"zero", bv.Zero(), 0b1010, 0},
		{"kill then gen", bv.Extend(bv.Fn(0b0010, 0), bv.Fn(0, 0b0100)), 0b1010, 0b1100},
		{"gen then kill", bv.Extend(bv.Fn(0, 0b0100), bv.Fn(0b0100, 0)), 0b1010, 0b1010},
		{"union", bv.Combine(bv.Fn(0b1000, 0), bv.Fn(0, 0b0001)), 0b1000, 0b1001},
	}
	for _, tc := range tests {
		if got := bv.Apply(tc.w, tc.in); got != tc.want {
			t.Errorf("%s: Apply = %04b, want %04b", tc.name, got, tc.want)
		}
	}
}
