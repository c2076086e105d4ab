package analysis

import (
	"slices"

	"boolprog/internal/graph"
	"boolprog/ir"
)

// Calls is the call graph: for every procedure (by index), the procedures
// it calls and those it starts as threads, each once, in order of first
// occurrence, and the reverse relations.
type Calls struct {
	Callees [][]int // procedures called (Call edges)
	Callers [][]int // procedures that call it
	Starts  [][]int // procedures started as threads (StartThread edges)
}

// CallGraph computes Calls.
var CallGraph = &Analysis[*Calls]{
	Title: "callgraph",
	Doc:   "the procedures each procedure calls and starts as threads, and who calls each",
	Run: func(p *Pass) *Calls {
		n := len(p.Prog.Procs)
		c := &Calls{Callees: make([][]int, n), Callers: make([][]int, n), Starts: make([][]int, n)}
		for i, pr := range p.Prog.Procs {
			for _, e := range pr.Edges {
				switch op := e.Op.(type) {
				case *ir.Call:
					if !slices.Contains(c.Callees[i], op.Proc) {
						c.Callees[i] = append(c.Callees[i], op.Proc)
						c.Callers[op.Proc] = append(c.Callers[op.Proc], i)
					}
				case *ir.StartThread:
					if op.Proc >= 0 && !slices.Contains(c.Starts[i], op.Proc) {
						c.Starts[i] = append(c.Starts[i], op.Proc)
					}
				}
			}
		}
		return c
	},
}

// Components are the strongly connected components of the call graph (Call
// edges), callees before callers: no procedure calls one in a later
// component. Tarjan's algorithm emits them in this order; its roots are
// tried from the last procedure to the first, and each component lists its
// procedures from the last to the first.
type Components struct {
	Comps [][]int // the components, callees first
	Of    []int   // Of[proc]: index of proc's component in Comps
	// Rank[proc]: proc's position in Comps flattened (callees first, then
	// within a component later procedures first): the order in which a
	// bottom-up analysis or a worklist should take procedures.
	Rank []int
}

// Recursive reports whether proc is in a cycle of calls (it calls itself,
// or a procedure in its component other than itself exists).
func (c *Components) Recursive(calls *Calls, proc int) bool {
	return len(c.Comps[c.Of[proc]]) > 1 || slices.Contains(calls.Callees[proc], proc)
}

// SCC computes Components.
var SCC = &Analysis[*Components]{
	Title:    "scc",
	Doc:      "the strongly connected components of the call graph, callees first",
	Requires: []Key{CallGraph},
	Run: func(p *Pass) *Components {
		return components(Result(p, CallGraph).Callees)
	},
}

// components orders the components callees first, each by descending
// procedure index (the search starts from the last procedure).
func components(succ [][]int) *Components {
	n := len(succ)
	c := &Components{Of: make([]int, n), Rank: make([]int, n)}
	roots := make([]int, n)
	for i := range roots {
		roots[i] = n - 1 - i
	}
	rank := 0
	for _, comp := range graph.SCC(succ, roots) {
		slices.SortFunc(comp, func(a, b int) int { return b - a })
		for _, w := range comp {
			c.Of[w] = len(c.Comps)
			c.Rank[w] = rank
			rank++
		}
		c.Comps = append(c.Comps, comp)
	}
	return c
}

// LocOrder ranks the locations of every procedure in reverse postorder of
// a depth-first search from its entry (successors in the order of the
// location's Out edges), the unreachable ones last in id order: a
// worklist that takes locations by rank sees a location after its
// predecessors in the same pass, loops aside.
type LocOrder struct {
	Rank [][]int32 // Rank[proc][loc]
}

// RPO computes LocOrder.
var RPO = &Analysis[*LocOrder]{
	Title: "rpo",
	Doc:   "the reverse postorder of each procedure's locations from its entry",
	Run: func(p *Pass) *LocOrder {
		o := &LocOrder{Rank: make([][]int32, len(p.Prog.Procs))}
		for i, pr := range p.Prog.Procs {
			o.Rank[i] = rpo(pr)
		}
		return o
	},
}

func rpo(pr *ir.Proc) []int32 {
	n := len(pr.Locations)
	succ := make([][]int, n)
	for i, l := range pr.Locations {
		for _, e := range l.Out {
			succ[i] = append(succ[i], pr.Edges[e].To)
		}
	}
	post := graph.Postorder(succ, pr.Entry)
	rank := make([]int32, n)
	seen := make([]bool, n)
	k := int32(0)
	for i := len(post) - 1; i >= 0; i-- {
		rank[post[i]] = k
		seen[post[i]] = true
		k++
	}
	for i := range rank {
		if !seen[i] {
			rank[i] = k
			k++
		}
	}
	return rank
}
