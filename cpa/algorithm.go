package cpa

import (
	"container/heap"
	"context"
	"fmt"
)

// Order is the order in which the waitlist hands out states.
type Order int

// The waitlist orders.
const (
	BFS       Order = iota // first in, first out
	DFS                    // last in, first out
	RPO                    // reverse postorder of the location within its procedure (loop heads before their bodies' ends), then FIFO
	CallStack              // deepest call stack first, then reverse postorder
)

var orderNames = [...]string{BFS: "bfs", DFS: "dfs", RPO: "rpo", CallStack: "callstack"}

// String returns the configuration name of the order.
func (o Order) String() string { return orderNames[o] }

// ParseOrder maps "bfs", "dfs", "rpo" and "callstack" to an Order.
func ParseOrder(s string) (Order, bool) {
	for i, n := range orderNames {
		if n == s {
			return Order(i), true
		}
	}
	return 0, false
}

// OrderNames lists the waitlist orders.
func OrderNames() []string { return orderNames[:] }

// ARGNode is a node of the abstract reachability graph: a reached state,
// its precision, and how it was reached.
type ARGNode struct {
	ID     int
	State  State
	Prec   Precision
	Parent *ARGNode // nil for the root
	Edge   *Edge    // the edge from Parent (nil for the root)
	// Caller is set on a state reached by a Return edge through a block
	// summary: the caller's node at the call (Parent is then the callee's
	// exit node).
	Caller *ARGNode

	removed bool // replaced by a merge
	seq     int  // waitlist insertion number
}

// Options configure Run.
type Options struct {
	Order Order
	// MaxStates bounds the number of ARG nodes; 0 means no bound. Beyond
	// it Run returns ErrStateLimit.
	MaxStates int
	// All keeps exploring after a target state is found.
	All bool
	// Progress, if set, is called every few thousand states.
	Progress func(states int)
}

// ErrStateLimit is returned when Options.MaxStates is exceeded.
var ErrStateLimit = fmt.Errorf("cpa: state limit reached")

// Reached is the result of Run: the reached set partitioned by location
// (and the analysis's partition key), the ARG, and the first target state
// found.
type Reached struct {
	Target *ARGNode
	// Targets counts the target states found (with Options.All, every one).
	Targets int
	Nodes   int // ARG nodes created
	Merges  int // states replaced by a merge
	Covered int // new states covered by the stop operator

	parts map[partKey][]*ARGNode
	cfa   *CFA
}

type partKey struct {
	n    Node
	part any
}

// Size returns the number of states in the reached set.
func (r *Reached) Size() int {
	n := 0
	for _, p := range r.parts {
		n += len(p)
	}
	return n
}

// At returns the reached states at location n, in every partition.
func (r *Reached) At(n Node) []*ARGNode {
	var out []*ARGNode
	for k, p := range r.parts {
		if k.n == n {
			out = append(out, p...)
		}
	}
	return out
}

// Run is the CPA algorithm (Beyer, Gulwani & Schmidt, Algorithm 1): from
// the initial state, take a state from the waitlist, compute its abstract
// successors, adjust their precision, merge each with the reached states
// of its partition, and add it to the reached set and the waitlist unless
// the stop operator finds it covered. It stops at the first target state
// (unless opts.All), when the waitlist is empty, or when ctx ends (its
// error is returned).
func Run(ctx context.Context, a Analysis, cfa *CFA, opts Options) (*Reached, error) {
	r := &Reached{parts: make(map[partKey][]*ARGNode), cfa: cfa}
	wl := newWaitlist(opts.Order, a, cfa)
	nodeOf := make(map[State]*ARGNode)
	newNode := func(s State, prec Precision) *ARGNode {
		n := &ARGNode{ID: r.Nodes, State: s, Prec: prec}
		r.Nodes++
		nodeOf[s] = n
		return n
	}
	s0, p0 := a.Initial()
	s0, p0 = a.Adjust(s0, p0)
	root := newNode(s0, p0)
	key := func(s State) partKey { return partKey{a.Location(s), a.Partition(s)} }
	r.parts[key(s0)] = []*ARGNode{root}
	if a.IsTarget(s0) {
		r.Target, r.Targets = root, 1
		if !opts.All {
			return r, nil
		}
	}
	wl.push(root)
	for steps := 0; wl.len() > 0; steps++ {
		if steps&255 == 0 {
			if err := ctx.Err(); err != nil {
				return r, err
			}
			if opts.Progress != nil && steps&4095 == 0 {
				opts.Progress(r.Nodes)
			}
		}
		cur := wl.pop()
		if cur.removed {
			continue
		}
		succs, err := a.Successors(cur.State, cur.Prec)
		if err != nil {
			return r, err
		}
		for _, sc := range succs {
			s, prec := a.Adjust(sc.State, cur.Prec)
			k := key(s)
			part := r.parts[k]
			for i, old := range part {
				m := a.Merge(s, old.State, prec)
				if m == old.State || a.LessOrEqual(m, old.State) {
					continue
				}
				// The merged state replaces old: a new node with old's
				// history, in the reached set and the waitlist.
				r.Merges++
				old.removed = true
				n := newNode(m, prec)
				n.Parent, n.Edge, n.Caller = old.Parent, old.Edge, old.Caller
				part[i] = n
				wl.push(n)
			}
			var states []State
			for _, n := range part {
				states = append(states, n.State)
			}
			if a.Stop(s, states, prec) {
				r.Covered++
				continue
			}
			if opts.MaxStates > 0 && r.Nodes >= opts.MaxStates {
				return r, ErrStateLimit
			}
			n := newNode(s, prec)
			n.Parent, n.Edge = cur, sc.Edge
			if sc.Parent != nil {
				n.Parent = nodeOf[sc.Parent]
			}
			if sc.Caller != nil {
				n.Caller = nodeOf[sc.Caller]
			}
			r.parts[k] = append(part, n)
			if a.IsTarget(s) {
				r.Targets++
				if r.Target == nil {
					r.Target = n
				}
				if !opts.All {
					return r, nil
				}
			}
			wl.push(n)
		}
	}
	return r, nil
}

// Path returns the edges from the root of the ARG to n: a path of the
// interprocedural CFA in which every Return edge matches the Call edge
// before it. A node reached through a block summary is expanded: the path
// goes to the caller, along the Call edge into the callee, through the
// callee's part of the ARG to its exit, and back along the Return edge.
// The path follows parent links, which after a merge-join need not be a
// feasible execution; see package explicitval's Concretize.
func Path(cfa *CFA, n *ARGNode) []*Edge {
	var rev []*Edge
	walk(cfa, n, false, &rev)
	out := make([]*Edge, len(rev))
	for i, e := range rev {
		out[len(rev)-1-i] = e
	}
	return out
}

// walk appends the path to n in reverse. Inside a callee's context
// (inCtx), it stops at the context's entry node (reached by a Call edge).
func walk(cfa *CFA, n *ARGNode, inCtx bool, rev *[]*Edge) {
	for n.Parent != nil {
		if inCtx && n.Edge.Kind == Call {
			return
		}
		if n.Caller != nil {
			*rev = append(*rev, n.Edge)
			walk(cfa, n.Parent, true, rev)
			*rev = append(*rev, cfa.CallEdge(n.Edge))
			n = n.Caller
			continue
		}
		*rev = append(*rev, n.Edge)
		n = n.Parent
	}
}

// waitlist hands out ARG nodes in an Order.
type waitlist struct {
	order Order
	items []*ARGNode
	prio  func(n *ARGNode) [2]int
	seq   int
}

func newWaitlist(o Order, a Analysis, cfa *CFA) *waitlist {
	w := &waitlist{order: o}
	switch o {
	case RPO:
		w.prio = func(n *ARGNode) [2]int { return [2]int{cfa.RPO(a.Location(n.State)), 0} }
	case CallStack:
		w.prio = func(n *ARGNode) [2]int { return [2]int{-a.Depth(n.State), cfa.RPO(a.Location(n.State))} }
	}
	return w
}

func (w *waitlist) len() int { return len(w.items) }

func (w *waitlist) push(n *ARGNode) {
	w.seq++
	n.seq = w.seq
	if w.prio == nil {
		w.items = append(w.items, n)
		return
	}
	heap.Push((*nodeHeap)(w), n)
}

func (w *waitlist) pop() *ARGNode {
	switch {
	case w.prio != nil:
		return heap.Pop((*nodeHeap)(w)).(*ARGNode)
	case w.order == DFS:
		n := w.items[len(w.items)-1]
		w.items = w.items[:len(w.items)-1]
		return n
	}
	n := w.items[0]
	w.items[0] = nil
	w.items = w.items[1:]
	return n
}

// nodeHeap is a waitlist with a priority, as a container/heap.
type nodeHeap waitlist

func (h *nodeHeap) Len() int { return len(h.items) }
func (h *nodeHeap) Less(i, j int) bool {
	a, b := h.items[i], h.items[j]
	pa, pb := h.prio(a), h.prio(b)
	if pa != pb {
		if pa[0] != pb[0] {
			return pa[0] < pb[0]
		}
		return pa[1] < pb[1]
	}
	return a.seq < b.seq
}
func (h *nodeHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *nodeHeap) Push(x any)    { h.items = append(h.items, x.(*ARGNode)) }
func (h *nodeHeap) Pop() any {
	n := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return n
}
