package gen

import (
	"fmt"
	"testing"

	"boolprog/internal/testflags"
	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// TestRandomLowers checks that the control-flow automata can be built for
// every generated program and for the template.
func TestRandomLowers(t *testing.T) {
	n := testflags.N(100, 200, 1000, 1000)
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

// TestLimitsOptions checks the options for programs at the limits: exactly
// 63 or 64 variables in scope in every procedure, and multi-value
// procedures returning 64 values.
func TestLimitsOptions(t *testing.T) {
	for _, c := range []struct {
		opt     Options
		inScope int // every procedure's variables in scope, or -1
		returns int // the largest number of returned values, at least
	}{
		{Options{Globals: 63, MaxLocals: -1}, 63, 0},
		{Options{Globals: 64, MaxLocals: -1}, 64, 0},
		{Options{Globals: 8, MaxReturns: 64, Procs: 6}, -1, 64},
	} {
		widest := 0
		for seed := int64(1); seed <= 20; seed++ {
			name := fmt.Sprintf("seed%d.bp", seed)
			src := Random(seed, c.opt)
			f, err := syntax.ParseFile(name, []byte(src), syntax.CProver)
			if err != nil {
				t.Fatal(err)
			}
			info, errs, _ := sema.Check(f)
			if len(errs) > 0 {
				t.Fatalf("%+v %s: check: %v", c.opt, name, errs)
			}
			p, err := ir.Lower(f, info, ir.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, proc := range p.Procs {
				if c.inScope >= 0 && p.NumVars(proc) != c.inScope {
					t.Errorf("%+v %s: %d variables in scope in %s, want %d", c.opt, name, p.NumVars(proc), proc.Name, c.inScope)
				}
				widest = max(widest, proc.Returns)
			}
		}
		if widest < c.returns {
			t.Errorf("%+v: the widest procedure returns %d values, want %d", c.opt, widest, c.returns)
		}
	}
}
