package ir_test

import (
	"fmt"
	"testing"

	"boolprog/gen"
	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// BenchmarkLower lowers the Bebop template T(N) (Build and Verify
// included); the time per N should grow linearly.
func BenchmarkLower(b *testing.B) {
	for _, n := range []int{100, 800, 3200} {
		src := []byte(gen.BebopTemplate(n))
		f, err := syntax.ParseFile("T.bp", src, syntax.CProver)
		if err != nil {
			b.Fatal(err)
		}
		info, errs, _ := sema.Check(f)
		if len(errs) > 0 {
			b.Fatal(errs)
		}
		b.Run(fmt.Sprintf("T(%d)", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for range b.N {
				if _, err := ir.Lower(f, info, ir.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
