package symbolic

import (
	"boolprog/bdd"
	"boolprog/ir"
)

// CallSite holds the relations of one call site for an interprocedural
// analysis by summaries (the RHS tabulation of the Bebop paper, Figure 3):
// entering the callee, binding its context to the caller's state, lifting
// the callee's exit path edges into summary edges of the call site, and
// joining summary edges with the caller's path edges at the return point.
//
// Path edges are BDDs over Entry copies (the context: the values of the
// procedure's interface at its entry) and Cur copies (the values now); a
// summary edge relates the caller's state before the call (Cur) to the
// values the call changes (Next copies of Changed).
type CallSite struct {
	l        *Layout
	call     *ir.Call
	enter    *Image
	join     *Image
	bind     *bdd.Root
	selfLoop *bdd.Root
	ownLoop  bool // selfLoop is the call site's (not CallSiteSpec.SelfLoop)
	own      bool // the images are the call site's (no CallSiteSpec.Images)
	ifaceSet *bdd.VarSet
	outPre   *bdd.VarSet // callee exit slots overwritten or discarded (Cur), nil if none
	outPairs *bdd.Pairs  // callee exit Cur → caller Next, nil if none
	src, dst []int
	changed  Set
}

// CallSiteSpec describes a call site: the call, the caller, and what the
// analysis tracks where (which slots are live; see package analysis).
type CallSiteSpec struct {
	Call   *ir.Call
	Caller *ir.Proc
	// CalleeEntry: the callee's slots tracked at its entry.
	CalleeEntry Set
	// Iface: the callee's context, the slots whose Entry copies its path
	// edges carry (the globals and parameters live at its entry).
	Iface Set
	// Reported: the globals the callee reports at its exit (its MOD set,
	// or every global); the caller's other globals keep their values.
	Reported Set
	// Keep: the caller's slots tracked after the return.
	Keep Set
	// SelfLoop, if not nil, is the callee's Entry = Cur on Iface, shared
	// by its call sites; nil: the call site builds its own.
	SelfLoop *bdd.Root
	// Images, if not nil, compiles (and owns) the call site's images, for
	// instance a cache shared by the edges that do the same thing; nil:
	// Layout.NewImage, released by Release.
	Images func(ImageSpec) *Image
}

// NewCallSite builds the relations of a call site.
func (l *Layout) NewCallSite(s CallSiteSpec) *CallSite {
	m := l.M
	c := s.Call
	callee := l.Prog.Procs[c.Proc]
	cs := &CallSite{l: l, call: c, selfLoop: s.SelfLoop, own: s.Images == nil}
	images := s.Images
	if images == nil {
		images = l.NewImage
	}
	if cs.selfLoop == nil {
		cs.selfLoop, cs.ownLoop = m.Keep(l.Equal(Entry, Cur, s.Iface)), true
	}
	all, glob, scope := l.All(), l.Globals(), l.ScopeOf(s.Caller)
	// Entering the callee: the caller's context and locals leave scope,
	// globals pass, parameters get the arguments.
	cs.enter = images(ImageSpec{
		Rel:       l.CallEntry(c),
		Drop:      scope.Minus(glob.Inter(s.CalleeEntry)),
		Keep:      s.CalleeEntry,
		DropEntry: all,
	})
	cs.bind = m.Keep(l.Bind(c, s.Iface))
	cs.ifaceSet = l.VarSet(CopySet{Entry, s.Iface})

	// Returning: the callee's reported globals and returned values become
	// the caller's new values (Next copies); a returned value assigned to a
	// global overrides the callee's value of that global.
	targets := NewSet(l.N())
	pre := NewSet(l.N())
	for i := 0; i < callee.Returns; i++ {
		pre.Add(l.Ret(i))
	}
	for i, t := range c.Targets {
		if t.Discard {
			continue
		}
		slot := l.Slot(t.Var)
		targets.Add(slot)
		cs.src = append(cs.src, l.Ret(i))
		cs.dst = append(cs.dst, slot)
		pre.Remove(l.Ret(i))
	}
	for _, g := range s.Reported.Elems() {
		if targets.Has(g) {
			pre.Add(g)
			continue
		}
		cs.src = append(cs.src, g)
		cs.dst = append(cs.dst, g)
	}
	if !pre.Empty() {
		cs.outPre = l.VarSet(CopySet{Cur, pre})
	}
	if len(cs.src) > 0 {
		cs.outPairs = l.RenameSlots(Cur, Next, cs.src, cs.dst)
	}
	cs.changed = s.Reported.Union(targets)
	post := l.Post(c)
	cs.join = images(ImageSpec{
		Rel:  Rel{R: bdd.True, Changed: cs.changed},
		Drop: scope.Minus(s.Keep),
		Keep: s.Keep,
		Post: &post,
	})
	return cs
}

// Enter returns the path edges at the callee's entry for path edges s at
// the call site: SelfLoop(Join(s, Transfer)) of the paper.
func (cs *CallSite) Enter(s bdd.Node) bdd.Node {
	return cs.l.M.And(cs.enter.Apply(s), cs.selfLoop.Node())
}

// Lift turns path edges x at the callee's exit into summary edges of the
// call site (Lift of the paper): pairs of the caller's state before the
// call (Cur) and the values the call changes (Next).
func (cs *CallSite) Lift(x bdd.Node) bdd.Node {
	m := cs.l.M
	if cs.outPre != nil {
		x = m.Exists(x, cs.outPre)
	}
	if cs.outPairs != nil {
		x = m.Replace(x, cs.outPairs)
	}
	return m.AndExists(x, cs.bind.Node(), cs.ifaceSet)
}

// Join returns the path edges at the return point for path edges s at the
// call site and summary edges sum (Join of the paper), the caller's
// post-condition applied.
func (cs *CallSite) Join(s, sum bdd.Node) bdd.Node { return cs.join.ApplyWith(s, sum) }

// Bind returns the relation between the caller's Cur state and the
// callee's context (see Layout.Bind).
func (cs *CallSite) Bind() bdd.Node { return cs.bind.Node() }

// Changed returns the caller's slots a return may change: the reported
// globals and the call's targets. The set must not be modified.
func (cs *CallSite) Changed() Set { return cs.changed }

// Out returns how a return renames: the callee's slot src[i] (Cur, at its
// exit) becomes the caller's slot dst[i] (Next), and the renaming itself
// (nil if empty).
func (cs *CallSite) Out() (src, dst []int, pairs *bdd.Pairs) { return cs.src, cs.dst, cs.outPairs }

// Release frees the call site's roots (and images, unless
// CallSiteSpec.Images made them).
func (cs *CallSite) Release() {
	cs.bind.Release()
	if cs.ownLoop {
		cs.selfLoop.Release()
	}
	if cs.own {
		cs.enter.Release()
		cs.join.Release()
	}
}
