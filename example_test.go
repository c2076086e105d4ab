package boolprog_test

import (
	"context"
	"errors"
	"fmt"
	"os"

	"boolprog"
)

// The Bebop paper's Figure 1 program, whose label R is reachable.
const figure1 = `decl g;

main()
begin
  decl h;
  h := !g;
  A(g, h);
  skip;
  A(g, h);
  skip;
  if (g) then
    R: skip;
  fi
end

A(a1, a2)
begin
  if (a1) then
    A(a2, a1);
    skip;
  else
    g := a2;
  fi
end
`

// Example checks a program for a label, prints the verdict and walks the
// trace, then prints the result as `boolprog check` does.
func Example() {
	res, err := boolprog.Check(context.Background(), []byte(figure1), boolprog.Options{
		Filename: "fig1.bp",
		Target:   "R",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verdict, res.Engine, len(res.Trace), "steps, replayed:", res.Replayed)
	last := res.Trace[len(res.Trace)-1]
	fmt.Printf("last step: line %d, %s, thread %d, %s\n", last.Line, last.Proc, last.Thread, last.Text)
	fmt.Println(res.ErrorLine())
	fmt.Println(res.Banner())
	// Output:
	// unsafe summary 17 steps, replayed: true
	// last step: line 12, main, thread 0, skip
	// fig1.bp:12:8: error: label R reached
	// VERIFICATION FAILED
}

// Example_inputError shows the error of a program that does not parse: an
// *InputError whose diagnostics are file:line:col: message.
func Example_inputError() {
	_, err := boolprog.Check(context.Background(), []byte("main() begin x := T; end\n"), boolprog.Options{Filename: "bad.bp"})
	var in *boolprog.InputError
	if errors.As(err, &in) {
		for _, d := range in.Diagnostics {
			fmt.Println(d)
		}
	}
	// Output:
	// bad.bp:1:14: undeclared variable x
}

// Example_writeText prints a safe result as the command does.
func Example_writeText() {
	src := "decl g;\nvoid main() begin g := F; assert(!g); end\n"
	res, err := boolprog.Check(context.Background(), []byte(src), boolprog.Options{Filename: "ok.bp", Engine: "explicit"})
	if err != nil {
		fmt.Println(err)
		return
	}
	res.WriteText(os.Stdout)
	// Output:
	// checked: 1 assertion (label SLIC_ERROR occurs nowhere)
	// VERIFICATION SUCCESSFUL
}
