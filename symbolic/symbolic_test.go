package symbolic_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"boolprog/bdd"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/symbolic"
	"boolprog/syntax"
)

func lower(t *testing.T, src string) *ir.Program {
	t.Helper()
	return testsuite.Lower(t, "t.bp", src, "")
}

// randExpr returns a random expression over globals 0..2 with constants,
// `*` and schoose.
func randExpr(r *rand.Rand, depth int) ir.Expr {
	if depth == 0 || r.IntN(4) == 0 {
		switch r.IntN(5) {
		case 0:
			return &ir.Const{Value: r.IntN(2) == 0}
		case 1:
			return &ir.Nondet{}
		default:
			return &ir.Var{VarRef: ir.VarRef{Global: true, Index: r.IntN(3)}}
		}
	}
	switch r.IntN(4) {
	case 0:
		return &ir.Not{X: randExpr(r, depth-1)}
	case 1:
		return &ir.Schoose{Pos: randExpr(r, depth-1), Neg: randExpr(r, depth-1)}
	default:
		ops := []syntax.Op{syntax.And, syntax.Or, syntax.Xor, syntax.Eq, syntax.Neq, syntax.Implies}
		return &ir.Bin{Op: ops[r.IntN(len(ops))], X: randExpr(r, depth-1), Y: randExpr(r, depth-1)}
	}
}

// evalChoices evaluates e in state v with the nondeterministic choices
// taken from the bits of c, one per `*` and per schoose, in tree order: an
// independent definition of the semantics Poss encodes.
func evalChoices(e ir.Expr, v [3]bool, c uint, k *int) bool {
	switch e := e.(type) {
	case *ir.Const:
		return e.Value
	case *ir.Nondet:
		b := c>>uint(*k)&1 != 0
		*k++
		return b
	case *ir.Var:
		return v[e.Index]
	case *ir.Not:
		return !evalChoices(e.X, v, c, k)
	case *ir.Bin:
		x := evalChoices(e.X, v, c, k)
		y := evalChoices(e.Y, v, c, k)
		return ir.ApplyOp(e.Op, x, y)
	case *ir.Schoose:
		b := c>>uint(*k)&1 != 0
		*k++
		p := evalChoices(e.Pos, v, c, k)
		n := evalChoices(e.Neg, v, c, k)
		switch {
		case p:
			return true
		case n:
			return false
		}
		return b
	}
	panic("bad expression")
}

func countChoices(e ir.Expr) int {
	n := 0
	var walk func(ir.Expr)
	walk = func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.Nondet:
			n++
		case *ir.Not:
			walk(e.X)
		case *ir.Bin:
			walk(e.X)
			walk(e.Y)
		case *ir.Schoose:
			n++
			walk(e.Pos)
			walk(e.Neg)
		}
	}
	walk(e)
	return n
}

// TestPoss compares Poss with enumeration of every nondeterministic choice
// on random expressions.
func TestPoss(t *testing.T) {
	p := lower(t, "decl a, b, c;\nvoid main() begin skip; end\n")
	m := bdd.New(bdd.Config{})
	l := symbolic.NewLayout(m, p, symbolic.OrderAffinity)
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		e := randExpr(r, 4)
		nc := countChoices(e)
		if nc > 12 {
			continue
		}
		tb, fb := l.Poss(e, l.Reading(symbolic.Cur))
		for s := 0; s < 8; s++ {
			v := [3]bool{s&1 != 0, s&2 != 0, s&4 != 0}
			var canT, canF bool
			for c := uint(0); c < 1<<uint(nc); c++ {
				k := 0
				if evalChoices(e, v, c, &k) {
					canT = true
				} else {
					canF = true
				}
			}
			cube := l.Cube(symbolic.Cur, []int{0, 1, 2}, v[:])
			gotT := m.And(cube, tb) != bdd.False
			gotF := m.And(cube, fb) != bdd.False
			if gotT != canT || gotF != canF {
				t.Fatalf("%s in %v: Poss says true %v false %v, enumeration %v %v",
					p.ExprString(p.Procs[0], e), v, gotT, gotF, canT, canF)
			}
		}
	}
}

// TestLayout checks the copies' adjacency and that slots are shared by the
// locals of different procedures.
func TestLayout(t *testing.T) {
	p := lower(t, `decl g, h;
bool<2> f(a, b) begin decl c; return a, c; end
void main() begin decl x; x, _ := f(g, h); end
`)
	m := bdd.New(bdd.Config{})
	for k, order := range []symbolic.Order{symbolic.OrderAffinity, symbolic.OrderDeclaration} {
		// Both layouts share m: the second one's variables follow the
		// first one's.
		l := symbolic.NewLayout(m, p, order)
		if l.G != 2 || l.L != 3 || l.R != 2 || l.N() != 7 {
			t.Fatalf("slots %+v", l.Slots)
		}
		if l.NumVars() != 21 || m.VarNum() != 21*(k+1) {
			t.Errorf("%d BDD variables (manager: %d), want 21 (%d)", l.NumVars(), m.VarNum(), 21*(k+1))
		}
		for s := 0; s < l.N(); s++ {
			e, c, n := l.Var(s, symbolic.Entry), l.Var(s, symbolic.Cur), l.Var(s, symbolic.Next)
			if c != e+1 || n != c+1 || e%3 != 0 || e < 21*k {
				t.Errorf("slot %d: copies %d %d %d not interleaved", s, e, c, n)
			}
		}
		order := l.Order()
		sorted := slices.Clone(order)
		slices.Sort(sorted)
		if fmt.Sprint(sorted) != fmt.Sprint([]int{0, 1, 2, 3, 4, 5, 6}) {
			t.Errorf("order %v is not a permutation", order)
		}
		// main's x and f's a share slot G+0.
		if l.Slot(ir.VarRef{Index: 0}) != 2 {
			t.Errorf("local 0 in slot %d", l.Slot(ir.VarRef{Index: 0}))
		}
	}
}

// TestAssign checks the relation of a parallel assignment with constrain
// against enumeration: a := b, * constrain 'a != 'b over globals a, b, c.
func TestAssign(t *testing.T) {
	p := lower(t, "decl a, b, c;\nvoid main() begin a, b := b, * constrain ('a != 'b) & (c | 'c); end\n")
	m := bdd.New(bdd.Config{})
	l := symbolic.NewLayout(m, p, symbolic.OrderAffinity)
	main := p.Procs[p.Main]
	var as *ir.Assign
	for _, e := range main.Edges {
		if a, ok := e.Op.(*ir.Assign); ok {
			as = a
		}
	}
	rel := l.Assign(as)
	if got := rel.Changed.Elems(); fmt.Sprint(got) != "[0 1]" {
		t.Errorf("changed %v", got)
	}
	full := l.Full(rel, l.ScopeOf(main))
	slots := []int{0, 1, 2}
	for s := 0; s < 8; s++ {
		for n := 0; n < 8; n++ {
			cur := []bool{s&1 != 0, s&2 != 0, s&4 != 0}
			next := []bool{n&1 != 0, n&2 != 0, n&4 != 0}
			// a' = b, b' any, c' = c, a' != b', and c holds ('c is c: c is no target).
			want := next[0] == cur[1] && next[2] == cur[2] && next[0] != next[1] && cur[2]
			x := m.And(full, m.And(l.Cube(symbolic.Cur, slots, cur), l.Cube(symbolic.Next, slots, next)))
			if got := x != bdd.False; got != want {
				t.Errorf("%v -> %v: %v, want %v", cur, next, got, want)
			}
		}
	}
}

// TestLayoutOptions checks layouts with more copies, more copies of the
// globals, pc bits, and blocks: every variable is used once, a slot's
// copies and a pc bit's copies are adjacent, and reordering keeps them so.
func TestLayoutOptions(t *testing.T) {
	p := lower(t, `decl g, h;
bool<2> f(a, b) begin decl c; return a, c; end
void main() begin decl x; x, _ := f(g, h); end
`)
	for _, c := range []struct {
		opts           symbolic.LayoutOptions
		global, others int
	}{
		{symbolic.LayoutOptions{}, 3, 3},
		{symbolic.LayoutOptions{Copies: 4, PCBits: 3}, 4, 4},
		{symbolic.LayoutOptions{GlobalCopies: 7, PCBits: 1, Order: symbolic.OrderDeclaration}, 7, 3},
		{symbolic.LayoutOptions{Copies: 5, GlobalCopies: 2}, 5, 5},
	} {
		m := bdd.New(bdd.Config{})
		m.ExtVarNum(5) // someone else's variables first
		l := symbolic.NewLayoutWith(m, p, c.opts)
		want := 2*c.global + 5*c.others + c.opts.PCBits*max(c.opts.Copies, 3)
		if l.NumVars() != want || m.VarNum() != 5+want {
			t.Errorf("%+v: %d variables (manager %d), want %d", c.opts, l.NumVars(), m.VarNum(), want)
		}
		used := map[int]bool{}
		use := func(v int) {
			if v < 5 || used[v] {
				t.Errorf("%+v: variable %d used twice or not the layout's", c.opts, v)
			}
			used[v] = true
		}
		adjacent := func(vars []int) {
			for i := 1; i < len(vars); i++ {
				if m.Level(vars[i]) != m.Level(vars[i-1])+1 {
					t.Errorf("%+v: copies %v not adjacent", c.opts, vars)
				}
			}
		}
		groups := [][]int{}
		for s := 0; s < l.N(); s++ {
			want := c.others
			if l.IsGlobal(s) {
				want = c.global
			}
			if l.Copies(s) != want {
				t.Errorf("%+v: slot %d has %d copies, want %d", c.opts, s, l.Copies(s), want)
			}
			var vars []int
			for k := 0; k < l.Copies(s); k++ {
				vars = append(vars, l.Var(s, symbolic.Copy(k)))
			}
			groups = append(groups, vars)
		}
		for b := 0; b < l.PCBits(); b++ {
			var vars []int
			for k := 0; k < max(c.opts.Copies, 3); k++ {
				vars = append(vars, l.PCVar(b, symbolic.Copy(k)))
			}
			groups = append(groups, vars)
		}
		for _, g := range groups {
			for _, v := range g {
				use(v)
			}
			adjacent(g)
		}
		// Some BDDs over every variable, reordered: blocks stay together.
		r := m.Keep(bdd.True)
		for _, g := range groups {
			r.Set(m.And(r.Node(), m.Xor(m.Ithvar(g[0]), m.Ithvar(g[len(g)-1]))))
		}
		m.Reorder()
		for _, g := range groups {
			adjacent(g)
		}
		r.Release()
		if l.PCBits() > 0 {
			// PC cubes: distinct locations, disjoint cubes.
			if m.And(l.PC(symbolic.Cur, 0), l.PC(symbolic.Cur, 1)) != bdd.False ||
				m.And(l.PC(symbolic.Cur, 1), l.PC(symbolic.Next, 1)) == bdd.False {
				t.Errorf("%+v: pc cubes overlap or exclude each other", c.opts)
			}
		}
	}
	p3 := lower(t, "void main() begin skip; skip; skip; skip; end\n")
	if got := symbolic.PCBitsFor(p3); 1<<got < len(p3.Procs[0].Locations) || 1<<(got-1) >= len(p3.Procs[0].Locations) {
		t.Errorf("PCBitsFor: %d bits for %d locations", got, len(p3.Procs[0].Locations))
	}
}

// TestCompose composes random relations over two globals and a pc bit and
// compares with the composition by enumeration.
func TestCompose(t *testing.T) {
	p := lower(t, "decl a, b;\nvoid main() begin skip; end\n")
	m := bdd.New(bdd.Config{})
	l := symbolic.NewLayoutWith(m, p, symbolic.LayoutOptions{Copies: 4, PCBits: 1})
	set := l.Globals()
	r := rand.New(rand.NewPCG(5, 6))
	state := func(c symbolic.Copy, x int) bdd.Node {
		return m.And(l.Cube(c, []int{0, 1}, []bool{x&1 != 0, x&2 != 0}), l.PC(c, x>>2))
	}
	for i := 0; i < 100; i++ {
		var pairs [2][8][8]bool
		var rels [2]bdd.Node
		for k := range rels {
			rels[k] = bdd.False
			for x := 0; x < 8; x++ {
				for y := 0; y < 8; y++ {
					if r.IntN(4) == 0 {
						pairs[k][x][y] = true
						rels[k] = m.Or(rels[k], m.And(state(symbolic.Cur, x), state(symbolic.Next, y)))
					}
				}
			}
		}
		comp := l.Compose(rels[0], rels[1], set)
		for x := 0; x < 8; x++ {
			for z := 0; z < 8; z++ {
				want := false
				for y := 0; y < 8; y++ {
					want = want || pairs[0][x][y] && pairs[1][y][z]
				}
				got := m.And(comp, m.And(state(symbolic.Cur, x), state(symbolic.Next, z))) != bdd.False
				if got != want {
					t.Fatalf("relations %d: %d -> %d composed %v, want %v", i, x, z, got, want)
				}
			}
		}
	}
}
