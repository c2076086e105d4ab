package bdd

import (
	"errors"
	"fmt"
)

// Transfer rebuilds the BDDs fs of manager src in m, variable v of src
// becoming variable vars[v] of m, and returns them, in order, as
// temporaries of m (keep them before the next Safepoint). It is the copy
// between two managers that Save and Load make through a file, without
// the file and without Load's fresh manager: m keeps its variables, its
// order and its nodes, and the orders of src and m may differ (a node is
// then built as the if-then-else of its variable, as any operation of m
// would). Two variables of src may map to the same variable of m: the
// result is then the substitution. The BDDs share one memo, so a node
// that several of them hold is built once. Variables of m are created on
// demand. A variable in the support of fs that vars does not map
// (beyond its length, or negative) is an error, as are an Invalid node
// and the node limit of m (m's sticky error).
//
// src may be m itself (a renaming, as Replace with pairs that need not be
// order-preserving). Otherwise src is only read: it must not be used by
// another goroutine meanwhile.
func (m *Manager) Transfer(src *Manager, fs []Node, vars []int) ([]Node, error) {
	if !src.checkAll(fs) {
		return nil, errors.New("bdd: Transfer of an Invalid node")
	}
	if m.err != nil {
		return nil, m.err
	}
	// The variables used, checked before building anything.
	seen := map[int32]bool{}
	var stack []Node
	for _, f := range fs {
		stack = append(stack, f)
	}
	visited := map[Node]bool{}
	top := -1
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f < 2 || visited[f] {
			continue
		}
		visited[f] = true
		n := src.nodes[f]
		v := src.level2var[n.level]
		if !seen[v] {
			seen[v] = true
			if int(v) >= len(vars) || vars[v] < 0 {
				return nil, fmt.Errorf("bdd: Transfer: variable %d of the source is in the support but not mapped", v)
			}
			top = max(top, vars[v])
		}
		stack = append(stack, n.low, n.high)
	}
	if top >= 0 {
		m.needVar(top)
	}
	if src == m {
		// The sources are then nodes of m: a collection inside run
		// must not free them.
		for _, f := range fs {
			if f >= 2 {
				m.temps = append(m.temps, f)
			}
		}
	}
	out := make([]Node, len(fs))
	// One operation builds every result, so no collection frees the nodes
	// built so far; a retry (after a collection or a reordering) starts
	// again with an empty memo, since the nodes it held may be gone.
	m.run(True, True, True, func() Node {
		memo := make(map[Node]Node, len(visited))
		var copyNode func(f Node) Node
		copyNode = func(f Node) Node {
			if f < 2 {
				return f
			}
			if r, ok := memo[f]; ok {
				return r
			}
			n := src.nodes[f]
			lo, hi := copyNode(n.low), copyNode(n.high)
			r := m.mkOrIte(m.var2level[vars[src.level2var[n.level]]], lo, hi)
			memo[f] = r
			return r
		}
		for i, f := range fs {
			out[i] = copyNode(f)
		}
		return True
	})
	if m.err != nil {
		return nil, m.err
	}
	for _, r := range out {
		if r >= 2 {
			m.temps = append(m.temps, r)
		}
	}
	return out, nil
}
