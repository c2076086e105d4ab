package bdd

import (
	"bytes"
	"errors"
	"math/bits"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// tt is a truth table over nv variables: bit a is the value under the
// assignment whose bit v is the value of variable v.
type tt []uint64

type world struct {
	t  *testing.T
	m  *Manager
	nv int
}

func newWorld(t *testing.T, nv int, cfg Config) *world {
	if stressWorlds {
		cfg.Reorder = ReorderStress
		if cfg.InitialNodes == 0 {
			cfg.InitialNodes = 256 // each reordering scans the table
		}
	}
	m := New(cfg)
	m.ExtVarNum(nv)
	if stressWorlds {
		// Blocks of two variables, so that group moves are exercised.
		for v := 0; v+1 < nv; v += 3 {
			if err := m.AddBlock(v, v+1); err != nil {
				t.Fatal(err)
			}
		}
	}
	return &world{t: t, m: m, nv: nv}
}

// stressWorlds makes newWorld's managers reorder at every operation
// (TestStressReorder).
var stressWorlds bool

func (w *world) size() int { return 1 << w.nv }

func (w *world) newTT() tt { return make(tt, (w.size()+63)/64) }

func (w *world) fromFunc(fn func(a int) bool) tt {
	r := w.newTT()
	for a := 0; a < w.size(); a++ {
		if fn(a) {
			r[a>>6] |= 1 << (a & 63)
		}
	}
	return r
}

func (t tt) get(a int) bool { return t[a>>6]>>(a&63)&1 != 0 }

func (w *world) varTT(v int) tt { return w.fromFunc(func(a int) bool { return a>>v&1 != 0 }) }

// evalAt evaluates f under assignment a by walking the BDD.
func evalAt(m *Manager, f Node, a int) bool {
	for f >= 2 {
		if a>>m.Var(f)&1 != 0 {
			f = m.High(f)
		} else {
			f = m.Low(f)
		}
	}
	return f == True
}

// ttOf is the truth table of f by brute force.
func (w *world) ttOf(f Node) tt {
	if f == Invalid {
		w.t.Fatalf("Invalid node, err=%v", w.m.Err())
	}
	return w.fromFunc(func(a int) bool { return evalAt(w.m, f, a) })
}

func (w *world) check(what string, f Node, want tt) {
	w.t.Helper()
	if got := w.ttOf(f); !slices.Equal(got, want) {
		w.t.Fatalf("%s: truth table mismatch\n got %x\nwant %x", what, got, want)
	}
}

func ttMap2(a, b tt, fn func(x, y uint64) uint64) tt {
	r := make(tt, len(a))
	for i := range a {
		r[i] = fn(a[i], b[i])
	}
	return r
}

// mask of the valid bits of the last word when nv < 6.
func (w *world) fix(t tt) tt {
	if w.size() < 64 {
		t[0] &= 1<<w.size() - 1
	}
	return t
}

type fn struct {
	n Node
	t tt
}

// randFunc builds a random formula both as a BDD and as a truth table.
func (w *world) randFunc(rng *rand.Rand, depth int) fn {
	m := w.m
	if depth == 0 || rng.Intn(5) == 0 {
		switch k := rng.Intn(w.nv*2 + 2); {
		case k == 0:
			return fn{False, w.newTT()}
		case k == 1:
			return fn{True, w.fix(w.fromFunc(func(int) bool { return true }))}
		default:
			v := (k - 2) / 2
			if k%2 == 0 {
				return fn{m.Ithvar(v), w.varTT(v)}
			}
			return fn{m.NIthvar(v), w.fix(ttMap2(w.varTT(v), w.varTT(v), func(x, _ uint64) uint64 { return ^x }))}
		}
	}
	a := w.randFunc(rng, depth-1)
	b := w.randFunc(rng, depth-1)
	switch rng.Intn(7) {
	case 0:
		return fn{m.And(a.n, b.n), ttMap2(a.t, b.t, func(x, y uint64) uint64 { return x & y })}
	case 1:
		return fn{m.Or(a.n, b.n), ttMap2(a.t, b.t, func(x, y uint64) uint64 { return x | y })}
	case 2:
		return fn{m.Xor(a.n, b.n), ttMap2(a.t, b.t, func(x, y uint64) uint64 { return x ^ y })}
	case 3:
		return fn{m.Imp(a.n, b.n), w.fix(ttMap2(a.t, b.t, func(x, y uint64) uint64 { return ^x | y }))}
	case 4:
		return fn{m.Equiv(a.n, b.n), w.fix(ttMap2(a.t, b.t, func(x, y uint64) uint64 { return ^(x ^ y) }))}
	case 5:
		return fn{m.Not(a.n), w.fix(ttMap2(a.t, a.t, func(x, _ uint64) uint64 { return ^x }))}
	default:
		c := w.randFunc(rng, depth-1)
		ite := make(tt, len(a.t))
		for i := range ite {
			ite[i] = a.t[i]&b.t[i] | ^a.t[i]&c.t[i]
		}
		return fn{m.Ite(a.n, b.n, c.n), ite}
	}
}

func TestConnectivesAgainstTruthTables(t *testing.T) {
	for _, nv := range []int{1, 3, 7, 12} {
		w := newWorld(t, nv, Config{InitialNodes: 256})
		rng := rand.New(rand.NewSource(int64(nv)))
		for i := 0; i < 60; i++ {
			f := w.randFunc(rng, 5)
			w.check("random formula", f.n, f.t)
		}
	}
}

func TestIteAgainstTruthTables(t *testing.T) {
	w := newWorld(t, 8, Config{})
	rng := rand.New(rand.NewSource(2))
	for i := 0; i < 100; i++ {
		f, g, h := w.randFunc(rng, 4), w.randFunc(rng, 4), w.randFunc(rng, 4)
		want := w.fromFunc(func(a int) bool {
			if f.t.get(a) {
				return g.t.get(a)
			}
			return h.t.get(a)
		})
		w.check("ite", w.m.Ite(f.n, g.n, h.n), want)
	}
}

func (w *world) randSet(rng *rand.Rand) []int {
	var vs []int
	for v := 0; v < w.nv; v++ {
		if rng.Intn(3) == 0 {
			vs = append(vs, v)
		}
	}
	return vs
}

func TestQuantifiers(t *testing.T) {
	w := newWorld(t, 10, Config{})
	m := w.m
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 80; i++ {
		f, g := w.randFunc(rng, 5), w.randFunc(rng, 5)
		vs := w.randSet(rng)
		s := m.VarSet(vs...)
		w.check("exists", m.Exists(f.n, s), w.quant(f.t, vs, false))
		w.check("forall", m.Forall(f.n, s), w.quant(f.t, vs, true))
		and := ttMap2(f.t, g.t, func(x, y uint64) uint64 { return x & y })
		w.check("andexists", m.AndExists(f.n, g.n, s), w.quant(and, vs, false))
	}
}

// quant is the truth table of t with the variables vs quantified,
// universally if all, else existentially.
func (w *world) quant(t tt, vs []int, all bool) tt {
	return w.fromFunc(func(a int) bool {
		// enumerate the values of the quantified variables
		for sub := 0; sub < 1<<len(vs); sub++ {
			b := a
			for j, v := range vs {
				b &^= 1 << v
				if sub>>j&1 != 0 {
					b |= 1 << v
				}
			}
			if t.get(b) != all {
				return !all
			}
		}
		return all
	})
}

func TestReplaceAndCompose(t *testing.T) {
	w := newWorld(t, 9, Config{})
	m := w.m
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 150; i++ {
		f := w.randFunc(rng, 5)
		// A random mapping: a permutation, or an arbitrary (non-injective)
		// map, applied as simultaneous substitution v := to(v).
		sigma := make([]int, w.nv)
		perm := rng.Perm(w.nv)
		for v := range sigma {
			switch {
			case i%3 == 0:
				sigma[v] = perm[v]
			case rng.Intn(2) == 0:
				sigma[v] = rng.Intn(w.nv)
			default:
				sigma[v] = v
			}
		}
		var from, to []int
		for v, u := range sigma {
			if rng.Intn(4) != 0 || i%3 == 0 {
				from, to = append(from, v), append(to, u)
			} else {
				sigma[v] = v
			}
		}
		want := w.fromFunc(func(a int) bool {
			b := 0
			for v, u := range sigma {
				b |= (a >> u & 1) << v
			}
			return f.t.get(b)
		})
		w.check("replace", m.Replace(f.n, m.NewPairs(from, to)), want)

		g := w.randFunc(rng, 4)
		v := rng.Intn(w.nv)
		want = w.fromFunc(func(a int) bool {
			b := a &^ (1 << v)
			if g.t.get(a) {
				b |= 1 << v
			}
			return f.t.get(b)
		})
		w.check("compose", m.Compose(f.n, v, g.n), want)

		// Vector compose of up to 3 variables.
		vars := rng.Perm(w.nv)[:1+rng.Intn(3)]
		gs := make([]fn, len(vars))
		ns := make([]Node, len(vars))
		for j := range vars {
			gs[j] = w.randFunc(rng, 3)
			ns[j] = gs[j].n
		}
		want = w.fromFunc(func(a int) bool {
			b := a
			for j, v := range vars {
				b &^= 1 << v
				if gs[j].t.get(a) {
					b |= 1 << v
				}
			}
			return f.t.get(b)
		})
		w.check("veccompose", m.VecCompose(f.n, vars, ns), want)
	}
}

func TestRestrictConstrain(t *testing.T) {
	w := newWorld(t, 9, Config{})
	m := w.m
	rng := rand.New(rand.NewSource(5))
	for i := 0; i < 150; i++ {
		f, c := w.randFunc(rng, 5), w.randFunc(rng, 4)
		if i%4 == 0 { // a cube: both are the cofactor
			vs := w.randSet(rng)
			vals := make([]bool, len(vs))
			for j := range vals {
				vals[j] = rng.Intn(2) == 0
			}
			cube := m.Assignment(vs, vals)
			want := w.fromFunc(func(a int) bool {
				for j, v := range vs {
					a &^= 1 << v
					if vals[j] {
						a |= 1 << v
					}
				}
				return f.t.get(a)
			})
			w.check("restrict cube", m.Restrict(f.n, cube), want)
			w.check("constrain cube", m.Constrain(f.n, cube), want)
			continue
		}
		fc := ttMap2(f.t, c.t, func(x, y uint64) uint64 { return x & y })
		if c.n == False {
			continue
		}
		r := m.Restrict(f.n, c.n)
		w.check("restrict ∧ c", m.And(r, c.n), fc)
		// (Not under forced reordering: the order changes between the
		// two counts.)
		if !stressWorlds && m.NodeCount(r) > m.NodeCount(f.n) {
			t.Errorf("restrict grew the BDD: %d > %d", m.NodeCount(r), m.NodeCount(f.n))
		}
		w.check("constrain ∧ c", m.And(m.Constrain(f.n, c.n), c.n), fc)
	}
}

func popcount(t tt) int {
	n := 0
	for _, x := range t {
		n += bits.OnesCount64(x)
	}
	return n
}

func TestSatAndSupport(t *testing.T) {
	w := newWorld(t, 10, Config{})
	m := w.m
	rng := rand.New(rand.NewSource(6))
	all := make([]int, w.nv)
	for v := range all {
		all[v] = v
	}
	sAll := m.VarSet(all...)
	for i := 0; i < 100; i++ {
		f := w.randFunc(rng, 5)
		if got := m.SatCount(f.n, sAll); got != float64(popcount(f.t)) {
			t.Fatalf("satcount %v want %d", got, popcount(f.t))
		}
		// support
		var sup []int
		for v := 0; v < w.nv; v++ {
			for a := 0; a < w.size(); a++ {
				if f.t.get(a) != f.t.get(a^1<<v) {
					sup = append(sup, v)
					break
				}
			}
		}
		if got := m.Support(f.n); !slices.Equal(got, sup) {
			t.Fatalf("support %v want %v", got, sup)
		}
		// SatCount over the support only, and over a superset.
		want := float64(popcount(f.t)) / float64(int(1)<<(w.nv-len(sup)))
		if got := m.SatCount(f.n, m.VarSet(sup...)); got != want {
			t.Fatalf("satcount over support %v want %v", got, want)
		}
		// SatOne over all variables: the least satisfying assignment when
		// variable 0 is the most significant and false < true.
		one := m.SatOne(f.n, sAll)
		best := -1
		for a := 0; a < w.size(); a++ {
			if f.t.get(a) && (best < 0 || bits.Reverse(uint(a)) < bits.Reverse(uint(best))) {
				best = a
			}
		}
		if best < 0 {
			if one != nil {
				t.Fatalf("SatOne of False = %v", one)
			}
		} else {
			a := 0
			for v, b := range one {
				if b {
					a |= 1 << v
				}
			}
			if a != best {
				t.Fatalf("SatOne = %b want %b", a, best)
			}
		}
		// SatOne over a subset satisfies ∃(others) f.
		vs := w.randSet(rng)
		sub := m.VarSet(vs...)
		if vals := m.SatOne(f.n, sub); vals != nil {
			if m.Restrict(f.n, m.Assignment(vs, vals)) == False {
				t.Fatalf("SatOne over subset does not satisfy f")
			}
		}
		// AllSat over a subset yields ∃(others) f, each once.
		ex := m.Exists(f.n, m.VarSet(complement(vs, w.nv)...))
		seen := map[int]bool{}
		m.AllSat(f.n, sub)(func(vals []bool) bool {
			a := 0
			for j, b := range vals {
				if b {
					a |= 1 << vs[j]
				}
			}
			if seen[a] || !evalAt(m, ex, a) {
				t.Fatalf("AllSat yielded %b twice or wrongly", a)
			}
			seen[a] = true
			return true
		})
		if float64(len(seen)) != m.SatCount(ex, sub) {
			t.Fatalf("AllSat yielded %d, SatCount %v", len(seen), m.SatCount(ex, sub))
		}
	}
}

func complement(vs []int, n int) []int {
	var r []int
	for v := 0; v < n; v++ {
		if !slices.Contains(vs, v) {
			r = append(r, v)
		}
	}
	return r
}

func TestNodeCountAndDot(t *testing.T) {
	m := New(Config{})
	x, y, z := m.Ithvar(0), m.Ithvar(1), m.Ithvar(2)
	f := m.Or(m.And(x, y), z)
	g := m.And(y, z)
	tests := []struct {
		fs   []Node
		want int
	}{
		{[]Node{True}, 0},
		{[]Node{x}, 1},
		{[]Node{f}, 3},
		{[]Node{g}, 2},
		{[]Node{f, g, f}, 4},
	}
	for _, tc := range tests {
		if got := m.NodeCount(tc.fs...); got != tc.want {
			t.Errorf("NodeCount(%v) = %d, want %d", tc.fs, got, tc.want)
		}
	}
	var buf bytes.Buffer
	if err := m.WriteDot(&buf, nil, f, g); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); !strings.HasPrefix(s, "digraph") || strings.Count(s, "label=\"x") != 4 {
		t.Errorf("unexpected dot:\n%s", s)
	}
}

func TestCanonicity(t *testing.T) {
	m := New(Config{})
	a, b := m.Ithvar(0), m.Ithvar(1)
	// De Morgan and friends must give identical Nodes.
	if m.Not(m.And(a, b)) != m.Or(m.Not(a), m.Not(b)) {
		t.Fatal("De Morgan")
	}
	if m.Xor(a, b) != m.Not(m.Equiv(a, b)) || m.Imp(a, b) != m.Or(m.Not(a), b) {
		t.Fatal("xor/imp")
	}
	if m.NIthvar(3) != m.Not(m.Ithvar(3)) || m.VarNum() != 4 {
		t.Fatal("on-demand variable")
	}
}

func TestGCKeepsRootsAndTemporaries(t *testing.T) {
	w := newWorld(t, 10, Config{InitialNodes: 64})
	m := w.m
	rng := rand.New(rand.NewSource(7))
	var kept []*Root
	var keptTT []tt
	for i := 0; i < 300; i++ {
		if i%5 == 0 {
			m.GC()
		}
		f := w.randFunc(rng, 6)
		g := w.randFunc(rng, 6) // temporary: safe until Safepoint
		for j := 0; j < 5; j++ {
			w.randFunc(rng, 6) // garbage, to trigger automatic collections
		}
		w.check("temporary survives", g.n, g.t)
		m.Safepoint()
		kept = append(kept, m.Keep(f.n))
		keptTT = append(keptTT, f.t)
		if len(kept) > 10 {
			kept[0].Release()
			kept, keptTT = kept[1:], keptTT[1:]
		}
	}
	m.GC()
	for i, r := range kept {
		w.check("root survives", r.Node(), keptTT[i])
	}
	st := m.Stats()
	if st.GCs == 0 || st.GCFreed == 0 {
		t.Fatalf("expected collections: %+v", st)
	}
	// A freed node is reported, not silently used.
	x := m.And(m.Ithvar(0), m.Ithvar(9))
	m.GC()
	defer func() {
		if recover() == nil {
			t.Fatal("no panic for a freed node")
		}
	}()
	m.Not(x)
}

func TestNodeLimit(t *testing.T) {
	for _, limit := range []int{100, 1000, 5000} {
		m := New(Config{MaxNodes: limit, InitialNodes: 64})
		// The hidden-weighted-bit-like product of many xors grows fast.
		n := 40
		f := True
		var err error
		for i := 0; i < n && err == nil; i++ {
			f = m.And(f, m.Or(m.Xor(m.Ithvar(i), m.Ithvar(n+i)), m.Ithvar(2*n+i)))
			err = m.Err()
		}
		if !errors.Is(err, ErrNodeLimit) {
			t.Fatalf("limit %d: err = %v", limit, err)
		}
		if f != Invalid || m.And(True, True) != Invalid || m.SatCount(True, m.VarSet()) != 0 {
			t.Fatalf("limit %d: operations after the error must be Invalid", limit)
		}
		if st := m.Stats(); st.Capacity > limit || st.NodeLimitHits != 1 {
			t.Fatalf("limit %d: stats %+v", limit, st)
		}
		// After a Safepoint and ClearErr the manager works again.
		m.GC()
		m.ClearErr()
		if m.And(m.Ithvar(0), m.Ithvar(1)) == Invalid {
			t.Fatalf("limit %d: manager unusable after ClearErr", limit)
		}
	}
}

func TestNodeLimitRetriesAfterCollection(t *testing.T) {
	// Garbage from before a Safepoint must not make an operation fail.
	m := New(Config{MaxNodes: 3000, InitialNodes: 3000})
	rng := rand.New(rand.NewSource(8))
	w := &world{t: t, m: m, nv: 12}
	for i := 0; i < 400; i++ {
		w.randFunc(rng, 6)
		m.Safepoint()
		if m.Err() != nil {
			t.Fatalf("iteration %d: %v", i, m.Err())
		}
	}
}

func TestPairsSetReuse(t *testing.T) {
	m := New(Config{})
	f := m.And(m.Ithvar(0), m.NIthvar(1))
	p := m.NewPairs([]int{0, 1}, []int{2, 3})
	if got, want := m.Replace(f, p), m.And(m.Ithvar(2), m.NIthvar(3)); got != want {
		t.Fatal("replace")
	}
	// Re-set with more pairs than the inline storage, then fewer again:
	// the cached result of the old renaming must not be reused.
	from, to := []int{0, 1, 5, 6, 7, 8}, []int{4, 5, 9, 10, 11, 12}
	for i := 0; i < 3; i++ {
		p.Set(from, to)
		if got, want := m.Replace(f, p), m.And(m.Ithvar(4), m.NIthvar(5)); got != want {
			t.Fatal("replace after Set")
		}
		p.Set([]int{0}, []int{1})
		if got, want := m.Replace(f, p), False; got != want {
			t.Fatal("replace after Set (x0 := x1 gives x1 ∧ ¬x1)")
		}
	}
	// Unsorted sources with a duplicate: the last mapping of x1 wins.
	p.Set([]int{1, 0, 1}, []int{7, 6, 8})
	if got, want := m.Replace(f, p), m.And(m.Ithvar(6), m.NIthvar(8)); got != want {
		t.Fatal("unsorted pairs with a duplicate")
	}
}

// TestAssignmentOrder checks that Assignment does not depend on the order of
// its variables, and that a variable fixed twice to different values gives
// False.
func TestAssignmentOrder(t *testing.T) {
	m := New(Config{})
	up := m.Assignment([]int{0, 1, 2, 3}, []bool{true, false, true, true})
	down := m.Assignment([]int{3, 2, 1, 0}, []bool{true, true, false, true})
	want := m.AndAll(m.Ithvar(0), m.NIthvar(1), m.Ithvar(2), m.Ithvar(3))
	if up != want || down != want {
		t.Errorf("Assignment depends on the order of its variables")
	}
	if got := m.Assignment([]int{1, 2, 1}, []bool{true, false, true}); got != m.And(m.Ithvar(1), m.NIthvar(2)) {
		t.Errorf("a variable given twice with the same value")
	}
	if got := m.Assignment([]int{1, 2, 1}, []bool{true, false, false}); got != False {
		t.Errorf("a variable given twice with different values: not False")
	}
}

// TestAndExistsReplace checks the fused relational product and renaming
// against AndExists then Replace (canonical BDDs: the same node), on
// random functions, sets and renamings: the next → current renaming of
// interleaved copies it is made for, permutations that do not keep the
// order, and more renamings than it has operation codes for (the rest
// run unfused).
func TestAndExistsReplace(t *testing.T) {
	w := newWorld(t, 10, Config{})
	m := w.m
	rng := rand.New(rand.NewSource(7))
	for i := 0; i < 400; i++ {
		f, g := w.randFunc(rng, 5), w.randFunc(rng, 5)
		var from, to, quant []int
		switch i % 3 {
		case 0: // variables 2k (current) and 2k+1 (next), adjacent
			for k := 0; k < w.nv/2; k++ {
				if rng.Intn(2) == 0 {
					quant = append(quant, 2*k)
					from, to = append(from, 2*k+1), append(to, 2*k)
				}
			}
		default:
			quant = w.randSet(rng)
			perm := rng.Perm(w.nv)
			for v := range perm {
				if rng.Intn(3) == 0 {
					from, to = append(from, v), append(to, perm[v])
				}
			}
		}
		s, p := m.VarSet(quant...), m.NewPairs(from, to)
		want := m.Replace(m.AndExists(f.n, g.n, s), p)
		if got := m.AndExistsReplace(f.n, g.n, s, p); got != want {
			t.Fatalf("case %d: AndExistsReplace gives node %d, AndExists then Replace %d", i, got, want)
		}
		if i%50 == 0 {
			m.GC()
		}
	}
	if n := len(m.relOps); n != int(opRelMax-opRelBase+1) {
		t.Errorf("%d operation codes taken, want all %d", n, opRelMax-opRelBase+1)
	}
}

// TestCacheAcrossCollections: no computed-cache entry about a node that a
// collection freed survives it (a freed index is given to another node).
// Random functions are built, some kept as roots and some released, with a
// collection after every step; every result is checked against its truth
// table. (Keeping the entries whose nodes all survive, instead of clearing
// the caches, was measured on conc-product's search and gained nothing
// measurable: 16 collections in a 23 s search.)
func TestCacheAcrossCollections(t *testing.T) {
	w := newWorld(t, 9, Config{InitialNodes: 512})
	m := w.m
	rng := rand.New(rand.NewSource(11))
	type kept struct {
		r *Root
		t tt
	}
	var pool []kept
	for i := 0; i < 600; i++ {
		f := w.randFunc(rng, 5)
		if len(pool) > 0 && rng.Intn(2) == 0 {
			k := pool[rng.Intn(len(pool))]
			g := fn{k.r.Node(), k.t}
			and := ttMap2(f.t, g.t, func(x, y uint64) uint64 { return x & y })
			w.check("and across collections", m.And(f.n, g.n), and)
			vs := w.randSet(rng)
			w.check("andexists across collections", m.AndExists(f.n, g.n, m.VarSet(vs...)), w.quant(and, vs, false))
		}
		if rng.Intn(3) == 0 {
			pool = append(pool, kept{m.Keep(f.n), f.t})
		}
		if len(pool) > 8 {
			j := rng.Intn(len(pool))
			pool[j].r.Release()
			pool = append(pool[:j], pool[j+1:]...)
		}
		m.GC()
	}
	if m.Stats().GCs < 600 {
		t.Errorf("%d collections, want at least 600", m.Stats().GCs)
	}
}
