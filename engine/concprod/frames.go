package concprod

import (
	"fmt"
	"slices"

	"boolprog/ir"
)

// Frames. A thread that does not recurse has a bounded stack: its frames
// at depth d run procedures that some chain of d calls reaches from the
// thread's procedure. The thread has one frame per depth, each a pc and
// the locals of the widest procedure that runs at that depth; a frame
// whose pc is "none" is not active, and the top frame is the deepest
// active one. A caller's pc stays at its call statement while the callee
// runs, so returning needs nothing else.

// recursionError says that a thread's procedure recurses.
type recursionError struct{ chain []string }

func (e *recursionError) Error() string {
	return fmt.Sprintf("recursion (%s): the product engine gives each thread a bounded stack and checks threads that do not recurse; use conc-fix, conc-lazy or explicit", joinArrow(e.chain))
}

func joinArrow(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += " → "
		}
		out += x
	}
	return out
}

// callees returns the procedures proc calls, in edge order, without
// duplicates.
func callees(p *ir.Program, proc int) []int {
	var out []int
	for _, e := range p.Procs[proc].Edges {
		if c, ok := e.Op.(*ir.Call); ok && !slices.Contains(out, c.Proc) {
			out = append(out, c.Proc)
		}
	}
	return out
}

// depths returns, for roots, the procedures that may run at each depth
// (depth 0: the roots), or a *recursionError if a root reaches a cycle of
// calls.
func depths(p *ir.Program, roots []int) ([][]int, error) {
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(p.Procs))
	var stack []int
	var visit func(int) error
	visit = func(f int) error {
		color[f] = grey
		stack = append(stack, f)
		for _, g := range callees(p, f) {
			switch color[g] {
			case grey:
				i := slices.Index(stack, g)
				var chain []string
				for _, h := range stack[i:] {
					chain = append(chain, p.Procs[h].Name)
				}
				return &recursionError{append(chain, p.Procs[g].Name)}
			case white:
				if err := visit(g); err != nil {
					return err
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[f] = black
		return nil
	}
	for _, r := range roots {
		if color[r] == white {
			if err := visit(r); err != nil {
				return nil, err
			}
		}
	}
	var out [][]int
	for level := slices.Clone(roots); len(level) > 0; {
		out = append(out, level)
		var next []int
		for _, f := range level {
			for _, g := range callees(p, f) {
				if !slices.Contains(next, g) {
					next = append(next, g)
				}
			}
		}
		slices.Sort(next)
		level = next
	}
	return out, nil
}
