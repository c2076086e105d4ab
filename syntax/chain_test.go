package syntax

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"boolprog/internal/testflags"
)

// exprHeight returns the height of x's tree in nodes, without recursion.
func exprHeight(x Expr) int {
	type item struct {
		x Expr
		d int
	}
	h := 0
	stack := []item{{x, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		h = max(h, it.d)
		switch x := it.x.(type) {
		case *Binary:
			stack = append(stack, item{x.X, it.d + 1}, item{x.Y, it.d + 1})
		case *Unary:
			stack = append(stack, item{x.X, it.d + 1})
		case *Schoose:
			stack = append(stack, item{x.PosCond, it.d + 1}, item{x.NegCond, it.d + 1})
		}
	}
	return h
}

func chain(op string, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(" " + op + " ")
		}
		fmt.Fprintf(&b, "v%d", i)
	}
	return b.String()
}

func rhs(t testing.TB, src string, d Dialect) Expr {
	t.Helper()
	f, err := ParseFile("x.bp", []byte("void main() begin x := "+src+"; end"), d)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return f.Procs[0].Body[0].(*AssignStmt).Rhs[0]
}

// TestBalancedChains checks that a chain of one associative operator
// becomes the balanced tree in both dialects, prints as the flat chain, and
// round-trips; `=>` chains stay chains.
func TestBalancedChains(t *testing.T) {
	for _, op := range []string{"&", "|", "^", "=", "!="} {
		for n := 2; n <= 17; n++ {
			src := chain(op, n)
			x := rhs(t, src, CProver)
			if y := rhs(t, src, Getafix); ExprString(x) != ExprString(y) || exprHeight(x) != exprHeight(y) {
				t.Errorf("%s: dialects differ", src)
			}
			want := 1
			for 1<<(want-1) < n {
				want++
			}
			if h := exprHeight(x); h != want {
				t.Errorf("%s: height %d, want %d", src, h, want)
			}
			if got := ExprString(x); got != src {
				t.Errorf("%s printed as %s", src, got)
			}
			roundTrip(t, "x.bp", []byte("void main() begin x := "+src+"; end"), CProver)
		}
	}
	// The first ⌈n/2⌉ operands go left.
	x := rhs(t, "a & b & c", CProver).(*Binary)
	if l, ok := x.X.(*Binary); !ok || ExprString(l) != "a & b" {
		t.Errorf("a & b & c: left is %s", ExprString(x.X))
	}
	if got := ExprString(rhs(t, chain("=>", 4), CProver)); got != "v0 => (v1 => (v2 => v3))" {
		t.Errorf("=> chain (cprover) printed as %s", got)
	}
	if got := ExprString(rhs(t, chain("=>", 4), Getafix)); got != "((v0 => v1) => v2) => v3" {
		t.Errorf("=> chain (getafix) printed as %s", got)
	}
}

// canonical returns the canonical form of x, the tree the parser builds
// from any grouping of it: each maximal run of one associative operator
// replaced by the balanced tree of its operands (the first ⌈n/2⌉ on the
// left). It is the test's own, recursive, reference definition.
func canonical(x Expr) Expr {
	switch x := x.(type) {
	case *Unary:
		return &Unary{Op: x.Op, X: canonical(x.X)}
	case *Schoose:
		return &Schoose{PosCond: canonical(x.PosCond), NegCond: canonical(x.NegCond)}
	case *Binary:
		if !associative(x.Op) {
			return &Binary{X: canonical(x.X), Op: x.Op, Y: canonical(x.Y)}
		}
		var leaves []Expr
		var collect func(e Expr)
		collect = func(e Expr) {
			if b, ok := e.(*Binary); ok && b.Op == x.Op {
				collect(b.X)
				collect(b.Y)
				return
			}
			leaves = append(leaves, canonical(e))
		}
		collect(x)
		var build func(ls []Expr) Expr
		build = func(ls []Expr) Expr {
			if len(ls) == 1 {
				return ls[0]
			}
			m := (len(ls) + 1) / 2
			return &Binary{X: build(ls[:m]), Op: x.Op, Y: build(ls[m:])}
		}
		return build(leaves)
	}
	return x
}

// eval evaluates x (without `*` or schoose) under env.
func eval(x Expr, env map[string]bool) bool {
	switch x := x.(type) {
	case *Const:
		return x.Value
	case *VarRef:
		return env[x.Name.Name]
	case *Unary:
		return !eval(x.X, env)
	case *Binary:
		a, b := eval(x.X, env), eval(x.Y, env)
		switch x.Op {
		case And:
			return a && b
		case Or:
			return a || b
		case Xor, Neq:
			return a != b
		case Eq:
			return a == b
		case Implies:
			return !a || b
		}
	}
	panic(fmt.Sprintf("eval: %T", x))
}

// checkPrinted checks that the printed text of a hand-built tree x reads
// back, in both dialects, as the canonical form of x, and means what x
// means for every value of the variables a..d.
func checkPrinted(t *testing.T, x Expr) string {
	t.Helper()
	got := ExprString(x)
	for _, d := range []Dialect{CProver, Getafix} {
		back := rhs(t, got, d)
		if diff := diffValue("x", reflect.ValueOf(canonical(x)), reflect.ValueOf(back)); diff != "" {
			t.Errorf("%s (%v) does not parse to the canonical form: %s", got, d, diff)
		}
		for m := range 16 {
			env := map[string]bool{"a": m&1 != 0, "b": m&2 != 0, "c": m&4 != 0, "d": m&8 != 0}
			if eval(x, env) != eval(back, env) {
				t.Errorf("%s (%v) means something else than the tree printed, at %v", got, d, env)
				break
			}
		}
	}
	return got
}

// TestPrintUnbalanced checks trees of shapes the parser does not build (as
// a program transformation may make them): a run of one associative
// operator prints as a flat chain whatever its shape, and the text parses
// to the canonical form of the tree, which means the same.
func TestPrintUnbalanced(t *testing.T) {
	v := func(name string) Expr { return &VarRef{Name: &Ident{Name: name}} }
	and := func(x, y Expr) Expr { return &Binary{X: x, Op: And, Y: y} }
	bin := func(x Expr, op Op, y Expr) Expr { return &Binary{X: x, Op: op, Y: y} }
	tests := []struct {
		x    Expr
		want string
	}{
		{and(and(and(v("a"), v("b")), v("c")), v("d")), "a & b & c & d"},
		{and(v("a"), and(v("b"), and(v("c"), v("d")))), "a & b & c & d"},
		{and(and(v("a"), v("b")), and(v("c"), v("d"))), "a & b & c & d"},
		{and(v("a"), and(v("b"), v("c"))), "a & b & c"},
		{bin(and(v("a"), v("b")), Or, and(v("c"), and(v("d"), v("a")))), "a & b | c & d & a"},
		{bin(bin(v("a"), Eq, v("b")), Neq, v("c")), "(a = b) != c"},
		{bin(v("a"), Eq, bin(v("b"), Neq, bin(v("c"), Neq, v("d")))), "a = (b != c != d)"},
		{bin(bin(v("a"), Implies, v("b")), Implies, v("c")), "(a => b) => c"},
		{bin(v("a"), Implies, bin(v("b"), Implies, v("c"))), "a => (b => c)"},
		{&Unary{Op: Not, X: and(and(v("a"), v("b")), v("c"))}, "!(a & b & c)"},
	}
	for _, tt := range tests {
		if got := checkPrinted(t, tt.x); got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
		}
	}
}

// TestPrintRandomTrees checks the printer's promise on random hand-built
// trees of every shape: the text parses to the tree's canonical form, with
// the same meaning, in both dialects.
func TestPrintRandomTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ops := []Op{And, Or, Xor, Eq, Neq, Implies}
	var gen func(depth int) Expr
	gen = func(depth int) Expr {
		switch r := rng.IntN(8); {
		case depth == 0 || r == 0:
			return &VarRef{Name: &Ident{Name: string(rune('a' + rng.IntN(4)))}}
		case r == 1:
			return &Unary{Op: Not, X: gen(depth - 1)}
		case r < 5:
			// Favour long runs of one operator, of any shape.
			op := ops[rng.IntN(3)]
			return &Binary{X: gen(depth - 1), Op: op, Y: &Binary{X: gen(depth - 1), Op: op, Y: gen(depth - 1)}}
		}
		return &Binary{X: gen(depth - 1), Op: ops[rng.IntN(len(ops))], Y: gen(depth - 1)}
	}
	for range 2000 {
		checkPrinted(t, gen(5))
	}
}

// TestParenthesisedRuns checks that parentheses around a run of the
// enclosing run's own operator are not recorded: every grouping of a chain
// gives the same balanced tree, in both dialects, and prints flat.
func TestParenthesisedRuns(t *testing.T) {
	tests := []struct {
		srcs []string
		want string
	}{
		{[]string{"a & b & c & d", "((a & b) & c) & d", "a & (b & c) & d", "(a & (b & (c & d)))", "((a) & ((b & c)) & (d))"}, "a & b & c & d"},
		{[]string{"a = b = c", "(a = b) = c", "a = (b = c)"}, "a = b = c"},
		{[]string{"a != b != c", "(a != b) != c"}, "a != b != c"},
		{[]string{"a ^ b ^ c", "a ^ (b ^ c)"}, "a ^ b ^ c"},
		{[]string{"(a | b) | (c & d | e)", "a | b | c & d | e"}, "a | b | c & d | e"},
		// c2bp's fully parenthesised left-deep chains
		// (satabs-boppo/Deep1/main.bp, line 11).
		{[]string{"((((!((l0_2)&(!('l0_3))))&(!((l0_1)&(!('l0_2)))))&(!((l0_0)&(!('l0_1)))))&(!((l0_3)&(!('l0_4)))))"},
			"!(l0_2 & !'l0_3) & !(l0_1 & !'l0_2) & !(l0_0 & !'l0_1) & !(l0_3 & !'l0_4)"},
		{[]string{"((((T & x & x) & x) & x) & x) & x"}, "T & x & x & x & x & x & x"},
		// Only the same operator merges.
		{[]string{"(a = b) != c"}, "(a = b) != c"},
		{[]string{"!(a & b) & c"}, "!(a & b) & c"},
		{[]string{"schoose[(a & b) & c, a] & (d)"}, "schoose[a & b & c, a] & d"},
	}
	for _, tt := range tests {
		first := rhs(t, tt.srcs[0], CProver)
		for _, src := range tt.srcs {
			for _, d := range []Dialect{CProver, Getafix} {
				x := rhs(t, src, d)
				if got := ExprString(x); got != tt.want {
					t.Errorf("%s (%v) printed as %s, want %s", src, d, got, tt.want)
				}
				if diff := diffValue("x", reflect.ValueOf(first), reflect.ValueOf(x)); diff != "" {
					t.Errorf("%s (%v) and %s give different trees: %s", src, d, tt.srcs[0], diff)
				}
				if diff := diffValue("x", reflect.ValueOf(canonical(x)), reflect.ValueOf(x)); diff != "" {
					t.Errorf("%s (%v) is not in canonical form: %s", src, d, diff)
				}
			}
		}
	}
}

// TestNestedParenthesisedRuns parses left-deep parenthesised chains: 990
// levels, each adding 200 terms, become one balanced run (height 19), and
// the parentheses count toward MaxNesting as they did before merging (one
// level each).
func TestNestedParenthesisedRuns(t *testing.T) {
	const levels, width = 990, 200
	x := rhs(t, nestedRun(levels, width), CProver)
	if h := exprHeight(x); h != 19 {
		t.Errorf("height %d, want 19", h)
	}
	if got := len(runOperands(x.(*Binary))); got != (levels+1)*width+1 {
		t.Errorf("%d operands, want %d", got, (levels+1)*width+1)
	}
	for _, tt := range []struct {
		levels int
		ok     bool
	}{{998, true}, {999, false}, {1000, false}} {
		_, err := ParseFile("x.bp", []byte("void main() begin x := "+nestedRun(tt.levels, 1)+"; end"), Getafix)
		if tt.ok != (err == nil) {
			t.Errorf("%d levels of parentheses: %v", tt.levels, err)
		}
	}
}

// nestedRun returns `((v & v ...) & v ...) & v ...`: levels pairs of
// parentheses, each closing group followed by width more terms.
func nestedRun(levels, width int) string {
	var b strings.Builder
	b.WriteString(strings.Repeat("(", levels) + "v")
	for i := range levels + 1 {
		if i > 0 {
			b.WriteString(")")
		}
		for range width {
			b.WriteString(" & v")
		}
	}
	return b.String()
}

// TestHugeChain parses and prints a 2M-term `|` chain (10 MB; 200,000
// terms by default, none with -short, 2M with -long): a tree of
// logarithmic height, and no stack overflow anywhere (parser, printer,
// Inspect). That such chains round-trip is TestBalancedChains' business;
// that the work is linear, BenchmarkChain's.
func TestHugeChain(t *testing.T) {
	n := testflags.N(0, 200_000, 2_000_000, 2_000_000)
	if n == 0 {
		t.Skip("10 MB input")
	}
	var src bytes.Buffer
	src.WriteString("decl g;\nvoid main() begin\n  g := g")
	for range n - 1 {
		src.WriteString(" | g")
	}
	src.WriteString(";\nend\n")
	f, err := ParseFile("big.bp", src.Bytes(), CProver)
	if err != nil {
		t.Fatal(err)
	}
	x := f.Procs[0].Body[0].(*AssignStmt).Rhs[0]
	// A balanced tree: ceil(log2 n) levels of operators over the leaves.
	if h, want := exprHeight(x), bits.Len(uint(n-1))+1; h != want {
		t.Errorf("height %d, want %d", h, want)
	}
	refs := 0
	Inspect(f, func(n Node) bool {
		if _, ok := n.(*VarRef); ok {
			refs++
		}
		return true
	})
	if refs != n {
		t.Errorf("Inspect saw %d references, want %d", refs, n)
	}
	var out bytes.Buffer
	if err := Fprint(&out, f); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out.Bytes(), []byte("g := g | g | g")) || bytes.Contains(out.Bytes(), []byte("(g")) {
		t.Errorf("printed chain is not flat")
	}
	if out.Len() < src.Len()-10 {
		t.Errorf("printed %d bytes of a %d-byte program", out.Len(), src.Len())
	}
}

// TestElsifChains checks that a chain of elsif branches is not nesting:
// 1,001 and 100,000 branches parse (keeping the Else/Elsif shape), print
// and walk.
func TestElsifChains(t *testing.T) {
	for _, n := range []int{1, 1001, 100_000} {
		var src strings.Builder
		src.WriteString("decl g;\nvoid main() begin\n  if (g) then skip;\n")
		for range n {
			src.WriteString("  elsif (!g) then g := T;\n")
		}
		src.WriteString("  else skip;\n  fi\nend\n")
		f, err := ParseFile("x.bp", []byte(src.String()), CProver)
		if err != nil {
			t.Fatalf("%d elsifs: %v", n, err)
		}
		s := f.Procs[0].Body[0].(*IfStmt)
		fi := s.Fi
		branches := 0
		for len(s.Else) == 1 {
			in, ok := s.Else[0].(*IfStmt)
			if !ok || !in.Elsif {
				break
			}
			if in.Fi != fi {
				t.Fatalf("elsif %d: fi at %v, want %v", branches, in.Fi, fi)
			}
			s = in
			branches++
		}
		if branches != n || len(s.Else) != 1 || !s.ElsePos.IsValid() {
			t.Fatalf("%d elsifs: found %d and else %v", n, branches, s.Else)
		}
		ifs := 0
		Inspect(f, func(n Node) bool {
			if _, ok := n.(*IfStmt); ok {
				ifs++
			}
			return true
		})
		if ifs != n+1 {
			t.Errorf("Inspect saw %d ifs, want %d", ifs, n+1)
		}
		if n <= 1001 {
			roundTrip(t, "x.bp", []byte(src.String()), CProver)
			continue
		}
		out, err := Format("x.bp", []byte(src.String()), CProver)
		if err != nil {
			t.Fatal(err)
		}
		if c := bytes.Count(out, []byte("elsif (!g) then")); c != n {
			t.Errorf("printed %d elsifs, want %d", c, n)
		}
	}
}

// TestNestingLimit checks what counts toward MaxNesting in expressions:
// implications and changes of operator do, runs of one operator do not.
func TestNestingLimit(t *testing.T) {
	tests := []struct {
		name string
		src  string
		d    Dialect
		ok   bool
	}{
		{"999 implications", chain("=>", 1000), CProver, true},
		{"1001 implications", chain("=>", 1002), CProver, false},
		{"1001 implications, getafix", chain("=>", 1002), Getafix, false},
		{"100000 alternations of = and !=", strings.Repeat("a = b != ", 50000) + "a", CProver, false},
		{"100000 alternations, getafix", strings.Repeat("a = b != ", 50000) + "a", Getafix, false},
		{"200000 ands", chain("&", 200000), Getafix, true},
		{"&-| alternation", strings.Repeat("a & b | ", 100000) + "a", CProver, true},
	}
	for _, tt := range tests {
		_, err := ParseFile("x.bp", []byte("void main() begin x := "+tt.src+"; end"), tt.d)
		if tt.ok && err != nil {
			t.Errorf("%s: %v", tt.name, err)
		}
		if !tt.ok && (err == nil || !strings.Contains(err.Error(), "program nested too deeply (more than 1000 levels)")) {
			t.Errorf("%s: error %v, want nested too deeply", tt.name, err)
		}
	}
}

// BenchmarkNestedRuns parses and prints 990 levels of parenthesised `&`
// runs, each adding 1,000 terms (about 1M terms in all): merging each level into
// the next must not copy it, so the time per term stays that of a flat
// chain.
func BenchmarkNestedRuns(b *testing.B) {
	src := []byte("void main() begin g := " + nestedRun(990, 1000) + "; end\n")
	b.SetBytes(int64(len(src)))
	for range b.N {
		f, err := ParseFile("x.bp", src, CProver)
		if err != nil {
			b.Fatal(err)
		}
		if err := Fprint(&bytes.Buffer{}, f); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/991_001, "ns/term")
}

// BenchmarkChain parses and prints a flat `|` chain of 100k and 1M terms:
// the time per term must stay flat (linear parsing and printing).
func BenchmarkChain(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		src := []byte("void main() begin g := " + chain("|", n) + "; end\n")
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for range b.N {
				f, err := ParseFile("x.bp", src, CProver)
				if err != nil {
					b.Fatal(err)
				}
				if err := Fprint(&bytes.Buffer{}, f); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/term")
		})
	}
}
