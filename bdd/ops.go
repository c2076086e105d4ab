package bdd

// Recursive cores of the operations. They run inside Manager.run, may
// create nodes (mk may grow the table or panic outOfNodes, recovered by
// run) and never free any. They index m.nodes afresh after every call that
// may create nodes, because growth reallocates the table; the cache is
// never reallocated during an operation, so cache-entry pointers stay valid.

func (m *Manager) lookup(op int32, a, b, c Node) (*cacheEntry, bool) {
	e := &m.caches[cacheFor(op)][cacheHash(op, a, b, c)>>m.cShift]
	m.st.CacheLookups++
	if e.a == a && e.b == b && e.c == c && e.op == op {
		m.st.CacheHits++
		return e, true
	}
	return e, false
}

// cofactors2 splits f and g at the top level of the two.
func (m *Manager) cofactors2(f, g Node) (l int32, f0, f1, g0, g1 Node) {
	nf, ng := &m.nodes[f], &m.nodes[g]
	switch {
	case nf.level == ng.level:
		return nf.level, nf.low, nf.high, ng.low, ng.high
	case nf.level < ng.level:
		return nf.level, nf.low, nf.high, g, g
	default:
		return ng.level, f, f, ng.low, ng.high
	}
}

func (m *Manager) and(f, g Node) Node {
	if f == g {
		return f
	}
	if f < 2 || g < 2 {
		if f == False || g == False {
			return False
		}
		if f == True {
			return g
		}
		return f
	}
	if f > g {
		f, g = g, f
	}
	e, hit := m.lookup(opAnd, f, g, 0)
	if hit {
		return e.r
	}
	l, f0, f1, g0, g1 := m.cofactors2(f, g)
	lo := m.and(f0, g0)
	hi := m.and(f1, g1)
	r := m.mk(l, lo, hi)
	*e = cacheEntry{op: opAnd, a: f, b: g, r: r}
	return r
}

func (m *Manager) or(f, g Node) Node {
	if f == g {
		return f
	}
	if f < 2 || g < 2 {
		if f == True || g == True {
			return True
		}
		if f == False {
			return g
		}
		return f
	}
	if f > g {
		f, g = g, f
	}
	e, hit := m.lookup(opOr, f, g, 0)
	if hit {
		return e.r
	}
	l, f0, f1, g0, g1 := m.cofactors2(f, g)
	lo := m.or(f0, g0)
	hi := m.or(f1, g1)
	r := m.mk(l, lo, hi)
	*e = cacheEntry{op: opOr, a: f, b: g, r: r}
	return r
}

// apply handles the less frequent binary operators Xor, Imp and Equiv.
func (m *Manager) apply(op int32, f, g Node) Node {
	switch op {
	case opXor:
		switch {
		case f == g:
			return False
		case f == False:
			return g
		case g == False:
			return f
		case f == True:
			return m.not(g)
		case g == True:
			return m.not(f)
		}
		if f > g {
			f, g = g, f
		}
	case opEquiv:
		switch {
		case f == g:
			return True
		case f == True:
			return g
		case g == True:
			return f
		case f == False:
			return m.not(g)
		case g == False:
			return m.not(f)
		}
		if f > g {
			f, g = g, f
		}
	case opImp:
		switch {
		case f == False || g == True || f == g:
			return True
		case f == True:
			return g
		case g == False:
			return m.not(f)
		}
	}
	e, hit := m.lookup(op, f, g, 0)
	if hit {
		return e.r
	}
	l, f0, f1, g0, g1 := m.cofactors2(f, g)
	lo := m.apply(op, f0, g0)
	hi := m.apply(op, f1, g1)
	r := m.mk(l, lo, hi)
	*e = cacheEntry{op: op, a: f, b: g, r: r}
	return r
}

func (m *Manager) not(f Node) Node {
	if f < 2 {
		return f ^ 1
	}
	e, hit := m.lookup(opNot, f, 0, 0)
	if hit {
		return e.r
	}
	nf := m.nodes[f]
	lo := m.not(nf.low)
	hi := m.not(nf.high)
	r := m.mk(nf.level, lo, hi)
	*e = cacheEntry{op: opNot, a: f, r: r}
	return r
}

func (m *Manager) ite(f, g, h Node) Node {
	switch {
	case f == True:
		return g
	case f == False:
		return h
	case g == h:
		return g
	case g == True && h == False:
		return f
	case g == False && h == True:
		return m.not(f)
	case g == True || f == g:
		return m.or(f, h)
	case h == False || f == h:
		return m.and(f, g)
	}
	e, hit := m.lookup(opIte, f, g, h)
	if hit {
		return e.r
	}
	nf, ng, nh := &m.nodes[f], &m.nodes[g], &m.nodes[h]
	l := min(nf.level, ng.level, nh.level)
	f0, f1 := f, f
	if nf.level == l {
		f0, f1 = nf.low, nf.high
	}
	g0, g1 := g, g
	if ng.level == l {
		g0, g1 = ng.low, ng.high
	}
	h0, h1 := h, h
	if nh.level == l {
		h0, h1 = nh.low, nh.high
	}
	lo := m.ite(f0, g0, h0)
	hi := m.ite(f1, g1, h1)
	r := m.mk(l, lo, hi)
	*e = cacheEntry{op: opIte, a: f, b: g, c: h, r: r}
	return r
}

// advance skips the variables of the quantified cube c above level l. A
// few steps are walked; longer gaps are jumped by binary search in the
// VarSet of the running operation, so that a BDD whose nodes are far apart
// in a large set costs O(log |set|) per node, not O(|set|).
func (m *Manager) advance(c Node, l int32) Node {
	for k := 0; m.nodes[c].level < l; k++ {
		if k == 4 {
			return m.qset.suffixFrom(l)
		}
		c = m.nodes[c].high
	}
	return c
}

// exists quantifies the variables of the positive cube c out of f.
func (m *Manager) exists(f, c Node) Node {
	if f < 2 {
		return f
	}
	l := m.nodes[f].level
	c = m.advance(c, l)
	if c == True {
		return f
	}
	e, hit := m.lookup(opExists, f, c, 0)
	if hit {
		return e.r
	}
	nf := m.nodes[f]
	var r Node
	if m.nodes[c].level == l {
		cn := m.nodes[c].high
		r = m.exists(nf.low, cn)
		if r != True {
			r = m.or(r, m.exists(nf.high, cn))
		}
	} else {
		lo := m.exists(nf.low, c)
		hi := m.exists(nf.high, c)
		r = m.mk(l, lo, hi)
	}
	*e = cacheEntry{op: opExists, a: f, b: c, r: r}
	return r
}

// forall is the universal dual of exists.
func (m *Manager) forall(f, c Node) Node {
	if f < 2 {
		return f
	}
	l := m.nodes[f].level
	c = m.advance(c, l)
	if c == True {
		return f
	}
	e, hit := m.lookup(opForall, f, c, 0)
	if hit {
		return e.r
	}
	nf := m.nodes[f]
	var r Node
	if m.nodes[c].level == l {
		cn := m.nodes[c].high
		r = m.forall(nf.low, cn)
		if r != False {
			r = m.and(r, m.forall(nf.high, cn))
		}
	} else {
		lo := m.forall(nf.low, c)
		hi := m.forall(nf.high, c)
		r = m.mk(l, lo, hi)
	}
	*e = cacheEntry{op: opForall, a: f, b: c, r: r}
	return r
}

// andExists computes exists c. f and g in one pass (relational product).
func (m *Manager) andExists(f, g, c Node) Node {
	if f == False || g == False {
		return False
	}
	if f == True && g == True {
		return True
	}
	if f == True || f == g {
		return m.exists(g, c)
	}
	if g == True {
		return m.exists(f, c)
	}
	if f > g {
		f, g = g, f
	}
	l := min(m.nodes[f].level, m.nodes[g].level)
	c = m.advance(c, l)
	if c == True {
		return m.and(f, g)
	}
	e, hit := m.lookup(opAndExists, f, g, c)
	if hit {
		return e.r
	}
	_, f0, f1, g0, g1 := m.cofactors2(f, g)
	var r Node
	if m.nodes[c].level == l {
		cn := m.nodes[c].high
		r = m.andExists(f0, g0, cn)
		if r != True {
			r = m.or(r, m.andExists(f1, g1, cn))
		}
	} else {
		lo := m.andExists(f0, g0, c)
		hi := m.andExists(f1, g1, c)
		r = m.mk(l, lo, hi)
	}
	*e = cacheEntry{op: opAndExists, a: f, b: g, c: c, r: r}
	return r
}

// andExistsReplace is replace(andExists(f, g, c), p) in one recursion, op
// being p's operation code: the nodes of the product are made under their
// new names directly (renamed), so that the product under the old names is
// never built.
func (m *Manager) andExistsReplace(f, g, c Node, p *Pairs, op int32) Node {
	if f == False || g == False {
		return False
	}
	if f == True && g == True {
		return True
	}
	if f == True || f == g {
		return m.replace(m.exists(g, c), p, p.last)
	}
	if g == True {
		return m.replace(m.exists(f, c), p, p.last)
	}
	if f > g {
		f, g = g, f
	}
	l := min(m.nodes[f].level, m.nodes[g].level)
	c = m.advance(c, l)
	if c == True {
		return m.replace(m.and(f, g), p, p.last)
	}
	e, hit := m.lookup(op, f, g, c)
	if hit {
		return e.r
	}
	_, f0, f1, g0, g1 := m.cofactors2(f, g)
	var r Node
	if m.nodes[c].level == l {
		cn := m.nodes[c].high
		r = m.andExistsReplace(f0, g0, cn, p, op)
		if r != True {
			r = m.or(r, m.andExistsReplace(f1, g1, cn, p, op))
		}
	} else {
		lo := m.andExistsReplace(f0, g0, c, p, op)
		hi := m.andExistsReplace(f1, g1, c, p, op)
		r = m.renamed(l, lo, hi, p)
	}
	*e = cacheEntry{op: op, a: f, b: g, c: c, r: r}
	return r
}

// renamed returns the node at level l with children lo and hi (already
// renamed) under the renaming p: made directly when the new variable is
// above both children, else rebuilt as ite(newvar, hi, lo), which is
// correct for any renaming.
func (m *Manager) renamed(l int32, lo, hi Node, p *Pairs) Node {
	nl := l
	if nv, ok := p.lookup(m.level2var[l]); ok {
		nl = m.var2level[nv]
	}
	if nl < m.nodes[lo].level && nl < m.nodes[hi].level {
		return m.mk(nl, lo, hi)
	}
	return m.ite(m.mk(nl, False, True), hi, lo)
}

// replace renames the variables of f by p. Levels below last (the deepest
// renamed level) are unchanged, so the recursion stops there. When the new
// variable is above both renamed children the node is made directly;
// otherwise (a renaming that does not preserve the order here) the node is
// rebuilt as ite(newvar, hi, lo), which is correct for any renaming.
func (m *Manager) replace(f Node, p *Pairs, last int32) Node {
	if f < 2 {
		return f
	}
	nf := m.nodes[f]
	if nf.level > last {
		return f
	}
	e, hit := m.lookup(opReplace, f, 0, Node(p.id))
	if hit {
		return e.r
	}
	lo := m.replace(nf.low, p, last)
	hi := m.replace(nf.high, p, last)
	r := m.renamed(nf.level, lo, hi, p)
	*e = cacheEntry{op: opReplace, a: f, c: Node(p.id), r: r}
	return r
}

// compose substitutes g for the variable at level lv in f.
func (m *Manager) compose(f, g Node, lv int32) Node {
	if f < 2 {
		return f
	}
	nf := m.nodes[f]
	if nf.level > lv {
		return f
	}
	e, hit := m.lookup(opCompose, f, g, Node(lv))
	if hit {
		return e.r
	}
	var r Node
	if nf.level == lv {
		r = m.ite(g, nf.high, nf.low)
	} else {
		lo := m.compose(nf.low, g, lv)
		hi := m.compose(nf.high, g, lv)
		r = m.mkOrIte(nf.level, lo, hi)
	}
	*e = cacheEntry{op: opCompose, a: f, b: g, c: Node(lv), r: r}
	return r
}

// mkOrIte builds "if var at level l then hi else lo" for children that may
// contain variables above l.
func (m *Manager) mkOrIte(l int32, lo, hi Node) Node {
	if l < m.nodes[lo].level && l < m.nodes[hi].level {
		return m.mk(l, lo, hi)
	}
	return m.ite(m.mk(l, False, True), hi, lo)
}

// vecCompose substitutes sub[v] for every variable v in the map, at once.
func (m *Manager) vecCompose(f Node, sub map[int32]Node, id int32, last int32) Node {
	if f < 2 {
		return f
	}
	nf := m.nodes[f]
	if nf.level > last {
		return f
	}
	e, hit := m.lookup(opVecCompose, f, 0, Node(id))
	if hit {
		return e.r
	}
	lo := m.vecCompose(nf.low, sub, id, last)
	hi := m.vecCompose(nf.high, sub, id, last)
	var r Node
	if g, ok := sub[m.level2var[nf.level]]; ok {
		r = m.ite(g, hi, lo)
	} else {
		r = m.mkOrIte(nf.level, lo, hi)
	}
	*e = cacheEntry{op: opVecCompose, a: f, c: Node(id), r: r}
	return r
}

// restrict is the Coudert–Madre restrict: a small function equal to f
// wherever the care set c holds (sibling substitution).
func (m *Manager) restrict(f, c Node) Node {
	if c == True || f < 2 {
		return f
	}
	if c == False {
		return False
	}
	if f == c {
		return True
	}
	e, hit := m.lookup(opRestrict, f, c, 0)
	if hit {
		return e.r
	}
	nf, nc := m.nodes[f], m.nodes[c]
	var r Node
	switch {
	case nc.level < nf.level:
		// f does not depend on c's top variable: quantify it out of c.
		r = m.restrict(f, m.or(nc.low, nc.high))
	case nf.level < nc.level:
		lo := m.restrict(nf.low, c)
		hi := m.restrict(nf.high, c)
		r = m.mk(nf.level, lo, hi)
	case nc.low == False:
		r = m.restrict(nf.high, nc.high)
	case nc.high == False:
		r = m.restrict(nf.low, nc.low)
	default:
		lo := m.restrict(nf.low, nc.low)
		hi := m.restrict(nf.high, nc.high)
		r = m.mk(nf.level, lo, hi)
	}
	*e = cacheEntry{op: opRestrict, a: f, b: c, r: r}
	return r
}

// constrain is the generalised cofactor f↓c.
func (m *Manager) constrain(f, c Node) Node {
	if c == True || f < 2 {
		return f
	}
	if c == False {
		return False
	}
	if f == c {
		return True
	}
	e, hit := m.lookup(opConstrain, f, c, 0)
	if hit {
		return e.r
	}
	l, f0, f1, c0, c1 := m.cofactors2(f, c)
	var r Node
	switch {
	case c0 == False:
		r = m.constrain(f1, c1)
	case c1 == False:
		r = m.constrain(f0, c0)
	default:
		lo := m.constrain(f0, c0)
		hi := m.constrain(f1, c1)
		r = m.mk(l, lo, hi)
	}
	*e = cacheEntry{op: opConstrain, a: f, b: c, r: r}
	return r
}
