package concprod

import (
	"fmt"
	"slices"

	"boolprog/ir"
)

// Inlining. A thread that does not recurse has a bounded stack, so its
// calls are inlined: a frame is a chain of call edges from the thread's
// procedure (a context), and a location of the inlined code is a context
// with a location of its procedure. The locals of a frame live in the
// variables of its depth: one frame per depth is active at a time, so
// frames at the same depth share variables, and a thread has as many local
// variables as the widest procedure at each depth, summed over depths.

// maxFlatLocs bounds the locations of one thread procedure's inlined code
// (a call graph whose paths multiply can make it exponential).
const maxFlatLocs = 1 << 20

// frame is an inlining context: a procedure entered through a chain of
// calls from the root.
type frame struct {
	proc   int
	depth  int
	parent int // index of the caller's frame, -1 at the root
	call   int // the call edge (in the caller's procedure), -1 at the root
	base   int // inlined id of the procedure's location 0
}

// code is the inlined code of one root procedure.
type code struct {
	root   int
	frames []frame
	child  map[[2]int]int // (frame, call edge) → callee's frame
	n      int            // inlined locations
	widths []int          // locals per depth
}

// recursionError says that a thread's procedure recurses.
type recursionError struct{ chain []string }

func (e *recursionError) Error() string {
	return fmt.Sprintf("recursion (%s): the product engine inlines the calls of non-recursive threads; use conc-fix, conc-lazy or explicit", joinArrow(e.chain))
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

// inline returns the inlined code of root, or a *recursionError, or an
// error when the code would exceed maxFlatLocs locations.
func inline(p *ir.Program, root int) (*code, error) {
	c := &code{root: root, child: make(map[[2]int]int)}
	add := func(proc, depth, parent, call int) (int, error) {
		if c.n+len(p.Procs[proc].Locations) > maxFlatLocs {
			return 0, fmt.Errorf("inlining the calls of thread procedure %s exceeds %d locations", p.Procs[root].Name, maxFlatLocs)
		}
		c.frames = append(c.frames, frame{proc: proc, depth: depth, parent: parent, call: call, base: c.n})
		c.n += len(p.Procs[proc].Locations)
		for len(c.widths) <= depth {
			c.widths = append(c.widths, 0)
		}
		c.widths[depth] = max(c.widths[depth], len(p.Procs[proc].Locals))
		return len(c.frames) - 1, nil
	}
	if _, err := add(root, 0, -1, -1); err != nil {
		return nil, err
	}
	for fi := 0; fi < len(c.frames); fi++ {
		f := c.frames[fi]
		for _, e := range p.Procs[f.proc].Edges {
			call, ok := e.Op.(*ir.Call)
			if !ok {
				continue
			}
			for a := fi; a >= 0; a = c.frames[a].parent {
				if c.frames[a].proc == call.Proc {
					var chain []string
					for b := fi; b >= a; b = c.frames[b].parent {
						chain = append(chain, p.Procs[c.frames[b].proc].Name)
						if b == a {
							break
						}
					}
					slices.Reverse(chain)
					chain = append(chain, p.Procs[call.Proc].Name)
					return nil, &recursionError{chain}
				}
			}
			k, err := add(call.Proc, f.depth+1, fi, e.ID)
			if err != nil {
				return nil, err
			}
			c.child[[2]int{fi, e.ID}] = k
		}
	}
	return c, nil
}

// loc returns the inlined id of location loc in frame f.
func (c *code) loc(f, loc int) int { return c.frames[f].base + loc }

// where returns the frame and location of inlined id id.
func (c *code) where(id int) (f, loc int) {
	f, _ = slices.BinarySearchFunc(c.frames, id, func(fr frame, id int) int {
		if fr.base <= id {
			return -1
		}
		return 1
	})
	f--
	return f, id - c.frames[f].base
}
