package syntax

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
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

// TestPrintUnbalanced checks that trees of shapes the parser does not
// build (as a program transformation may make them) print with the
// parentheses that give back exactly that tree.
func TestPrintUnbalanced(t *testing.T) {
	v := func(name string) Expr { return &VarRef{Name: &Ident{Name: name}} }
	and := func(x, y Expr) Expr { return &Binary{X: x, Op: And, Y: y} }
	tests := []struct {
		x    Expr
		want string
	}{
		{and(and(and(v("a"), v("b")), v("c")), v("d")), "(a & b & c) & d"},
		{and(v("a"), and(v("b"), and(v("c"), v("d")))), "a & (b & (c & d))"},
		{and(and(v("a"), v("b")), and(v("c"), v("d"))), "a & b & c & d"},
		{and(v("a"), and(v("b"), v("c"))), "a & (b & c)"},
		{&Binary{X: and(v("a"), v("b")), Op: Or, Y: and(v("c"), and(v("d"), v("e")))}, "a & b | c & (d & e)"},
	}
	for _, tt := range tests {
		got := ExprString(tt.x)
		if got != tt.want {
			t.Errorf("got %s, want %s", got, tt.want)
			continue
		}
		for _, d := range []Dialect{CProver, Getafix} {
			back := rhs(t, got, d)
			if diff := diffValue("x", reflect.ValueOf(tt.x), reflect.ValueOf(back)); diff != "" {
				t.Errorf("%s (%v) parses to another tree: %s", got, d, diff)
			}
		}
	}
}

// TestHugeChain parses and prints a 2M-term `|` chain (10 MB): a tree of
// logarithmic height, and no stack overflow anywhere (parser, printer,
// Inspect). That such chains round-trip is TestBalancedChains' business;
// that the work is linear, BenchmarkChain's.
func TestHugeChain(t *testing.T) {
	if testing.Short() {
		t.Skip("10 MB input")
	}
	const n = 2_000_000
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
	if h := exprHeight(x); h != 22 {
		t.Errorf("height %d, want 22", h)
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
