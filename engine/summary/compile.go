package summary

import (
	"boolprog/analysis"
	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
)

// model is a program prepared for the search: the variable layout, the
// analyses and, per procedure, location and edge, the compiled BDD
// operations (built lazily: an edge that is never reached costs nothing).
type model struct {
	p     *ir.Program
	an    *analysis.Cache // the program analyses
	m     *bdd.Manager
	l     *symbolic.Layout
	opts  Options
	procs []*procInfo
	all   symbolic.Set // every slot
	glob  symbolic.Set // the global slots

	// images caches compiled images by relation and projection: edges
	// that do the same thing (T(N) repeats each level's statements) share
	// one.
	images map[imageKey]*symbolic.Image
}

type imageKey struct {
	rel, post                      bdd.Node
	changed, drop, keep, dropEntry string
}

// image returns the compiled image of spec, shared with every edge that
// has the same relation and projections.
func (md *model) image(s symbolic.ImageSpec) *symbolic.Image {
	k := imageKey{rel: s.Rel.R, post: bdd.Invalid, changed: s.Rel.Changed.Key(), drop: s.Drop.Key(), keep: s.Keep.Key()}
	if s.Post != nil {
		k.post = *s.Post
	}
	if s.DropEntry != nil {
		k.dropEntry = s.DropEntry.Key()
	}
	if im := md.images[k]; im != nil {
		return im
	}
	im := md.l.NewImage(s)
	md.images[k] = im
	return im
}

// procInfo is what the search knows about one procedure.
type procInfo struct {
	proc  *ir.Proc
	scope symbolic.Set   // slots in scope: globals, locals, returned values
	live  []symbolic.Set // per location: slots whose values are tracked
	// iface: the slots whose values at entry a summary depends on (the
	// Entry copies of a path edge): globals and parameters live at entry.
	iface symbolic.Set
	// outGlobals: globals a summary reports at the exit (MOD set, or all
	// tracked globals); out adds the returned-value slots.
	outGlobals symbolic.Set
	selfLoop   *bdd.Root // Entry = Cur on iface (SelfLoop of the paper)
	callers    []*edgeInfo
	edges      []*edgeInfo
	tracked    []*bdd.VarSet // per location, lazily: Entry(iface) ∪ Cur(live)
}

// edgeInfo holds the compiled operations of one edge.
type edgeInfo struct {
	pi     *procInfo
	edge   *ir.Edge
	call   *ir.Call // nil for an intraprocedural edge
	callee *procInfo
	built  bool

	// Intraprocedural edges: the step.
	img *symbolic.Image
	// Intraprocedural edges: the slots the step may change (img.Rel() is
	// its relation).
	relChanged symbolic.Set

	// Calls only.
	cs      *symbolic.CallSite
	summary *bdd.Root // SummaryEdges of this call site (Figure 3); nil until first used
}

func newModel(p *ir.Program, an *analysis.Cache, m *bdd.Manager, opts Options) *model {
	order := symbolic.OrderForce
	if opts.AffinityOrder {
		order = symbolic.OrderAffinity
	}
	if opts.DeclarationOrder {
		order = symbolic.OrderDeclaration
	}
	l := symbolic.NewLayout(m, p, order)
	md := &model{p: p, an: an, m: m, l: l, opts: opts, all: symbolic.NewSet(l.N()), glob: l.Globals(),
		images: make(map[imageKey]*symbolic.Image)}
	for i := 0; i < l.N(); i++ {
		md.all.Add(i)
	}
	var mr *analysis.ModRefSets
	if !opts.NoModRef {
		mr = analysis.Of(md.an, analysis.ModRef)
	}
	rets := func(pr *ir.Proc) symbolic.Set {
		s := symbolic.NewSet(l.N())
		for i := 0; i < pr.Returns; i++ {
			s.Add(l.Ret(i))
		}
		return s
	}
	// trackedGlobals: the globals a procedure's path edges mention at all.
	trackedGlobals := func(pr *ir.Proc) symbolic.Set {
		if mr == nil {
			return md.glob
		}
		return mr.Mod[pr.Index].Union(mr.Ref[pr.Index])
	}
	outGlobals := func(pr *ir.Proc) symbolic.Set {
		if mr == nil {
			return md.glob
		}
		return mr.Mod[pr.Index]
	}
	exitLive := func(pr *ir.Proc) symbolic.Set { return outGlobals(pr).Union(rets(pr)) }

	var lv *analysis.Live
	switch {
	case opts.NoLiveness:
	case opts.NoModRef:
		// Every global is live at every exit: a variant of the shared
		// analysis, computed here.
		lv = analysis.ComputeLiveness(p, analysis.Of(md.an, analysis.CallGraph), exitLive)
	default:
		lv = analysis.Of(md.an, analysis.Liveness) // its exits read MOD and the returned values, as exitLive
	}
	md.procs = make([]*procInfo, len(p.Procs))
	for i, pr := range p.Procs {
		pi := &procInfo{proc: pr, scope: l.ScopeOf(pr), outGlobals: outGlobals(pr)}
		pi.live = make([]symbolic.Set, len(pr.Locations))
		if lv != nil {
			copy(pi.live, lv.Live[i])
		} else {
			body := trackedGlobals(pr).Clone()
			for j := range pr.Locals {
				body.Add(l.Local(j))
			}
			for k := range pi.live {
				pi.live[k] = body
			}
			pi.live[pr.Exit] = exitLive(pr)
		}
		params := symbolic.NewSet(l.N())
		for j := 0; j < pr.Params; j++ {
			params.Add(l.Local(j))
		}
		pi.iface = pi.live[pr.Entry].Inter(md.glob.Union(params))
		pi.selfLoop = m.Keep(l.Equal(symbolic.Entry, symbolic.Cur, pi.iface))
		pi.edges = make([]*edgeInfo, len(pr.Edges))
		pi.tracked = make([]*bdd.VarSet, len(pr.Locations))
		md.procs[i] = pi
	}
	for _, pi := range md.procs {
		for k, e := range pi.proc.Edges {
			ei := &edgeInfo{pi: pi, edge: e}
			if c, ok := e.Op.(*ir.Call); ok {
				ei.call = c
				ei.callee = md.procs[c.Proc]
				ei.callee.callers = append(ei.callee.callers, ei)
			}
			pi.edges[k] = ei
		}
	}
	return md
}

// trackedSet returns the BDD variables a path edge at loc may mention.
func (md *model) trackedSet(pi *procInfo, loc int) *bdd.VarSet {
	if pi.tracked[loc] == nil {
		pi.tracked[loc] = md.l.VarSet(
			symbolic.CopySet{Copy: symbolic.Entry, Set: pi.iface},
			symbolic.CopySet{Copy: symbolic.Cur, Set: pi.live[loc]})
	}
	return pi.tracked[loc]
}

// compile builds the operations of an edge on first use.
func (md *model) compile(ei *edgeInfo) *edgeInfo {
	if ei.built {
		return ei
	}
	ei.built = true
	l := md.l
	pi := ei.pi
	to := ei.edge.To
	keep := pi.live[to]
	drop := pi.scope.Minus(keep)
	if ei.call == nil {
		rel := l.EdgeRel(pi.proc, ei.edge.Op)
		ei.relChanged = rel.Changed
		ei.img = md.image(symbolic.ImageSpec{
			Rel:  rel,
			Drop: drop,
			Keep: keep,
		})
		return ei
	}
	q := ei.callee
	ei.cs = l.NewCallSite(symbolic.CallSiteSpec{
		Call:        ei.call,
		Caller:      pi.proc,
		CalleeEntry: q.live[q.proc.Entry],
		Iface:       q.iface,
		Reported:    q.outGlobals,
		Keep:        keep,
		SelfLoop:    q.selfLoop,
		Images:      md.image,
	})
	return ei
}

// resetSummaries forgets the summary edges of a search (they belong to
// the model's call sites), so that another search starts afresh.
func (md *model) resetSummaries() {
	for _, pi := range md.procs {
		for _, ei := range pi.edges {
			if ei.summary != nil {
				ei.summary.Release()
				ei.summary = nil
			}
		}
	}
}

// release frees the roots of the model.
func (md *model) release() {
	for _, im := range md.images {
		im.Release()
	}
	for _, pi := range md.procs {
		pi.selfLoop.Release()
		for _, ei := range pi.edges {
			if ei.cs != nil {
				ei.cs.Release()
			}
			if ei.summary != nil {
				ei.summary.Release()
			}
		}
	}
}
