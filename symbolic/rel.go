package symbolic

import (
	"fmt"

	"boolprog/bdd"
	"boolprog/ir"
)

// Rel is a transition relation over the Cur (before) and Next (after)
// copies of the slots. Only the slots in Changed may change, and the
// relation constrains Next copies of those slots only; every other slot
// keeps its value (an implicit frame: see Full).
type Rel struct {
	R       bdd.Node
	Changed Set
}

// Full returns the relation with its frame made explicit over scope: R ∧
// Cur = Next on every slot of scope not in Changed.
func (l *Layout) Full(r Rel, scope Set) bdd.Node {
	return l.M.And(r.R, l.Equal(Cur, Next, scope.Minus(r.Changed)))
}

// Compose returns the relational composition of r1 and r2, relations over
// the Cur (before) and Next (after) copies of the slots in set and of the
// pc bits with their frames explicit (see Full): the pairs (s, s”) such
// that r1 relates s to some s' and r2 relates s' to s”. The intermediate
// state is the Mid copy (the layout needs at least four copies): ∃Mid.
// r1[Next→Mid] ∧ r2[Cur→Mid]. Entry copies pass through unchanged.
func (l *Layout) Compose(r1, r2 bdd.Node, set Set) bdd.Node {
	m := l.M
	a := m.Replace(r1, l.RenameState(Next, Mid, set))
	b := m.Replace(r2, l.RenameState(Cur, Mid, set))
	return m.AndExists(a, b, l.StateVarSet(Mid, set))
}

// Skip is the identity relation.
func (l *Layout) Skip() Rel { return Rel{R: bdd.True, Changed: NewSet(l.N())} }

// EdgeRel returns the relation of an intraprocedural edge operation of
// proc: Skip, Assume, Assign or Return. Calls and thread operations have no
// intraprocedural relation; EdgeRel panics on them.
func (l *Layout) EdgeRel(proc *ir.Proc, op ir.Op) Rel {
	switch op := op.(type) {
	case *ir.Skip:
		return l.Skip()
	case *ir.Assume:
		return l.Assume(op.Cond)
	case *ir.Assign:
		return l.Assign(op)
	case *ir.Return:
		return l.Return(op)
	}
	panic(fmt.Sprintf("symbolic: no intraprocedural relation for %T", op))
}

// Assume is the relation of assume(cond): states where cond can be true,
// nothing changed.
func (l *Layout) Assume(cond ir.Expr) Rel {
	return Rel{R: l.CanBeTrue(cond, l.Reading(Cur)), Changed: NewSet(l.N())}
}

// Assign is the relation of a parallel assignment with its constrain (and
// so also of dead/decl, whose values are `*`, and of enforce, which package
// ir folds into the constrain): each target's Next copy takes a value its
// expression can have in the Cur state, and the constrain can be true with
// primed targets read from Next copies and everything else from Cur copies
// (a primed variable that is not a target has its old value).
func (l *Layout) Assign(a *ir.Assign) Rel {
	m := l.M
	changed := NewSet(l.N())
	for _, t := range a.Targets {
		changed.Add(l.Slot(t))
	}
	cur := l.Reading(Cur)
	r := bdd.True
	for i, t := range a.Targets {
		r = m.And(r, l.Choose(l.Var(l.Slot(t), Next), a.Values[i], cur))
	}
	if a.Constrain != nil {
		read := func(v *ir.Var) int {
			s := l.Slot(v.VarRef)
			if v.Primed && changed.Has(s) {
				return l.Var(s, Next)
			}
			return l.Var(s, Cur)
		}
		r = m.And(r, l.CanBeTrue(a.Constrain, read))
	}
	return Rel{R: r, Changed: changed}
}

// Return is the relation of `return e1, ..., ek`: the Next copy of
// returned-value slot i takes a value e_i can have.
func (l *Layout) Return(r *ir.Return) Rel {
	return l.chooseInto(r.Values, l.Ret)
}

// CallEntry is the relation of entering the callee of c: the Next copy of
// the callee's parameter slot j takes a value argument j can have in the
// caller's Cur state. Changed holds the parameter slots. (Globals pass
// unchanged; the caller's locals leave scope and the callee's other locals
// are unconstrained: the caller of CallEntry quantifies them.)
func (l *Layout) CallEntry(c *ir.Call) Rel {
	return l.chooseInto(c.Args, l.Local)
}

// chooseInto is the relation in which the Next copy of slot(i) takes a
// value es[i] can have in the Cur state, for every i; Changed holds those
// slots.
func (l *Layout) chooseInto(es []ir.Expr, slot func(int) int) Rel {
	changed := NewSet(l.N())
	cur := l.Reading(Cur)
	r := bdd.True
	for i, e := range es {
		changed.Add(slot(i))
		r = l.M.And(r, l.Choose(l.Var(slot(i), Next), e, cur))
	}
	return Rel{R: r, Changed: changed}
}

// Bind relates the caller's Cur state at call c to the callee's context, the
// Entry copies of iface (globals and parameter slots of the callee): a
// global's Entry copy equals its Cur copy, parameter j's Entry copy takes a
// value argument j can have. Slots of iface that are neither are ignored.
func (l *Layout) Bind(c *ir.Call, iface Set) bdd.Node {
	m := l.M
	cur := l.Reading(Cur)
	r := bdd.True
	for _, s := range iface.Elems() {
		switch {
		case l.IsGlobal(s):
			r = m.And(r, m.Equiv(l.Lit(s, Entry), l.Lit(s, Cur)))
		case l.IsLocal(s) && s-l.G < len(c.Args):
			r = m.And(r, l.Choose(l.Var(s, Entry), c.Args[s-l.G], cur))
		}
	}
	return r
}

// Post returns the states (Cur copies) that satisfy the post-condition of
// call c (the caller's enforce), True if it has none.
func (l *Layout) Post(c *ir.Call) bdd.Node {
	if c.Post == nil {
		return bdd.True
	}
	return l.CanBeTrue(c.Post, l.Reading(Cur))
}

// Image is a compiled image computation: Apply(S) is the set of states (or
// path edges) reached from S by one transition of a relation, projected on
// the slots that matter afterwards. Entry copies not dropped pass through
// unchanged, so Apply maps path edges to path edges.
type Image struct {
	m     *bdd.Manager
	rel   *bdd.Root
	post  *bdd.Root // nil: no post-condition
	q     *bdd.VarSet
	q2    *bdd.VarSet // with a post-condition: quantified after it
	pairs *bdd.Pairs  // nil: no renaming
}

// ImageSpec describes an Image.
type ImageSpec struct {
	Rel Rel
	// Drop: slots whose Cur copies are projected out (their values no
	// longer matter, or they leave scope). Changed slots are always
	// replaced by their new values.
	Drop Set
	// Keep: slots whose values matter after the step. A changed slot
	// outside Keep is projected out instead of renamed.
	Keep Set
	// DropEntry: slots whose Entry copies are projected out (nil: none).
	DropEntry Set
	// Post, if not nil, is a condition on the new Cur state, applied before
	// Drop and Keep project anything out.
	Post *bdd.Node
}

// NewImage compiles an image computation. The relation (and post-condition)
// are kept in Roots until Release.
func (l *Layout) NewImage(s ImageSpec) *Image {
	ch := s.Rel.Changed
	im := &Image{m: l.M, rel: l.M.Keep(s.Rel.R)}
	entry := s.DropEntry
	if entry == nil {
		entry = NewSet(l.N())
	}
	if s.Post == nil || *s.Post == bdd.True {
		renamed := ch.Inter(s.Keep)
		im.q = l.VarSet(CopySet{Cur, ch.Union(s.Drop)}, CopySet{Next, ch.Minus(s.Keep)}, CopySet{Entry, entry})
		if !renamed.Empty() {
			im.pairs = l.Rename(Next, Cur, renamed)
		}
		return im
	}
	im.post = l.M.Keep(*s.Post)
	im.q = l.VarSet(CopySet{Cur, ch}, CopySet{Entry, entry})
	if !ch.Empty() {
		im.pairs = l.Rename(Next, Cur, ch)
	}
	im.q2 = l.VarSet(CopySet{Cur, s.Drop.Union(ch.Minus(s.Keep))})
	return im
}

// Rel returns the image's relation.
func (im *Image) Rel() bdd.Node { return im.rel.Node() }

// Apply returns the image of s.
func (im *Image) Apply(s bdd.Node) bdd.Node {
	return im.ApplyWith(s, im.rel.Node())
}

// ApplyWith returns the image of s by relation r instead of the compiled
// relation (r must constrain the same copies: used for summary edges, which
// grow).
func (im *Image) ApplyWith(s, r bdd.Node) bdd.Node {
	m := im.m
	x := m.AndExists(s, r, im.q)
	if im.pairs != nil {
		x = m.Replace(x, im.pairs)
	}
	if im.post != nil {
		x = m.Exists(m.And(x, im.post.Node()), im.q2)
	}
	return x
}

// Release releases the roots of the image.
func (im *Image) Release() {
	im.rel.Release()
	if im.post != nil {
		im.post.Release()
	}
}
