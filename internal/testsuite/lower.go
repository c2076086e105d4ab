package testsuite

import (
	"os"
	"testing"

	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// Lower parses src (CPROVER dialect), checks it and lowers it with the
// given target label, failing the test on any error.
func Lower(t testing.TB, name, src, target string) *ir.Program {
	t.Helper()
	return LowerDialect(t, name, src, syntax.CProver, target)
}

// LowerDialect is Lower in the given dialect (syntax.Getafix for the
// Getafix benchmarks and concurrent examples).
func LowerDialect(t testing.TB, name, src string, d syntax.Dialect, target string) *ir.Program {
	t.Helper()
	f, err := syntax.ParseFile(name, []byte(src), d)
	if err != nil {
		t.Fatalf("parse %s: %v", name, err)
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		t.Fatalf("check %s: %v", name, errs)
	}
	p, err := ir.Lower(f, info, ir.Options{Target: target})
	if err != nil {
		t.Fatalf("lower %s: %v", name, err)
	}
	return p
}

// LowerFile is Lower on the contents of a file.
func LowerFile(t testing.TB, path, target string) *ir.Program {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Lower(t, path, string(src), target)
}
