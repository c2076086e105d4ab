package wpds

import (
	"fmt"
	"math/rand"
	"testing"
)

// chainPDS is a program of n procedures in a chain, each called from two
// sites of the previous one: symbols 5i (entry), 5i+1 and 5i+2 (call
// sites), 5i+3 and 5i+4 (return sites). It is over Bool: in MinPath the
// length of the shortest run of procedure 0 is about 2^n, beyond Dist.
func chainPDS(n int) *PDS[bool] {
	p := New[bool](Bool{}, 1)
	for i := 0; i < n; i++ {
		b := Symbol(5 * i)
		p.Step(0, b, 0, b+1, true)
		if i+1 < n {
			p.Push(0, b+1, 0, b+5, b+3, true, nil)
			p.Push(0, b+3, 0, b+5, b+4, true, nil)
		} else {
			p.Step(0, b+1, 0, b+3, true)
			p.Step(0, b+3, 0, b+4, true)
		}
		p.Pop(0, b+4, 0, true)
	}
	return p
}

// randomBig is a random PDS with 4 control states, n symbols and 8n
// rules, two for each control state and symbol on the left.
func randomBig(n int, seed int64) *PDS[Dist] {
	rng := rand.New(rand.NewSource(seed))
	p := New[Dist](MinPath{}, 4)
	for i := 0; i < 8*n; i++ {
		from, to := State(i%4), State(rng.Intn(4))
		g := Symbol(i / 8)
		w := Dist(1 + rng.Intn(9))
		switch k := rng.Intn(10); {
		case k < 1:
			p.Pop(from, g, to, w)
		case k < 8:
			p.Step(from, g, to, Symbol(rng.Intn(n)), w)
		default:
			p.Push(from, g, to, Symbol(rng.Intn(n)), Symbol(rng.Intn(n)), w, nil)
		}
	}
	return p
}

// benchSaturate runs post* from ⟨0, 0⟩ or pre* of the terminated
// configurations ⟨0, ε⟩.
func benchSaturate[W any](b *testing.B, p *PDS[W], post bool, opt Options) {
	s := NewSet(p.controls)
	if post {
		s.AddConfig(Config{0, []Symbol{0}})
	} else {
		s.SetFinal(0)
	}
	var st Stats
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var a *Automaton[W]
		var err error
		if post {
			a, err = Poststar(p, s, opt)
		} else {
			a, err = Prestar(p, s, opt)
		}
		if err != nil {
			b.Fatal(err)
		}
		st = a.Stats()
	}
	b.ReportMetric(float64(st.Extends), "extends")
	b.ReportMetric(float64(st.Combines), "combines")
	b.ReportMetric(float64(st.Transitions), "transitions")
	if st.Fallback {
		b.ReportMetric(1, "fallback")
	}
	if st.Stars > 0 {
		b.ReportMetric(float64(st.Stars), "stars")
	}
}

func BenchmarkPoststarChain(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		p := chainPDS(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchSaturate(b, p, true, Options{}) })
		b.Run(fmt.Sprint(n, "/witnesses"), func(b *testing.B) { benchSaturate(b, p, true, Options{Witnesses: true}) })
	}
}

func BenchmarkPrestarChain(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		p := chainPDS(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchSaturate(b, p, false, Options{}) })
	}
}

func BenchmarkPoststarRandom(b *testing.B) {
	for _, n := range []int{25, 50, 100, 200} {
		p := randomBig(n, int64(n))
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchSaturate(b, p, true, Options{}) })
		b.Run(fmt.Sprint(n, "/differential"), func(b *testing.B) { benchSaturate(b, p, true, Options{Differential: true}) })
	}
}

func BenchmarkPrestarRandom(b *testing.B) {
	for _, n := range []int{25, 50, 100, 200} {
		p := randomBig(n, int64(n))
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchSaturate(b, p, false, Options{}) })
	}
}

// programPDS is an ICFG-like system of n procedures, one control state:
// procedure i has the symbols 100i … 100i+k-1 in a line, with a back edge
// every few nodes (loops), a branch, calls to random procedures (recursion
// included) and a return at the last node. weight gives each rule's
// weight, loop (if not nil) the weight of the back edges.
func programPDS[W any](sr Semiring[W], n, k int, seed int64, weight, loop func(*rand.Rand) W) *PDS[W] {
	if loop == nil {
		loop = weight
	}
	rng := rand.New(rand.NewSource(seed))
	p := New[W](sr, 1)
	for i := 0; i < n; i++ {
		b := Symbol(100 * i)
		for j := 0; j < k-1; j++ {
			g := b + Symbol(j)
			switch {
			case j%5 == 2 && n > 1:
				// Mostly calls down the list, sometimes recursion; a call
				// may be skipped, so that every procedure can return.
				callee := Symbol(100 * min(n-1, i+1+rng.Intn(n)))
				if rng.Intn(8) == 0 {
					callee = Symbol(100 * rng.Intn(n))
				}
				p.Push(0, g, 0, callee, g+1, weight(rng), nil)
				p.Step(0, g, 0, g+1, weight(rng))
			default:
				p.Step(0, g, 0, g+1, weight(rng))
			}
			if j%7 == 6 {
				p.Step(0, g, 0, g-Symbol(rng.Intn(6)), loop(rng)) // a loop
			}
			if j%4 == 1 && j+3 < k {
				p.Step(0, g, 0, g+3, weight(rng)) // a branch
			}
		}
		p.Pop(0, b+Symbol(k-1), 0, weight(rng))
	}
	return p
}

// perm8 returns a random permutation of 8 values as a relation of relN{8}.
func perm8(rng *rand.Rand) rel {
	var r rel
	for i, j := range rng.Perm(8) {
		r |= 1 << uint(i*8+j)
	}
	return r
}

func genKillWeight(r *rand.Rand) GenKill {
	return BitVector{}.Fn(uint64(r.Intn(1<<16))<<uint(r.Intn(40)), uint64(r.Intn(1<<8))<<uint(r.Intn(50)))
}

// BenchmarkFWPDS compares the chaotic saturation with FWPDS on the same
// problems; extends, combines and stars are per run.
func BenchmarkFWPDS(b *testing.B) {
	type problem struct {
		name string
		run  func(b *testing.B, post bool, opt Options)
	}
	var problems []problem
	for _, n := range []int{100, 1000} {
		p := chainPDS(n)
		problems = append(problems, problem{fmt.Sprint("chain-bool-", n), func(b *testing.B, post bool, opt Options) { benchSaturate(b, p, post, opt) }})
	}
	for _, n := range []int{20, 100} {
		p := programPDS[GenKill](BitVector{}, n, 40, int64(n), genKillWeight, nil)
		problems = append(problems, problem{fmt.Sprint("program-bitvector-", n), func(b *testing.B, post bool, opt Options) { benchSaturate(b, p, post, opt) }})
		r := programPDS[rel](relN{8}, n, 40, int64(n), genRel(8), nil)
		problems = append(problems, problem{fmt.Sprint("program-rel8-", n), func(b *testing.B, post bool, opt Options) { benchSaturate(b, r, post, opt) }})
		// Permutations of 8 values: a loop needs as many rounds as the
		// order of its permutation (up to 15), a star a few squarings.
		c := programPDS[rel](relN{8}, n, 40, int64(n), perm8, nil)
		problems = append(problems, problem{fmt.Sprint("program-perm8-", n), func(b *testing.B, post bool, opt Options) { benchSaturate(b, c, post, opt) }})
		q := programPDS[Dist](MinPath{}, n, 40, int64(n), func(r *rand.Rand) Dist { return Dist(1 + r.Intn(9)) }, nil)
		problems = append(problems, problem{fmt.Sprint("program-minpath-", n), func(b *testing.B, post bool, opt Options) { benchSaturate(b, q, post, opt) }})
	}
	for _, n := range []int{25, 50} {
		p := randomBig(n, int64(n))
		problems = append(problems, problem{fmt.Sprint("random-minpath-", n), func(b *testing.B, post bool, opt Options) { benchSaturate(b, p, post, opt) }})
	}
	for _, pr := range problems {
		for _, dir := range []struct {
			name string
			post bool
		}{{"post", true}, {"pre", false}} {
			b.Run(pr.name+"/"+dir.name+"/plain", func(b *testing.B) { pr.run(b, dir.post, Options{}) })
			b.Run(pr.name+"/"+dir.name+"/fwpds", func(b *testing.B) { pr.run(b, dir.post, Options{FWPDS: true}) })
		}
	}
}
