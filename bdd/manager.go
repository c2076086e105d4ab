package bdd

import (
	"errors"
	"fmt"
	"math/bits"
	"time"
)

// Node is a BDD: a handle to a node of a Manager. Nodes are canonical, so
// two Nodes of one Manager are equal with == exactly when they denote the
// same Boolean function.
type Node int32

const (
	// False is the constant false function, in every Manager.
	False Node = 0
	// True is the constant true function, in every Manager.
	True Node = 1
	// Invalid is returned by every operation once the Manager holds an error
	// (see Manager.Err). It is never equal to a valid Node.
	Invalid Node = -1
)

// ErrNodeLimit is the sticky error recorded when an operation needs more
// nodes than Config.MaxNodes allows, even after garbage collection (or,
// matched by errors.Is, than the memory budget allows: ErrMemoryLimit).
var ErrNodeLimit = errors.New("bdd: node limit reached")

// ErrInterrupted is the sticky error recorded when the interrupt function
// (Manager.SetInterrupt) returned true while an operation was running.
var ErrInterrupted = errors.New("bdd: interrupted")

// Level of the terminals: below every variable.
const termLevel = int32(1<<31 - 1)

// freeLevel marks a node on the free list.
const freeLevel = int32(-1)

// node is one entry of the flat node table. 16 bytes, no pointers, so the
// Go garbage collector never scans the table.
type node struct {
	level     int32 // position in the variable order; termLevel for constants
	low, high Node
	next      int32 // next node in the unique-table chain or the free list (0 ends)
}

// DefaultMaxNodes is Config.MaxNodes when none is given: 1<<26 nodes,
// about 2.5 GiB with tables and cache.
const DefaultMaxNodes = 1 << 26

// Config sets up a Manager. The zero value gives sensible defaults.
type Config struct {
	// Vars is the number of variables created up front (more are created
	// on demand).
	Vars int
	// InitialNodes is the initial size of the node table (default 1<<16).
	// The table doubles when it is nearly full after a collection.
	InitialNodes int
	// MaxNodes bounds the node table; operations that need more nodes fail
	// with ErrNodeLimit. Default DefaultMaxNodes.
	MaxNodes int
	// CacheRatio is the number of nodes per entry of each of the three
	// computed caches (Boolean connectives, quantifiers, others; default
	// 4): the lossy caches grow with the node table. CacheSize, if set,
	// fixes the size of each cache (rounded up to a power of two) instead.
	CacheRatio int
	// CacheSize fixes the number of entries of each computed cache; see
	// CacheRatio.
	CacheSize int
	// AutoReorder enables dynamic reordering by sifting when the number of
	// live nodes has doubled since the last reordering (off by default).
	// It is the same as Reorder: ReorderSift; Reorder, if set, wins.
	AutoReorder bool
	// Reorder selects dynamic reordering (see ReorderMode); the zero
	// value, ReorderDefault, is off (unless AutoReorder is set).
	Reorder ReorderMode
	// ReorderMinNodes is the number of live nodes that triggers the first
	// automatic reordering (0: 1<<14 for ReorderSift, 1<<16 for
	// ReorderAuto). Later ones come when the live nodes have doubled since
	// the previous one, never below this minimum.
	ReorderMinNodes int
	// ReorderMaxGrowth bounds sifting: a group stops moving in a
	// direction once the size exceeds ReorderMaxGrowth times the best
	// size seen for it (0: 1.2, and 1.1 for ReorderAuto's reorderings).
	ReorderMaxGrowth float64
	// ReorderWindow bounds how far sifting moves a group from where it
	// started, in groups each way (0: anywhere, and 4 for ReorderAuto's
	// reorderings; negative: anywhere).
	ReorderWindow int
	// ReorderTimeLimit bounds the time of one reordering: sifting stops
	// (keeping the best order found) once it is spent. 0: no bound for
	// ReorderSift and Manager.Reorder; for ReorderAuto, a quarter of the
	// time the manager has lived before the reordering, at least 50ms.
	ReorderTimeLimit time.Duration
}

// Manager owns the nodes of a set of BDDs over a common set of variables.
// It is not safe for concurrent use.
type Manager struct {
	nodes     []node
	buckets   []int32 // unique table heads, len power of two
	bShift    uint    // 64 - log2(len(buckets))
	freeHead  int32
	freeCount int
	maxNodes  int

	var2level []int32
	level2var []int32

	caches     [numCaches][]cacheEntry
	relOps     map[int32]int32 // AndExistsReplace's operation code by Pairs id
	cShift     uint
	cacheRatio int
	cacheFixed int

	qset *VarSet // set of the running quantification (see advance)

	mayAbort bool   // the running operation may be abandoned for a reordering
	aborted  bool   // it was (see try)
	inOp     bool   // an operation body is running (under try)
	stopped  bool   // it was interrupted (see try)
	mkCalls  uint32 // mk calls, for polling interrupt
	// memLimited says that the memory budget refused a growth of the
	// node table during the running operation (see budgetSize).
	memLimited bool
	// stuckAt is the table size at which a collection before an
	// operation freed too little and the table could not grow (see
	// maybeGC); deniedAt, the size at which the budget refused a growth
	// (see budgetSize).
	stuckAt, deniedAt int

	roots []*Root
	temps []Node

	err   error
	epoch uint64 // bumped by every collection or reordering (VarSet cubes)
	// orderEpoch (≥ 1) is bumped by every change of the variable order.
	orderEpoch uint64
	nextID     int32 // ids of Pairs and one-shot compositions (cache keys)

	marks []uint64 // scratch mark bits, one per node

	blocks       []block
	blocked      map[int32]bool // the variables in blocks
	reorder      ReorderMode    // ReorderOff, ReorderSift, ReorderAuto or ReorderStress
	reorderMin   int            // see Config.ReorderMinNodes
	maxGrowth    float64        // 0: the mode's default (see Config.ReorderMaxGrowth)
	window       int            // 0: the mode's default, < 0: none (see Config.ReorderWindow)
	timeLimit    time.Duration
	reorderAt    int // live-node count triggering the next automatic reorder
	inReorder    bool
	reorderStart time.Time
	born         time.Time // creation time (ReorderAuto's time budget)
	stressOps    uint64    // operations run under ReorderStress
	unpaid       int       // ReorderAuto: reorderings in a row that gained < 10%
	interrupt    func() bool

	st Stats
}

// Stats reports the state and activity of a Manager.
type Stats struct {
	Vars         int           // variables created
	Nodes        int           // nodes allocated now (live or not yet collected)
	PeakNodes    int           // maximum of Nodes observed
	Capacity     int           // size of the node table
	CacheSize    int           // computed-cache entries (all caches)
	CacheLookups uint64        // computed-cache lookups
	CacheHits    uint64        // computed-cache hits
	GCs          int           // garbage collections
	GCTime       time.Duration // total time spent collecting
	GCFreed      uint64        // nodes freed by all collections
	Grows        int           // node-table growths
	Reorders     int           // reorderings (sifting runs)
	ReorderTime  time.Duration // total time spent reordering
	ReorderSwaps uint64        // adjacent level swaps done by reorderings
	// ReorderBefore and ReorderAfter are the live nodes before and after
	// the last reordering.
	ReorderBefore, ReorderAfter int
	// ReorderAborts counts operations abandoned and restarted so that a
	// reordering could run in the middle of their growth.
	ReorderAborts int
	NodeLimitHits int // operations that failed with ErrNodeLimit
}

// CacheHitRate is CacheHits/CacheLookups (0 without lookups).
func (s Stats) CacheHitRate() float64 {
	if s.CacheLookups == 0 {
		return 0
	}
	return float64(s.CacheHits) / float64(s.CacheLookups)
}

// New returns a Manager configured by cfg.
func New(cfg Config) *Manager {
	n := cfg.InitialNodes
	if n <= 0 {
		n = 1 << 16
	}
	if n < 64 {
		n = 64
	}
	max := cfg.MaxNodes
	if max <= 0 {
		max = DefaultMaxNodes
	}
	if max > 1<<30 {
		max = 1 << 30
	}
	if max < 64 {
		max = 64
	}
	if n > max {
		n = max
	}
	m := &Manager{maxNodes: max, cacheRatio: cfg.CacheRatio, cacheFixed: cfg.CacheSize, nextID: 1, orderEpoch: 1}
	if m.cacheRatio <= 0 {
		m.cacheRatio = 4
	}
	m.nodes = make([]node, 2, n)
	m.nodes[False] = node{level: termLevel, low: False, high: False}
	m.nodes[True] = node{level: termLevel, low: True, high: True}
	m.resizeNodes(n)
	m.resizeCache()
	m.born = time.Now()
	if cfg.ReorderMaxGrowth > 1 {
		m.maxGrowth = cfg.ReorderMaxGrowth
	}
	m.window = cfg.ReorderWindow
	if cfg.ReorderTimeLimit > 0 {
		m.timeLimit = cfg.ReorderTimeLimit
	}
	m.reorderMin = cfg.ReorderMinNodes
	mode := cfg.Reorder
	if mode == ReorderDefault && cfg.AutoReorder {
		mode = ReorderSift
	}
	m.SetReorder(mode)
	if cfg.Vars > 0 {
		m.ExtVarNum(cfg.Vars)
	}
	return m
}

// resizeNodes grows the node table to n entries and rebuilds the unique
// table. Node indices are unchanged.
func (m *Manager) resizeNodes(n int) {
	old := len(m.nodes)
	if cap(m.nodes) >= n {
		m.nodes = m.nodes[:n]
	} else {
		nn := makeTable[node](n)
		copy(nn, m.nodes)
		m.nodes = nn
	}
	// New entries go on the free list, lowest index first.
	for i := n - 1; i >= old; i-- {
		m.nodes[i] = node{level: freeLevel, low: Invalid, high: Invalid, next: m.freeHead}
		m.freeHead = int32(i)
	}
	m.freeCount += n - old
	nb := 1 << bits.Len(uint(n-1))
	m.bShift = uint(64 - bits.Len(uint(nb-1)))
	if cap(m.buckets) >= nb {
		m.buckets = m.buckets[:nb]
		clear(m.buckets)
	} else {
		m.buckets = makeTable[int32](nb)
	}
	for i := 2; i < old; i++ {
		nd := &m.nodes[i]
		if nd.level == freeLevel {
			continue
		}
		h := hashNode(m.level2var[nd.level], nd.low, nd.high) >> m.bShift
		nd.next = m.buckets[h]
		m.buckets[h] = int32(i)
	}
	if len(m.marks)*64 < n {
		m.marks = makeTable[uint64]((n + 63) / 64)
	}
	m.st.Capacity = n
}

// hashNode mixes a (variable, low, high) triple; the caller takes the top
// bits (Fibonacci hashing), which are well mixed by the multiplication.
// The variable, not the level, is hashed so that a reordering that moves a
// variable to another level without changing its nodes' children (most
// nodes of an adjacent swap) leaves them in their chains.
func hashNode(v int32, lo, hi Node) uint64 {
	x := uint64(uint32(lo))<<32 | uint64(uint32(hi))
	x ^= uint64(uint32(v)) * 0xC2B2AE3D27D4EB4F
	return x * 0x9E3779B97F4A7C15
}

// outOfNodes is panicked (and recovered inside the package) when an
// operation cannot get a node.
type outOfNodes struct{}

// reorderNow is panicked by grow (and recovered by run) to abandon an
// operation so that a reordering can run before it is restarted.
type reorderNow struct{}

// interrupted is panicked by mk (and recovered by run) when the interrupt
// function says stop.
type interrupted struct{}

// mk returns the unique node (level, lo, hi), creating it if needed.
func (m *Manager) mk(level int32, lo, hi Node) Node {
	if lo == hi {
		return lo
	}
	if m.interrupt != nil {
		// Poll the client's interrupt every 65,536 calls, so that one
		// long operation does not outlive the client's time limit. Every
		// call counts, not only those that create a node: an operation
		// whose results mostly exist already (an And of two large sets
		// that overlap) ran 10 s past conc-fix's deadline on SATABS'
		// Threads7 when only new nodes were counted.
		if m.mkCalls++; m.mkCalls&0xFFFF == 0 && m.inOp && m.interrupt() {
			panic(interrupted{})
		}
	}
	h := hashNode(m.level2var[level], lo, hi) >> m.bShift
	for i := m.buckets[h]; i != 0; {
		nd := &m.nodes[i]
		if nd.low == lo && nd.high == hi && nd.level == level {
			return Node(i)
		}
		i = nd.next
	}
	if m.freeHead == 0 {
		m.grow()
		h = hashNode(m.level2var[level], lo, hi) >> m.bShift
	}
	i := m.freeHead
	nd := &m.nodes[i]
	m.freeHead = nd.next
	m.freeCount--
	*nd = node{level: level, low: lo, high: hi, next: m.buckets[h]}
	m.buckets[h] = i
	return Node(i)
}

// grow doubles the node table within the limit, or panics outOfNodes.
// It is called in the middle of operations, so it never frees nodes. When
// automatic reordering is due (the live nodes reached the trigger) and the
// running operation may be restarted, it panics reorderNow instead: run
// then reorders and restarts the operation, so that one operation that
// blows up does not have to finish under the order that makes it blow up.
func (m *Manager) grow() {
	n := len(m.nodes)
	if m.mayAbort && m.autoDue() {
		panic(reorderNow{})
	}
	if n >= m.maxNodes {
		panic(outOfNodes{})
	}
	nn := 2 * n
	if nn > m.maxNodes {
		nn = m.maxNodes
	}
	if nn = m.budgetSize(n, nn); nn == 0 {
		panic(outOfNodes{}) // run records the memory limit
	}
	m.noteLive()
	m.resizeNodes(nn)
	m.st.Grows++
}

func (m *Manager) live() int { return len(m.nodes) - 2 - m.freeCount }

func (m *Manager) noteLive() {
	if l := m.live(); l > m.st.PeakNodes {
		m.st.PeakNodes = l
	}
}

// ---------------------------------------------------------------------
// Variables

// VarNum is the number of variables created so far.
func (m *Manager) VarNum() int { return len(m.var2level) }

// NewVar creates a variable at the bottom of the order and returns its index.
func (m *Manager) NewVar() int { return m.ExtVarNum(1) }

// ExtVarNum creates n new variables at the bottom of the order and returns
// the index of the first one.
func (m *Manager) ExtVarNum(n int) int {
	first := len(m.var2level)
	if n < 0 || first+n > 1<<30 {
		panic(fmt.Sprintf("bdd: ExtVarNum(%d): bad variable count", n))
	}
	for i := 0; i < n; i++ {
		v := int32(len(m.var2level))
		m.var2level = append(m.var2level, v)
		m.level2var = append(m.level2var, v)
	}
	m.st.Vars = len(m.var2level)
	return first
}

// needVar creates variables up to v on demand.
func (m *Manager) needVar(v int) {
	if v < 0 {
		panic(fmt.Sprintf("bdd: negative variable index %d", v))
	}
	if v >= len(m.var2level) {
		m.ExtVarNum(v + 1 - len(m.var2level))
	}
}

// Ithvar is the positive literal of variable v (created on demand).
func (m *Manager) Ithvar(v int) Node {
	m.needVar(v)
	// The level is read inside the body: run may reorder before it.
	return m.run(True, True, True, func() Node { return m.mk(m.var2level[v], False, True) })
}

// NIthvar is the negative literal of variable v (created on demand).
func (m *Manager) NIthvar(v int) Node {
	m.needVar(v)
	return m.run(True, True, True, func() Node { return m.mk(m.var2level[v], True, False) })
}

// Level is the current position of variable v in the order (0 = top).
func (m *Manager) Level(v int) int {
	m.needVar(v)
	return int(m.var2level[v])
}

// VarAtLevel is the variable at position l of the order.
func (m *Manager) VarAtLevel(l int) int { return int(m.level2var[l]) }

// Var is the variable labelling the root of f; -1 for constants.
func (m *Manager) Var(f Node) int {
	m.checkNode(f)
	if f < 2 {
		return -1
	}
	return int(m.level2var[m.nodes[f].level])
}

// Low is the else-branch (variable false) of the root of f; f for constants.
func (m *Manager) Low(f Node) Node {
	m.checkNode(f)
	return m.nodes[f].low
}

// High is the then-branch (variable true) of the root of f; f for constants.
func (m *Manager) High(f Node) Node {
	m.checkNode(f)
	return m.nodes[f].high
}

// ---------------------------------------------------------------------
// Errors and operation framing

// Err returns the sticky error (ErrNodeLimit, ErrInterrupted, or an error
// matching ErrMemoryLimit and ErrNodeLimit) or nil.
func (m *Manager) Err() error { return m.err }

// ClearErr clears the sticky error, e.g. after releasing roots, so that the
// Manager can be used again.
func (m *Manager) ClearErr() { m.err = nil }

// checkNode panics on a Node that is not a valid node of m.
func (m *Manager) checkNode(f Node) {
	if f < 0 || int(f) >= len(m.nodes) || m.nodes[f].level == freeLevel {
		if f == Invalid {
			panic("bdd: Invalid node used (check Manager.Err)")
		}
		panic(fmt.Sprintf("bdd: node %d is not a live node of this manager (freed after Safepoint, or from another manager)", f))
	}
}

// valid reports whether operands are usable; Invalid operands make the
// operation return Invalid, other bad operands panic.
func (m *Manager) valid(f Node) bool {
	if f == Invalid {
		return false
	}
	m.checkNode(f)
	return true
}

// run executes one top-level operation body. It may collect garbage before
// the body (keeping roots, temporaries and the operands a, b, c), retries
// the body once after a collection if the node limit was hit, records
// ErrNodeLimit if it still fails, and registers the result as a temporary.
func (m *Manager) run(a, b, c Node, body func() Node) Node {
	if m.err != nil || !m.valid(a) || !m.valid(b) || !m.valid(c) {
		return Invalid
	}
	m.memLimited = false
	m.maybeGC(a, b, c)
	if m.reorder == ReorderStress && !m.inReorder {
		m.stress(a, b, c)
	}
	m.mayAbort = m.reorder == ReorderSift || m.reorder == ReorderAuto
	r, ok := m.try(body)
	if !ok && m.aborted {
		// Abandoned for a reordering (once per operation): reorder with
		// the operands kept, then start again under the new order.
		m.mayAbort, m.aborted = false, false
		m.st.ReorderAborts++
		m.reorderWith(a, b, c)
		m.resizeCache()
		r, ok = m.try(body)
	}
	m.mayAbort = false
	if !ok && !m.stopped {
		m.collect(a, b, c)
		if m.reorder == ReorderSift || m.reorder == ReorderAuto {
			// Out of nodes: a better order may make the operation fit.
			m.reorderWith(a, b, c)
		}
		r, ok = m.try(body)
	}
	if !ok && m.stopped {
		m.stopped = false
		m.err = ErrInterrupted
		return Invalid
	}
	if !ok {
		m.err = ErrNodeLimit
		if m.memLimited {
			m.err = &memoryLimitError{nodes: len(m.nodes), budget: memoryLimit.Load()}
		}
		m.st.NodeLimitHits++
		return Invalid
	}
	if r >= 2 {
		m.temps = append(m.temps, r)
	}
	return r
}

// try runs body, recovering outOfNodes, reorderNow (which sets
// m.aborted) and interrupted (which sets m.stopped) as a failure.
func (m *Manager) try(body func() Node) (r Node, ok bool) {
	m.inOp = true
	defer func() {
		m.inOp = false
		if p := recover(); p != nil {
			switch p.(type) {
			case interrupted:
				r, ok = Invalid, false
				m.stopped = true
				return
			case outOfNodes:
				r, ok = Invalid, false
				return
			case reorderNow:
				r, ok = Invalid, false
				m.aborted = true
				return
			}
			panic(p)
		}
	}()
	return body(), true
}

// maybeGC collects at the start of an operation when fewer than 1/8 of the
// table is free, and grows the table when a collection freed too little.
func (m *Manager) maybeGC(a, b, c Node) {
	if m.freeCount >= len(m.nodes)/8 || m.stuckAt == len(m.nodes) {
		return
	}
	m.collect(a, b, c)
	if m.freeCount < len(m.nodes)*2/5 && len(m.nodes) < m.maxNodes {
		nn := 2 * len(m.nodes)
		if nn > m.maxNodes {
			nn = m.maxNodes
		}
		if nn = m.budgetSize(len(m.nodes), nn); nn > 0 {
			m.resizeNodes(nn)
			m.st.Grows++
		}
	}
	if m.freeCount < len(m.nodes)/8 {
		// The table cannot grow (node limit, memory budget) and a
		// collection frees too little: collecting before every
		// operation would make each one cost a sweep of the table.
		// Until the table grows, collect only when an operation runs
		// out of nodes (run).
		m.stuckAt = len(m.nodes)
	}
	if m.autoDue() {
		m.reorderWith(a, b, c)
	}
	m.resizeCache()
}

// ---------------------------------------------------------------------
// Roots

// Root keeps a Node (and everything below it) alive across Safepoints and
// collections. Create with Manager.Keep; Set replaces the kept Node;
// Release ends the protection. A Root must not be used after Release.
type Root struct {
	m   *Manager
	n   Node
	idx int
}

// Keep returns a new Root holding n.
func (m *Manager) Keep(n Node) *Root {
	if n != Invalid {
		m.checkNode(n)
	}
	r := &Root{m: m, n: n, idx: len(m.roots)}
	m.roots = append(m.roots, r)
	return r
}

// Node returns the Node held by r.
func (r *Root) Node() Node { return r.n }

// Set makes r hold n instead of its previous Node.
func (r *Root) Set(n Node) {
	if r.idx < 0 {
		panic("bdd: Set on a released Root")
	}
	if n != Invalid {
		r.m.checkNode(n)
	}
	r.n = n
}

// Release drops the protection of r. Releasing twice is harmless.
func (r *Root) Release() {
	if r.idx < 0 {
		return
	}
	rs := r.m.roots
	last := rs[len(rs)-1]
	rs[r.idx] = last
	last.idx = r.idx
	rs[len(rs)-1] = nil
	r.m.roots = rs[:len(rs)-1]
	r.idx = -1
}

// Safepoint declares that every Node the caller still needs is held by a
// Root: temporaries returned since the previous Safepoint become
// collectable. It does not collect by itself (see GC).
func (m *Manager) Safepoint() {
	clear(m.temps)
	m.temps = m.temps[:0]
}

// GC is a Safepoint followed by an immediate garbage collection, keeping
// only Nodes reachable from Roots.
func (m *Manager) GC() {
	m.Safepoint()
	m.collect(Invalid, Invalid, Invalid)
	m.resizeCache()
}

// ---------------------------------------------------------------------
// Garbage collection: mark from roots, temporaries and operands, then
// sweep the whole table, rebuilding the unique-table chains and free list.

func (m *Manager) mark(f Node, stack []Node) []Node {
	if f < 2 {
		return stack
	}
	marks := m.marks
	if marks[f>>6]&(1<<(f&63)) != 0 {
		return stack
	}
	marks[f>>6] |= 1 << (f & 63)
	stack = append(stack, f)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := &m.nodes[n]
		for _, c := range [2]Node{nd.low, nd.high} {
			if c >= 2 && marks[c>>6]&(1<<(c&63)) == 0 {
				marks[c>>6] |= 1 << (c & 63)
				stack = append(stack, c)
			}
		}
	}
	return stack
}

func (m *Manager) collect(a, b, c Node) {
	start := time.Now()
	m.noteLive()
	clear(m.marks)
	var stack []Node
	for _, r := range m.roots {
		if r.n != Invalid {
			stack = m.mark(r.n, stack)
		}
	}
	for _, t := range m.temps {
		stack = m.mark(t, stack)
	}
	for _, x := range [3]Node{a, b, c} {
		if x != Invalid {
			stack = m.mark(x, stack)
		}
	}
	m.sweep()
	clear(m.marks) // visit relies on all marks being clear between uses
	m.clearCache()
	m.epoch++
	m.st.GCs++
	m.st.GCTime += time.Since(start)
}

// sweep frees unmarked nodes and rebuilds chains from the marked ones.
func (m *Manager) sweep() {
	clear(m.buckets)
	m.freeHead = 0
	free := 0
	marks := m.marks
	for i := len(m.nodes) - 1; i >= 2; i-- {
		nd := &m.nodes[i]
		if marks[i>>6]&(1<<(uint(i)&63)) != 0 {
			h := hashNode(m.level2var[nd.level], nd.low, nd.high) >> m.bShift
			nd.next = m.buckets[h]
			m.buckets[h] = int32(i)
			continue
		}
		if nd.level != freeLevel {
			m.st.GCFreed++
		}
		*nd = node{level: freeLevel, low: Invalid, high: Invalid, next: m.freeHead}
		m.freeHead = int32(i)
		free++
	}
	m.freeCount = free
}

// Stats returns a snapshot of the statistics.
func (m *Manager) Stats() Stats {
	m.noteLive()
	s := m.st
	s.Nodes = m.live()
	s.Capacity = len(m.nodes)
	s.CacheSize = numCaches * len(m.caches[0])
	s.Vars = len(m.var2level)
	return s
}
