package wpds_test

import (
	"fmt"

	"boolprog/wpds"
)

// A program with a procedure: main (symbols 0,1,2) calls f (symbols 10,
// 11) at 0 and returns to 1. Every rule costs 1 in the min-path domain,
// so the weights are the lengths of the shortest rule sequences.
func Example() {
	sr := wpds.MinPath{}
	p := wpds.New[wpds.Dist](sr, 1) // one control state, 0
	p.Push(0, 0, 0, 10, 1, 1, nil)  // main: call f, return to 1
	p.Step(0, 10, 0, 11, 1)         // f: 10 -> 11
	p.Pop(0, 11, 0, 1)              // f: return
	p.Step(0, 1, 0, 2, 1)           // main: 1 -> 2

	start := wpds.NewSet(1)
	start.AddConfig(wpds.Config{State: 0, Stack: []wpds.Symbol{0}})
	post, err := wpds.Poststar(p, start, wpds.Options{Witnesses: true})
	if err != nil {
		panic(err)
	}
	for _, c := range []wpds.Config{
		{State: 0, Stack: []wpds.Symbol{11, 1}},
		{State: 0, Stack: []wpds.Symbol{2}},
		{State: 0, Stack: []wpds.Symbol{11}},
	} {
		fmt.Println(c, post.Weight(c))
	}

	// The same question backwards: from where is ⟨0, 2⟩ reachable?
	target := wpds.NewSet(1)
	target.AddConfig(wpds.Config{State: 0, Stack: []wpds.Symbol{2}})
	pre, _ := wpds.Prestar(p, target, wpds.Options{})
	fmt.Println("pre*:", pre.Weight(wpds.Config{State: 0, Stack: []wpds.Symbol{0}}))

	// A witness: the rules from the start to ⟨0, 2⟩.
	path, ok, _ := post.Trace(wpds.Config{State: 0, Stack: []wpds.Symbol{2}}, 100)
	fmt.Println(ok, path.From, "->", path.To, "by", len(path.Rules), "rules of value", path.Value)
	for _, id := range path.Rules {
		fmt.Println(" ", p.Rule(id))
	}
	// Output:
	// <0,11 1> 2
	// <0,2> 4
	// <0,11> inf
	// pre*: 4
	// true <0,0> -> <0,2> by 4 rules of value 4
	//   <0,0> -> <0,10 1>
	//   <0,10> -> <0,11>
	//   <0,11> -> <0,>
	//   <0,1> -> <0,2>
}

// An extended WPDS: a merge function on the call keeps the caller's local
// variable across the call (Lal's thesis §3.1). Data-flow facts are bits:
// y (a global) and a (the current frame's local) are "defined".
func ExamplePDS_Push_merge() {
	const y, a = 1 << 0, 1 << 1
	bv := wpds.BitVector{}
	// locals come from the caller before the call, globals from the callee.
	keepLocals := func(caller, callee wpds.GenKill) wpds.GenKill {
		if caller.Bottom || callee.Bottom {
			return bv.Zero()
		}
		z := bv.Extend(caller, callee)
		return bv.Fn(z.Kill&y|caller.Kill&a, z.Gen&y|caller.Gen&a)
	}
	p := wpds.New[wpds.GenKill](bv, 1)
	p.Step(0, 0, 0, 1, bv.Fn(0, a))                 // main: a := 1
	p.Push(0, 1, 0, 10, 2, bv.Fn(a, 0), keepLocals) // call f (f's a is fresh)
	p.Step(0, 10, 0, 11, bv.Fn(0, y))               // f: y := 1
	p.Pop(0, 11, 0, bv.One())                       // f: return

	start := wpds.NewSet(1)
	start.AddConfig(wpds.Config{State: 0, Stack: []wpds.Symbol{0}})
	post, _ := wpds.Poststar(p, start, wpds.Options{})
	inF := post.Weight(wpds.Config{State: 0, Stack: []wpds.Symbol{11, 2}})
	after := post.Weight(wpds.Config{State: 0, Stack: []wpds.Symbol{2}})
	fmt.Printf("defined in f before return: %02b\n", bv.Apply(inF, 0))
	fmt.Printf("defined after the call:     %02b\n", bv.Apply(after, 0))
	// Output:
	// defined in f before return: 01
	// defined after the call:     11
}
