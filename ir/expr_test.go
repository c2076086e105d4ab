package ir_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/syntax"
)

// isNondetRec is the definition of IsNondet, written recursively.
func isNondetRec(e ir.Expr) bool {
	switch e := e.(type) {
	case *ir.Nondet, *ir.Schoose:
		return true
	case *ir.Not:
		return isNondetRec(e.X)
	case *ir.Bin:
		return isNondetRec(e.X) || isNondetRec(e.Y)
	}
	return false
}

func randExpr(r *rand.Rand, depth int) ir.Expr {
	if depth == 0 || r.IntN(4) == 0 {
		switch r.IntN(6) {
		case 0:
			return &ir.Const{Value: r.IntN(2) == 0}
		case 1:
			return &ir.Nondet{}
		default:
			return &ir.Var{VarRef: ir.VarRef{Global: r.IntN(2) == 0, Index: r.IntN(3)}}
		}
	}
	switch r.IntN(8) {
	case 0:
		return &ir.Not{X: randExpr(r, depth-1)}
	case 1:
		return &ir.Schoose{Pos: randExpr(r, depth-1), Neg: randExpr(r, depth-1)}
	}
	return &ir.Bin{Op: syntax.And, X: randExpr(r, depth-1), Y: randExpr(r, depth-1)}
}

// nodes lists the nodes of e in preorder.
func nodes(e ir.Expr) []ir.Expr {
	out := []ir.Expr{e}
	switch e := e.(type) {
	case *ir.Not:
		out = append(out, nodes(e.X)...)
	case *ir.Bin:
		out = append(out, nodes(e.X)...)
		out = append(out, nodes(e.Y)...)
	case *ir.Schoose:
		out = append(out, nodes(e.Pos)...)
		out = append(out, nodes(e.Neg)...)
	}
	return out
}

// TestIsNondet compares IsNondet and a NondetCache (asked top-down,
// bottom-up and in random order) with the definition.
func TestIsNondet(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 2000; i++ {
		e := randExpr(r, 6)
		ns := nodes(e)
		var down, up, shuffled ir.NondetCache
		perm := r.Perm(len(ns))
		for j, n := range ns {
			want := isNondetRec(n)
			if got := ir.IsNondet(n); got != want {
				t.Fatalf("IsNondet = %v, want %v", got, want)
			}
			if got := down.IsNondet(n); got != want {
				t.Fatalf("top-down cache: %v, want %v", got, want)
			}
			if m := ns[len(ns)-1-j]; up.IsNondet(m) != isNondetRec(m) {
				t.Fatalf("bottom-up cache wrong")
			}
			if m := ns[perm[j]]; shuffled.IsNondet(m) != isNondetRec(m) {
				t.Fatalf("random-order cache wrong")
			}
		}
	}
}

// chain returns x1 & x2 & ... & xn as one left-deep chain (the worst
// shape, deeper than the parser builds), with a Nondet at the far end if
// nondet.
func chain(n int, nondet bool) ir.Expr {
	var e ir.Expr = &ir.Var{VarRef: ir.VarRef{Global: true}}
	if nondet {
		e = &ir.Nondet{}
	}
	for i := 1; i < n; i++ {
		e = &ir.Bin{Op: syntax.And, X: e, Y: &ir.Var{VarRef: ir.VarRef{Global: true}}}
	}
	return e
}

// TestDeepExpressions asks about every node of a 200,000-deep chain: with
// a NondetCache the total work is linear (asking IsNondet per node would be
// quadratic, 2·10¹⁰ steps), and nothing recurses on the depth.
func TestDeepExpressions(t *testing.T) {
	const n = 200000
	for _, nondet := range []bool{false, true} {
		e := chain(n, nondet)
		if ir.IsNondet(e) != nondet {
			t.Errorf("IsNondet of the chain is %v", !nondet)
		}
		var c ir.NondetCache
		count := 0
		for x := e; ; {
			if c.IsNondet(x) != nondet {
				t.Fatalf("cache wrong at depth %d", count)
			}
			count++
			b, ok := x.(*ir.Bin)
			if !ok {
				break
			}
			x = b.X
		}
		vars := 0
		ir.Vars(e, func(*ir.Var) { vars++ })
		if want := n - 1; nondet && vars != want || !nondet && vars != n {
			t.Errorf("Vars visited %d", vars)
		}
	}
}

func BenchmarkNondetCacheChain(b *testing.B) {
	for _, n := range []int{32768, 131072} {
		e := chain(n, false)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				var c ir.NondetCache
				for x := e; ; {
					c.IsNondet(x)
					bin, ok := x.(*ir.Bin)
					if !ok {
						break
					}
					x = bin.X
				}
			}
		})
	}
}

func TestReadsWrites(t *testing.T) {
	p := testsuite.Lower(t, "rw.bp", `decl g, h;
bool<2> f(a) begin return a, g; end
void main() begin
  decl x, y;
  x, g := y & h, * constrain 'x | 'h | 'y;
  x, _ := f(y);
  if (x = g) then skip; fi
  start_thread f(h);
end
`, "")
	m := p.Proc("main")
	tests := []struct {
		edge          int
		reads, writes string
	}{
		{0, "y h", "x g"},
		{1, "y", "x"},
		{2, "x g", ""},
		{5, "h", ""},
	}
	name := func(refs []ir.VarRef) string {
		var s []string
		for _, r := range refs {
			s = append(s, p.VarName(m, r))
		}
		return joinSpace(s)
	}
	for _, tt := range tests {
		op := m.Edges[tt.edge].Op
		if got := name(ir.Reads(op)); got != tt.reads {
			t.Errorf("%s: reads %q, want %q", p.OpString(m, op), got, tt.reads)
		}
		if got := name(ir.Writes(op)); got != tt.writes {
			t.Errorf("%s: writes %q, want %q", p.OpString(m, op), got, tt.writes)
		}
	}
	f := p.Proc("f")
	if got := ir.Reads(f.Edges[0].Op); !slices.Equal(got, []ir.VarRef{{Index: 0}, {Global: true, Index: 0}}) {
		t.Errorf("return reads %v", got)
	}
}

func joinSpace(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " "
		}
		out += x
	}
	return out
}
