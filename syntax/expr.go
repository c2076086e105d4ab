package syntax

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Expressions are parsed in two steps, so that no input can make the parser
// (or any later walker of the tree) recurse once per operand:
//
//  1. A group (a whole condition or right-hand side, or the inside of one
//     pair of parentheses) is read as a flat list of operands (a primary
//     with its prefix operators) and the binary operators between them. Only
//     parentheses, `!` and `schoose` recurse, and they count toward
//     MaxNesting.
//  2. The tree is built from that list by the dialect's precedence table.
//     A run of one associative operator (`&`, `|`, `^`, `=`, `!=`) becomes a
//     balanced tree of its operands, so a chain of n terms is O(log n) deep
//     (the grouping of such a run does not change its meaning). Everything
//     else nests as the precedence says, and counts toward MaxNesting: each
//     `=>` of a chain (it is not associative), and each change of operator
//     within one precedence level (`a = b != c`).
//
// The tree records no grouping within a run: an operand of a run that is a
// parenthesised group whose top operator is the run's own operator is
// merged into the run, so `((a & b) & c) & d`, `a & (b & c) & d` and
// `a & b & c & d` give the same tree (c2bp writes every chain fully
// parenthesised). To keep that linear however deeply such groups nest, a
// parenthesised group's top run is not built at once: parsePrimary returns
// it as a pending run (see run), which the enclosing run takes over whole
// if it has the same operator, without copying its operands, and which is
// otherwise built where it is used. Each run is thus built once, from all
// of its operands.
//
// The balanced shape is fixed: a run of n operands puts the first ⌈n/2⌉ on
// the left, recursively. So every maximal region of one associative
// operator in a parsed tree is the balanced tree of its operands, and the
// printer writes it as a flat chain (see writeExpr).

// parseExprList parses `e1, e2, ...`.
func (p *parser) parseExprList() []Expr {
	list := []Expr{p.parseExpr()}
	for p.got(tComma) {
		list = append(list, p.parseExpr())
	}
	return list
}

func (p *parser) parseExpr() Expr {
	return p.parseGroup(false).expr()
}

// binaryOp maps a token to its operator.
func binaryOp(t token) (Op, bool) {
	switch t {
	case tAnd:
		return And, true
	case tOr:
		return Or, true
	case tXor:
		return Xor, true
	case tEq:
		return Eq, true
	case tNeq:
		return Neq, true
	case tImplies:
		return Implies, true
	}
	return 0, false
}

// opSet is a set of binary operators.
type opSet uint16

func setOf(ops ...Op) opSet {
	var s opSet
	for _, op := range ops {
		s |= 1 << op
	}
	return s
}

func (s opSet) has(op Op) bool { return s&(1<<op) != 0 }

// A level is one precedence level: its operators and whether they group to
// the right.
type level struct {
	ops   opSet
	right bool
}

// levels holds each dialect's precedence levels, loosest first.
var levels = [...][]level{
	CProver: {{setOf(Eq, Neq, Implies), true}, {setOf(Xor), false}, {setOf(Or), false}, {setOf(And), false}},
	Getafix: {{setOf(Implies), false}, {setOf(Or), false}, {setOf(Xor), false}, {setOf(And), false}, {setOf(Eq, Neq), false}},
}

// precedence returns how tightly op binds in dialect d (higher binds
// tighter) and whether it groups to the right.
func precedence(d Dialect, op Op) (prec int, right bool) {
	for i, l := range levels[d] {
		if l.ops.has(op) {
			return i + 1, l.right
		}
	}
	return 0, false
}

// allOps reports whether every operator of ops is op.
func allOps(ops []chainOp, op Op) bool {
	for _, o := range ops {
		if o.op != op {
			return false
		}
	}
	return true
}

// associative reports whether any grouping of a chain of op means the
// same: true for all binary operators but `=>`.
func associative(op Op) bool { return op != Implies }

// An operand is one operand of a group with its nesting height: how many
// levels of nodes that count toward MaxNesting it holds. A parenthesised
// group whose top is a run is pending: r holds the run and x is nil until
// the run is built.
type operand struct {
	x Expr
	h int
	r *run
}

// expr returns the operand's expression, building it if it is pending.
func (o operand) expr() Expr {
	if o.r != nil {
		return o.r.expr()
	}
	return o.x
}

// A run is a run of one operator not yet built as a tree: its operands in
// order, each an expression or a pending run of the same operator merged
// here (not copied: merging costs one item whatever the merged run's
// length), and the positions of the operators between them. A run of `=>`
// has two operands and merges nothing.
type run struct {
	op    Op
	items []runItem
	ops   []Pos // ops[i] is between items[i] and items[i+1]
	h     int   // nesting height once built: one more than its operands'
	x     Expr  // the built tree, once built
}

// A runItem is an operand of a run: x, or when sub is set, the operands of
// sub.
type runItem struct {
	x   Expr
	sub *run
}

// join returns the run of leaves joined by operators op at positions opPos
// (which it keeps): a pending leaf with the same associative operator is
// merged, any other pending leaf is built.
func join(op Op, leaves []operand, opPos []Pos) *run {
	r := &run{op: op, items: make([]runItem, len(leaves)), ops: opPos}
	h := 0
	for i, l := range leaves {
		if l.r != nil && l.r.op == op && associative(op) {
			r.items[i].sub = l.r
			h = max(h, l.r.h-1)
			continue
		}
		r.items[i].x = l.expr()
		h = max(h, l.h)
	}
	r.h = h + 1
	return r
}

// expr builds the run as the balanced tree of all its operands (those of
// merged runs included), once. Collecting the operands uses an explicit
// stack, as deep as merged runs nest (at most MaxNesting: each is inside
// one more pair of parentheses).
func (r *run) expr() Expr {
	if r.x != nil {
		return r.x
	}
	var leaves []operand
	var ops []chainOp
	type frame struct {
		r *run
		i int
	}
	stack := []frame{{r, 0}}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.i == len(f.r.items) {
			stack = stack[:len(stack)-1]
			continue
		}
		i := f.i
		f.i++
		if i > 0 {
			ops = append(ops, chainOp{r.op, f.r.ops[i-1]})
		}
		if it := f.r.items[i]; it.sub != nil {
			stack = append(stack, frame{it.sub, 0})
		} else {
			leaves = append(leaves, operand{x: it.x})
		}
	}
	r.x = balancedExpr(leaves, ops)
	return r.x
}

// A chainOp is a binary operator of a group and where it was written.
type chainOp struct {
	op  Op
	pos Pos
}

// parseGroup parses an expression group and returns it as an operand with
// its nesting height. If pending is set (the group is in parentheses), a
// group whose top is a run is returned as a pending run, for the enclosing
// group to merge or build; otherwise the operand is built.
func (p *parser) parseGroup(pending bool) operand {
	x := p.parseUnary()
	op, ok := binaryOp(p.tok())
	if !ok {
		if !pending && x.r != nil {
			x = operand{x: x.expr(), h: x.h}
		}
		return x
	}
	// The operands and operators go on stacks shared by all groups (a
	// group inside parentheses is complete before its enclosing group
	// goes on), so that a group costs no allocation of its own.
	base, opBase := len(p.operands), len(p.ops)
	defer func() {
		p.operands, p.ops = p.operands[:base], p.ops[:opBase]
	}()
	p.operands = push(p.operands, x)
	for ok {
		p.ops = push(p.ops, chainOp{op, p.sc.pos})
		p.next()
		p.operands = push(p.operands, p.parseUnary())
		op, ok = binaryOp(p.tok())
	}
	operands, ops := p.operands[base:], p.ops[opBase:]
	if one := ops[0].op; len(ops) == 1 || associative(one) && allOps(ops, one) {
		// One operator, the common case: a single balanced run,
		// the same in both dialects.
		h, merge := 0, false
		for i, o := range operands {
			if o.r != nil && o.r.op == one && associative(one) {
				merge = true
			} else if o.r != nil {
				operands[i] = operand{x: o.expr(), h: o.h}
			}
			h = max(h, o.h)
		}
		if !pending && !merge {
			// Nothing to merge and nothing to defer: build the
			// tree straight from the operands.
			h++
			if p.depth+h > MaxNesting {
				p.tooDeep(ops[0].pos)
			}
			return operand{x: balancedExpr(operands, ops), h: h}
		}
		pos := make([]Pos, len(ops))
		for i, o := range ops {
			pos[i] = o.pos
		}
		r := join(one, operands, pos)
		if p.depth+r.h > MaxNesting {
			p.tooDeep(ops[0].pos)
		}
		if !pending {
			return operand{x: r.expr(), h: r.h}
		}
		return operand{h: r.h, r: r}
	}
	b := &builder{p: p, d: p.dialect, operands: operands, ops: ops, materialize: true}
	track := dialectSensitive(ops)
	if track {
		b.track()
	}
	top := b.build(0, len(operands)-1, 0)
	if track {
		p.checkAmbiguity(b)
	}
	if !pending && top.r != nil {
		return operand{x: top.expr(), h: top.h}
	}
	return top.operand
}

// push appends x to stack, doubling its capacity when full (append grows
// large slices by a quarter, which for a chain of millions of operands
// copies it many more times).
func push[T any](stack []T, x T) []T {
	if len(stack) == cap(stack) {
		grown := make([]T, len(stack), 2*cap(stack)+16)
		copy(grown, stack)
		stack = grown
	}
	return append(stack, x)
}

// balancedExpr returns the balanced tree of operands joined by ops, all of
// one operator.
func balancedExpr(operands []operand, ops []chainOp) Expr {
	if len(operands) == 1 {
		return operands[0].x
	}
	m := (len(operands) + 1) / 2
	return &Binary{
		X:     balancedExpr(operands[:m], ops[:m-1]),
		OpPos: ops[m-1].pos,
		Op:    ops[m-1].op,
		Y:     balancedExpr(operands[m:], ops[m:]),
	}
}

// parseUnary parses an operand of a group: a primary with its prefix
// operators. A parenthesised group is returned pending (see parseGroup).
func (p *parser) parseUnary() operand {
	switch p.tok() {
	case tNot:
		pos := p.sc.pos
		p.next()
		p.enter()
		defer p.leave()
		x := p.parseUnary()
		return operand{x: &Unary{OpPos: pos, Op: Not, X: x.expr()}, h: x.h + 1}
	case tTick:
		pos := p.sc.pos
		p.next()
		if p.tok() != tIdent {
			p.fail("variable name after prime (')")
		}
		return operand{x: &VarRef{TickPos: pos, Primed: true, Name: p.parseIdent()}}
	}
	return p.parsePrimary()
}

func (p *parser) parsePrimary() operand {
	pos := p.sc.pos
	switch p.tok() {
	case tLparen:
		p.next()
		p.enter()
		defer p.leave()
		x := p.parseGroup(true)
		p.expect(tRparen)
		return x
	case tStar:
		p.next()
		return operand{x: &Nondet{StarPos: pos}}
	case tNumber:
		lit := p.sc.lit
		p.next()
		switch lit {
		case "0":
			return operand{x: &Const{ValuePos: pos, Value: false}}
		case "1":
			return operand{x: &Const{ValuePos: pos, Value: true}}
		}
		p.errorAt(pos, fmt.Sprintf("invalid constant %s: the Boolean constants are 0, 1, F and T", lit))
		panic(syntaxError{})
	case tIdent:
		if lit := p.sc.lit; !p.sc.braced && (lit == "T" || lit == "F" || p.mode&AllowTrueFalse != 0 && (lit == "true" || lit == "false")) {
			v := lit == "T" || lit == "true"
			p.next()
			return operand{x: &Const{ValuePos: pos, Value: v}}
		}
		id := p.parseIdent()
		if p.tok() == tLparen {
			p.errorAt(p.sc.pos, fmt.Sprintf("call of %s inside an expression: a call must be a statement of its own (x := %s(...);)", id.Name, id.Name))
			panic(syntaxError{})
		}
		return operand{x: &VarRef{TickPos: pos, Name: id}}
	case tBackslash:
		return p.parseBackslash()
	case kwSchoose:
		p.next()
		p.enter()
		defer p.leave()
		s := &Schoose{Keyword: pos}
		p.expect(tLbrack)
		pc := p.parseGroup(false)
		s.PosCond = pc.x
		if p.tok() == tRbrack {
			p.errorAt(p.sc.pos, "schoose takes two arguments: schoose[pos, neg]")
			panic(syntaxError{})
		}
		p.expect(tComma)
		nc := p.parseGroup(false)
		s.NegCond = nc.x
		if p.tok() == tComma {
			p.errorAt(p.sc.pos, "schoose takes two arguments: schoose[pos, neg]")
			panic(syntaxError{})
		}
		p.expect(tRbrack)
		return operand{x: s, h: max(pc.h, nc.h) + 1}
	}
	p.fail("expression")
	return operand{}
}

// ---------------------------------------------------------------------------
// Building the tree of a group

// A builder builds the tree of one group in dialect d. With materialize
// unset it only computes the shape (for the ambiguity check); with the
// shape arrays allocated (track) it records the shape.
type builder struct {
	p           *parser
	d           Dialect
	operands    []operand
	ops         []chainOp
	materialize bool

	// The shape, by operator index k (ops[k] is between operands k and
	// k+1, and each operator is the root of exactly one subtree): the
	// operands its subtree covers, its children and its parent. A child
	// or parent reference r >= 0 is an operator index, r < 0 is operand
	// -r-1; the root's parent is noParent.
	span       []span
	kids       [][2]int
	parent     []int
	leafParent []int
}

// A span is the range lo..hi (inclusive) of a group's operands.
type span struct{ lo, hi int }

const noParent = -1 << 31

// A piece is a built subtree: as an operand (when materialising; a run is
// left pending, for the run that takes it as an operand to merge or build),
// the operands of the group it covers, and its root reference.
type piece struct {
	operand
	lo, hi int
	ref    int
}

func (b *builder) track() {
	n := len(b.ops)
	b.span = make([]span, n)
	b.kids = make([][2]int, n)
	b.parent = make([]int, n)
	b.leafParent = make([]int, n+1)
}

// build builds operands lo..hi, whose operators all bind at least as
// tightly as levels[b.d][lv].
func (b *builder) build(lo, hi, lv int) piece {
	if lo == hi {
		return piece{operand: b.operands[lo], lo: lo, hi: hi, ref: -lo - 1}
	}
	lvs := levels[b.d]
	var ks []int
	for ; lv < len(lvs); lv++ {
		for k := lo; k < hi; k++ {
			if lvs[lv].ops.has(b.ops[k].op) {
				ks = append(ks, k)
			}
		}
		if ks != nil {
			break
		}
	}
	segs := make([]piece, 0, len(ks)+1)
	start := lo
	for _, k := range ks {
		segs = append(segs, b.build(start, k, lv+1))
		start = k + 1
	}
	segs = append(segs, b.build(start, hi, lv+1))
	if lvs[lv].right {
		return b.combineRight(segs, ks)
	}
	return b.combineLeft(segs, ks)
}

// combineLeft joins the pieces of one level, whose operators ks group to
// the left; a run of one associative operator is joined in one balanced
// step.
func (b *builder) combineLeft(segs []piece, ks []int) piece {
	acc := segs[0]
	for i := 0; i < len(ks); {
		op := b.ops[ks[i]].op
		j := i + 1
		if associative(op) {
			for j < len(ks) && b.ops[ks[j]].op == op {
				j++
			}
		}
		leaves := make([]piece, 0, j-i+1)
		leaves = append(leaves, acc)
		leaves = append(leaves, segs[i+1:j+1]...)
		acc = b.run(leaves, ks[i:j], op)
		i = j
	}
	return acc
}

// combineRight is combineLeft for operators that group to the right.
func (b *builder) combineRight(segs []piece, ks []int) piece {
	acc := segs[len(segs)-1]
	for i := len(ks) - 1; i >= 0; {
		op := b.ops[ks[i]].op
		j := i - 1
		if associative(op) {
			for j >= 0 && b.ops[ks[j]].op == op {
				j--
			}
		}
		leaves := make([]piece, 0, i-j+1)
		leaves = append(leaves, segs[j+1:i+1]...)
		leaves = append(leaves, acc)
		acc = b.run(leaves, ks[j+1:i+1], op)
		i = j
	}
	return acc
}

// run joins leaves with the operators opIdx, all op, as one run: one level
// of nesting whatever its length. It records the run's balanced shape over
// leaves when tracking; when materialising, the piece is the pending run of
// leaves (see join).
func (b *builder) run(leaves []piece, opIdx []int, op Op) piece {
	n := piece{lo: leaves[0].lo, hi: leaves[len(leaves)-1].hi}
	if b.span != nil {
		n.ref = b.balanced(leaves, opIdx, op)
	}
	if b.materialize {
		ls := make([]operand, len(leaves))
		for i, l := range leaves {
			ls[i] = l.operand
		}
		pos := make([]Pos, len(opIdx))
		for i, k := range opIdx {
			pos[i] = b.ops[k].pos
		}
		r := join(op, ls, pos)
		if b.p.depth+r.h > MaxNesting {
			b.p.tooDeep(b.ops[opIdx[0]].pos)
		}
		n.operand = operand{h: r.h, r: r}
	}
	return n
}

// balanced records the balanced shape of leaves joined by the operators
// opIdx and returns its root reference.
func (b *builder) balanced(leaves []piece, opIdx []int, op Op) int {
	if len(leaves) == 1 {
		return leaves[0].ref
	}
	m := (len(leaves) + 1) / 2
	l := b.balanced(leaves[:m], opIdx[:m-1], op)
	r := b.balanced(leaves[m:], opIdx[m:], op)
	k := opIdx[m-1]
	b.span[k] = span{leaves[0].lo, leaves[len(leaves)-1].hi}
	b.kids[k] = [2]int{l, r}
	b.parent[k] = noParent
	b.setParent(l, k)
	b.setParent(r, k)
	return k
}

func (b *builder) setParent(ref, k int) {
	if ref < 0 {
		b.leafParent[-ref-1] = k
	} else {
		b.parent[ref] = k
	}
}

// covering returns the smallest subtree of the recorded shape that covers
// operands lo..hi (lo < hi).
func (b *builder) covering(lo, hi int) int {
	k := b.leafParent[lo]
	for b.span[k].hi < hi {
		k = b.parent[k]
	}
	return k
}

// expr returns the expression of the recorded subtree ref, built afresh.
func (b *builder) expr(ref int) Expr {
	if ref < 0 {
		return b.operands[-ref-1].expr()
	}
	return &Binary{X: b.expr(b.kids[ref][0]), OpPos: b.ops[ref].pos, Op: b.ops[ref].op, Y: b.expr(b.kids[ref][1])}
}

// ---------------------------------------------------------------------------
// Dialect ambiguities

// dialectSensitive reports whether the operators of a group may give
// different trees in the two dialects: two operators whose relative binding
// differs, or a repeated non-associative one whose grouping differs.
// Groups it rejects need no second build.
func dialectSensitive(ops []chainOp) bool {
	var present opSet
	implies := 0
	for _, o := range ops {
		present |= 1 << o.op
		if o.op == Implies {
			implies++
		}
	}
	all := []Op{And, Or, Xor, Eq, Neq, Implies}
	for i, a := range all {
		if !present.has(a) {
			continue
		}
		ca, ra := precedence(CProver, a)
		ga, rga := precedence(Getafix, a)
		if a == Implies && implies > 1 && ra != rga {
			return true
		}
		for _, b := range all[i+1:] {
			if !present.has(b) {
				continue
			}
			cb, _ := precedence(CProver, b)
			gb, _ := precedence(Getafix, b)
			if cmp.Compare(ca, cb) != cmp.Compare(ga, gb) {
				return true
			}
			if ca == cb && ra != rga {
				return true
			}
		}
	}
	return false
}

// checkAmbiguity builds the group of a (built in the parser's dialect, with
// its shape tracked) in the other dialect too, and records a warning for
// each part that the two read differently.
func (p *parser) checkAmbiguity(a *builder) {
	other := Getafix
	if a.d == Getafix {
		other = CProver
	}
	o := &builder{p: p, d: other, operands: a.operands, ops: a.ops}
	o.track()
	o.build(0, len(a.operands)-1, 0)
	var diff []span
	for k := range a.ops {
		if a.span[k] != o.span[k] {
			diff = append(diff, a.span[k], o.span[k])
		}
	}
	if diff == nil {
		return
	}
	// Overlapping differences are one ambiguity; report each at the
	// smallest subexpression that both dialects have as a subtree.
	slices.SortFunc(diff, func(x, y span) int { return cmp.Compare(x.lo, y.lo) })
	seen := map[span]bool{}
	for i := 0; i < len(diff); {
		c := diff[i]
		for i++; i < len(diff) && diff[i].lo <= c.hi; i++ {
			c.hi = max(c.hi, diff[i].hi)
		}
		var ka, ko int
		for {
			ka = a.covering(c.lo, c.hi)
			c = a.span[ka]
			ko = o.covering(c.lo, c.hi)
			if o.span[ko] == c {
				break
			}
			c = o.span[ko]
		}
		if seen[c] {
			continue
		}
		seen[c] = true
		var src strings.Builder
		for j := c.lo; j <= c.hi; j++ {
			if j > c.lo {
				src.WriteString(" " + a.ops[j-1].op.String() + " ")
			}
			x := a.operands[j].expr()
			if _, ok := x.(*Binary); ok {
				src.WriteString("(" + ExprString(x) + ")")
			} else {
				src.WriteString(ExprString(x))
			}
		}
		msg := fmt.Sprintf("%s means %s here (%s precedence) but %s with %s precedence; add parentheses to say which",
			clip(src.String()), clip(ExprString(a.expr(ka))), a.d, clip(ExprString(o.expr(ko))), other)
		p.ambiguities.Add(p.filename, a.operands[c.lo].expr().Pos(), msg)
	}
}

// clip shortens an expression's text for a message, cutting at character
// boundaries.
func clip(s string) string {
	const keep = 40
	if len(s) <= 2*keep+5 {
		return s
	}
	head, tail := keep, len(s)-keep
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return strings.TrimRight(s[:head], " ") + " ... " + strings.TrimLeft(s[tail:], " ")
}
