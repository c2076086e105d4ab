package bdd

import (
	"fmt"
	"slices"
	"time"
)

// Dynamic variable reordering by sifting, with blocks of variables that
// move together.
//
// Levels are swapped in place, CUDD style: a node keeps its index and its
// function across a swap, so every Node held by the engine (rooted or
// temporary) stays valid and canonical. During reordering the Manager keeps
// exact reference counts (parents plus one per root, temporary and operand
// occurrence) so that nodes that become dead are freed at once and the size
// that sifting minimises is the true size.

// block is a group of variables that stay adjacent, in their relative
// order, during sifting.
type block struct{ vars []int32 }

// reorderState is the scratch state of one reordering.
type reorderState struct {
	refs     []int32   // reference counts, indexed by node
	varNodes [][]int32 // nodes labelled by each variable (may hold stale entries)
	created  []int32   // nodes created by the current swap
}

// AddBlock declares that the variables vars (which must currently occupy
// consecutive levels, in any order) form a block: reordering keeps them
// adjacent and in their current relative order. Typical use: the current
// and next copies of a program variable. A variable belongs to at most one
// block.
func (m *Manager) AddBlock(vars ...int) error {
	if len(vars) == 0 {
		return nil
	}
	ls := make([]int, len(vars))
	for i, v := range vars {
		m.needVar(v)
		ls[i] = int(m.var2level[v])
	}
	slices.Sort(ls)
	for i := 1; i < len(ls); i++ {
		if ls[i] != ls[i-1]+1 {
			return fmt.Errorf("bdd: AddBlock: variables %v do not occupy consecutive levels", vars)
		}
	}
	// blocked indexes the variables already in blocks: scanning every
	// block made declaring one block per program variable quadratic.
	if m.blocked == nil {
		m.blocked = make(map[int32]bool)
	}
	for _, v := range vars {
		if m.blocked[int32(v)] {
			return fmt.Errorf("bdd: AddBlock: variable %d is already in a block", v)
		}
	}
	b := block{}
	for _, l := range ls {
		b.vars = append(b.vars, m.level2var[l])
	}
	for _, v := range b.vars {
		m.blocked[v] = true
	}
	m.blocks = append(m.blocks, b)
	return nil
}

// SetAutoReorder switches automatic sifting: when on, a collection that
// leaves at least twice as many live nodes as after the previous
// reordering triggers a reordering. It is off by default.
func (m *Manager) SetAutoReorder(on bool) { m.autoReorder = on }

// Reorder runs sifting now. Nodes keep their identity and meaning; nodes
// unreachable from roots and temporaries are collected first.
func (m *Manager) Reorder() {
	if m.err != nil {
		return
	}
	m.reorderWith(Invalid, Invalid, Invalid)
	m.resizeCache()
}

// SetVarOrder moves the variables to the given order: order[l] is the
// variable wanted at level l (a permutation of all variables). Blocks must
// stay contiguous in the new order.
func (m *Manager) SetVarOrder(order []int) error {
	n := len(m.var2level)
	if len(order) != n {
		return fmt.Errorf("bdd: SetVarOrder: %d variables given, manager has %d", len(order), n)
	}
	seen := make([]bool, n)
	for _, v := range order {
		if v < 0 || v >= n || seen[v] {
			return fmt.Errorf("bdd: SetVarOrder: not a permutation of the variables")
		}
		seen[v] = true
	}
	pos := make([]int, n)
	for l, v := range order {
		pos[v] = l
	}
	for _, b := range m.blocks {
		lo, hi := n, -1
		for _, v := range b.vars {
			lo, hi = min(lo, pos[v]), max(hi, pos[v])
		}
		if hi-lo+1 != len(b.vars) {
			return fmt.Errorf("bdd: SetVarOrder: block %v is split", b.vars)
		}
	}
	if m.err != nil {
		return m.err
	}
	rs := m.beginReorder(Invalid, Invalid, Invalid)
	ok := true
	for t := 0; t < n && ok; t++ {
		for l := int(m.var2level[order[t]]); l > t; l-- {
			if !m.swap(rs, int32(l-1)) {
				ok = false
				break
			}
		}
	}
	m.endReorder()
	if !ok {
		return ErrNodeLimit
	}
	return nil
}

// reorderWith sifts, counting a, b, c as extra external references.
func (m *Manager) reorderWith(a, b, c Node) {
	if m.inReorder || len(m.var2level) < 2 {
		return
	}
	rs := m.beginReorder(a, b, c)
	m.sift(rs)
	m.endReorder()
	m.reorderAt = max(2*m.live(), 1<<14)
}

func (m *Manager) beginReorder(a, b, c Node) *reorderState {
	m.inReorder = true
	m.st.Reorders++
	start := time.Now()
	m.collect(a, b, c)
	m.st.GCTime -= time.Since(start) // accounted as reordering time below
	m.reorderStart = start
	rs := &reorderState{refs: make([]int32, len(m.nodes)), varNodes: make([][]int32, len(m.var2level))}
	for i := 2; i < len(m.nodes); i++ {
		nd := &m.nodes[i]
		if nd.level == freeLevel {
			continue
		}
		rs.refs[nd.low]++
		rs.refs[nd.high]++
		v := m.level2var[nd.level]
		rs.varNodes[v] = append(rs.varNodes[v], int32(i))
	}
	for _, r := range m.roots {
		if r.n != Invalid {
			rs.refs[r.n]++
		}
	}
	for _, t := range m.temps {
		rs.refs[t]++
	}
	for _, x := range [3]Node{a, b, c} {
		if x != Invalid {
			rs.refs[x]++
		}
	}
	return rs
}

func (m *Manager) endReorder() {
	m.clearCache()
	m.epoch++
	m.orderEpoch++
	m.inReorder = false
	m.st.ReorderTime += time.Since(m.reorderStart)
	m.noteLive()
}

// groups returns the sifting units in level order: user blocks, and every
// other variable alone.
func (m *Manager) groups() [][]int32 {
	inBlock := map[int32]int{}
	for i, b := range m.blocks {
		for _, v := range b.vars {
			inBlock[v] = i
		}
	}
	var gs [][]int32
	done := map[int]bool{}
	for l := 0; l < len(m.level2var); l++ {
		v := m.level2var[l]
		bi, ok := inBlock[v]
		if !ok {
			gs = append(gs, []int32{v})
			continue
		}
		if done[bi] {
			continue
		}
		done[bi] = true
		b := slices.Clone(m.blocks[bi].vars)
		slices.SortFunc(b, func(x, y int32) int { return int(m.var2level[x] - m.var2level[y]) })
		gs = append(gs, b)
	}
	return gs
}

// sift moves each group, largest first, through all positions and leaves
// it where the total node count was smallest. A direction is abandoned
// when the size grows beyond 120% of the best seen.
func (m *Manager) sift(rs *reorderState) {
	gs := m.groups()
	size := func(g []int32) int {
		n := 0
		for _, v := range g {
			n += len(rs.varNodes[v])
		}
		return n
	}
	order := slices.Clone(gs)
	slices.SortStableFunc(order, func(a, b []int32) int { return size(b) - size(a) })
	for _, g := range order {
		pos := slices.IndexFunc(gs, func(h []int32) bool { return h[0] == g[0] })
		best, bestPos := m.live(), pos
		limit := func() bool { return m.live() > best+best/5 }
		p := pos
		// down
		for p+1 < len(gs) {
			if !m.swapGroups(rs, gs, p) {
				return
			}
			p++
			if l := m.live(); l < best {
				best, bestPos = l, p
			}
			if limit() {
				break
			}
		}
		// up
		for p > 0 {
			if !m.swapGroups(rs, gs, p-1) {
				return
			}
			p--
			if l := m.live(); l < best {
				best, bestPos = l, p
			}
			if limit() {
				break
			}
		}
		// back to the best position
		for p < bestPos {
			if !m.swapGroups(rs, gs, p) {
				return
			}
			p++
		}
		for p > bestPos {
			if !m.swapGroups(rs, gs, p-1) {
				return
			}
			p--
		}
	}
}

// swapGroups exchanges the adjacent groups gs[i] and gs[i+1] by adjacent
// level swaps, keeping each group's internal order.
func (m *Manager) swapGroups(rs *reorderState, gs [][]int32, i int) bool {
	a, b := gs[i], gs[i+1]
	top := m.var2level[a[0]]
	for j := range b {
		// b[j] is at level top+len(a)+j; bubble it up to top+j.
		for l := top + int32(len(a)+j); l > top+int32(j); l-- {
			if !m.swap(rs, l-1) {
				return false
			}
		}
	}
	gs[i], gs[i+1] = b, a
	return true
}

// swap exchanges the variables at levels l and l+1 in place. It returns
// false (changing nothing) if the table cannot provide the nodes it may
// need within the node limit.
func (m *Manager) swap(rs *reorderState, l int32) bool {
	x, y := m.level2var[l], m.level2var[l+1]
	xs := m.liveList(rs, x, l)
	ys := m.liveList(rs, y, l+1)
	// At most two new nodes per x-node.
	if need := 2*len(xs) + 2; m.freeCount < need {
		for m.freeCount < need {
			if len(m.nodes) >= m.maxNodes {
				return false
			}
			m.resizeNodes(min(2*len(m.nodes), m.maxNodes))
			m.st.Grows++
		}
		if len(rs.refs) < len(m.nodes) {
			rs.refs = append(rs.refs, make([]int32, len(m.nodes)-len(rs.refs))...)
		}
	}
	for _, n := range xs {
		m.unlink(n)
	}
	for _, n := range ys {
		m.unlink(n)
	}
	// y moves up: its nodes keep their children, which are below both.
	for _, n := range ys {
		m.nodes[n].level = l
		m.link(n)
	}
	// x-nodes not depending on y just move down.
	var dep []int32
	var xsNew []int32
	for _, n := range xs {
		nd := &m.nodes[n]
		if m.nodes[nd.low].level == l || m.nodes[nd.high].level == l { // children that are (former) y-nodes
			dep = append(dep, n)
			continue
		}
		nd.level = l + 1
		m.link(n)
		xsNew = append(xsNew, n)
	}
	rs.created = rs.created[:0]
	for _, n := range dep {
		nd := m.nodes[n]
		f0, f1 := nd.low, nd.high
		f00, f01 := f0, f0
		if m.nodes[f0].level == l {
			f00, f01 = m.nodes[f0].low, m.nodes[f0].high
		}
		f10, f11 := f1, f1
		if m.nodes[f1].level == l {
			f10, f11 = m.nodes[f1].low, m.nodes[f1].high
		}
		lo := m.mkRef(rs, l+1, f00, f10)
		hi := m.mkRef(rs, l+1, f01, f11)
		rs.refs[lo]++
		rs.refs[hi]++
		m.nodes[n] = node{level: l, low: lo, high: hi}
		m.link(n)
		m.deref(rs, f0)
		m.deref(rs, f1)
	}
	xsNew = append(xsNew, rs.created...)
	ysNew := append(ys, dep...)
	rs.varNodes[x], rs.varNodes[y] = xsNew, ysNew
	m.level2var[l], m.level2var[l+1] = y, x
	m.var2level[x], m.var2level[y] = l+1, l
	return true
}

// liveList filters the node list of variable v to live, distinct nodes
// at level l.
func (m *Manager) liveList(rs *reorderState, v int32, l int32) []int32 {
	in := rs.varNodes[v]
	out := in[:0]
	for _, n := range in {
		if m.nodes[n].level != l || m.marks[n>>6]&(1<<(uint32(n)&63)) != 0 {
			continue
		}
		m.marks[n>>6] |= 1 << (uint32(n) & 63)
		out = append(out, n)
	}
	for _, n := range out {
		m.marks[n>>6] &^= 1 << (uint32(n) & 63)
	}
	return out
}

// mkRef is mk for swaps: it never grows the table (swap reserved room)
// and counts the references of a node it creates.
func (m *Manager) mkRef(rs *reorderState, level int32, lo, hi Node) Node {
	if lo == hi {
		return lo
	}
	h := hashNode(level, lo, hi) >> m.bShift
	for i := m.buckets[h]; i != 0; i = m.nodes[i].next {
		nd := &m.nodes[i]
		if nd.low == lo && nd.high == hi && nd.level == level {
			return Node(i)
		}
	}
	n := m.mk(level, lo, hi)
	rs.refs[n] = 0
	rs.refs[lo]++
	rs.refs[hi]++
	rs.created = append(rs.created, int32(n))
	return n
}

// deref drops one reference to n and frees it, recursively, when none is
// left.
func (m *Manager) deref(rs *reorderState, n Node) {
	for n >= 2 {
		rs.refs[n]--
		if rs.refs[n] != 0 {
			return
		}
		nd := m.nodes[n]
		m.unlink(int32(n))
		m.nodes[n] = node{level: freeLevel, low: Invalid, high: Invalid, next: m.freeHead}
		m.freeHead = int32(n)
		m.freeCount++
		m.st.GCFreed++
		m.deref(rs, nd.low)
		n = nd.high
	}
}

// unlink removes node n from its unique-table chain.
func (m *Manager) unlink(n int32) {
	nd := &m.nodes[n]
	h := hashNode(nd.level, nd.low, nd.high) >> m.bShift
	p := &m.buckets[h]
	for *p != n {
		p = &m.nodes[*p].next
	}
	*p = nd.next
}

// link inserts node n into its unique-table chain.
func (m *Manager) link(n int32) {
	nd := &m.nodes[n]
	h := hashNode(nd.level, nd.low, nd.high) >> m.bShift
	nd.next = m.buckets[h]
	m.buckets[h] = n
}
