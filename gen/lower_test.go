package gen

import (
	"fmt"
	"testing"

	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// TestRandomLowers checks that the control-flow automata can be built for
// every generated program and for the template.
func TestRandomLowers(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	for seed := int64(0); seed <= int64(n); seed++ {
		name := fmt.Sprintf("seed%d.bp", seed)
		src := Random(seed, Options{})
		if seed == int64(n) {
			name, src = "T(5).bp", BebopTemplateWith(5, UnreachableError)
		}
		f, err := syntax.ParseFile(name, []byte(src), syntax.CProver)
		if err != nil {
			t.Fatal(err)
		}
		info, errs, _ := sema.Check(f)
		if len(errs) > 0 {
			t.Fatalf("%s: check: %v\n%s", name, errs, numbered(src))
		}
		if _, err := ir.Lower(f, info, ir.Options{}); err != nil {
			t.Fatalf("%s: lower: %v\n%s", name, err, numbered(src))
		}
	}
}
