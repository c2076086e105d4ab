package wpds

import (
	"fmt"
	"slices"

	"boolprog/internal/graph"
)

// FWPDS (Lal's thesis, ch. 4) computes the same automata as the chaotic
// saturation of Prestar and Poststar, in three stages:
//
//  1. An unweighted saturation finds the transitions of the result and the
//     productions of the abstract grammar (Figs. 2.13, 2.14, 3.9, 3.13)
//     that give their weights: roots (a constant), unary productions
//     (a transition from one other) and binary ones (from two others, at a
//     push rule in pre* or an ε-closure in post*). This is the transition
//     dependence graph (TDG, Defn. 4.1.1).
//  2. Each binary production is cut (§4.1.2): its callee transition
//     becomes an out-node, a variable X, and the production becomes an
//     edge from the caller's transition labelled with an expression over
//     X. What is left is a graph, and its single-source path-expression
//     problem (which Tarjan's algorithm solves with dominators) is solved
//     here by the strongly connected components in topological order and,
//     inside a component, Gaussian elimination of one transition after
//     another, whose self-loops become Kleene stars; the expressions share
//     sub-expressions (a DAG). In post*, the transition into a push rule's
//     state gets One only once the rule applies: a guard on the
//     transition that triggers it, which is an out-node too.
//  3. The out-node equations X = P(X) are solved one strongly connected
//     component of their dependence graph (mutually recursive
//     "procedures") after another, in topological order, re-evaluating
//     the expressions incrementally (Fig. 4.4): only the sub-expressions
//     that contain a changed out-node are computed again. The weight of
//     every transition is then its expression's value.
//
// Loops are thus saturated once, by a star, before anything after them is
// computed, and no weight is propagated before the weights it depends on
// are final except around recursion.

type exprOp uint8

const (
	opConst exprOp = iota
	opVar
	opPlus
	opExt
	opStar
	opMergeOne // Merge(One, a) of a push rule
	opGuard    // One if one of args is not Zero, else Zero
)

// expr is a node of the regular-expression DAG of FWPDS.
type expr[W any] struct {
	op   exprOp
	a, b *expr[W]
	rule RuleID
	args []*expr[W] // of opGuard
	w    W
	// wit is, with witnesses, the derivation of w: set on leaves when they
	// are made, on inner nodes each time w changes (§4.2.1).
	wit *Witness[W]
	// seen is the epoch of the last evaluation, changed the epoch of the
	// last change of w (Fig. 4.4's last_seen and last_change).
	seen, changed int
	// clean says that no out-node below changed since the last
	// evaluation. Fig. 4.4 traverses the whole expression to find out;
	// instead a change of an out-node marks its ancestors (parents) dirty,
	// so that an evaluation visits only what may have changed.
	clean   bool
	parents []*expr[W]
}

type prodKind uint8

const (
	prodRoot prodKind = iota
	prodUnary
	prodBinary
	prodGuard // head is One once a is not Zero
)

// prod is a production of the abstract grammar: head gets rule's weight
// (root, rule -1 for One), or comes from a (unary: a then rule's weight,
// in the direction of the saturation; with merge, the rule without its
// weight, which post*'s merge adds), or from a and the out-node b
// (binary; merge says that rule's merge applies).
type prod struct {
	kind  prodKind
	rule  RuleID
	head  int
	a, b  int
	merge bool
}

// fw holds one FWPDS run.
type fw[W any] struct {
	a     *Automaton[W]
	p     *PDS[W]
	sr    Semiring[W]
	pre   bool
	nodes []tkey
	index map[tkey]int
	// byFromSym (pre*: transitions by source and symbol), byFrom and
	// epsInto (post*) index the transitions found so far.
	byFromSym map[fromSym][]int
	byFrom    map[State][]int
	epsInto   map[State][]int
	popped    []bool
	queue     []int
	head      int // of queue
	prods     []prod
	starrer   Starrer[W]
	leaves    []*expr[W] // per rule, its weight as a leaf
	wit       bool       // record witnesses
	empty     *Witness[W]
	epoch     int
	zero, one *expr[W]
	nexpr     int
	budget    int // of nexpr, past which the elimination gives up
}

// fallback is the saturation that FWPDS falls back on when the path
// expressions would be too large: dense strongly connected components,
// which Gaussian elimination fills in cubic time (the thesis' k, §4.1.1).
// Structured systems (the control-flow graphs of programs) stay far below
// the budget; random dense ones do not.
func fallback[W any](p *PDS[W], in *Set, pre bool) (*Automaton[W], error) {
	var a *Automaton[W]
	var err error
	if pre {
		a, err = Prestar(p, in, Options{})
	} else {
		a, err = Poststar(p, in, Options{})
	}
	if a != nil {
		a.stats.Fallback = true
	}
	return a, err
}

func newFW[W any](a *Automaton[W], in *Set, pre bool) *fw[W] {
	f := &fw[W]{
		a: a, p: a.pds, sr: a.sr, pre: pre, index: make(map[tkey]int, 2*len(a.pds.rules)),
		byFromSym: make(map[fromSym][]int, 2*len(a.pds.rules)), byFrom: map[State][]int{}, epsInto: map[State][]int{},
		epoch: 1, wit: a.witness,
	}
	f.starrer, _ = a.sr.(Starrer[W])
	f.empty = &Witness[W]{Kind: WitnessSeq, Weight: f.sr.One(), Rule: -1}
	f.zero = &expr[W]{op: opConst, w: f.sr.Zero(), changed: 1, clean: true}
	f.one = &expr[W]{op: opConst, w: f.sr.One(), changed: 1, wit: f.empty, clean: true}
	for _, t := range in.trans {
		f.root(f.node(t.from, t.sym, t.to), -1)
	}
	return f
}

// node returns the TDG node of the transition (from, sym, to), creating
// and queueing it if need be.
func (f *fw[W]) node(from State, sym Symbol, to State) int {
	k := tkey{from, sym, to}
	if n, ok := f.index[k]; ok {
		return n
	}
	n := len(f.nodes)
	f.index[k] = n
	f.nodes = append(f.nodes, k)
	f.popped = append(f.popped, false)
	f.queue = append(f.queue, n)
	f.byFromSym[fromSym{from, sym}] = append(f.byFromSym[fromSym{from, sym}], n)
	f.byFrom[from] = append(f.byFrom[from], n)
	if sym == Epsilon {
		f.epsInto[to] = append(f.epsInto[to], n)
	}
	return n
}

func (f *fw[W]) root(head int, rule RuleID) {
	f.prods = append(f.prods, prod{kind: prodRoot, rule: rule, head: head})
}

func (f *fw[W]) guard(head, a int) {
	f.prods = append(f.prods, prod{kind: prodGuard, rule: -1, head: head, a: a})
}

func (f *fw[W]) unary(head int, rule RuleID, a int) {
	f.prods = append(f.prods, prod{kind: prodUnary, rule: rule, head: head, a: a})
}

// weightless is the unary production of post* from the caller's part to
// the push rule rule with a merge function: the rule, but not its weight.
func (f *fw[W]) weightless(head int, rule RuleID, a int) {
	f.prods = append(f.prods, prod{kind: prodUnary, rule: rule, head: head, a: a, merge: true})
}

func (f *fw[W]) binary(head int, rule RuleID, a, b int, merge bool) {
	f.prods = append(f.prods, prod{kind: prodBinary, rule: rule, head: head, a: a, b: b, merge: merge})
}

// next takes the next transition from the queue and marks it popped: the
// binary productions pair it with popped transitions only, so that each
// pair is found once.
func (f *fw[W]) next() int {
	n := f.queue[f.head]
	f.head++
	f.popped[n] = true
	return n
}

// fprestar is Prestar with Options.FWPDS.
func fprestar[W any](p *PDS[W], target *Set, opt Options) (*Automaton[W], error) {
	a, err := newFWAutomaton(p, target, false, opt)
	if err != nil {
		return nil, err
	}
	f := newFW(a, target, true)
	byTop := map[fromSym][]RuleID{}
	bySecond := map[Symbol][]RuleID{}
	for i := range p.rules {
		r := &p.rules[i]
		id := RuleID(i)
		if f.isZero(r.Weight) && r.Merge == nil {
			continue
		}
		switch len(r.Out) {
		case 0:
			f.root(f.node(r.From, r.Sym, r.To), id)
		case 1:
			byTop[fromSym{r.To, r.Out[0]}] = append(byTop[fromSym{r.To, r.Out[0]}], id)
		case 2:
			byTop[fromSym{r.To, r.Out[0]}] = append(byTop[fromSym{r.To, r.Out[0]}], id)
			bySecond[r.Out[1]] = append(bySecond[r.Out[1]], id)
		}
	}
	for f.head < len(f.queue) {
		n := f.next()
		t := f.nodes[n]
		for _, id := range byTop[fromSym{t.from, t.sym}] {
			r := &p.rules[id]
			if len(r.Out) == 1 {
				f.unary(f.node(r.From, r.Sym, t.to), id, n)
				continue
			}
			// n is the callee part t1; pair it with the popped t2.
			for _, n2 := range f.byFromSym[fromSym{t.to, r.Out[1]}] {
				if f.popped[n2] {
					f.prePush(id, n, n2)
				}
			}
		}
		for _, id := range bySecond[t.sym] {
			r := &p.rules[id]
			// n is the continuation t2; its callee part t1 ends where t2 starts.
			if n1, ok := f.index[tkey{r.To, r.Out[0], t.from}]; ok && n1 != n && f.popped[n1] {
				f.prePush(id, n1, n)
			}
		}
	}
	if a := f.solve(); a != nil {
		return a, nil
	}
	return fallback(p, target, true)
}

func (f *fw[W]) prePush(id RuleID, n1, n2 int) {
	r := &f.p.rules[id]
	merge := r.Merge != nil && f.p.isControl(f.nodes[n1].to)
	if !merge && f.isZero(r.Weight) {
		return
	}
	f.binary(f.node(r.From, r.Sym, f.nodes[n2].to), id, n2, n1, merge)
}

// fpoststar is Poststar with Options.FWPDS.
func fpoststar[W any](p *PDS[W], init *Set, opt Options) (*Automaton[W], error) {
	a, err := newFWAutomaton(p, init, true, opt)
	if err != nil {
		return nil, err
	}
	mid := postStates(a)
	f := newFW(a, init, false)
	byLHS := map[fromSym][]RuleID{}
	for i := range p.rules {
		r := &p.rules[i]
		byLHS[fromSym{r.From, r.Sym}] = append(byLHS[fromSym{r.From, r.Sym}], RuleID(i))
	}
	guarded := map[[2]int]bool{}
	for f.head < len(f.queue) {
		n := f.next()
		t := f.nodes[n]
		if t.sym == Epsilon {
			for _, n2 := range f.byFrom[t.to] {
				if t2 := f.nodes[n2]; t2.sym != Epsilon && f.popped[n2] {
					f.binary(f.node(t.from, t2.sym, t2.to), a.mid(t.to), n2, n, a.mid(t.to) >= 0)
				}
			}
			continue
		}
		for _, e := range f.epsInto[t.from] {
			if f.popped[e] {
				f.binary(f.node(f.nodes[e].from, t.sym, t.to), a.mid(t.from), n, e, a.mid(t.from) >= 0)
			}
		}
		if !p.isControl(t.from) {
			continue
		}
		for _, id := range byLHS[fromSym{t.from, t.sym}] {
			r := &p.rules[id]
			switch len(r.Out) {
			case 0:
				f.unary(f.node(r.To, Epsilon, t.to), id, n)
			case 1:
				f.unary(f.node(r.To, r.Out[0], t.to), id, n)
			case 2:
				// The transition into the push rule's state has weight
				// One once the rule applies, that is once t's weight is
				// not Zero: a guard, not a constant, or FWPDS would keep
				// transitions that the saturation never creates.
				m := mid[id]
				if h := f.node(r.To, r.Out[0], m); !guarded[[2]int{h, n}] {
					guarded[[2]int{h, n}] = true
					f.guard(h, n)
				}
				if r.Merge != nil {
					f.weightless(f.node(m, r.Out[1], t.to), id, n) // the caller's weight; the merge adds the rule's
				} else {
					f.unary(f.node(m, r.Out[1], t.to), id, n)
				}
			}
		}
	}
	if a := f.solve(); a != nil {
		return a, nil
	}
	return fallback(p, init, false)
}

// postStates adds the states of Phase I of post* to a, as Poststar does,
// and returns, for each push rule, its state.
func postStates[W any](a *Automaton[W]) []State {
	p := a.pds
	mid := make([]State, len(p.rules))
	shared := map[fromSym]State{}
	for i := range p.rules {
		r := &p.rules[i]
		if len(r.Out) != 2 {
			continue
		}
		if r.Merge != nil {
			mid[i] = a.addState(false, RuleID(i))
			continue
		}
		k := fromSym{r.To, r.Out[0]}
		q, ok := shared[k]
		if !ok {
			q = a.addState(false, -1)
			shared[k] = q
		}
		mid[i] = q
	}
	return mid
}

func newFWAutomaton[W any](p *PDS[W], in *Set, backward bool, opt Options) (*Automaton[W], error) {
	if opt.Differential {
		return nil, fmt.Errorf("wpds: FWPDS and differential propagation are exclusive")
	}
	a, err := newAutomaton(p, in, backward, Options{Witnesses: opt.Witnesses})
	if err != nil {
		return nil, err
	}
	a.stats = Stats{} // the input's transitions are counted with the solution
	return a, nil
}

func (f *fw[W]) isZero(w W) bool { return f.sr.Equal(w, f.sr.Zero()) }

// Expression constructors; they fold the constants Zero and One.

// ruleConst is the weight of rule id as a leaf: with witnesses a leaf of
// its own that names the rule, else a folded constant.
// The leaf is made once per rule: a production per use would compare the
// weight with Zero and One each time, which is not cheap for every domain.
func (f *fw[W]) ruleConst(id RuleID) *expr[W] {
	if f.leaves == nil {
		f.leaves = make([]*expr[W], len(f.p.rules))
	}
	if e := f.leaves[id]; e != nil {
		return e
	}
	w := f.p.rules[id].Weight
	var e *expr[W]
	if !f.wit || f.isZero(w) {
		e = f.konst(w)
	} else {
		f.nexpr++
		e = &expr[W]{op: opConst, w: w, changed: 1, wit: ruleWitness(id, w), clean: true}
	}
	f.leaves[id] = e
	return e
}

// ruleOne is, with witnesses, a leaf of weight One that names rule id
// (post*'s push rule with a merge function, whose weight the merge adds).
func (f *fw[W]) ruleOne(id RuleID) *expr[W] {
	if !f.wit {
		return f.one
	}
	f.nexpr++
	return &expr[W]{op: opConst, w: f.sr.One(), changed: 1, wit: ruleWitness(id, f.p.rules[id].Weight), clean: true}
}

func (f *fw[W]) konst(w W) *expr[W] {
	switch {
	case f.isZero(w):
		return f.zero
	case f.sr.Equal(w, f.sr.One()):
		return f.one
	}
	f.nexpr++
	return &expr[W]{op: opConst, w: w, changed: 1, clean: true}
}

func (f *fw[W]) plus(x, y *expr[W]) *expr[W] {
	switch {
	case x == nil || x == f.zero:
		return y
	case y == nil || y == f.zero || x == y:
		return x
	}
	return f.inner(&expr[W]{op: opPlus, a: x, b: y})
}

func (f *fw[W]) ext(x, y *expr[W]) *expr[W] {
	switch {
	case x == f.zero || y == f.zero:
		return f.zero
	case x == f.one:
		return y
	case y == f.one:
		return x
	}
	return f.inner(&expr[W]{op: opExt, a: x, b: y})
}

// seq is "x, then y" along a TDG path: in pre* a production puts the
// rule's weight before the weight it comes from (⊗ reversed, §4.1.1).
func (f *fw[W]) seq(x, y *expr[W]) *expr[W] {
	if f.pre {
		return f.ext(y, x)
	}
	return f.ext(x, y)
}

func (f *fw[W]) star(x *expr[W]) *expr[W] {
	if x == f.zero || x == f.one {
		return f.one
	}
	return f.inner(&expr[W]{op: opStar, a: x})
}

func (f *fw[W]) mergeOne(rule RuleID, x *expr[W]) *expr[W] {
	if x == f.zero {
		return f.zero
	}
	return f.inner(&expr[W]{op: opMergeOne, a: x, rule: rule})
}

// inner registers a new inner node with its children, whose changes make
// it dirty.
func (f *fw[W]) inner(e *expr[W]) *expr[W] {
	f.nexpr++
	for _, c := range []*expr[W]{e.a, e.b} {
		if c != nil && c.op != opConst {
			c.parents = append(c.parents, e)
		}
	}
	return e
}

// dirty marks the ancestors of the out-node x, whose weight changed. A
// dirty node's ancestors are dirty already, which stops the walk.
func (f *fw[W]) dirty(x *expr[W]) {
	stack := append([]*expr[W](nil), x.parents...)
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.clean {
			e.clean = false
			stack = append(stack, e.parents...)
		}
	}
}

type gedge[W any] struct {
	from  int
	label *expr[W]
}

// solve builds the path expressions and the out-node equations from the
// productions, solves them and fills the automaton; it returns nil if the
// expressions exceed the budget.
func (f *fw[W]) solve() *Automaton[W] {
	n := len(f.nodes)
	f.budget = 6*(len(f.prods)+n) + 1<<12
	vars := make([]*expr[W], n)
	varOf := func(b int) *expr[W] {
		if vars[b] == nil {
			f.nexpr++
			vars[b] = &expr[W]{op: opVar, w: f.sr.Zero(), changed: 1, clean: true}
		}
		return vars[b]
	}
	base := make([]*expr[W], n)
	// The adjacency lists are cut from three arrays, sized by a first
	// pass over the productions, rather than grown one append at a time.
	nin, nsucc, ndeps := make([]int, n), make([]int, n), make([]int, n)
	for _, pr := range f.prods {
		switch pr.kind {
		case prodGuard:
			ndeps[pr.a]++
		case prodUnary, prodBinary:
			nin[pr.head]++
			nsucc[pr.a]++
			ndeps[pr.a]++
			if pr.kind == prodBinary {
				ndeps[pr.b]++
			}
		}
	}
	in := make([][]gedge[W], n)
	succ := make([][]int, n) // the cut graph G
	deps := make([][]int, n) // G plus the out-node dependencies: the whole TDG
	inArr := make([]gedge[W], 0, len(f.prods))
	succArr := make([]int, 0, len(f.prods))
	depsArr := make([]int, 0, 2*len(f.prods))
	for v := 0; v < n; v++ {
		in[v] = inArr[len(inArr) : len(inArr) : len(inArr)+nin[v]]
		inArr = inArr[:len(inArr)+nin[v]]
		succ[v] = succArr[len(succArr) : len(succArr) : len(succArr)+nsucc[v]]
		succArr = succArr[:len(succArr)+nsucc[v]]
		deps[v] = depsArr[len(depsArr) : len(depsArr) : len(depsArr)+ndeps[v]]
		depsArr = depsArr[:len(depsArr)+ndeps[v]]
	}
	guards := make([]*expr[W], n)
	for _, pr := range f.prods {
		switch pr.kind {
		case prodGuard:
			g := guards[pr.head]
			if g == nil {
				f.nexpr++
				g = &expr[W]{op: opGuard}
				guards[pr.head] = g
				base[pr.head] = f.plus(base[pr.head], g)
			}
			x := varOf(pr.a)
			g.args = append(g.args, x)
			x.parents = append(x.parents, g)
			deps[pr.a] = append(deps[pr.a], pr.head)
			continue
		case prodRoot:
			w := f.one
			if pr.rule >= 0 {
				w = f.ruleConst(pr.rule)
			}
			base[pr.head] = f.plus(base[pr.head], w)
			continue
		case prodUnary:
			l := f.one
			switch {
			case pr.merge:
				l = f.ruleOne(pr.rule)
			case pr.rule >= 0:
				l = f.ruleConst(pr.rule)
			}
			in[pr.head] = append(in[pr.head], gedge[W]{pr.a, l})
		case prodBinary:
			var l *expr[W]
			switch {
			case pr.merge:
				// Path extension: Merge(x, y) = x ⊗ Merge(One, y).
				l = f.mergeOne(pr.rule, varOf(pr.b))
			case f.pre:
				l = f.ext(f.ruleConst(pr.rule), varOf(pr.b))
			default:
				l = varOf(pr.b)
			}
			in[pr.head] = append(in[pr.head], gedge[W]{pr.a, l})
			deps[pr.b] = append(deps[pr.b], pr.head)
		}
		succ[pr.a] = append(succ[pr.a], pr.head)
		deps[pr.a] = append(deps[pr.a], pr.head)
	}

	// Path expressions: P[v] is the combine over the paths of the cut
	// graph from the roots to v.
	P := make([]*expr[W], n)
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	comps := sccs(succ)
	for ci := len(comps) - 1; ci >= 0; ci-- {
		c := comps[ci]
		for _, v := range c {
			comp[v] = ci
		}
		self := false
		for _, v := range c {
			e := base[v]
			for _, ed := range in[v] {
				if comp[ed.from] == ci {
					self = true
					continue
				}
				e = f.plus(e, f.seq(P[ed.from], ed.label))
			}
			if e == nil {
				e = f.zero
			}
			P[v] = e
		}
		if self && !f.eliminate(c, ci, comp, in, P) {
			return nil
		}
	}

	// The out-node equations, one component of the TDG after another.
	for _, c := range reverse(sccs(deps)) {
		var outs []int
		for _, v := range c {
			if vars[v] != nil {
				outs = append(outs, v)
			}
		}
		for changed := len(outs) > 0; changed; {
			changed = false
			for _, o := range outs {
				f.eval(P[o])
				if x := vars[o]; !f.sr.Equal(x.w, P[o].w) {
					f.epoch++
					x.w, x.seen, x.changed, x.wit = P[o].w, f.epoch, f.epoch, P[o].wit
					f.dirty(x)
					f.a.stats.Updates++
					if len(c) > 1 || f.selfDep(o, deps) {
						changed = true
					}
				}
			}
		}
	}

	a := f.a
	st := a.stats
	for v, k := range f.nodes {
		f.eval(P[v])
		if e := P[v]; !f.isZero(e.w) {
			a.update(k.from, k.sym, k.to, e.w, func() *Witness[W] { return e.wit })
		}
	}
	st.ExprNodes = f.nexpr
	a.stats = st
	a.finish()
	return a
}

func (f *fw[W]) selfDep(v int, deps [][]int) bool {
	for _, h := range deps[v] {
		if h == v {
			return true
		}
	}
	return false
}

// row is a sparse row of coefficients, in insertion order so that the
// expressions, and the counts of operations, do not depend on map order.
type row[W any] struct {
	keys []int
	vals []*expr[W]
	pos  map[int]int
}

func (r *row[W]) add(f *fw[W], k int, x *expr[W]) {
	if r.pos == nil {
		r.pos = map[int]int{}
	}
	if i, ok := r.pos[k]; ok {
		r.vals[i] = f.plus(r.vals[i], x)
		return
	}
	r.pos[k] = len(r.keys)
	r.keys = append(r.keys, k)
	r.vals = append(r.vals, x)
}

func (r *row[W]) take(k int) *expr[W] {
	i, ok := r.pos[k]
	if !ok {
		return nil
	}
	x := r.vals[i]
	r.vals[i] = nil
	delete(r.pos, k)
	return x
}

// eliminate solves the equations P[v] = E[v] ⊕ ⊕ seq(P[u], c(u,v)) of one
// strongly connected component c by Gaussian elimination: each v in turn
// has its self-loop turned into a star and is substituted into the
// equations of the others; then back substitution in reverse order. It
// returns false if the expressions grow past the budget.
func (f *fw[W]) eliminate(c []int, ci int, comp []int, in [][]gedge[W], P []*expr[W]) bool {
	k := len(c)
	local := make(map[int]int, k)
	for i, v := range c {
		local[v] = i
	}
	E := make([]*expr[W], k)
	coef := make([]row[W], k) // coef[i]: u ↦ c(u, c[i]) inside the component
	users := make([]row[W], k)
	for i, v := range c {
		E[i] = P[v]
		for _, ed := range in[v] {
			if comp[ed.from] == ci {
				u := local[ed.from]
				coef[i].add(f, u, ed.label)
				users[u].add(f, i, nil)
			}
		}
	}
	done := make([]bool, k)
	for i := 0; i < k; i++ {
		if s := coef[i].take(i); s != nil {
			S := f.star(s)
			E[i] = f.seq(E[i], S)
			for j, x := range coef[i].vals {
				if x != nil {
					coef[i].vals[j] = f.seq(x, S)
				}
			}
		}
		done[i] = true
		for _, j := range users[i].keys {
			if done[j] {
				continue
			}
			cj := coef[j].take(i)
			if cj == nil {
				continue
			}
			E[j] = f.plus(E[j], f.seq(E[i], cj))
			for m, u := range coef[i].keys {
				if x := coef[i].vals[m]; x != nil {
					coef[j].add(f, u, f.seq(x, cj))
					users[u].add(f, j, nil)
				}
			}
			if f.nexpr > f.budget {
				return false
			}
		}
	}
	for i := k - 1; i >= 0; i-- {
		e := E[i]
		for m, u := range coef[i].keys {
			if x := coef[i].vals[m]; x != nil {
				e = f.plus(e, f.seq(P[c[u]], x))
			}
		}
		P[c[i]] = e
	}
	return true
}

// eval brings e.w up to date with the out-nodes (Fig. 4.4): it computes a
// node again only if a child changed since the node was last evaluated.
func (f *fw[W]) eval(e *expr[W]) {
	if e.clean {
		return
	}
	e.clean = true
	st := &f.a.stats
	var m int
	var w W
	switch e.op {
	case opGuard:
		w = f.sr.Zero()
		for _, x := range e.args {
			m = max(m, x.changed)
			if !f.isZero(x.w) {
				w = f.sr.One()
			}
		}
		if m <= e.seen {
			e.seen = f.epoch
			return
		}
	case opStar, opMergeOne:
		f.eval(e.a)
		m = e.a.changed
		if m <= e.seen {
			e.seen = f.epoch
			return
		}
		if e.op == opStar {
			var wit *Witness[W]
			w, wit = f.starOf(e.a)
			if e.seen == 0 || !f.sr.Equal(w, e.w) {
				e.w, e.changed, e.wit = w, m, wit
			}
			e.seen = f.epoch
			return
		}
		if f.isZero(e.a.w) {
			w = e.a.w // merge functions are strict
		} else {
			st.Merges++
			w = f.p.rules[e.rule].Merge(f.sr.One(), e.a.w)
		}
	default:
		f.eval(e.a)
		f.eval(e.b)
		m = max(e.a.changed, e.b.changed)
		if m <= e.seen {
			e.seen = f.epoch
			return
		}
		// Zero is the identity of combine and annihilates extend: the
		// structural saturation finds transitions whose weight stays Zero
		// (infeasible paths), which cost no operations this way.
		switch {
		case e.op == opPlus && f.isZero(e.a.w):
			w = e.b.w
		case e.op == opPlus && f.isZero(e.b.w):
			w = e.a.w
		case e.op == opPlus:
			st.Combines++
			w = f.sr.Combine(e.a.w, e.b.w)
		case f.isZero(e.a.w):
			w = e.a.w
		case f.isZero(e.b.w):
			w = e.b.w
		default:
			st.Extends++
			w = f.sr.Extend(e.a.w, e.b.w)
		}
	}
	if e.seen == 0 || !f.sr.Equal(w, e.w) {
		e.w, e.changed = w, m
		if f.wit {
			e.wit = f.witnessOf(e)
		}
	}
	e.seen = f.epoch
}

// witnessOf builds the derivation of the new weight of e from its
// children's: the rule sequences of a sum are those of either part, of a
// product those of the first part followed by those of the second (the
// extend order is the order of the rules, in pre* as in post*).
func (f *fw[W]) witnessOf(e *expr[W]) *Witness[W] {
	switch e.op {
	case opGuard:
		if f.isZero(e.w) {
			return nil
		}
		return f.empty
	case opPlus:
		switch {
		case f.isZero(e.a.w):
			return e.b.wit
		case f.isZero(e.b.w):
			return e.a.wit
		}
		return &Witness[W]{Kind: WitnessCombine, Weight: e.w, Rule: -1, Parts: []*Witness[W]{e.a.wit, e.b.wit}}
	case opExt:
		return &Witness[W]{Kind: WitnessSeq, Weight: e.w, Rule: -1, Parts: []*Witness[W]{e.a.wit, e.b.wit}}
	case opMergeOne:
		if f.pre {
			// pre*: the push rule, then the callee (Fig. 3.9, case 4).
			r := &f.p.rules[e.rule]
			return &Witness[W]{Kind: WitnessSeq, Weight: e.w, Rule: -1, Parts: []*Witness[W]{ruleWitness(e.rule, r.Weight), e.a.wit}}
		}
		// post*: the push rule is in the caller's part already.
		return e.a.wit
	}
	return nil
}

// starOf computes the star of x's weight with the semiring's Star, or
// else by repeated squaring of One ⊕ w (§4.1.1), which converges because
// the semiring has no infinite ascending chains. With witnesses it
// iterates s = One ⊕ s ⊗ w instead, so that the derivation says how many
// rounds of the loop each part stands for.
func (f *fw[W]) starOf(x *expr[W]) (W, *Witness[W]) {
	st := &f.a.stats
	st.Stars++
	w := x.w
	if f.wit {
		s, sw := f.sr.One(), f.empty
		for {
			st.Extends++
			st.Combines++
			sx := f.sr.Extend(s, w)
			n := f.sr.Combine(f.sr.One(), sx)
			if f.sr.Equal(n, s) {
				return s, sw
			}
			sw = &Witness[W]{Kind: WitnessCombine, Weight: n, Rule: -1, Parts: []*Witness[W]{
				f.empty, {Kind: WitnessSeq, Weight: sx, Rule: -1, Parts: []*Witness[W]{sw, x.wit}}}}
			s = n
		}
	}
	if f.starrer != nil {
		return f.starrer.Star(w), nil
	}
	st.Combines++
	s := f.sr.Combine(f.sr.One(), w)
	for {
		st.Extends++
		n := f.sr.Extend(s, s)
		if f.sr.Equal(n, s) {
			return s, nil
		}
		s = n
	}
}

// sccs returns the strongly connected components of the graph succ in
// reverse topological order (graph.SCC), each in the order the search
// discovered its vertices (the reverse of the order they leave Tarjan's
// stack): elimination follows the paths of the search.
func sccs(succ [][]int) [][]int {
	out := graph.SCC(succ, nil)
	for _, c := range out {
		slices.Reverse(c)
	}
	return out
}

func reverse[T any](s []T) []T {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}
