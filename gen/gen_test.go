package gen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"boolprog/sema"
	"boolprog/syntax"
)

// parseCheck parses src in the CProver dialect, checks it, and returns the
// file and its printed form.
func parseCheck(t *testing.T, name, src string) (*syntax.File, string, syntax.ErrorList) {
	t.Helper()
	f, err := syntax.ParseFile(name, []byte(src), syntax.CProver)
	if err != nil {
		t.Fatalf("%s: parse: %v\n%s", name, err, numbered(src))
	}
	_, errs, warns := sema.Check(f)
	if len(errs) > 0 {
		t.Fatalf("%s: check: %v\n%s", name, errs, numbered(src))
	}
	var b bytes.Buffer
	if err := syntax.Fprint(&b, f); err != nil {
		t.Fatalf("%s: print: %v", name, err)
	}
	return f, b.String(), warns
}

func numbered(src string) string {
	var b strings.Builder
	for i, l := range strings.Split(src, "\n") {
		fmt.Fprintf(&b, "%4d  %s\n", i+1, l)
	}
	return b.String()
}

func TestRandomValid(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	for seed := int64(0); seed < int64(n); seed++ {
		name := fmt.Sprintf("seed%d.bp", seed)
		src := Random(seed, Options{})
		_, p1, _ := parseCheck(t, name, src)
		_, p2, _ := parseCheck(t, name+"(printed)", p1)
		if p1 != p2 {
			t.Fatalf("%s: print/parse round trip differs:\n--- first\n%s\n--- second\n%s", name, p1, p2)
		}
	}
}
