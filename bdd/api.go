package bdd

import (
	"fmt"
	"slices"
)

// Not is the negation ¬f.
func (m *Manager) Not(f Node) Node {
	return m.run(f, True, True, func() Node { return m.not(f) })
}

// And is the conjunction f ∧ g.
func (m *Manager) And(f, g Node) Node {
	return m.run(f, g, True, func() Node { return m.and(f, g) })
}

// Or is the disjunction f ∨ g.
func (m *Manager) Or(f, g Node) Node {
	return m.run(f, g, True, func() Node { return m.or(f, g) })
}

// Xor is the exclusive or f ⊕ g.
func (m *Manager) Xor(f, g Node) Node {
	return m.run(f, g, True, func() Node { return m.apply(opXor, f, g) })
}

// Imp is the implication f → g.
func (m *Manager) Imp(f, g Node) Node {
	return m.run(f, g, True, func() Node { return m.apply(opImp, f, g) })
}

// Equiv is the equivalence f ↔ g.
func (m *Manager) Equiv(f, g Node) Node {
	return m.run(f, g, True, func() Node { return m.apply(opEquiv, f, g) })
}

// Ite is if-then-else: (f ∧ g) ∨ (¬f ∧ h).
func (m *Manager) Ite(f, g, h Node) Node {
	return m.run(f, g, h, func() Node { return m.ite(f, g, h) })
}

// AndAll is the conjunction of fs (True for none).
func (m *Manager) AndAll(fs ...Node) Node {
	r := True
	for _, f := range fs {
		r = m.And(r, f)
	}
	return r
}

// OrAll is the disjunction of fs (False for none).
func (m *Manager) OrAll(fs ...Node) Node {
	r := False
	for _, f := range fs {
		r = m.Or(r, f)
	}
	return r
}

// ---------------------------------------------------------------------
// Variable sets

// VarSet is a set of variables, used for quantification, counting and
// picking assignments. It holds no Node that needs a Root: its cube is
// rebuilt (O(size of the set)) when a collection or reordering happened
// since it was last built. A VarSet belongs to one Manager.
type VarSet struct {
	m      *Manager
	vars   []int // ascending, distinct
	epoch  uint64
	built  bool
	lvls   []int32 // current levels of vars, ascending
	suffix []Node  // suffix[i] is the cube of the variables at lvls[i:]
}

// VarSet returns the set of the given variables (created on demand).
// Duplicates are ignored.
func (m *Manager) VarSet(vars ...int) *VarSet {
	vs := slices.Clone(vars)
	slices.Sort(vs)
	vs = slices.Compact(vs)
	for _, v := range vs {
		m.needVar(v)
	}
	return &VarSet{m: m, vars: vs}
}

// Vars returns the variables of s in ascending order. SatOne and AllSat
// report values in this order.
func (s *VarSet) Vars() []int { return slices.Clone(s.vars) }

// Len is the number of variables in s.
func (s *VarSet) Len() int { return len(s.vars) }

// cubeFrom returns the positive cube of the variables of s at levels ≥ l,
// building the cubes if a collection or reordering invalidated them. The
// binary search makes quantifying a small BDD by a large set cost
// O(log |s|) at entry instead of walking the whole cube. Called inside
// operations.
func (s *VarSet) cubeFrom(m *Manager, l int32) Node {
	s.check(m)
	if !s.built || s.epoch != m.epoch {
		s.lvls = s.levels()
		if cap(s.suffix) < len(s.lvls)+1 {
			s.suffix = make([]Node, len(s.lvls)+1)
		}
		s.suffix = s.suffix[:len(s.lvls)+1]
		c := True
		s.suffix[len(s.lvls)] = c
		for i := len(s.lvls) - 1; i >= 0; i-- {
			c = m.mk(s.lvls[i], False, c)
			s.suffix[i] = c
		}
		s.built, s.epoch = true, m.epoch
	}
	m.qset = s
	return s.suffixFrom(l)
}

// suffixFrom is the cube of the variables at levels ≥ l (cubes built).
func (s *VarSet) suffixFrom(l int32) Node {
	i, _ := slices.BinarySearch(s.lvls, l)
	return s.suffix[i]
}

func (s *VarSet) check(m *Manager) {
	if s.m != m {
		panic("bdd: VarSet of another manager")
	}
}

// levels returns the current levels of the set, ascending.
func (s *VarSet) levels() []int32 {
	ls := make([]int32, len(s.vars))
	for i, v := range s.vars {
		ls[i] = s.m.var2level[v]
	}
	slices.Sort(ls)
	return ls
}

// Cube returns the conjunction of the positive literals of s.
func (m *Manager) Cube(s *VarSet) Node {
	return m.run(True, True, True, func() Node { return s.cubeFrom(m, 0) })
}

// Exists is ∃s. f.
func (m *Manager) Exists(f Node, s *VarSet) Node {
	return m.run(f, True, True, func() Node { return m.exists(f, s.cubeFrom(m, m.nodes[f].level)) })
}

// Forall is ∀s. f.
func (m *Manager) Forall(f Node, s *VarSet) Node {
	return m.run(f, True, True, func() Node { return m.forall(f, s.cubeFrom(m, m.nodes[f].level)) })
}

// AndExists is the relational product ∃s. f ∧ g, computed in one pass
// without building f ∧ g.
func (m *Manager) AndExists(f, g Node, s *VarSet) Node {
	return m.run(f, g, True, func() Node {
		return m.andExists(f, g, s.cubeFrom(m, min(m.nodes[f].level, m.nodes[g].level)))
	})
}

// AndExistsReplace returns Replace(AndExists(f, g, s), p) in one pass: the
// image of a set under a relation, renamed back to the set's variables, as
// a model checker computes it with current and next copies, without
// building the image under the next copies first (that intermediate BDD and
// the renaming's pass over it cost conc-product's search about a fifth of
// its time).
func (m *Manager) AndExistsReplace(f, g Node, s *VarSet, p *Pairs) Node {
	if p.m != m {
		panic("bdd: Pairs of another manager")
	}
	s.check(m)
	op := m.relOp(p)
	return m.run(f, g, True, func() Node {
		p.refresh(m)
		c := s.cubeFrom(m, min(m.nodes[f].level, m.nodes[g].level))
		if op < 0 {
			return m.replace(m.andExists(f, g, c), p, p.last)
		}
		return m.andExistsReplace(f, g, c, p, op)
	})
}

// relOp returns the operation code of AndExistsReplace with p, or -1 when
// every code is taken (the operation then runs unfused).
func (m *Manager) relOp(p *Pairs) int32 {
	if op, ok := m.relOps[p.id]; ok {
		return op
	}
	op := opRelBase + int32(len(m.relOps))
	if op > opRelMax {
		return -1
	}
	if m.relOps == nil {
		m.relOps = make(map[int32]int32)
	}
	m.relOps[p.id] = op
	return op
}

// ---------------------------------------------------------------------
// Renaming and substitution

// Pairs is a renaming of variables, built by Manager.NewPairs. Building
// and using it costs time in the number of pairs and the size of the BDDs
// renamed, never in the number of variables of the Manager.
type Pairs struct {
	m    *Manager
	id   int32
	from []int32  // ascending; renamed variables only
	to   []int32  // to[i] is the new name of from[i]
	buf  [8]int32 // storage of from and to for up to 4 pairs (one allocation)
	// last is the deepest level of a renamed variable, valid while the
	// order is unchanged (orderEpoch), so that Replace does not pay
	// O(len(from)) per call.
	last      int32
	lastEpoch uint64
}

// NewPairs returns the renaming from[i] ↦ to[i] (variables are created on
// demand). The renaming need not preserve the order, nor be a permutation;
// a variable mapped twice keeps the last target.
func (m *Manager) NewPairs(from, to []int) *Pairs {
	p := &Pairs{m: m}
	p.Set(from, to)
	return p
}

// Set redefines p as the renaming from[i] ↦ to[i], reusing its storage
// (like BuDDy's bdd_setpairs). Results cached for the previous renaming
// are not reused: p gets a fresh identity. Cost O(len(from) log len(from)).
func (p *Pairs) Set(from, to []int) {
	m := p.m
	if len(from) != len(to) {
		panic(fmt.Sprintf("bdd: Pairs: %d sources, %d targets", len(from), len(to)))
	}
	p.id = m.newID()
	p.lastEpoch = 0
	n := len(from)
	var buf []int32
	switch {
	case n <= len(p.buf)/2:
		buf = p.buf[:2*n]
	case cap(p.from) >= n && cap(p.to) >= n:
		p.from, p.to = p.from[:0], p.to[:0]
	default:
		buf = make([]int32, 2*n)
	}
	if buf != nil {
		p.from, p.to = buf[:0:n], buf[n:n]
	}
	// Fast path: sources already strictly ascending (the usual case), no
	// sorting needed.
	sorted := true
	for i, v := range from {
		m.needVar(v)
		m.needVar(to[i])
		if i > 0 && from[i-1] >= v {
			sorted = false
		}
	}
	if sorted {
		for i, v := range from {
			if v != to[i] {
				p.from = append(p.from, int32(v))
				p.to = append(p.to, int32(to[i]))
			}
		}
		return
	}
	type pair struct{ from, to int32 }
	var small [16]pair // no allocation for the common small renamings
	ps := small[:0]
	for i, v := range from {
		ps = append(ps, pair{int32(v), int32(to[i])})
	}
	// Stable sort keeps the last mapping of a variable last among equals.
	slices.SortStableFunc(ps, func(a, b pair) int { return int(a.from - b.from) })
	for i, q := range ps {
		if i+1 < len(ps) && ps[i+1].from == q.from {
			continue
		}
		if q.from != q.to {
			p.from = append(p.from, q.from)
			p.to = append(p.to, q.to)
		}
	}
}

// lookup returns the new name of v, if v is renamed.
func (p *Pairs) lookup(v int32) (int32, bool) {
	lo, hi := 0, len(p.from)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if p.from[mid] < v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(p.from) && p.from[lo] == v {
		return p.to[lo], true
	}
	return 0, false
}

// newID returns a fresh id for cache keys of parameterised operations.
// Ids are never reused while cached entries may mention them: on wrap the
// cache is cleared.
func (m *Manager) newID() int32 {
	if m.nextID == 1<<31-1 {
		m.nextID = 1
		m.clearCache()
		m.relOps = nil // keyed by ids that may now be given again
	}
	m.nextID++
	return m.nextID
}

// Replace renames the variables of f according to p.
func (m *Manager) Replace(f Node, p *Pairs) Node {
	if p.m != m {
		panic("bdd: Pairs of another manager")
	}
	return m.run(f, True, True, func() Node {
		p.refresh(m)
		return m.replace(f, p, p.last)
	})
}

// refresh computes p.last for the current order, if it changed.
func (p *Pairs) refresh(m *Manager) {
	if p.lastEpoch != m.orderEpoch {
		p.last = -1
		for _, v := range p.from {
			p.last = max(p.last, m.var2level[v])
		}
		p.lastEpoch = m.orderEpoch
	}
}

// Compose substitutes g for variable v in f: f[v := g].
func (m *Manager) Compose(f Node, v int, g Node) Node {
	m.needVar(v)
	return m.run(f, g, True, func() Node { return m.compose(f, g, m.var2level[v]) })
}

// VecCompose substitutes gs[i] for vars[i] in f, simultaneously. The
// functions gs must be protected like any operand (rooted or temporaries).
func (m *Manager) VecCompose(f Node, vars []int, gs []Node) Node {
	if len(vars) != len(gs) {
		panic(fmt.Sprintf("bdd: VecCompose: %d variables, %d functions", len(vars), len(gs)))
	}
	for _, g := range gs {
		if !m.valid(g) {
			return Invalid
		}
	}
	sub := make(map[int32]Node, len(vars))
	for i, v := range vars {
		m.needVar(v)
		sub[int32(v)] = gs[i]
	}
	id := m.newID()
	return m.run(f, True, True, func() Node {
		last := int32(-1)
		for v := range sub {
			last = max(last, m.var2level[v])
		}
		return m.vecCompose(f, sub, id, last)
	})
}

// Restrict simplifies f with respect to the care set c (Coudert–Madre
// restrict): the result agrees with f wherever c holds, and is usually
// smaller: as in CUDD, f itself is returned when the restricted BDD would
// have more nodes. Restrict(f, c) ∧ c == f ∧ c. Restricting by a cube of
// literals is the cofactor by that assignment.
func (m *Manager) Restrict(f, c Node) Node {
	r := m.run(f, c, True, func() Node { return m.restrict(f, c) })
	if r != Invalid && m.NodeCount(r) > m.NodeCount(f) {
		return f
	}
	return r
}

// Constrain is the generalised cofactor f↓c (Coudert–Madre constrain):
// Constrain(f, c) ∧ c == f ∧ c, and for a cube c it is the cofactor.
func (m *Manager) Constrain(f, c Node) Node {
	return m.run(f, c, True, func() Node { return m.constrain(f, c) })
}

// Assignment returns the cube fixing vars[i] to vals[i] (a conjunction of
// literals), e.g. for cofactoring with Restrict. A variable given twice
// with different values gives False. The cube is built from its lowest
// level up, one node per literal, so the cost is O(n log n) in any order
// of vars (conjoining the literals top-down would walk the partial cube
// once per literal: quadratic).
func (m *Manager) Assignment(vars []int, vals []bool) Node {
	if len(vars) != len(vals) {
		panic("bdd: Assignment: lengths differ")
	}
	for _, v := range vars {
		m.needVar(v)
	}
	type lit struct {
		level int32
		val   bool
	}
	lits := make([]lit, len(vars))
	return m.run(True, True, True, func() Node {
		// Levels are read inside the operation: run may reorder first.
		for i, v := range vars {
			lits[i] = lit{m.var2level[v], vals[i]}
		}
		slices.SortFunc(lits, func(a, b lit) int { return int(b.level - a.level) })
		r := True
		for i, l := range lits {
			if i > 0 && lits[i-1].level == l.level {
				if lits[i-1].val != l.val {
					return False
				}
				continue
			}
			if l.val {
				r = m.mk(l.level, False, r)
			} else {
				r = m.mk(l.level, r, False)
			}
		}
		return r
	})
}
