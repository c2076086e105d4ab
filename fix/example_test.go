package fix_test

import (
	"context"
	"fmt"

	"boolprog/fix"
)

// A least fixed point: the nodes reachable from node 0 in a small graph.
func ExampleSolve() {
	src := `
enum Node {0..4};
bool Edge(Node x, Node y) x ~+ y ( (x=0 & y=1) | (x=1 & y=2) | (x=3 & y=4) );
mu bool Reach(Node x) ( x=0 | exists Node y. (Reach(y) & Edge(y, x)) );
#size Reach;
(Reach(2) & !Reach(3));
`
	f, err := fix.ParseFile("reach.mu", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	a, err := fix.Solve(context.Background(), f, fix.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("query:", a.Value)
	fmt.Println("Reach holds for", a.Sizes[0].Tuples, "nodes")
	// Output:
	// query: true
	// Reach holds for 3 nodes
}

// Diagnostics carry the file, line and column.
func ExampleCheck() {
	src := `
class Global { bool v1; };
bool Init(Global g) (g.v2 = 0);
`
	f, err := fix.ParseFile("bad.mu", []byte(src))
	if err == nil {
		err = fix.Check(f)
	}
	fmt.Println(err)
	// Output:
	// bad.mu:3:22: class Global has no field v2
}
