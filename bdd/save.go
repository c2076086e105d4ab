package bdd

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// savedMagic is the first line of a saved file.
const savedMagic = "boolprog-bdd 1"

// maxSavedLine bounds a line of a saved file (the order line lists every
// variable), so that a file without newlines cannot take all memory. A
// variable so that a test can lower it.
var maxSavedLine = 64 << 20

// maxSavedVars bounds the variables of a saved file: a manager cannot
// hold more (ExtVarNum).
const maxSavedVars = 1 << 30

// Saved is a set of BDDs in a form independent of any manager: read by
// ReadSaved (or built by hand), written by Manager.Save, rebuilt by
// Manager.Load. It exists so that the same diagrams can be rebuilt in
// another manager or another BDD package (the bench module loads the
// summary engine's BDDs into BuDDy to compare sifting on exactly them).
//
// The text format is line-oriented:
//
//	boolprog-bdd 1
//	vars 3
//	order 0 1 2
//	blocks 1
//	0 1
//	nodes 3
//	2 2 0 1
//	3 1 2 1
//	4 0 0 3
//	roots 1
//	4
//
// The first line names the format and its version. "vars N" is the number
// of variables (0 … N-1); "order" lists the variable at each level, top
// first (a permutation of the variables). "blocks K" is followed by K
// lines, each a block: variables at consecutive levels, listed in level
// order, no variable in two blocks (see Manager.AddBlock). "nodes M" is
// followed by M lines "id var low high": ids are integers ≥ 2, distinct;
// 0 is the constant false and 1 true; low (the else-branch) and high are
// 0, 1 or the id of an earlier line, so children come before their
// parents, and a node's variable must be above its children's variables
// in the order. "roots R" is followed by one line of R ids (0, 1 or node
// ids). Fields are separated by spaces or tabs; nothing else (no blank
// line, no comment) is accepted, so that a truncated or mangled file is
// an error rather than a different set of BDDs. Redundant (low = high) or
// duplicate nodes are accepted: Load merges them away.
type Saved struct {
	// Vars is the number of variables, named 0 … Vars-1.
	Vars int
	// Order is the variable at each level, top first: a permutation of
	// 0 … Vars-1.
	Order []int
	// Blocks are the groups that reordering keeps together
	// (Manager.AddBlock), each listing its variables in level order.
	Blocks [][]int
	// Nodes are the internal nodes, children before parents.
	Nodes []SavedNode
	// Roots are the saved BDDs: 0 (false), 1 (true) or the ID of a node.
	Roots []int
}

// SavedNode is one internal node of a Saved: variable Var, else-branch
// Low and then-branch High, each 0 (false), 1 (true) or the ID of an
// earlier node.
type SavedNode struct {
	ID, Var, Low, High int
}

// Save writes the BDDs fs to w in the saved text format (see Saved),
// with the blocks of m that still hold together. Only the variables in
// the support of fs are written, renumbered 0, 1, … in the order of their
// levels, so the saved order is the identity and a block is a range of
// variables: that is what packages whose blocks are index ranges need
// (BuDDy's bdd_intaddvarblock). A block keeps its variables of that
// support and is dropped if it has none. The file is canonical: it
// depends on the functions, the order and the blocks, not on the
// manager's node numbering. Invalid in fs is an error.
func (m *Manager) Save(w io.Writer, fs ...Node) error {
	if !m.checkAll(fs) {
		return errors.New("bdd: Save of an Invalid node")
	}
	// Post-order walk (low first) from the roots: children get their ids
	// before their parents, and the numbering depends only on the
	// diagrams. A map rather than a table over all nodes: the manager's
	// table may be far larger than the BDDs saved.
	ids := make(map[Node]int, 64)
	var post []Node
	type frame struct {
		n     Node
		state int8 // 0: low next, 1: high next, 2: done
	}
	var stack []frame
	usedLevel := make(map[int32]bool)
	for _, f := range fs {
		if f < 2 {
			continue
		}
		if _, ok := ids[f]; ok {
			continue
		}
		stack = append(stack[:0], frame{n: f})
		ids[f] = -1 // on the stack
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			nd := &m.nodes[top.n]
			if top.state == 2 {
				ids[top.n] = len(post) + 2
				post = append(post, top.n)
				usedLevel[nd.level] = true
				stack = stack[:len(stack)-1]
				continue
			}
			c := nd.low
			if top.state == 1 {
				c = nd.high
			}
			top.state++
			if c >= 2 {
				if _, ok := ids[c]; !ok {
					ids[c] = -1
					stack = append(stack, frame{n: c})
				}
			}
		}
	}
	// The saved variables: the support's levels, top first.
	levels := make([]int32, 0, len(usedLevel))
	for l := range usedLevel {
		levels = append(levels, l)
	}
	slices.Sort(levels)
	newVar := make(map[int32]int, len(levels)) // level -> saved variable
	for i, l := range levels {
		newVar[l] = i
	}
	var blocks [][]int
	for _, b := range m.blocks {
		if len(b.vars) == 0 {
			continue
		}
		ls := make([]int32, len(b.vars))
		for i, v := range b.vars {
			ls[i] = m.var2level[v]
		}
		slices.Sort(ls)
		if int(ls[len(ls)-1]-ls[0]) != len(ls)-1 {
			// Split by a reordering that ran out of room: sifting
			// treats its variables as free (groupsOf), so does the file.
			continue
		}
		var nb []int
		for _, l := range ls {
			if v, ok := newVar[l]; ok {
				nb = append(nb, v)
			}
		}
		if len(nb) > 0 {
			blocks = append(blocks, nb)
		}
	}
	// Blocks in level order too, so that the file is canonical.
	slices.SortFunc(blocks, func(a, b []int) int { return a[0] - b[0] })

	bw := bufio.NewWriter(w)
	var buf []byte
	line := func(xs ...int) {
		buf = buf[:0]
		for i, x := range xs {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(x), 10)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	fmt.Fprintf(bw, "%s\nvars %d\norder", savedMagic, len(levels))
	for i := range levels {
		fmt.Fprintf(bw, " %d", i)
	}
	fmt.Fprintf(bw, "\nblocks %d\n", len(blocks))
	for _, b := range blocks {
		line(b...)
	}
	fmt.Fprintf(bw, "nodes %d\n", len(post))
	for i, n := range post {
		nd := &m.nodes[n]
		line(i+2, newVar[nd.level], savedID(ids, nd.low), savedID(ids, nd.high))
	}
	fmt.Fprintf(bw, "roots %d\n", len(fs))
	rs := make([]int, len(fs))
	for i, f := range fs {
		rs[i] = savedID(ids, f)
	}
	line(rs...)
	return bw.Flush()
}

// savedID is the id of n in the file being saved: the constants keep
// their numbers.
func savedID(ids map[Node]int, n Node) int {
	if n < 2 {
		return int(n)
	}
	return ids[n]
}

// ReadSaved reads BDDs in the saved text format (see Manager.Save) and
// checks them (see Saved): anything malformed, inconsistent or truncated
// is an error naming the line, never a panic.
func ReadSaved(r io.Reader) (*Saved, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, min(64<<10, maxSavedLine)), maxSavedLine)
	lineNo := 0
	errAt := func(format string, args ...any) error {
		return fmt.Errorf("bdd: saved BDDs, line %d: %s", lineNo, fmt.Sprintf(format, args...))
	}
	next := func() ([]string, error) {
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return nil, fmt.Errorf("bdd: saved BDDs, after line %d: %w", lineNo, err)
			}
			return nil, fmt.Errorf("bdd: saved BDDs: unexpected end after line %d", lineNo)
		}
		lineNo++
		return strings.Fields(sc.Text()), nil
	}
	ints := func(fs []string) ([]int, error) {
		xs := make([]int, len(fs))
		for i, f := range fs {
			x, err := strconv.Atoi(f)
			if err != nil || x < 0 || x > 1<<62 {
				return nil, errAt("bad number %q", f)
			}
			xs[i] = x
		}
		return xs, nil
	}
	// header reads "word N" and returns N.
	header := func(word string) (int, error) {
		fs, err := next()
		if err != nil {
			return 0, err
		}
		if len(fs) != 2 || fs[0] != word {
			return 0, errAt("want %q and a count", word)
		}
		xs, err := ints(fs[1:])
		if err != nil {
			return 0, err
		}
		return xs[0], nil
	}

	fs, err := next()
	if err != nil {
		return nil, err
	}
	if strings.Join(fs, " ") != savedMagic {
		return nil, errAt("not saved BDDs (want %q)", savedMagic)
	}
	s := &Saved{}
	if s.Vars, err = header("vars"); err != nil {
		return nil, err
	}
	if s.Vars > maxSavedVars {
		return nil, errAt("%d variables, at most %d", s.Vars, maxSavedVars)
	}
	if fs, err = next(); err != nil {
		return nil, err
	}
	if len(fs) == 0 || fs[0] != "order" {
		return nil, errAt(`want "order" and the variables`)
	}
	if s.Order, err = ints(fs[1:]); err != nil {
		return nil, err
	}
	nb, err := header("blocks")
	if err != nil {
		return nil, err
	}
	// Counts are not trusted for allocation: a bad count must not
	// reserve memory that the file does not back.
	s.Blocks = make([][]int, 0, min(nb, 1<<10))
	for i := 0; i < nb; i++ {
		if fs, err = next(); err != nil {
			return nil, err
		}
		b, err := ints(fs)
		if err != nil {
			return nil, err
		}
		s.Blocks = append(s.Blocks, b)
	}
	nn, err := header("nodes")
	if err != nil {
		return nil, err
	}
	s.Nodes = make([]SavedNode, 0, min(nn, 1<<16))
	for i := 0; i < nn; i++ {
		if fs, err = next(); err != nil {
			return nil, err
		}
		if len(fs) != 4 {
			return nil, errAt("want a node: id var low high")
		}
		xs, err := ints(fs)
		if err != nil {
			return nil, err
		}
		s.Nodes = append(s.Nodes, SavedNode{ID: xs[0], Var: xs[1], Low: xs[2], High: xs[3]})
	}
	nr, err := header("roots")
	if err != nil {
		return nil, err
	}
	if fs, err = next(); err != nil {
		return nil, err
	}
	if s.Roots, err = ints(fs); err != nil {
		return nil, err
	}
	if len(s.Roots) != nr {
		return nil, errAt("%d roots, the count says %d", len(s.Roots), nr)
	}
	if sc.Scan() {
		lineNo++
		return nil, errAt("text after the roots")
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("bdd: saved BDDs, after line %d: %w", lineNo, err)
	}
	if _, err := s.check(); err != nil {
		return nil, err
	}
	return s, nil
}

// check validates s (a hand-built Saved is checked as strictly as a read
// one, so that Load never builds an unordered diagram nor panics) and
// returns the position in s.Nodes of each node id.
func (s *Saved) check() (map[int]int, error) {
	bad := func(format string, args ...any) (map[int]int, error) {
		return nil, fmt.Errorf("bdd: saved BDDs: %s", fmt.Sprintf(format, args...))
	}
	if s.Vars < 0 || s.Vars > maxSavedVars {
		return bad("bad number of variables %d", s.Vars)
	}
	if len(s.Order) != s.Vars {
		return bad("the order lists %d variables, not %d", len(s.Order), s.Vars)
	}
	level := make([]int, s.Vars)
	seen := make([]bool, s.Vars)
	for l, v := range s.Order {
		if v < 0 || v >= s.Vars || seen[v] {
			return bad("the order is not a permutation of the variables (%d at level %d)", v, l)
		}
		seen[v] = true
		level[v] = l
	}
	clear(seen) // now: in a block
	for i, b := range s.Blocks {
		if len(b) == 0 {
			return bad("block %d is empty", i)
		}
		for j, v := range b {
			if v < 0 || v >= s.Vars {
				return bad("block %d: no variable %d", i, v)
			}
			if seen[v] {
				return bad("block %d: variable %d is in two blocks", i, v)
			}
			seen[v] = true
			if j > 0 && level[v] != level[b[j-1]]+1 {
				return bad("block %d: variables not at consecutive levels in level order", i)
			}
		}
	}
	pos := make(map[int]int, len(s.Nodes))
	// levelOf is the level of the variable of node id (constants below
	// every variable); ok is false for an id not yet defined.
	levelOf := func(id int) (int, bool) {
		if id == 0 || id == 1 {
			return s.Vars, true
		}
		p, ok := pos[id]
		if !ok {
			return 0, false
		}
		return level[s.Nodes[p].Var], true
	}
	for i, n := range s.Nodes {
		if n.ID < 2 {
			return bad("node id %d (0 and 1 are the constants)", n.ID)
		}
		if _, dup := pos[n.ID]; dup {
			return bad("node %d defined twice", n.ID)
		}
		if n.Var < 0 || n.Var >= s.Vars {
			return bad("node %d: no variable %d", n.ID, n.Var)
		}
		for _, c := range [2]int{n.Low, n.High} {
			l, ok := levelOf(c)
			if !ok {
				return bad("node %d: child %d is not defined before it", n.ID, c)
			}
			if l <= level[n.Var] {
				return bad("node %d: child %d is not below variable %d in the order", n.ID, c, n.Var)
			}
		}
		pos[n.ID] = i
	}
	for _, r := range s.Roots {
		if _, ok := levelOf(r); !ok {
			return bad("root %d is not a node", r)
		}
	}
	return pos, nil
}

// Load rebuilds the BDDs of s in m and returns its roots, in order, as
// temporaries (keep them before the next Safepoint). m should be fresh
// (New): Load creates the variables of s (m may already hold at most
// s.Vars variables), sets the order of s (Manager.SetVarOrder), declares
// its blocks (Manager.AddBlock), then builds the nodes bottom-up. A node
// that is redundant (low = high) or a duplicate is merged away, as any
// operation would. An inconsistent s, an order or block that clashes with
// blocks m already has, or the node limit is an error; m may then hold
// part of s.
func (m *Manager) Load(s *Saved) ([]Node, error) {
	pos, err := s.check()
	if err != nil {
		return nil, err
	}
	if m.err != nil {
		return nil, m.err
	}
	if m.VarNum() > s.Vars {
		return nil, fmt.Errorf("bdd: Load: the manager has %d variables, the saved BDDs %d", m.VarNum(), s.Vars)
	}
	m.ExtVarNum(s.Vars - m.VarNum())
	if s.Vars > 0 {
		if err := m.SetVarOrder(s.Order); err != nil {
			return nil, err
		}
	}
	for _, b := range s.Blocks {
		if err := m.AddBlock(b...); err != nil {
			return nil, err
		}
	}
	built := make([]Node, len(s.Nodes))
	node := func(id int) Node {
		if id < 2 {
			return Node(id)
		}
		return built[pos[id]]
	}
	// One operation builds every node, so no collection can free the
	// nodes built so far (nothing is freed inside an operation).
	m.run(True, True, True, func() Node {
		for i, n := range s.Nodes {
			lo, hi := node(n.Low), node(n.High)
			l := m.var2level[n.Var]
			if l < m.nodes[lo].level && l < m.nodes[hi].level {
				built[i] = m.mk(l, lo, hi)
				continue
			}
			// Automatic reordering (ReorderSift or ReorderAuto) may
			// have abandoned an earlier attempt and changed the order:
			// then the node is the if-then-else of its variable.
			built[i] = m.ite(m.mk(l, False, True), hi, lo)
		}
		return True
	})
	if m.err != nil {
		return nil, m.err
	}
	roots := make([]Node, len(s.Roots))
	for i, r := range s.Roots {
		roots[i] = node(r)
		if roots[i] >= 2 {
			m.temps = append(m.temps, roots[i])
		}
	}
	return roots, nil
}
