package bdd

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
)

// visit calls fn once for every internal node reachable from fs, using the
// scratch mark bits, and clears the marks afterwards: O(nodes visited),
// independent of the table size and of the number of variables.
func (m *Manager) visit(fs []Node, fn func(n Node, nd *node)) {
	var seen, stack []Node
	marks := m.marks
	for _, f := range fs {
		if f < 2 || marks[f>>6]&(1<<(f&63)) != 0 {
			continue
		}
		marks[f>>6] |= 1 << (f & 63)
		stack = append(stack, f)
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			seen = append(seen, n)
			nd := &m.nodes[n]
			fn(n, nd)
			for _, c := range [2]Node{nd.low, nd.high} {
				if c >= 2 && marks[c>>6]&(1<<(c&63)) == 0 {
					marks[c>>6] |= 1 << (c & 63)
					stack = append(stack, c)
				}
			}
		}
	}
	for _, n := range seen {
		marks[n>>6] &^= 1 << (n & 63)
	}
}

// checkAll validates operands of read-only queries; false means Invalid.
func (m *Manager) checkAll(fs []Node) bool {
	for _, f := range fs {
		if !m.valid(f) {
			return false
		}
	}
	return true
}

// NodeCount is the number of internal (non-constant) nodes of the BDDs fs,
// shared nodes counted once (as BuDDy's bdd_nodecount / bdd_anodecount).
// 0 if any is Invalid or the Manager holds an error.
func (m *Manager) NodeCount(fs ...Node) int {
	if m.err != nil || !m.checkAll(fs) {
		return 0
	}
	n := 0
	m.visit(fs, func(Node, *node) { n++ })
	return n
}

// Support is the sorted list of variables f depends on (nil if f is
// Invalid or the Manager holds an error).
func (m *Manager) Support(f Node) []int {
	if m.err != nil || !m.valid(f) {
		return nil
	}
	seen := map[int32]bool{}
	var vs []int
	m.visit([]Node{f}, func(_ Node, nd *node) {
		if !seen[nd.level] {
			seen[nd.level] = true
			vs = append(vs, int(m.level2var[nd.level]))
		}
	})
	slices.Sort(vs)
	return vs
}

// SupportSet is Support as a VarSet.
func (m *Manager) SupportSet(f Node) *VarSet { return m.VarSet(m.Support(f)...) }

// SatCount is the number of assignments to the variables of s that satisfy
// f. If f depends on variables outside s, they are counted too (the count is
// over s ∪ Support(f)). Cost O(|f| + |s| log |s|). 0 if f is Invalid.
func (m *Manager) SatCount(f Node, s *VarSet) float64 {
	s.check(m)
	if m.err != nil || !m.valid(f) {
		return 0
	}
	// Levels counted: those of s and of the support, ascending.
	ls := s.levels()
	m.visit([]Node{f}, func(_ Node, nd *node) { ls = append(ls, nd.level) })
	slices.Sort(ls)
	ls = slices.Compact(ls)
	rank := func(n Node) int {
		l := m.nodes[n].level
		if l == termLevel {
			return len(ls)
		}
		i, _ := slices.BinarySearch(ls, l)
		return i
	}
	memo := map[Node]float64{}
	var count func(n Node) float64
	count = func(n Node) float64 {
		if n < 2 {
			return float64(n)
		}
		if c, ok := memo[n]; ok {
			return c
		}
		nd := m.nodes[n]
		r := rank(n)
		c := count(nd.low)*math.Exp2(float64(rank(nd.low)-r-1)) +
			count(nd.high)*math.Exp2(float64(rank(nd.high)-r-1))
		memo[n] = c
		return c
	}
	return count(f) * math.Exp2(float64(rank(f)))
}

// SatOne returns one assignment to the variables of s (in the order of
// s.Vars()) under which f holds for some value of the variables outside s.
// It is deterministic and prefers false: it follows the else-branch
// whenever that is satisfiable, and variables not on the path are false.
// It returns nil if f is False or Invalid.
func (m *Manager) SatOne(f Node, s *VarSet) []bool {
	s.check(m)
	if m.err != nil || !m.valid(f) || f == False {
		return nil
	}
	vals := make([]bool, len(s.vars))
	for f >= 2 {
		nd := m.nodes[f]
		if nd.low != False {
			f = nd.low
			continue
		}
		f = nd.high
		v := int(m.level2var[nd.level])
		if i, ok := slices.BinarySearch(s.vars, v); ok {
			vals[i] = true
		}
	}
	return vals
}

// SatOneCube is SatOne as a BDD: the cube of literals of s.
func (m *Manager) SatOneCube(f Node, s *VarSet) Node {
	vals := m.SatOne(f, s)
	if vals == nil {
		if m.err != nil || f == Invalid {
			return Invalid
		}
		return False
	}
	return m.Assignment(s.vars, vals)
}

// AllSat returns an iterator over all assignments to the variables of s
// (in the order of s.Vars()) under which f holds for some value of the
// variables outside s; each is yielded exactly once, in lexicographic order
// of the variable order with false first. The yielded slice is reused:
// copy it to keep it. The iterator protects f with a Root and suspends
// automatic reordering while it runs. Use as
//
//	for vals := range m.AllSat(f, s) { ... }   // Go ≥ 1.23
//	m.AllSat(f, s)(func(vals []bool) bool { ...; return true })
func (m *Manager) AllSat(f Node, s *VarSet) func(yield func([]bool) bool) {
	s.check(m)
	return func(yield func([]bool) bool) {
		if m.err != nil || !m.valid(f) {
			return
		}
		// Quantify away the support outside s so that no assignment is
		// yielded twice.
		var outside []int
		for _, v := range m.Support(f) {
			if _, ok := slices.BinarySearch(s.vars, v); !ok {
				outside = append(outside, v)
			}
		}
		if len(outside) > 0 {
			f = m.Exists(f, m.VarSet(outside...))
			if f == Invalid {
				return
			}
		}
		root := m.Keep(f)
		defer root.Release()
		m.inReorder = true // no automatic reordering: levels must stay put
		defer func() { m.inReorder = false }()
		// Positions of s in the order: (level, index in vals).
		type lv struct {
			level int32
			idx   int
		}
		order := make([]lv, len(s.vars))
		for i, v := range s.vars {
			order[i] = lv{m.var2level[v], i}
		}
		slices.SortFunc(order, func(a, b lv) int { return int(a.level) - int(b.level) })
		vals := make([]bool, len(s.vars))
		var rec func(n Node, i int) bool
		rec = func(n Node, i int) bool {
			if n == False {
				return true
			}
			if i == len(order) {
				return yield(vals)
			}
			n0, n1 := n, n
			if nd := m.nodes[n]; nd.level == order[i].level {
				n0, n1 = nd.low, nd.high
			}
			vals[order[i].idx] = false
			if !rec(n0, i+1) {
				return false
			}
			vals[order[i].idx] = true
			ok := rec(n1, i+1)
			vals[order[i].idx] = false
			return ok
		}
		rec(f, 0)
	}
}

// WriteDot writes the BDDs fs in Graphviz DOT format, variables named by
// name (nil: "x<index>"). Dashed edges are else-branches.
func (m *Manager) WriteDot(w io.Writer, name func(v int) string, fs ...Node) error {
	if !m.checkAll(fs) {
		return fmt.Errorf("bdd: WriteDot of an Invalid node")
	}
	if name == nil {
		name = func(v int) string { return fmt.Sprintf("x%d", v) }
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "digraph bdd {")
	fmt.Fprintln(bw, "\tn0 [shape=box,label=\"0\"];\n\tn1 [shape=box,label=\"1\"];")
	for i, f := range fs {
		fmt.Fprintf(bw, "\tf%d [shape=plaintext,label=\"f%d\"];\n\tf%d -> n%d;\n", i, i, i, f)
	}
	m.visit(fs, func(n Node, nd *node) {
		fmt.Fprintf(bw, "\tn%d [label=%q];\n", n, name(int(m.level2var[nd.level])))
		fmt.Fprintf(bw, "\tn%d -> n%d [style=dashed];\n\tn%d -> n%d;\n", n, nd.low, n, nd.high)
	})
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}
