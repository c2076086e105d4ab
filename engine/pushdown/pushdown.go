// Package pushdown holds the engines post* and pre*: they check a
// sequential Boolean program as an extended weighted pushdown system (Lal's
// thesis, chapters 2 and 3) with BDD relations over globals × locals as
// weights, forward (Poststar from the entry of main) or backward (Prestar
// from the error locations), with package wpds.
//
// # The pushdown system
//
// One control state; a stack symbol per location of every procedure; a
// step rule per intraprocedural edge (its relation, symbolic.Layout.EdgeRel),
// a push rule per call edge (the callee's entry on top of the return
// point; its weight binds the parameters and leaves the callee's other
// locals free) and a pop rule per exit (weight One). A weight relates the
// state of the executing frame (every slot of the layout: globals, locals
// and returned values) before and after; locals of different procedures
// share slots. The merge function of a call (§3.3) is
// Merge(a, b) = a ⊗ ret(b): ret(b) enters the callee, runs b, and returns,
// the callee's globals and returned values reaching the caller, whose locals
// keep their values from before the call and whose enforce must hold after
// it. It satisfies path extension, as pre* needs. No rule leaves an error
// location. The program is unsafe iff some configuration ⟨error, w⟩ has a
// non-empty weight: post* reads this off its automaton (a search over the
// automaton's states for a stack with a non-empty weight), pre* off the
// weight of ⟨entry of main⟩.
//
// With Options.FWPDS (the engines' flag --fwpds) the saturation that
// decides the program is FWPDS (Lal's thesis ch. 4, wpds.Options.FWPDS);
// an unsafe program is then saturated a second time, chaotically with
// witnesses, for its trace.
//
// # Traces
//
// Both engines record witnesses and expand the one of the error into a rule
// sequence with concrete states (trace.go), then into steps with
// result.NewStep. Traces are not shortest.
//
// # Error projections
//
// ErrorProjection computes Lal's error projection (thesis ch. 5) with its
// data values: the locations on some run from the start of main to an
// error, with the states there, as the intersection of the post* and pre*
// automata (projection.go).
//
// # Limits
//
// Concurrent programs and bounded queries get Unknown. Query.MaxNodes
// bounds the BDD node table; the context is polled in the semiring's
// operations and in the trace construction. Either gives Unknown with the
// reason, or, once the error is known to be reachable, Unsafe with
// Result.TraceCut. The BDDs are never garbage-collected during a run (the
// saturation keeps its weights where no Root can hold them), so memory
// grows with the run until the node limit. The weights relate whole
// states: there is no projection of dead variables as in the summary
// engine, so programs with many globals whose values the program mixes
// (the conformance suite's random programs at 63 and 64 globals) can take
// long or reach the node limit.
package pushdown

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/symbolic"
	"boolprog/wpds"
)

// Direction selects the saturation an engine runs.
type Direction int

const (
	// Forward is post*: saturate from the entry of main.
	Forward Direction = iota
	// Backward is pre*: saturate from the error locations.
	Backward
)

// The engines' names.
const (
	NamePost = "post*"
	NamePre  = "pre*"
)

// Engine is the post* or pre* engine.
type Engine struct {
	dir  Direction
	opts Options
}

// Options configure an engine.
type Options struct {
	// FWPDS saturates with path expressions (wpds.Options.FWPDS, Lal's
	// thesis ch. 4) to decide the program; FWPDS records no witnesses, so
	// an unsafe program is saturated a second time, chaotically with
	// witnesses, for its trace.
	FWPDS bool
}

// New returns the engine that saturates in direction dir.
func New(dir Direction) *Engine { return &Engine{dir: dir} }

// NewWithOptions returns the engine that saturates in direction dir with
// the given options.
func NewWithOptions(dir Direction, opts Options) *Engine { return &Engine{dir: dir, opts: opts} }

// flags defines the engines' own flag, --fwpds.
func flags(dir Direction) func(fs *flag.FlagSet) func() (engine.Engine, error) {
	return func(fs *flag.FlagSet) func() (engine.Engine, error) {
		fw := fs.Bool("fwpds", false, "decide with FWPDS (path expressions, Lal ch. 4); a trace takes a second, plain saturation")
		return func() (engine.Engine, error) { return NewWithOptions(dir, Options{FWPDS: *fw}), nil }
	}
}

// Name returns "post*" or "pre*".
func (e *Engine) Name() string {
	if e.dir == Backward {
		return NamePre
	}
	return NamePost
}

var (
	_ engine.Engine    = (*Engine)(nil)
	_ engine.Supporter = (*Engine)(nil)
)

// Supports refuses concurrent programs and bounded queries.
func (e *Engine) Supports(p *ir.Program, q engine.Query) error {
	return engine.SupportsSequential(e.Name(), fmt.Sprintf("concurrent program: not supported by the %s engine", e.Name()), p, q)
}

func init() {
	engine.Register(engine.Info{
		Names:       []string{NamePost, "poststar"},
		Doc:         "post*: the program as an extended weighted pushdown system with BDD relations as weights, forward saturation (Lal)",
		Flags:       flags(Forward),
		NodeLimited: true,
	})
	engine.Register(engine.Info{
		Names:       []string{NamePre, "prestar"},
		Doc:         "pre*: the program as an extended weighted pushdown system with BDD relations as weights, backward saturation (Lal)",
		Flags:       flags(Backward),
		NodeLimited: true,
	})
}

// defaultMaxNodes is the bdd package's default node limit, for messages.
const defaultMaxNodes = 1 << 26

// Check decides whether an error location of p is reachable from the start
// of main; see the package comment. Stats counters: rules, transitions,
// automaton_states, extends, combines, merges (the saturation's
// wpds.Stats), peak_bdd_nodes, bdd_vars, and for unsafe programs
// trace_rules and trace_steps.
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (res *result.Result, err error) {
	if err := q.Validate(p); err != nil {
		return nil, err
	}
	if why := e.Supports(p, q); why != nil {
		return result.NewUnknown(e.Name(), why.Error()), nil
	}
	if res := engine.ErrorUnreachable(p, q); res != nil {
		res.Engine = e.Name()
		return res, nil
	}
	m := newManager(ctx, p, q)
	var found *result.Property
	res = &result.Result{Verdict: result.Safe, Engine: e.Name()}
	stopped := func(cause error) (*result.Result, error) {
		var reason string
		switch {
		case isStop(cause):
			if reason = engine.StopReason(ctx); reason == "" {
				reason = engine.ReasonTimeout
			}
		case errors.Is(cause, bdd.ErrNodeLimit):
			n := q.MaxNodes
			if n <= 0 {
				n = defaultMaxNodes
			}
			reason = bdd.LimitReason(cause, n)
		case errors.Is(cause, errTooLong):
			reason = cause.Error()
		default:
			return nil, cause
		}
		r := result.NewUnknown(e.Name(), reason)
		if found != nil {
			r.Verdict, r.TraceCut, r.Property = result.Unsafe, true, found
		}
		r.Stats = res.Stats
		setBDDStats(r, m)
		return r, nil
	}
	defer func() {
		if v := recover(); v != nil {
			s, ok := v.(errStop)
			if !ok {
				panic(v)
			}
			res, err = stopped(s.err)
		}
	}()
	start := time.Now()
	q.Report(result.PhaseReach, "")
	md := newModel(ctx, p, m)
	md.fwpds = e.opts.FWPDS
	defer md.release()
	res.Stats.Set("rules", int64(len(md.pds.Rules())))
	var run []rstep
	var last []bool
	var at *result.Property
	if e.dir == Forward {
		at, run, last, err = md.forward(res)
	} else {
		at, run, last, err = md.backward(res)
	}
	res.Stats.AddPhase(result.PhaseReach, time.Since(start))
	if err != nil {
		return stopped(err)
	}
	if at == nil {
		setBDDStats(res, m)
		return res, nil
	}
	found = at
	traceStart := time.Now()
	q.Report(result.PhaseTrace, fmt.Sprintf("%d rules", len(run)))
	tr, err := md.trace(run, last)
	if err != nil {
		return stopped(err)
	}
	res.Stats.AddPhase(result.PhaseTrace, time.Since(traceStart))
	res.Verdict, res.Trace, res.Property = result.Unsafe, tr, at
	res.Stats.Set("trace_rules", int64(len(run)))
	res.Stats.Set("trace_steps", int64(len(tr.Steps)))
	setBDDStats(res, m)
	return res, nil
}

// newManager makes the BDD manager of one run. The manager polls ctx
// inside operations (bdd.SetInterrupt): near the node limit one operation
// can take tens of seconds, past the time limit; an interrupted operation
// fails with bdd.ErrInterrupted, which isStop reads as the context's end.
func newManager(ctx context.Context, p *ir.Program, q engine.Query) *bdd.Manager {
	locs := 0
	for _, pr := range p.Procs {
		locs += len(pr.Locations)
	}
	m := bdd.New(bdd.Config{MaxNodes: q.MaxNodes, InitialNodes: min(max(locs*16, 1<<12), 1<<16)})
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	return m
}

// isStop reports whether err stands for the end of the context: the
// engine's own errTimeout, or a BDD operation the context interrupted.
func isStop(err error) bool {
	return errors.Is(err, errTimeout) || errors.Is(err, bdd.ErrInterrupted)
}

func setBDDStats(r *result.Result, m *bdd.Manager) {
	st := m.Stats()
	r.Stats.Set("peak_bdd_nodes", int64(st.PeakNodes))
	r.Stats.Set("bdd_vars", int64(st.Vars))
}

// setSatStats records the figures of a saturation; those of the second,
// plain saturation that gives an FWPDS run its witnesses are prefixed
// "witness_".
func setSatStats(r *result.Result, st wpds.Stats, fwpds bool) {
	if _, ok := r.Stats.Counters["fwpds_stars"]; ok && !fwpds {
		r.Stats.Set("witness_extends", int64(st.Extends))
		r.Stats.Set("witness_combines", int64(st.Combines))
		return
	}
	if fwpds {
		r.Stats.Set("fwpds_stars", int64(st.Stars))
		r.Stats.Set("fwpds_expr_nodes", int64(st.ExprNodes))
		if st.Fallback {
			r.Stats.Set("fwpds_fallback", 1)
		}
	}
	r.Stats.States = int64(st.Transitions)
	r.Stats.Set("transitions", int64(st.Transitions))
	r.Stats.Set("automaton_states", int64(st.States))
	r.Stats.Set("extends", int64(st.Extends))
	r.Stats.Set("combines", int64(st.Combines))
	r.Stats.Set("merges", int64(st.Merges))
}

// satOptions are the options of the saturation: FWPDS to decide, or the
// plain one with witnesses.
func (md *model) satOptions() wpds.Options {
	if md.fwpds {
		return wpds.Options{FWPDS: true}
	}
	return wpds.Options{Witnesses: true}
}

// errorSyms returns the stack symbols of the error locations.
func (md *model) errorSyms() map[wpds.Symbol]bool {
	out := map[wpds.Symbol]bool{}
	for _, pr := range md.p.Procs {
		for _, loc := range pr.ErrorLocations() {
			out[md.sym(pr.Index, loc)] = true
		}
	}
	return out
}

// property returns the error at symbol g.
func (md *model) property(g wpds.Symbol) *result.Property {
	pl := md.locOf[g]
	return result.PropertyAt(md.p, md.p.Procs[pl[0]], pl[1])
}

// startSet is {⟨start⟩}.
func (md *model) startSet() *wpds.Set {
	s := wpds.NewSet(1)
	if err := s.AddConfig(wpds.Config{State: control, Stack: []wpds.Symbol{md.startSym}}); err != nil {
		panic(err) // cannot happen: the state is the control state
	}
	return s
}

// errorSet is {⟨sink, w⟩ : w any stack}, and its final state.
func (md *model) errorSet() (*wpds.Set, wpds.State) {
	s := wpds.NewSet(1)
	n := s.AddState()
	must := func(err error) {
		if err != nil {
			panic(err) // cannot happen: states and symbols are in range
		}
	}
	must(s.SetFinal(n))
	must(s.Add(control, md.sinkSym, n))
	for g := range md.locOf {
		must(s.Add(n, wpds.Symbol(g), n))
	}
	return s, n
}

// backward runs pre* and, if ⟨entry of main⟩ reaches an error, returns the
// error, a run to it and the state there.
func (md *model) backward(res *result.Result) (*result.Property, []rstep, []bool, error) {
	target, n := md.errorSet()
	md.sr.gc = true
	a, err := wpds.Prestar(md.pds, target, md.satOptions())
	md.sr.gc = false
	if err != nil {
		return nil, nil, nil, err
	}
	setSatStats(res, a.Stats(), md.fwpds)
	main := md.p.Procs[md.p.Main]
	g := md.sym(main.Index, main.Entry)
	if md.fwpds {
		if a.Weight(wpds.Config{State: control, Stack: []wpds.Symbol{g}}).R == bdd.False {
			return nil, nil, nil, md.m.Err()
		}
		md.fwpds = false // unsafe: saturate again, with witnesses
		return md.backward(res)
	}
	wit := a.TransitionWitness(control, g, n)
	if wit == nil || wit.Weight.R == bdd.False {
		return nil, nil, nil, md.m.Err()
	}
	// One pair of states that the weight relates: an initial state and
	// an error state.
	f := md.full(wit.Weight)
	s := md.pick(md.m.Exists(f, md.allNext))
	if s == nil {
		return nil, nil, nil, md.errOr("pre*: no initial state")
	}
	e := md.pick(md.image(md.cube(symbolic.Cur, s), wit.Weight))
	if e == nil {
		return nil, nil, nil, md.errOr("pre*: no error state")
	}
	x := &expander{md: md}
	if err := x.pre(wit, s, e); err != nil {
		return nil, nil, nil, err
	}
	return md.endProperty(x.out)
}

// endProperty strips the artificial rules from run (the start rule first
// in post*, the sink rule last in pre*) and returns the error at which the
// run ends, the run and the state there.
func (md *model) endProperty(run []rstep) (*result.Property, []rstep, []bool, error) {
	if len(run) > 0 && md.rules[run[0].rule].edge == artificial && md.pds.Rule(run[0].rule).Sym == md.startSym {
		run = run[1:]
	}
	n := len(run)
	if n == 0 || md.rules[run[n-1].rule].edge != artificial {
		return nil, nil, nil, errors.New("pushdown: internal error: the run does not end at an error")
	}
	last := run[n-1].before
	at := md.locOf[md.pds.Rule(run[n-1].rule).Sym]
	run = run[:n-1]
	pr := md.p.Procs[at[0]]
	return result.PropertyAt(md.p, pr, at[1]), run, last, nil
}

func (md *model) errOr(msg string) error {
	if err := md.m.Err(); err != nil {
		return err
	}
	return errors.New("pushdown: internal error: " + msg)
}

// delta is what a state of the post* automaton gained at one step of the
// search (see forward).
type delta struct {
	stamp int
	set   *bdd.Root
}

// forward runs post* and, if an error configuration has a non-empty
// weight, returns the error, a run to it and the state there.
//
// The weight of ⟨g1 … gk⟩ read along the path p -g1-> q1 … -gk-> f is
// eff(tk) ⊗ … ⊗ eff(t1), where eff(t) is t's weight, followed by the
// enter relation of the push rule of t's source state if it is one post*
// created for a call. A worklist computes, for every automaton state q, the
// set in(q) of states at the start of the frame that q stands for (the
// callee's entry for a call's state; any initial state for the final
// state) that some path from q to the final state produces; an error is
// reachable iff img(in(q1), t1) is not empty for an error transition
// t1 = (p, e, q1). Each gain of in(q) is recorded with a stamp, so that the
// path is found again by strictly decreasing stamps.
func (md *model) forward(res *result.Result) (*result.Property, []rstep, []bool, error) {
	m := md.m
	md.sr.gc = true
	a, err := wpds.Poststar(md.pds, md.startSet(), md.satOptions())
	md.sr.gc = false
	if err != nil {
		return nil, nil, nil, err
	}
	setSatStats(res, a.Stats(), md.fwpds)
	pt := md.postTransitions(a)
	if len(pt.errTrans) == 0 {
		return nil, nil, nil, m.Err()
	}
	ins := md.newInSets(a)
	defer ins.release()
	if err := ins.propagate(pt); err != nil {
		return nil, nil, nil, err
	}
	top, dTop := ins.earliestError(pt)
	if err := m.Err(); err != nil {
		return nil, nil, nil, err
	}
	if top == nil {
		return nil, nil, nil, nil
	}
	if md.fwpds {
		md.fwpds = false // unsafe: saturate again, with witnesses
		return md.forward(res)
	}
	levels, err := ins.levels(a, pt, top, dTop)
	if err != nil {
		return nil, nil, nil, err
	}
	xp, err := md.expandLevels(a, levels)
	if err != nil {
		return nil, nil, nil, err
	}
	return md.endProperty(xp.out)
}

// postTrans is a non-ε transition of the post* automaton with its effect
// (see forward).
type postTrans struct {
	wpds.Transition[symbolic.Rel]
	eff symbolic.Rel
}

// postTransitions are the transitions of a post* automaton that a path
// to the error may read: by target and by source, and the error
// transitions (from the control state, reading the sink).
type postTransitions struct {
	into, outs [][]*postTrans
	errTrans   []*postTrans
}

func (md *model) postTransitions(a *wpds.Automaton[symbolic.Rel]) *postTransitions {
	pt := &postTransitions{into: make([][]*postTrans, a.States()), outs: make([][]*postTrans, a.States())}
	for _, t := range a.Transitions() {
		if t.Sym == wpds.Epsilon || t.Weight.R == bdd.False {
			continue
		}
		tr := &postTrans{Transition: t, eff: t.Weight}
		if r := a.PushRule(t.From); r >= 0 {
			tr.eff = md.sr.Extend(t.Weight, md.pds.Rule(r).Weight)
		}
		if t.From == control {
			if t.Sym == md.sinkSym {
				pt.errTrans = append(pt.errTrans, tr)
			}
			continue
		}
		pt.into[t.To] = append(pt.into[t.To], tr)
		pt.outs[t.From] = append(pt.outs[t.From], tr)
	}
	return pt
}

// inSets are the sets in(q) of forward, each gain with its stamp.
type inSets struct {
	md     *model
	in     []*bdd.Root
	deltas [][]delta
}

// newInSets starts the sets: True at the final states, False elsewhere.
func (md *model) newInSets(a *wpds.Automaton[symbolic.Rel]) *inSets {
	ins := &inSets{md: md, in: make([]*bdd.Root, a.States()), deltas: make([][]delta, a.States())}
	for q := 0; q < a.States(); q++ {
		ins.in[q] = md.m.Keep(bdd.False)
		if a.Final(wpds.State(q)) {
			ins.in[q].Set(bdd.True)
			ins.deltas[q] = append(ins.deltas[q], delta{0, md.m.Keep(bdd.True)})
		}
	}
	return ins
}

func (ins *inSets) release() {
	for _, r := range ins.in {
		if r != nil {
			r.Release()
		}
	}
	for _, ds := range ins.deltas {
		for _, d := range ds {
			d.set.Release()
		}
	}
}

// propagate computes the sets by a worklist from the final states,
// backwards along the transitions.
func (ins *inSets) propagate(pt *postTransitions) error {
	md, m := ins.md, ins.md.m
	n := len(ins.in)
	var work []wpds.State
	queued := make([]bool, n)
	pending := make([]bdd.Node, n) // gained but not yet propagated
	stamp := 0
	for q := 0; q < n; q++ {
		pending[q] = bdd.False
		if len(ins.deltas[q]) > 0 { // a final state
			pending[q] = bdd.True
			work = append(work, wpds.State(q))
			queued[q] = true
		}
	}
	polls := 0
	for len(work) > 0 {
		q := work[0]
		work = work[1:]
		queued[q] = false
		d := pending[q]
		pending[q] = bdd.False
		for _, t := range pt.into[q] {
			if polls++; polls&255 == 0 && md.ctx.Err() != nil {
				return errTimeout
			}
			src := t.From
			gain := m.And(md.image(d, t.eff), m.Not(ins.in[src].Node()))
			if err := m.Err(); err != nil {
				return err
			}
			if gain == bdd.False {
				continue
			}
			stamp++
			ins.in[src].Set(m.Or(ins.in[src].Node(), gain))
			ins.deltas[src] = append(ins.deltas[src], delta{stamp, m.Keep(gain)})
			pending[src] = m.Or(pending[src], gain)
			if !queued[src] {
				queued[src] = true
				work = append(work, src)
			}
		}
	}
	return nil
}

// earliestError returns the error transition and the gain of its target
// that reach the error first (the smallest stamp), or nil.
func (ins *inSets) earliestError(pt *postTransitions) (*postTrans, delta) {
	var top *postTrans
	var dTop delta
	for _, t := range pt.errTrans {
		for _, d := range ins.deltas[t.To] {
			if ins.md.image(d.set.Node(), t.eff) != bdd.False && (top == nil || d.stamp < dTop.stamp) {
				top, dTop = t, d
				break
			}
		}
	}
	return top, dTop
}

// postLevel is one frame of the error's stack: the transition that reads
// it, the state at the frame's entry and the state where it leaves it.
type postLevel struct {
	t          *postTrans
	start, end []bool
}

// levels walks back from the error, by strictly decreasing stamps, to the
// final state: the frames of the error's stack, innermost first.
func (ins *inSets) levels(a *wpds.Automaton[symbolic.Rel], pt *postTransitions, top *postTrans, dTop delta) ([]postLevel, error) {
	md, m := ins.md, ins.md.m
	x := md.pick(md.image(dTop.set.Node(), top.eff))
	if x == nil {
		return nil, md.errOr("post*: no error state")
	}
	start := md.pick(m.And(dTop.set.Node(), md.preimage(top.eff, md.cube(symbolic.Cur, x))))
	if start == nil {
		return nil, md.errOr("post*: no start of the error's frame")
	}
	levels := []postLevel{{top, start, x}}
	q, k := top.To, dTop.stamp
	for !a.Final(q) {
		// start (the state at the entry of the frame of q) was gained by
		// q at stamp k, from some transition t = (q, γ, q') and what q'
		// had gained before.
		e := levels[len(levels)-1].start
		ce := md.cube(symbolic.Cur, e)
		var next *postTrans
		var dn delta
		for _, t := range pt.outs[q] {
			for _, d := range ins.deltas[t.To] {
				if d.stamp >= k {
					break
				}
				if m.And(md.image(d.set.Node(), t.eff), ce) != bdd.False {
					if next == nil || d.stamp < dn.stamp {
						next, dn = t, d
					}
					break
				}
			}
		}
		if next == nil {
			return nil, md.errOr("post*: no path from the error's stack to the start")
		}
		s := md.pick(m.And(dn.set.Node(), md.preimage(next.eff, ce)))
		if s == nil {
			return nil, md.errOr("post*: no state at a call")
		}
		levels = append(levels, postLevel{next, s, e})
		q, k = next.To, dn.stamp
	}
	return levels, nil
}

// expandLevels expands the levels into the error's steps, outermost
// (main's) first.
func (md *model) expandLevels(a *wpds.Automaton[symbolic.Rel], levels []postLevel) (*expander, error) {
	m := md.m
	xp := &expander{md: md}
	for i := len(levels) - 1; i >= 0; i-- {
		lv := levels[i]
		wit := a.TransitionWitness(lv.t.From, lv.t.Sym, lv.t.To)
		if wit == nil {
			return nil, md.errOr("post*: a transition without a witness")
		}
		if lv.t.From == control {
			if err := xp.post(wit, lv.start, lv.end); err != nil {
				return nil, err
			}
			continue
		}
		// A call left pending: the caller's part up to the call (its push
		// rule last), then the callee's entry.
		enter := md.pds.Rule(a.PushRule(lv.t.From)).Weight
		sc := md.pick(m.And(md.image(md.cube(symbolic.Cur, lv.start), lv.t.Weight), md.preimage(enter, md.cube(symbolic.Cur, lv.end))))
		if sc == nil {
			return nil, md.errOr("post*: no state at a pending call")
		}
		if err := xp.post(wit, lv.start, sc); err != nil {
			return nil, err
		}
	}
	return xp, nil
}
