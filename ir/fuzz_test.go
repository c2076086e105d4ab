package ir_test

import (
	"os"
	"path/filepath"
	"testing"

	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// FuzzLower checks the contract between sema and ir on arbitrary input:
// whatever parses and passes sema.Check lowers without an error (and so
// passes Verify), and nothing panics, with or without semantic errors.
func FuzzLower(f *testing.F) {
	for _, seed := range []string{
		"decl g := T; decl a, b := *, F;\nvoid main() begin decl l := g; 0: a, a := l, b; 2: goto 3, 0; 3: decl m := a; SLIC_ERROR: skip; SLIC_ERROR: skip; end",
		"void main() begin if a then skip; elsif b then L: skip; else goto L; fi end",
		"decl g;\nbool<2> f(a) begin enforce a | g; return a, *; end\nvoid main() begin decl x; x, _ := f(g); _ := x; ASYNC_1: f(T); end",
		"decl g := F;\nvoid thread1() begin atomic_begin; g := T; atomic_end; end\nvoid main() begin start_thread goto L; L: end_thread; end",
		"void main() begin decl x; x := * constrain 'x != 'y; constrain('x); dead x; end",
	} {
		f.Add([]byte(seed))
	}
	for _, pattern := range []string{"../../shared/benchmarks/*/*.bp", "../../shared/benchmarks/*/*/*.bp", "../examples/*.bp"} {
		files, _ := filepath.Glob(pattern)
		for _, path := range files {
			if src, err := os.ReadFile(path); err == nil && len(src) < 8<<10 {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := syntax.ParseFile("fuzz.bp", src, syntax.CProver)
		if err != nil {
			return
		}
		info, errs, _ := sema.Check(file)
		p, err := ir.Lower(file, info, ir.Options{})
		if len(errs) > 0 {
			if err == nil {
				t.Fatalf("Lower accepted a file with semantic errors %v", errs)
			}
			return
		}
		if err != nil {
			t.Fatalf("sema accepts, Lower refuses: %v\n%s", err, src)
		}
		if err := ir.Verify(p); err != nil {
			t.Fatal(err)
		}
	})
}
