package sema

import (
	"bytes"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/syntax"
)

var update = flag.Bool("update", false, "rewrite testdata/benchmarks.golden")

// benchRoot is /work/shared/benchmarks, seen from the package directory.
const benchRoot = "../../shared/benchmarks"

// TestBenchmarks checks every public benchmark: none may have an error, and
// the warnings must be exactly those in testdata/benchmarks.golden, each of
// which was judged real (an unused variable, a labelled statement no path
// reaches, a primed variable the assignment leaves alone).
//
// All files are parsed in the CPROVER dialect. The Getafix programs were
// written for the other precedence, so the test also parses them as Getafix
// and insists that both trees print alike, i.e. that the choice of dialect
// does not matter for them.
func TestBenchmarks(t *testing.T) {
	if _, err := os.Stat(benchRoot); err != nil {
		t.Skipf("benchmarks not available (the repository must sit beside shared/, see README): %v", err)
	}
	var report bytes.Buffer
	n := 0
	err := filepath.WalkDir(benchRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".bp" {
			return err
		}
		n++
		rel, _ := filepath.Rel(benchRoot, path)
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := syntax.ParseFile(rel, src, syntax.CProver)
		if err != nil {
			t.Errorf("%s: does not parse: %v", rel, err)
			return nil
		}
		if strings.HasPrefix(rel, "getafix/") {
			sameInBothDialects(t, rel, src, f)
		}
		_, errs, warns := Check(f)
		for _, e := range errs {
			t.Errorf("unexpected error: %v", e)
		}
		for _, w := range warns {
			fmt.Fprintln(&report, w)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no .bp files under %s", benchRoot)
	}
	golden := filepath.Join("testdata", "benchmarks.golden")
	if *update {
		if err := os.WriteFile(golden, report.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := report.String(); got != string(want) {
		t.Errorf("benchmark warnings differ from %s (go test -update to accept):\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

func sameInBothDialects(t *testing.T, name string, src []byte, cprover *syntax.File) {
	t.Helper()
	getafix, err := syntax.ParseFile(name, src, syntax.Getafix)
	if err != nil {
		t.Errorf("%s: does not parse as getafix: %v", name, err)
		return
	}
	var a, b bytes.Buffer
	if err := syntax.Fprint(&a, cprover); err != nil {
		t.Fatal(err)
	}
	if err := syntax.Fprint(&b, getafix); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("%s: the cprover and getafix precedences give different programs", name)
	}
}

// BenchmarkCheck checks a generated program of the shape of the Bebop
// paper's template T(N): many procedures calling each other, each with
// locals, labels, gotos and a constrained assignment.
func BenchmarkCheck(b *testing.B) {
	src := generate(2000)
	f, err := syntax.ParseFile("gen.bp", src, syntax.CProver)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, errs, _ := Check(f); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}

// generate writes a correct program with n procedures p0..p{n-1}; p_i calls
// p_{i+1}, so the program is deep as well as wide.
func generate(n int) []byte {
	var w bytes.Buffer
	fmt.Fprintf(&w, "decl g, h;\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&w, "bool<2> p%d(a, b) begin\n  decl x, y, z;\n", i)
		fmt.Fprintf(&w, "L0: x, y := a & g, b | h constrain 'x => !'y;\n")
		fmt.Fprintf(&w, "L1: if x then goto L3; fi\n")
		if i+1 < n {
			fmt.Fprintf(&w, "L2: y, z := p%d(x, !y);\n", i+1)
		} else {
			fmt.Fprintf(&w, "L2: y, z := schoose[x, y], *;\n")
		}
		fmt.Fprintf(&w, "  while z do g, h := h, g; z := *; od\n")
		fmt.Fprintf(&w, "L3: assert(x | y | z);\n  return y, z;\nend\n")
	}
	fmt.Fprintf(&w, "void main() begin decl r, s; r, s := p0(T, F); SLIC_ERROR: skip; end\n")
	return w.Bytes()
}
