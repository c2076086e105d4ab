package main

import (
	"fmt"
	"strings"
	"testing"

	"boolprog/sema"
	"boolprog/syntax"
)

// c2bpStyle returns a program of about size bytes in the style of c2bp
// output: several labels per statement, nondeterministic gotos, schoose,
// constrain, enforce and many small procedures.
func c2bpStyle(size int) []byte {
	var b strings.Builder
	b.WriteString("decl {p==q}, {*x>0}, g0, g1, g2, g3;\n")
	for p := 0; b.Len() < size; p++ {
		fmt.Fprintf(&b, "bool<2> proc%d(a, b) begin\n  decl l0, l1, l2;\n  enforce !(l0 & l1);\n", p)
		for s := 0; s < 40; s++ {
			fmt.Fprintf(&b, "  bp_stmt_%d_%d: c2bp_%d_%d: SLIC_%d_%d: L%d_%d: LL%d_%d: ", p, s, p, s, p, s, p, s, p, s)
			switch s % 5 {
			case 0:
				fmt.Fprintf(&b, "l0, l1 := schoose[a & {p==q}, !b], * constrain !('l0 & 'l1);\n")
			case 1:
				fmt.Fprintf(&b, "goto L%d_%d, L%d_%d;\n", p, (s+1)%40, p, (s+3)%40)
			case 2:
				fmt.Fprintf(&b, "if ({*x>0} = g0) then g1 := !g1 | (g2 ^ a); elsif * then skip; else assume(b => l2); fi\n")
			case 3:
				if p > 0 {
					fmt.Fprintf(&b, "l2, _ := proc%d(l0, g3);\n", p-1)
				} else {
					b.WriteString("dead l2;\n")
				}
			case 4:
				b.WriteString("assert(!(g0 & g1 & g2 & g3 & l0 & l1 & l2));\n")
			}
		}
		b.WriteString("  return l0, l1;\nend\n")
	}
	b.WriteString("void main() begin skip; end\n")
	return []byte(b.String())
}

// BenchmarkLoad400KB measures parsing plus checking of a 400 KB
// machine-generated file (the target: well under a second).
func BenchmarkLoad400KB(b *testing.B) {
	src := c2bpStyle(400 << 10)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f, err := syntax.ParseFile("big.bp", src, syntax.CProver)
		if err != nil {
			b.Fatal(err)
		}
		if _, errs, _ := sema.Check(f); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// TestC2bpStyleIsValid keeps the benchmark honest: its input must be a
// correct program, or the benchmark would measure error paths.
func TestC2bpStyleIsValid(t *testing.T) {
	f, err := syntax.ParseFile("big.bp", c2bpStyle(20<<10), syntax.CProver)
	if err != nil {
		t.Fatal(err)
	}
	if _, errs, _ := sema.Check(f); len(errs) > 0 {
		t.Fatal(errs)
	}
}
