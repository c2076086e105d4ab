package wpds

import "math/rand"

// relN is a test domain of binary relations over {0, …, n-1} (n ≤ 8), as
// an n×n bit matrix in a uint64: combine is union, extend is composition.
// It stands for the BDD relations of Boolean programs: a domain of large
// height without Star or Diff, so that FWPDS computes stars by repeated
// squaring and the saturation must iterate loops to their fixpoint.
type relN struct{ n int }

type rel uint64

func (s relN) Zero() rel { return 0 }

func (s relN) One() rel {
	var r rel
	for i := 0; i < s.n; i++ {
		r |= 1 << uint(i*s.n+i)
	}
	return r
}

func (s relN) Extend(a, b rel) rel {
	var r rel
	for i := 0; i < s.n; i++ {
		for j := 0; j < s.n; j++ {
			if a&(1<<uint(i*s.n+j)) == 0 {
				continue
			}
			// Row j of b, shifted into row i.
			r |= (b >> uint(j*s.n) & (1<<uint(s.n) - 1)) << uint(i*s.n)
		}
	}
	return r
}

func (s relN) Combine(a, b rel) rel { return a | b }

func (s relN) Equal(a, b rel) bool { return a == b }

// genRel returns a random relation of n×n, sparse so that compositions are
// neither always empty nor always full.
func genRel(n int) func(*rand.Rand) rel {
	return func(rng *rand.Rand) rel {
		var r rel
		for i := 0; i < n*n; i++ {
			if rng.Intn(n) == 0 {
				r |= 1 << uint(i)
			}
		}
		return r
	}
}
