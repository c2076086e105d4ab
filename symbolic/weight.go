package symbolic

import "boolprog/bdd"

// Relations as weights: a Rel is the weight of a rule of a weighted
// pushdown system over the program's state (the RelWeight of the design
// notes), and the operations below make them a semiring, with union as
// Combine, sequential composition as Extend, the empty relation as Zero and
// the identity as One. Both operations keep frames implicit: the result
// changes the union of the operands' Changed sets, and only those slots'
// frames are made explicit (see Full), so a weight costs in what it
// changes, not in the width of the scope. Extend needs the Mid copy (a
// layout with at least four copies).

// Zero is the empty relation: no transition.
func (l *Layout) Zero() Rel { return Rel{R: bdd.False, Changed: NewSet(l.N())} }

// One is the identity relation (Skip).
func (l *Layout) One() Rel { return l.Skip() }

// Combine returns the union of a and b.
func (l *Layout) Combine(a, b Rel) Rel {
	u := a.Changed.Union(b.Changed)
	return Rel{R: l.M.Or(l.Full(a, u), l.Full(b, u)), Changed: u}
}

// Extend returns a followed by b: the pairs (s, s”) such that a relates s
// to some s' and b relates s' to s”.
func (l *Layout) Extend(a, b Rel) Rel {
	u := a.Changed.Union(b.Changed)
	m := l.M
	x := m.Replace(l.Full(a, u), l.Rename(Next, Mid, u))
	y := m.Replace(l.Full(b, u), l.Rename(Cur, Mid, u))
	return Rel{R: m.AndExists(x, y, l.VarSet(CopySet{Mid, u})), Changed: u}
}

// SameRel reports whether a and b are the same relation, whatever their
// Changed sets (a slot may be in Changed and still keep its value).
func (l *Layout) SameRel(a, b Rel) bool {
	u := a.Changed.Union(b.Changed)
	return l.Full(a, u) == l.Full(b, u)
}
