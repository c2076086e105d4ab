package pdsfile_test

import (
	"fmt"

	"boolprog/wpds/pdsfile"
)

// A shortest-path query on a system written in the text format: main calls
// f, whose loop costs 5 a round; the shortest way to main's return point
// skips the loop.
func ExampleSolve() {
	src := `domain minpath
states p
<p, m0> -> <p, f0 m1>   1
<p, f0> -> <p, f1>      1
<p, f1> -> <p, f0>      5
<p, f1> -> <p>          1
from <p, m0>
to <p, m1>
`
	f, err := pdsfile.Parse("example.pds", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := pdsfile.Solve(f, pdsfile.Options{Witness: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("weight:", res.Weight)
	for _, w := range res.Witnesses {
		for _, r := range w.Rules {
			fmt.Printf("line %d: %s\n", r.Line, r.Rule)
		}
	}
	// A mistake is reported at its line and column.
	_, err = pdsfile.Parse("bad.pds", []byte("states p\n<p, a> -> <q>\n"))
	fmt.Println(err)
	// Output:
	// weight: 3
	// line 3: <p, m0> -> <p, f0 m1>
	// line 4: <p, f0> -> <p, f1>
	// line 6: <p, f1> -> <p,>
	// bad.pds:2:12: undeclared control state q
}
