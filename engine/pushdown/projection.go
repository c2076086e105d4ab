package pushdown

import (
	"context"
	"errors"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/symbolic"
	"boolprog/wpds"
)

// Projection is the error projection of a program (result.Projection).
type Projection = result.Projection

// ProjectedLocation is one location of an error projection
// (result.ProjectedLocation).
type ProjectedLocation = result.ProjectedLocation

// ErrorProjection is the engine's engine.Projector: the error projection
// of p (ErrorProjection).
func (e *Engine) ErrorProjection(ctx context.Context, p *ir.Program, maxNodes, maxStates int) (*Projection, error) {
	return ErrorProjection(ctx, p, maxNodes, maxStates)
}

// ErrorProjection returns the error projection of p, with at most
// maxStates states listed per location. It is computed as the thesis does
// (§5.2.1, §5.3.2.2): post* from the start of main and pre* from the error
// locations, intersected as a functional automaton per location γ (the
// weight of a pair of paths for a stack γw in both automata is
// post*(γw) ⊗ z ⊗ pre*(γw), with the merge function where post* enters a
// call state while pre* returns), read with z the symbolic identity that
// records, in the Entry copies of the BDD variables, the state at γ. The
// exit location of a procedure is in the projection when an error run
// returns from it (the state there is the callee's before the return).
// maxNodes bounds the BDD node table (0: the default); ctx, a deadline or
// the node limit end the computation with an error (engine.ErrTimeout, the
// context's cause, or bdd.ErrNodeLimit). The program must be sequential.
func ErrorProjection(ctx context.Context, p *ir.Program, maxNodes, maxStates int) (proj *Projection, err error) {
	if p.Concurrent {
		return nil, errors.New("pushdown: the error projection of a concurrent program is not supported")
	}
	if p.Main < 0 {
		return nil, errors.New("pushdown: the program has no main")
	}
	m := newManager(ctx, p, engine.Query{MaxNodes: maxNodes})
	defer func() {
		if v := recover(); v != nil {
			s, ok := v.(errStop)
			if !ok {
				panic(v)
			}
			proj, err = nil, s.err
		}
		if isStop(err) {
			err = context.Cause(ctx)
			if err == nil {
				err = engine.ErrTimeout
			}
		}
	}()
	md := newModel(ctx, p, m)
	defer md.release()
	md.sr.gc = true
	post, err := wpds.Poststar(md.pds, md.startSet(), wpds.Options{})
	if err != nil {
		return nil, err
	}
	target, _ := md.errorSet()
	pre, err := wpds.Prestar(md.pds, target, wpds.Options{})
	md.sr.gc = false
	if err != nil {
		return nil, err
	}
	return md.project(post, pre, maxStates)
}

type ptrans struct {
	to wpds.State
	w  symbolic.Rel
}

// project intersects the automata post (backward) and pre (forward).
func (md *model) project(post, pre *wpds.Automaton[symbolic.Rel], maxStates int) (*Projection, error) {
	m, l := md.m, md.l
	type fs struct {
		from wpds.State
		sym  wpds.Symbol
	}
	outB, outF := map[fs][]ptrans{}, map[fs][]ptrans{}
	bySym := map[wpds.State][]wpds.Symbol{} // the symbols leaving each state of post
	for _, t := range post.Transitions() {
		if t.Sym == wpds.Epsilon || t.Weight.R == bdd.False {
			continue
		}
		k := fs{t.From, t.Sym}
		if len(outB[k]) == 0 {
			bySym[t.From] = append(bySym[t.From], t.Sym)
		}
		outB[k] = append(outB[k], ptrans{t.To, t.Weight})
	}
	for _, t := range pre.Transitions() {
		if t.Weight.R == bdd.False {
			continue
		}
		outF[fs{t.From, t.Sym}] = append(outF[fs{t.From, t.Sym}], ptrans{t.To, t.Weight})
	}
	// id: the symbolic identity: Cur = Next = Entry on every slot.
	id := md.sr.keep(symbolic.Rel{R: m.And(l.Equal(symbolic.Cur, symbolic.Entry, md.all), l.Equal(symbolic.Next, symbolic.Entry, md.all)), Changed: md.all})
	notEntry := l.VarSet(symbolic.CopySet{Copy: symbolic.Cur, Set: md.all}, symbolic.CopySet{Copy: symbolic.Next, Set: md.all}, symbolic.CopySet{Copy: symbolic.Mid, Set: md.all})
	type pstate struct{ b, f wpds.State }
	proj := &Projection{}
	polls := 0
	for g := range md.locOf {
		sym := wpds.Symbol(g)
		first := outB[fs{control, sym}]
		firstF := outF[fs{control, sym}]
		if len(first) == 0 || len(firstF) == 0 {
			continue
		}
		val := map[pstate]symbolic.Rel{}
		var work []pstate
		inWork := map[pstate]bool{}
		add := func(k pstate, w symbolic.Rel) {
			if w.R == bdd.False {
				return
			}
			old, ok := val[k]
			if ok {
				w = md.sr.Combine(old, w)
				if md.sr.Equal(w, old) {
					return
				}
			}
			val[k] = w
			if !inWork[k] {
				inWork[k] = true
				work = append(work, k)
			}
		}
		for _, tb := range first {
			for _, tf := range firstF {
				add(pstate{tb.to, tf.to}, md.sr.Extend(md.sr.Extend(tb.w, id), tf.w))
			}
		}
		for len(work) > 0 {
			if polls++; polls&63 == 0 && md.ctx.Err() != nil {
				return nil, errTimeout
			}
			k := work[0]
			work = work[1:]
			inWork[k] = false
			z := val[k]
			r := post.PushRule(k.b)
			if r < 0 {
				continue // the start's final state: nothing leaves it
			}
			ci := md.calls[r]
			for _, s := range bySym[k.b] {
				for _, tb := range outB[fs{k.b, s}] {
					for _, tf := range outF[fs{k.f, s}] {
						var w symbolic.Rel
						if k.f == control { // the callee returned: the merge
							w = md.sr.Extend(md.sr.Extend(tb.w, md.ret(ci, z)), tf.w)
						} else {
							w = md.sr.Extend(md.sr.Extend(md.sr.Extend(tb.w, ci.enter), z), tf.w)
						}
						add(pstate{tb.to, tf.to}, w)
					}
				}
			}
		}
		total := bdd.False
		for k, w := range val {
			if post.Final(k.b) && pre.Final(k.f) {
				total = m.Or(total, m.Exists(md.full(w), notEntry))
			}
		}
		if err := m.Err(); err != nil {
			return nil, err
		}
		if total == bdd.False {
			continue
		}
		pl := md.locOf[g]
		proj.Locations = append(proj.Locations, md.projected(pl[0], pl[1], total, maxStates))
	}
	if err := m.Err(); err != nil {
		return nil, err
	}
	return proj, nil
}

// projected lists the states of f (over the Entry copies) of the variables
// in scope at loc of procedure proc.
func (md *model) projected(proc, loc int, f bdd.Node, maxStates int) ProjectedLocation {
	m, l := md.m, md.l
	pr := md.p.Procs[proc]
	pl := ProjectedLocation{Proc: proc, Loc: loc}
	var slots []int
	for i := range md.p.Globals {
		pl.Vars = append(pl.Vars, ir.VarRef{Global: true, Index: i})
		slots = append(slots, l.Slot(ir.VarRef{Global: true, Index: i}))
	}
	for j := range pr.Locals {
		pl.Vars = append(pl.Vars, ir.VarRef{Index: j})
		slots = append(slots, l.Local(j))
	}
	in := symbolic.NewSet(l.N())
	vars := make([]int, len(slots))
	for i, s := range slots {
		in.Add(s)
		vars[i] = l.Var(s, symbolic.Entry)
	}
	f = m.Exists(f, l.VarSet(symbolic.CopySet{Copy: symbolic.Entry, Set: md.all.Minus(in)}))
	vs := m.VarSet(vars...)
	pl.Count = m.SatCount(f, vs)
	pl.Values = make([]int, len(slots))
	for i, v := range vars {
		t := m.And(f, m.Ithvar(v)) != bdd.False
		e := m.And(f, m.NIthvar(v)) != bdd.False
		switch {
		case t && e:
			pl.Values[i] = -1
		case t:
			pl.Values[i] = 1
		}
	}
	for len(pl.States) < maxStates && f != bdd.False {
		st := l.Values(f, symbolic.Entry, slots)
		if st == nil {
			break
		}
		pl.States = append(pl.States, st)
		f = m.And(f, m.Not(l.Cube(symbolic.Entry, slots, st)))
	}
	pl.Truncated = f != bdd.False
	return pl
}
