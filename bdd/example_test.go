package bdd_test

import (
	"fmt"

	"boolprog/bdd"
)

// A reachability fixpoint for a 3-bit counter that counts up to 5 and
// stays there, following the root rule: the reachable set is held by a
// Root, temporaries live until the Safepoint at the end of each iteration,
// and the node limit is checked once per iteration.
func Example() {
	m := bdd.New(bdd.Config{})
	// Variables: bit i current = 2i, next = 2i+1 (interleaved, one block each).
	const bits = 3
	var cur, next []int
	for i := 0; i < bits; i++ {
		cur, next = append(cur, 2*i), append(next, 2*i+1)
		m.AddBlock(2*i, 2*i+1)
	}
	value := func(vars []int, k int) bdd.Node { // the cube "vars encode k"
		vals := make([]bool, bits)
		for i := range vals {
			vals[i] = k>>i&1 != 0
		}
		return m.Assignment(vars, vals)
	}
	trans := bdd.False
	for k := 0; k < 8; k++ {
		succ := min(k+1, 5)
		trans = m.Or(trans, m.And(value(cur, k), value(next, succ)))
	}
	t := m.Keep(trans)
	defer t.Release()
	curSet := m.VarSet(cur...)
	toCur := m.NewPairs(next, cur)

	reach := m.Keep(value(cur, 0))
	defer reach.Release()
	m.Safepoint() // from here on only t and reach are needed
	for {
		img := m.Replace(m.AndExists(reach.Node(), t.Node(), curSet), toCur)
		nr := m.Or(reach.Node(), img)
		if m.Err() != nil {
			fmt.Println("unknown:", m.Err())
			return
		}
		if nr == reach.Node() {
			break
		}
		reach.Set(nr)
		m.Safepoint()
	}
	fmt.Println("reachable states:", m.SatCount(reach.Node(), curSet))
	fmt.Println("a reachable state:", m.SatOne(reach.Node(), curSet))
	// Output:
	// reachable states: 6
	// a reachable state: [false false false]
}
