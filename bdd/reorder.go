package bdd

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand"
	"slices"
	"time"
)

// Dynamic variable reordering by group sifting.
//
// Levels are swapped in place, CUDD style: a node keeps its index and its
// function across a swap, so every Node held by the engine (rooted or
// temporary) stays valid and canonical. During reordering the Manager keeps
// exact reference counts (parents plus one per root, temporary and operand
// occurrence) so that nodes that become dead are freed at once and the size
// that sifting minimises is the true size.
//
// The unit of sifting is a group: a block declared with AddBlock (the
// copies of one program variable, say) or a variable in no block. Three
// things keep sifting cheap enough to run automatically:
//
//   - The unique table hashes a node by its variable, not its level, so a
//     swap touches (rehashes, rebuilds) only the nodes of the upper variable
//     that have a child labelled by the lower one; every other node just
//     gets its new level written.
//   - An interaction matrix (groups whose variables occur together in the
//     support of some live root) lets two groups that never interact
//     exchange places by relabelling alone, level block against level
//     block, instead of |A|·|B| adjacent swaps.
//   - Lower bounds prune the walk: moving a group further in one direction
//     can only change the nodes of the groups it interacts with on that
//     side, so once the size without those and without the group itself
//     reaches the best size seen, that direction cannot improve.
//
// Each move stops when the size grows past ReorderMaxGrowth times the best
// seen, and the whole reordering when its time limit is spent (keeping the
// best position of the group being moved).

// ReorderMode selects dynamic reordering (Config.Reorder,
// Manager.SetReorder). It is a flag.Value: "off", "sift" or "auto".
type ReorderMode int

const (
	// ReorderDefault leaves the choice to the client; a Manager treats it
	// as ReorderOff.
	ReorderDefault ReorderMode = iota
	// ReorderOff never reorders automatically (Manager.Reorder still
	// does).
	ReorderOff
	// ReorderSift sifts whenever the live nodes have doubled since the
	// previous reordering (the first time at Config.ReorderMinNodes), at
	// the start of an operation or in the middle of one that grows the
	// table (the operation is then restarted under the new order), and
	// before giving up with ErrNodeLimit.
	ReorderSift
	// ReorderAuto is ReorderSift made to pay for itself: a higher first
	// trigger, a cheaper sifting (growth bound 1.1, each group moved at
	// most 4 groups away from where it was: see Config), a time limit
	// per reordering (a quarter of the time the manager has lived, at
	// least 50ms), and a reordering that gained less than a tenth pushes
	// the next one further (the live nodes must quadruple); after two
	// such reorderings in a row it stops.
	ReorderAuto
	// ReorderStress reorders at the start of every operation (a random
	// group moved to a random place, and a full sifting every 64
	// operations). It is very slow and exists for tests that check that
	// reordering never changes a result.
	ReorderStress
)

var reorderNames = [...]string{ReorderDefault: "default", ReorderOff: "off", ReorderSift: "sift", ReorderAuto: "auto", ReorderStress: "stress"}

// String returns "default", "off", "sift", "auto" or "stress".
func (r ReorderMode) String() string {
	if r >= 0 && int(r) < len(reorderNames) {
		return reorderNames[r]
	}
	return fmt.Sprintf("ReorderMode(%d)", int(r))
}

// Set parses "off", "sift" or "auto" (flag.Value). The test mode "stress"
// is not accepted.
func (r *ReorderMode) Set(s string) error {
	m, err := ParseReorderMode(s)
	if err != nil {
		return err
	}
	*r = m
	return nil
}

// ParseReorderMode parses "off", "sift" or "auto".
func ParseReorderMode(s string) (ReorderMode, error) {
	switch s {
	case "off":
		return ReorderOff, nil
	case "sift":
		return ReorderSift, nil
	case "auto":
		return ReorderAuto, nil
	}
	return ReorderDefault, fmt.Errorf("want off, sift or auto, not %q", s)
}

// block is a group of variables that stay adjacent, in their relative
// order, during sifting.
type block struct{ vars []int32 }

// reorderState is the scratch state of one reordering.
type reorderState struct {
	refs     []int32   // reference counts, indexed by node
	varNodes [][]int32 // nodes labelled by each variable (may hold stale entries)
	count    []int     // live nodes labelled by each variable
	created  []int32   // nodes created by the current swap
	dep      []int32   // scratch of swap

	groups [][]int32  // group id -> its variables, top first
	gs     []int      // position -> group id, in level order
	pos    []int      // group id -> position
	inter  [][]uint64 // group id -> bit set of the groups it interacts with

	growth    float64     // see Config.ReorderMaxGrowth
	window    int         // see Config.ReorderWindow; 0: none
	deadline  time.Time   // zero: none
	interrupt func() bool // Manager.SetInterrupt's function
	stopped   bool        // the deadline passed, or the table is full
	lower     int         // least lower bound found for the size (see sift)
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

// SetAutoReorder switches automatic sifting on (ReorderSift) or off.
func (m *Manager) SetAutoReorder(on bool) {
	if on {
		m.SetReorder(ReorderSift)
	} else {
		m.SetReorder(ReorderOff)
	}
}

// SetReorder selects dynamic reordering (see ReorderMode). The next
// automatic reordering is due when the live nodes reach the mode's
// minimum.
func (m *Manager) SetReorder(mode ReorderMode) {
	if mode == ReorderDefault {
		mode = ReorderOff
	}
	m.reorder = mode
	m.reorderAt = m.minTrigger()
	m.unpaid = 0
}

// Reordering returns the dynamic reordering mode (never ReorderDefault).
func (m *Manager) Reordering() ReorderMode { return m.reorder }

// minTrigger is the least number of live nodes that triggers an automatic
// reordering.
func (m *Manager) minTrigger() int {
	switch {
	case m.reorderMin > 0:
		return m.reorderMin
	case m.reorder == ReorderAuto:
		return 1 << 16
	}
	return 1 << 14
}

// autoDue reports whether an automatic reordering should run now.
func (m *Manager) autoDue() bool {
	return (m.reorder == ReorderSift || m.reorder == ReorderAuto) && !m.inReorder &&
		len(m.var2level) > 1 && m.live() >= m.reorderAt
}

// Reorder runs sifting now. Nodes keep their identity and meaning; nodes
// unreachable from roots and temporaries are collected first.
func (m *Manager) Reorder() {
	if m.err != nil || m.inReorder || len(m.var2level) < 2 {
		return
	}
	rs := m.beginReorder(Invalid, Invalid, Invalid)
	if m.timeLimit > 0 {
		rs.deadline = time.Now().Add(m.timeLimit)
	}
	rs.growth, rs.window = m.siftBounds(false)
	m.sift(rs)
	m.endReorder(rs)
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
	if m.inReorder {
		return fmt.Errorf("bdd: SetVarOrder inside an AllSat iteration")
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
	m.endReorder(rs)
	if !ok {
		return ErrNodeLimit
	}
	return nil
}

// reorderWith sifts, counting a, b, c as extra external references, and
// sets the trigger of the next automatic reordering.
func (m *Manager) reorderWith(a, b, c Node) {
	if m.inReorder || len(m.var2level) < 2 {
		return
	}
	rs := m.beginReorder(a, b, c)
	before := m.live()
	switch {
	case m.timeLimit > 0:
		rs.deadline = time.Now().Add(m.timeLimit)
	case m.reorder == ReorderAuto:
		rs.deadline = time.Now().Add(max(time.Since(m.born)/4, 50*time.Millisecond))
	}
	rs.growth, rs.window = m.siftBounds(m.reorder == ReorderAuto)
	m.sift(rs)
	m.endReorder(rs)
	after := m.live()
	next := 2 * after
	if m.reorder == ReorderAuto && 10*(before-after) < before {
		// It did not pay: wait longer for the next one, and after two
		// such reorderings in a row, stop.
		m.unpaid++
		next = 4 * after
		if m.unpaid >= 2 {
			next = math.MaxInt
		}
	} else {
		m.unpaid = 0
	}
	m.reorderAt = max(next, m.minTrigger())
}

// stress is ReorderStress's reordering at the start of an operation with
// operands a, b, c.
func (m *Manager) stress(a, b, c Node) {
	if len(m.var2level) < 2 {
		return
	}
	m.stressOps++
	rs := m.beginReorder(a, b, c)
	if m.stressOps%64 == 0 {
		rs.growth, rs.window = m.siftBounds(m.stressOps%128 == 0)
		m.sift(rs)
	} else {
		rng := rand.New(rand.NewSource(int64(m.stressOps)))
		n := len(rs.gs)
		g := rs.gs[rng.Intn(n)]
		to := rng.Intn(n)
		for rs.pos[g] < to && !rs.stopped {
			m.swapGroups(rs, rs.pos[g])
		}
		for rs.pos[g] > to && !rs.stopped {
			m.swapGroups(rs, rs.pos[g]-1)
		}
	}
	m.endReorder(rs)
	m.resizeCache()
}

func (m *Manager) beginReorder(a, b, c Node) *reorderState {
	m.inReorder = true
	m.st.Reorders++
	start := time.Now()
	m.collect(a, b, c)
	m.st.GCTime -= time.Since(start) // accounted as reordering time below
	m.reorderStart = start
	nv := len(m.var2level)
	rs := &reorderState{refs: make([]int32, len(m.nodes)), varNodes: make([][]int32, nv), count: make([]int, nv)}
	for i := 2; i < len(m.nodes); i++ {
		nd := &m.nodes[i]
		if nd.level == freeLevel {
			continue
		}
		rs.refs[nd.low]++
		rs.refs[nd.high]++
		v := m.level2var[nd.level]
		rs.varNodes[v] = append(rs.varNodes[v], int32(i))
		rs.count[v]++
	}
	var ext []Node // the external references: roots, temporaries, operands
	for _, r := range m.roots {
		if r.n != Invalid {
			ext = append(ext, r.n)
		}
	}
	ext = append(ext, m.temps...)
	for _, x := range [3]Node{a, b, c} {
		if x != Invalid {
			ext = append(ext, x)
		}
	}
	for _, x := range ext {
		rs.refs[x]++
	}
	rs.interrupt = m.interrupt
	m.groupsOf(rs)
	m.interaction(rs, ext)
	m.st.ReorderBefore = m.live()
	return rs
}

func (m *Manager) endReorder(rs *reorderState) {
	m.clearCache()
	m.epoch++
	m.orderEpoch++
	m.inReorder = false
	m.st.ReorderTime += time.Since(m.reorderStart)
	m.st.ReorderAfter = m.live()
	m.noteLive()
}

// groupsOf fills in the sifting units in level order: user blocks (top
// variable first), and every other variable alone.
func (m *Manager) groupsOf(rs *reorderState) {
	inBlock := make(map[int32]int, len(m.blocked))
	for i, b := range m.blocks {
		if len(b.vars) == 0 {
			continue
		}
		lo, hi := m.var2level[b.vars[0]], m.var2level[b.vars[0]]
		for _, v := range b.vars {
			lo, hi = min(lo, m.var2level[v]), max(hi, m.var2level[v])
		}
		if int(hi-lo) != len(b.vars)-1 {
			// Split by a reordering that ran out of room half-way
			// through exchanging two groups (see unbubble): its
			// variables move alone from now on.
			for _, v := range b.vars {
				delete(m.blocked, v)
			}
			m.blocks[i].vars = nil
			continue
		}
		for _, v := range b.vars {
			inBlock[v] = i
		}
	}
	done := make(map[int]bool, len(m.blocks))
	for l := 0; l < len(m.level2var); l++ {
		v := m.level2var[l]
		bi, ok := inBlock[v]
		if !ok {
			rs.groups = append(rs.groups, []int32{v})
			continue
		}
		if done[bi] {
			continue
		}
		done[bi] = true
		g := slices.Clone(m.blocks[bi].vars)
		slices.SortFunc(g, func(x, y int32) int { return int(m.var2level[x] - m.var2level[y]) })
		rs.groups = append(rs.groups, g)
	}
	rs.gs = make([]int, len(rs.groups))
	rs.pos = make([]int, len(rs.groups))
	for i := range rs.gs {
		rs.gs[i], rs.pos[i] = i, i
	}
}

// interaction computes which groups interact: those whose variables occur
// together in the support of an external reference. In a reduced BDD the
// support of a function is the set of variables labelling the nodes
// reachable from it, so two groups that do not interact have no node of
// one with a child of the other, in any order.
func (m *Manager) interaction(rs *reorderState, ext []Node) {
	ng := len(rs.groups)
	words := (ng + 63) / 64
	gOf := make([]int, len(m.var2level))
	for g, vs := range rs.groups {
		for _, v := range vs {
			gOf[v] = g
		}
	}
	rs.inter = make([][]uint64, ng)
	flat := make([]uint64, ng*words)
	for g := range rs.inter {
		rs.inter[g] = flat[g*words : (g+1)*words]
	}
	// Support bit sets of all live nodes, bottom-up by level (children are
	// on deeper levels). One word per node in the usual case (≤ 64 groups).
	supp := make([]uint64, len(m.nodes)*words)
	for l := len(m.level2var) - 1; l >= 0; l-- {
		v := m.level2var[l]
		bit, word := uint64(1)<<(gOf[v]%64), gOf[v]/64
		for _, n := range rs.varNodes[v] {
			nd := &m.nodes[n]
			s := supp[int(n)*words : int(n+1)*words]
			lo := supp[int(nd.low)*words : int(nd.low+1)*words]
			hi := supp[int(nd.high)*words : int(nd.high+1)*words]
			for w := range s {
				s[w] = lo[w] | hi[w]
			}
			s[word] |= bit
		}
	}
	// Distinct supports of the external references (many share one):
	// sorted and compacted, one word per group set in the usual case.
	masks := make([]uint64, 0, len(ext)*words)
	for _, x := range ext {
		if x >= 2 {
			masks = append(masks, supp[int(x)*words:int(x+1)*words]...)
		}
	}
	if words == 1 {
		slices.Sort(masks)
		masks = slices.Compact(masks)
	}
	for i := 0; i+words <= len(masks); i += words {
		s := masks[i : i+words]
		for w, b := range s {
			for b != 0 {
				g := w*64 + bits.TrailingZeros64(b)
				b &= b - 1
				row := rs.inter[g]
				for w2, b2 := range s {
					row[w2] |= b2
				}
			}
		}
	}
}

// interacts reports whether groups g and h interact.
func (rs *reorderState) interacts(g, h int) bool { return rs.inter[g][h/64]>>(h%64)&1 != 0 }

// size is the number of live nodes of group g.
func (rs *reorderState) size(g int) int {
	n := 0
	for _, v := range rs.groups[g] {
		n += rs.count[v]
	}
	return n
}

// expired reports whether the reordering must stop: its time limit is
// spent or the client's interrupt function says so.
func (rs *reorderState) expired() bool {
	if !rs.stopped && (!rs.deadline.IsZero() && time.Now().After(rs.deadline) || rs.interrupt != nil && rs.interrupt()) {
		rs.stopped = true
	}
	return rs.stopped
}

// SetInterrupt installs a function that the Manager polls during
// reorderings (between two moves of a group) and operations (every 65,536
// new nodes). When it returns true, a reordering stops at once, keeping
// the order it has reached (a valid one), and an operation fails: it
// returns Invalid and records the sticky error ErrInterrupted. An engine
// passes, say, func() bool { return ctx.Err() != nil }, so that neither
// outlives its time limit. nil removes it.
func (m *Manager) SetInterrupt(f func() bool) { m.interrupt = f }

// siftBounds returns the growth bound and the window (0: none) of a
// sifting: the configured ones, or the defaults, which are tighter for
// ReorderAuto (auto): on the hard set (gen.HardSet), a growth bound of 1.1
// and a window of 4 groups cut the swaps of a sifting by half or more for
// nearly the same gain, and the reorderings of auto go from costing more
// than they saved to paying (see bench/RESULTS.md).
func (m *Manager) siftBounds(auto bool) (growth float64, window int) {
	growth, window = m.maxGrowth, m.window
	if growth == 0 {
		growth = 1.2
		if auto {
			growth = 1.1
		}
	}
	if window == 0 && auto {
		window = 4
	}
	return growth, max(window, 0)
}

// sift moves each group, largest first, through the positions it can
// reach within the growth and lower bounds and leaves it where the total
// node count was smallest.
func (m *Manager) sift(rs *reorderState) {
	order := slices.Clone(rs.gs)
	sizes := make([]int, len(rs.groups))
	for g := range sizes {
		sizes[g] = rs.size(g)
	}
	slices.SortStableFunc(order, func(a, b int) int { return sizes[b] - sizes[a] })
	for _, g := range order {
		if rs.expired() {
			return
		}
		if sizes[g] == 0 {
			continue // nothing to gain moving a group no BDD mentions
		}
		m.siftGroup(rs, g)
	}
}

// siftGroup moves group g down and up (towards the nearer end first,
// within the window, if any) and back to the best position seen.
func (m *Manager) siftGroup(rs *reorderState, g int) {
	n := len(rs.gs)
	best, bestPos := m.live(), rs.pos[g]
	lo, hi := 0, n-1 // the positions g may take
	if rs.window > 0 {
		lo, hi = max(lo, rs.pos[g]-rs.window), min(hi, rs.pos[g]+rs.window)
	}
	// bound is a lower bound on the size reachable by moving g further
	// in direction dir (+1 down, -1 up): only g and the groups it
	// interacts with on that side can change.
	bound := func(dir int) int {
		lb := m.live() - rs.size(g)
		for q := rs.pos[g] + dir; q >= 0 && q < n; q += dir {
			if h := rs.gs[q]; rs.interacts(g, h) {
				lb -= rs.size(h)
			}
		}
		return lb
	}
	move := func(dir int) {
		for {
			p := rs.pos[g]
			if p+dir < lo || p+dir > hi || rs.expired() {
				return
			}
			if bound(dir) >= best {
				return
			}
			if dir > 0 {
				m.swapGroups(rs, p)
			} else {
				m.swapGroups(rs, p-1)
			}
			if rs.stopped {
				return
			}
			l := m.live()
			if l < best {
				best, bestPos = l, rs.pos[g]
			}
			if float64(l) > rs.growth*float64(best) {
				return
			}
		}
	}
	if rs.pos[g]-lo >= hi-rs.pos[g] {
		move(+1)
		move(-1)
	} else {
		move(-1)
		move(+1)
	}
	// Back to the best position: these swaps undo earlier ones, so they
	// cannot need more room than was available.
	stopped := rs.stopped
	rs.stopped = false
	for rs.pos[g] < bestPos && !rs.stopped {
		m.swapGroups(rs, rs.pos[g])
	}
	for rs.pos[g] > bestPos && !rs.stopped {
		m.swapGroups(rs, rs.pos[g]-1)
	}
	rs.stopped = rs.stopped || stopped
}

// swapGroups exchanges the groups at positions i and i+1. Groups that do
// not interact exchange their levels by relabelling; others by adjacent
// level swaps that keep each group's internal order. It sets rs.stopped
// (changing nothing) if the table cannot provide the nodes a swap needs.
func (m *Manager) swapGroups(rs *reorderState, i int) {
	ga, gb := rs.gs[i], rs.gs[i+1]
	a, b := rs.groups[ga], rs.groups[gb]
	top := m.var2level[a[0]]
	if !rs.interacts(ga, gb) {
		m.relabel(rs, top, a, b)
	} else {
		for j := range b {
			// b[j] is at level top+len(a)+j; bubble it up to top+j.
			for l := top + int32(len(a)+j); l > top+int32(j); l-- {
				if !m.swap(rs, l-1) {
					// A half-done exchange is still a valid order, but
					// the groups are interleaved: undo the swaps of b[j]
					// ... (the table is at its limit: stop reordering).
					m.unbubble(rs, top, a, b, j, l)
					rs.stopped = true
					return
				}
			}
		}
	}
	rs.gs[i], rs.gs[i+1] = gb, ga
	rs.pos[ga], rs.pos[gb] = i+1, i
}

// unbubble restores the order of groups a (at top) and b after the swap
// that would have moved b[j] from level l to l-1 failed: it moves b[j] and
// the already moved b[0..j-1] back below a. Swaps that undo earlier swaps
// free at least as many nodes as they create, but they may still need
// room transiently; if one fails the order stays as it is (still a valid
// order, with the blocks' adjacency broken only if this fails too).
func (m *Manager) unbubble(rs *reorderState, top int32, a, b []int32, j int, l int32) {
	// b[j] is at level l; move it back to top+len(a)+j.
	for ; l < top+int32(len(a)+j); l++ {
		if !m.swap(rs, l) {
			return
		}
	}
	for k := j - 1; k >= 0; k-- {
		for l := top + int32(k); l < top+int32(len(a)+k); l++ {
			if !m.swap(rs, l) {
				return
			}
		}
	}
}

// relabel exchanges the adjacent level ranges of the non-interacting
// groups a (starting at level top) and b: no node of either has a child
// labelled by the other, so every node keeps its children and only its
// level changes (and the hash chains, keyed by variable, stay as they are).
func (m *Manager) relabel(rs *reorderState, top int32, a, b []int32) {
	lists := make([][]int32, 0, len(a)+len(b))
	for _, v := range a {
		lists = append(lists, m.liveList(rs, v, m.var2level[v]))
	}
	for _, v := range b {
		lists = append(lists, m.liveList(rs, v, m.var2level[v]))
	}
	na, nb := int32(len(a)), int32(len(b))
	for k, v := range a {
		l := top + nb + int32(k)
		m.var2level[v], m.level2var[l] = l, v
		for _, n := range lists[k] {
			m.nodes[n].level = l
		}
	}
	for k, v := range b {
		l := top + int32(k)
		m.var2level[v], m.level2var[l] = l, v
		for _, n := range lists[int(na)+k] {
			m.nodes[n].level = l
		}
	}
	m.st.ReorderSwaps += uint64(na * nb)
}

// swap exchanges the variables at levels l and l+1 in place. It returns
// false (changing nothing) if the table cannot provide the nodes it may
// need within the node limit.
//
// The node lists of x and y are filtered on the way (see liveList), in the
// passes that classify x's nodes and relabel y's: the nodes of a big swap
// are scattered over the table, so every pass over them is a pass of
// cache misses.
func (m *Manager) swap(rs *reorderState, l int32) bool {
	x, y := m.level2var[l], m.level2var[l+1]
	// dep: the live x-nodes with a child labelled y. The others (keep)
	// keep their children and just move down.
	in := rs.varNodes[x]
	dep := rs.dep[:0]
	keep := in[:0]
	for _, n := range in {
		nd := &m.nodes[n]
		if nd.level != l {
			continue // freed (or reused) since the list was made
		}
		if m.nodes[nd.low].level == l+1 || m.nodes[nd.high].level == l+1 {
			dep = append(dep, n)
		} else {
			keep = append(keep, n)
		}
	}
	rs.dep = dep
	// At most two new nodes per dependent x-node.
	if need := 2*len(dep) + 2; m.freeCount < need {
		for m.freeCount < need {
			nn := 0
			if len(m.nodes) < m.maxNodes {
				nn = m.budgetSize(len(m.nodes), min(2*len(m.nodes), m.maxNodes))
			}
			if nn == 0 {
				rs.varNodes[x] = append(keep, dep...) // the list was partitioned in place
				return false
			}
			m.resizeNodes(nn)
			m.st.Grows++
		}
		if len(rs.refs) < len(m.nodes) {
			rs.refs = append(rs.refs, make([]int32, len(m.nodes)-len(rs.refs))...)
		}
	}
	m.st.ReorderSwaps++
	// Dependent nodes leave their chains while they are still x-nodes.
	for _, n := range dep {
		m.unlink(n)
	}
	m.level2var[l], m.level2var[l+1] = y, x
	m.var2level[x], m.var2level[y] = l+1, l
	ys := rs.varNodes[y][:0]
	for _, n := range rs.varNodes[y] {
		if nd := &m.nodes[n]; nd.level == l+1 {
			nd.level = l
			ys = append(ys, n)
		}
	}
	for _, n := range keep {
		m.nodes[n].level = l + 1
	}
	rs.created = rs.created[:0]
	for _, n := range dep {
		nd := m.nodes[n]
		f0, f1 := nd.low, nd.high
		f00, f01 := f0, f0
		if m.nodes[f0].level == l { // a y-node (already moved up)
			f00, f01 = m.nodes[f0].low, m.nodes[f0].high
		}
		f10, f11 := f1, f1
		if m.nodes[f1].level == l {
			f10, f11 = m.nodes[f1].low, m.nodes[f1].high
		}
		lo := m.mkRef(rs, x, l+1, f00, f10)
		hi := m.mkRef(rs, x, l+1, f01, f11)
		rs.refs[lo]++
		rs.refs[hi]++
		m.nodes[n] = node{level: l, low: lo, high: hi}
		m.link(n)
		m.deref(rs, f0)
		m.deref(rs, f1)
	}
	rs.count[x] -= len(dep)
	rs.count[y] += len(dep)
	rs.varNodes[x] = append(keep, rs.created...)
	rs.varNodes[y] = append(ys, dep...)
	return true
}

// liveList filters the node list of variable v to its live nodes, at
// level l. A list holds each node index at most once: it is built from
// the table, a swap keeps the nodes of the filtered list that stay (each
// once) and adds the nodes it creates or relabels, which were not in it
// as live nodes; an index freed and reused since is dropped by the level
// check before the list gains it again.
func (m *Manager) liveList(rs *reorderState, v int32, l int32) []int32 {
	in := rs.varNodes[v]
	out := in[:0]
	for _, n := range in {
		if m.nodes[n].level == l {
			out = append(out, n)
		}
	}
	rs.varNodes[v] = out
	return out
}

// mkRef is mk for swaps: it never grows the table (swap reserved room)
// and counts the references of a node it creates. v is the variable at
// level.
func (m *Manager) mkRef(rs *reorderState, v, level int32, lo, hi Node) Node {
	if lo == hi {
		return lo
	}
	h := hashNode(v, lo, hi) >> m.bShift
	for i := m.buckets[h]; i != 0; i = m.nodes[i].next {
		nd := &m.nodes[i]
		if nd.low == lo && nd.high == hi && nd.level == level {
			return Node(i)
		}
	}
	i := m.freeHead
	m.freeHead = m.nodes[i].next
	m.freeCount--
	m.nodes[i] = node{level: level, low: lo, high: hi, next: m.buckets[h]}
	m.buckets[h] = i
	n := Node(i)
	rs.refs[n] = 0
	rs.refs[lo]++
	rs.refs[hi]++
	rs.count[v]++
	rs.created = append(rs.created, i)
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
		rs.count[m.level2var[nd.level]]--
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
	h := hashNode(m.level2var[nd.level], nd.low, nd.high) >> m.bShift
	p := &m.buckets[h]
	for *p != n {
		p = &m.nodes[*p].next
	}
	*p = nd.next
}

// link inserts node n into its unique-table chain.
func (m *Manager) link(n int32) {
	nd := &m.nodes[n]
	h := hashNode(m.level2var[nd.level], nd.low, nd.high) >> m.bShift
	nd.next = m.buckets[h]
	m.buckets[h] = n
}
