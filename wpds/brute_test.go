package wpds

import (
	"math/rand"
	"strings"
	"testing"

	"boolprog/internal/testflags"
)

// The random tests compare pre* and post* with a brute-force search over
// the configurations whose stacks have at most bound symbols. The search
// gives, for each configuration, the combine over the rule sequences that
// stay within the bound: at most the saturation's answer (which combines
// over all sequences). Conversely every answer comes with a witness that is
// replayed: it must lead from the right place to the right place, its value
// must be the answer, and when it stays within the bound the search must
// have found something as good — so for Bool and MinPath the two are equal
// there, and the test counts those equalities so that it cannot pass with
// nothing compared.

const (
	bound    = 4
	nSymbols = 3
)

// randomPDS returns a PDS with 2 or 3 control states, nSymbols symbols and
// 5 to 9 rules. With merges, a third of the push rules get the merge
// a ⊗ matched ⊗ b, where matched is a weight different from the rule's,
// and matched[r] records it.
func randomPDS[W any](rng *rand.Rand, sr Semiring[W], weight func(*rand.Rand) W, merges bool) (*PDS[W], map[RuleID]W) {
	n := 2 + rng.Intn(2)
	p := New(sr, n)
	matched := map[RuleID]W{}
	nr := 5 + rng.Intn(5)
	for i := 0; i < nr; i++ {
		from, to := State(rng.Intn(n)), State(rng.Intn(n))
		g := Symbol(rng.Intn(nSymbols))
		w := weight(rng)
		switch k := rng.Intn(10); {
		case k < 3:
			p.Pop(from, g, to, w)
		case k < 7:
			p.Step(from, g, to, Symbol(rng.Intn(nSymbols)), w)
		default:
			var m Merge[W]
			if merges && rng.Intn(3) == 0 {
				c := weight(rng)
				m = func(a, b W) W { return sr.Extend(sr.Extend(a, c), b) }
				defer func(id RuleID) { matched[id] = c }(RuleID(len(p.rules)))
			}
			p.Push(from, g, to, Symbol(rng.Intn(nSymbols)), Symbol(rng.Intn(nSymbols)), w, m)
		}
	}
	return p, matched
}

// A bconf is a configuration of the brute-force search. For an EWPDS each
// symbol below the top carries a tag: 1 if the push that put it there was
// guessed to be matched by a pop (charged the merge's weight), 2 if
// guessed unmatched (charged the rule's weight). A pop that uncovers a
// tag-2 symbol contradicts its guess; a configuration with a tag-1 symbol
// left has an unmatched push charged as matched and counts for nothing.
type bconf struct {
	state State
	stack string // symbols as bytes 'a'+s, tags as bytes '0'+t, interleaved
}

func key(c Config) bconf {
	var b strings.Builder
	for _, s := range c.Stack {
		b.WriteByte(byte('a' + s))
		b.WriteByte('0')
	}
	return bconf{c.State, b.String()}
}

func (c bconf) config() (Config, bool) {
	var st []Symbol
	for i := 0; i < len(c.stack); i += 2 {
		if c.stack[i+1] == '1' {
			return Config{}, false
		}
		st = append(st, Symbol(c.stack[i]-'a'))
	}
	return Config{c.state, st}, true
}

type bedge[W any] struct {
	to bconf
	w  W
}

// succ returns the successors of c within the bound.
func succ[W any](p *PDS[W], matched map[RuleID]W, c bconf) []bedge[W] {
	var out []bedge[W]
	if len(c.stack) == 0 {
		return nil
	}
	top, rest := Symbol(c.stack[0]-'a'), c.stack[2:]
	for i, r := range p.rules {
		if r.From != c.state || r.Sym != top {
			continue
		}
		switch len(r.Out) {
		case 0:
			if len(rest) > 0 {
				if rest[1] == '2' {
					continue
				}
				rest = rest[:1] + "0" + rest[2:]
			}
			out = append(out, bedge[W]{bconf{r.To, rest}, r.Weight})
			rest = c.stack[2:]
		case 1:
			out = append(out, bedge[W]{bconf{r.To, string(byte('a'+r.Out[0])) + "0" + rest}, r.Weight})
		case 2:
			if len(c.stack)/2+1 > bound {
				continue
			}
			pre := string(byte('a'+r.Out[0])) + "0" + string(byte('a'+r.Out[1]))
			if m, ok := matched[RuleID(i)]; ok {
				out = append(out, bedge[W]{bconf{r.To, pre + "1" + rest}, m})
				out = append(out, bedge[W]{bconf{r.To, pre + "2" + rest}, r.Weight})
			} else {
				out = append(out, bedge[W]{bconf{r.To, pre + "0" + rest}, r.Weight})
			}
		}
	}
	return out
}

// allConfigs lists the configurations with at most bound symbols.
func allConfigs(controls int) []Config {
	var out []Config
	var rec func(st []Symbol)
	rec = func(st []Symbol) {
		for q := 0; q < controls; q++ {
			out = append(out, Config{State(q), append([]Symbol(nil), st...)})
		}
		if len(st) == bound {
			return
		}
		for s := 0; s < nSymbols; s++ {
			rec(append(st, Symbol(s)))
		}
	}
	rec(nil)
	return out
}

// bruteForward returns, for each configuration, the combine of the values
// of the bounded rule sequences from start to it.
func bruteForward[W any](p *PDS[W], matched map[RuleID]W, start Config) map[string]W {
	sr := p.sr
	val := map[bconf]W{key(start): sr.One()}
	work := []bconf{key(start)}
	for len(work) > 0 {
		c := work[0]
		work = work[1:]
		for _, e := range succ(p, matched, c) {
			v := sr.Extend(val[c], e.w)
			old, ok := val[e.to]
			if !ok {
				old = sr.Zero()
			}
			if nw := sr.Combine(old, v); !ok || !sr.Equal(nw, old) {
				val[e.to] = nw
				work = append(work, e.to)
			}
		}
	}
	res := map[string]W{}
	for c, w := range val {
		if cf, ok := c.config(); ok {
			k := cf.String()
			if old, ok := res[k]; ok {
				w = sr.Combine(old, w)
			}
			res[k] = w
		}
	}
	return res
}

// bruteBackward returns, for each configuration, the combine of the
// values of the bounded rule sequences from it into target.
func bruteBackward[W any](p *PDS[W], matched map[RuleID]W, target *Set) map[string]W {
	sr := p.sr
	// Explore every tagged configuration reachable from an untagged one.
	type redge struct {
		from bconf
		w    W
	}
	preds := map[bconf][]redge{}
	seen := map[bconf]bool{}
	var work []bconf
	for _, c := range allConfigs(p.controls) {
		k := key(c)
		seen[k] = true
		work = append(work, k)
	}
	for len(work) > 0 {
		c := work[0]
		work = work[1:]
		for _, e := range succ(p, matched, c) {
			preds[e.to] = append(preds[e.to], redge{c, e.w})
			if !seen[e.to] {
				seen[e.to] = true
				work = append(work, e.to)
			}
		}
	}
	val := map[bconf]W{}
	for c := range seen {
		if cf, ok := c.config(); ok && target.Accepts(cf) {
			val[c] = sr.One()
			work = append(work, c)
		}
	}
	for len(work) > 0 {
		c := work[0]
		work = work[1:]
		for _, e := range preds[c] {
			v := sr.Extend(e.w, val[c])
			old, ok := val[e.from]
			if !ok {
				old = sr.Zero()
			}
			if nw := sr.Combine(old, v); !ok || !sr.Equal(nw, old) {
				val[e.from] = nw
				work = append(work, e.from)
			}
		}
	}
	res := map[string]W{}
	for c, w := range val {
		if strings.ContainsAny(c.stack, "12") {
			continue // not a configuration a query starts from
		}
		cf, _ := c.config()
		res[cf.String()] = w
	}
	return res
}

// maxDepth returns the largest stack along the replay of rules from c.
func maxDepth[W any](p *PDS[W], c Config, rules []RuleID) int {
	d := len(c.Stack)
	for _, id := range rules {
		c, _ = p.Apply(c, []RuleID{id})
		d = max(d, len(c.Stack))
	}
	return d
}

// sameAutomaton checks that two saturations of the same problem have the
// same states and the same transitions with the same weights.
func sameAutomaton[W any](t *testing.T, seed int64, name string, a, b *Automaton[W]) {
	t.Helper()
	if a.States() != b.States() {
		t.Fatalf("seed %d %s: %d states, FWPDS %d", seed, name, a.States(), b.States())
	}
	want := map[tkey]W{}
	for _, tr := range a.Transitions() {
		want[tkey{tr.From, tr.Sym, tr.To}] = tr.Weight
	}
	got := b.Transitions()
	for _, tr := range got {
		w, ok := want[tkey{tr.From, tr.Sym, tr.To}]
		if !ok || !a.sr.Equal(w, tr.Weight) {
			t.Fatalf("seed %d %s: FWPDS transition %v, plain %v (found %v)", seed, name, tr, w, ok)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("seed %d %s: %d transitions, FWPDS %d", seed, name, len(want), len(got))
	}
}

type tally struct{ compared, equal, deep, all int }

// checkRandom runs pre* and post* on one random system and compares them
// with the brute-force search; exact says that witnesses are optimal single
// paths (Bool, MinPath), so that bounded witnesses must match the search.
func checkRandom[W any](t *testing.T, seed int64, sr Semiring[W], weight func(*rand.Rand) W, merges, exact bool, tl *tally) {
	rng := rand.New(rand.NewSource(seed))
	p, matched := randomPDS(rng, sr, weight, merges)
	atLeast := func(s, b W) bool { return sr.Equal(sr.Combine(s, b), s) }
	zero := sr.Zero()

	start := Config{0, []Symbol{Symbol(rng.Intn(nSymbols))}}
	startSet := NewSet(p.controls)
	startSet.AddConfig(start)
	target := NewSet(p.controls)
	tc := Config{State(rng.Intn(p.controls)), []Symbol{Symbol(rng.Intn(nSymbols))}}
	if rng.Intn(2) == 0 {
		target.AddAnyStack(tc.State, tc.Stack[0], []Symbol{0, 1, 2})
	} else {
		target.AddConfig(tc)
	}

	post, err := Poststar(p, startSet, Options{Witnesses: true})
	if err != nil {
		t.Fatal(err)
	}
	pre, err := Prestar(p, target, Options{Witnesses: true})
	if err != nil {
		t.Fatal(err)
	}
	// Differential propagation must give the same automata's answers.
	dpost, err := Poststar(p, startSet, Options{Differential: true})
	if err != nil {
		t.Fatal(err)
	}
	dpre, err := Prestar(p, target, Options{Differential: true})
	if err != nil {
		t.Fatal(err)
	}
	// So must FWPDS, transition by transition.
	fpost, err := Poststar(p, startSet, Options{FWPDS: true, Witnesses: true})
	if err != nil {
		t.Fatal(err)
	}
	fpre, err := Prestar(p, target, Options{FWPDS: true, Witnesses: true})
	if err != nil {
		t.Fatal(err)
	}
	sameAutomaton(t, seed, "post*", post, fpost)
	sameAutomaton(t, seed, "pre*", pre, fpre)
	if x, y := post.Summary(target), fpost.Summary(target); !sr.Equal(x, y) {
		t.Fatalf("seed %d: post* summary %v, FWPDS %v", seed, x, y)
	}
	for _, c := range allConfigs(p.controls) {
		if x, y := post.Weight(c), fpost.Weight(c); !sr.Equal(x, y) {
			t.Fatalf("seed %d post* %v: %v, FWPDS %v", seed, c, x, y)
		}
		if x, y := pre.Weight(c), fpre.Weight(c); !sr.Equal(x, y) {
			t.Fatalf("seed %d pre* %v: %v, FWPDS %v", seed, c, x, y)
		}
		if x, y := post.Weight(c), dpost.Weight(c); !sr.Equal(x, y) {
			t.Fatalf("seed %d post* %v: %v, differential %v", seed, c, x, y)
		}
		if x, y := pre.Weight(c), dpre.Weight(c); !sr.Equal(x, y) {
			t.Fatalf("seed %d pre* %v: %v, differential %v", seed, c, x, y)
		}
	}
	fwd := bruteForward(p, matched, start)
	bwd := bruteBackward(p, matched, target)

	for _, dir := range []struct {
		name  string
		a     *Automaton[W]
		brute map[string]W
		ok    func(Path[W], Config) bool
	}{
		{"post*", post, fwd, func(pt Path[W], c Config) bool { return startSet.Accepts(pt.From) && pt.To.String() == c.String() }},
		{"pre*", pre, bwd, func(pt Path[W], c Config) bool { return target.Accepts(pt.To) && pt.From.String() == c.String() }},
		{"FWPDS post*", fpost, fwd, func(pt Path[W], c Config) bool { return startSet.Accepts(pt.From) && pt.To.String() == c.String() }},
		{"FWPDS pre*", fpre, bwd, func(pt Path[W], c Config) bool { return target.Accepts(pt.To) && pt.From.String() == c.String() }},
	} {
		for _, c := range allConfigs(p.controls) {
			s := dir.a.Weight(c)
			b, found := dir.brute[c.String()]
			if !found {
				b = zero
			}
			if !atLeast(s, b) {
				t.Fatalf("seed %d %s %v: saturation %v, brute force found %v\nrules %v", seed, dir.name, c, s, b, p.rules)
			}
			if sr.Equal(s, zero) {
				continue
			}
			pt, ok, err := dir.a.Trace(c, 10000)
			if err != nil || !ok || !dir.ok(pt, c) {
				t.Fatalf("seed %d %s %v: witness %v %v does not replay: %v", seed, dir.name, c, pt, ok, err)
			}
			if !atLeast(s, pt.Value) {
				t.Fatalf("seed %d %s %v: witness value %v exceeds the answer %v", seed, dir.name, c, pt.Value, s)
			}
			// The combine over all sequences of the witness DAG is the answer.
			_, wit := dir.a.Witness(c)
			if seqs, err := wit.All(500); err == nil {
				all := zero
				for _, q := range seqs {
					all = sr.Combine(all, p.Value(q))
				}
				if !sr.Equal(all, s) {
					t.Fatalf("seed %d %s %v: the %d witness sequences combine to %v, answer %v", seed, dir.name, c, len(seqs), all, s)
				}
				tl.all++
			}
			if !exact {
				continue
			}
			if !sr.Equal(pt.Value, s) {
				t.Fatalf("seed %d %s %v: witness value %v, answer %v (rules %v)", seed, dir.name, c, pt.Value, s, pt.Rules)
			}
			if maxDepth(p, pt.From, pt.Rules) > bound {
				continue
			}
			tl.compared++
			if !sr.Equal(b, s) {
				t.Fatalf("seed %d %s %v: saturation %v with a witness within the bound, brute force %v\nrules %v", seed, dir.name, c, s, b, p.rules)
			}
			tl.equal++
			if len(c.Stack) >= 2 || len(pt.Rules) >= 3 {
				tl.deep++
			}
		}
	}
	// TopSummaries is Summary of "p, γ on top" for every γ.
	for _, a := range []*Automaton[W]{post, pre, fpost} {
		for q := 0; q < p.controls; q++ {
			top := a.TopSummaries(State(q))
			for g := 0; g < nSymbols; g++ {
				s := NewSet(p.controls)
				s.AddAnyStack(State(q), Symbol(g), []Symbol{0, 1, 2})
				want := a.Summary(s)
				got, ok := top[Symbol(g)]
				if !ok {
					got = zero
				}
				if !sr.Equal(got, want) || ok == sr.Equal(want, zero) {
					t.Fatalf("seed %d: TopSummaries(%d)[%d] = %v (%v), Summary %v", seed, q, g, got, ok, want)
				}
			}
		}
	}
	// IJOP(start, target) both ways.
	if x, y := post.Summary(target), pre.Summary(startSet); !sr.Equal(x, y) {
		t.Fatalf("seed %d: post*(S)(T) = %v, pre*(T)(S) = %v", seed, x, y)
	}
}

func TestRandomAgainstBruteForce(t *testing.T) {
	seeds := int64(testflags.N(20, 40, 150, 150))
	weights := func(lo, n int) func(*rand.Rand) Dist {
		return func(r *rand.Rand) Dist { return Dist(lo + r.Intn(n)) }
	}
	tests := []struct {
		name     string
		run      func(t *testing.T, seed int64, tl *tally)
		minEqual int
	}{
		{"Bool", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[bool](t, seed, Bool{}, func(*rand.Rand) bool { return true }, false, true, tl)
		}, 1000},
		{"MinPath", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[Dist](t, seed, MinPath{}, weights(1, 3), false, true, tl)
		}, 1000},
		{"MinPath with zero weights", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[Dist](t, seed, MinPath{}, weights(0, 3), false, true, tl)
		}, 1000},
		{"MinPath EWPDS", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[Dist](t, seed, MinPath{}, weights(1, 5), true, true, tl)
		}, 1000},
		{"Bool EWPDS", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[bool](t, seed, Bool{}, func(r *rand.Rand) bool { return r.Intn(4) != 0 }, true, true, tl)
		}, 500},
		{"BitVector", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[GenKill](t, seed, BitVector{}, genGenKill, false, false, tl)
		}, 0},
		{"relations", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[rel](t, seed, relN{3}, genRel(3), false, false, tl)
		}, 0},
		{"relations EWPDS", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[rel](t, seed, relN{3}, genRel(3), true, false, tl)
		}, 0},
		{"BitVector EWPDS", func(t *testing.T, seed int64, tl *tally) {
			checkRandom[GenKill](t, seed, BitVector{}, genGenKill, true, false, tl)
		}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var tl tally
			for s := int64(0); s < seeds; s++ {
				tc.run(t, s, &tl)
			}
			t.Logf("%d configurations compared exactly, %d with deep stacks or long witnesses; %d witness DAGs expanded fully", tl.equal, tl.deep, tl.all)
			if tl.all < 1000 {
				t.Fatalf("only %d witness DAGs expanded fully", tl.all)
			}
			if tl.equal < tc.minEqual || (tc.minEqual > 0 && tl.deep < tc.minEqual/10) {
				t.Fatalf("only %d exact comparisons (%d deep): the test is too weak", tl.equal, tl.deep)
			}
		})
	}
}
