package dataflow_test

import (
	"fmt"
	"strings"

	"boolprog/dataflow"
	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// Possibly-uninitialised variables of a small program: f initialises the
// global g on one branch only, and main's local a survives the call (the
// merge function of the extended WPDS restores the caller's frame).
func ExamplePossiblyUninitialised() {
	src := `
decl g;
void main()
begin
  decl a, b;
  a := T;
  call f();
  b := a;
  assert(b | g);
end
void f()
begin
  decl a;
  if (*) then g := F; fi
end
`
	file, err := syntax.ParseFile("ex.bp", []byte(src), syntax.CProver)
	if err != nil {
		panic(err)
	}
	info, errs, _ := sema.Check(file)
	if len(errs) > 0 {
		panic(errs)
	}
	prog, err := ir.Lower(file, info, ir.Options{})
	if err != nil {
		panic(err)
	}
	res, err := dataflow.PossiblyUninitialised(prog, dataflow.Options{})
	if err != nil {
		panic(err)
	}
	main := prog.Procs[prog.Main]
	for _, loc := range main.Locations {
		if loc.Text == "" {
			continue
		}
		facts, _ := res.At(main.Index, loc.ID)
		fmt.Printf("%-14s %s\n", loc.Text, strings.Join(res.Names(main.Index, facts), " "))
	}
	// Output:
	// a := T         g a b
	// f()            g b
	// b := a         g b
	// assert(b | g)  g
}
