package interp

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"boolprog/ir"
	"boolprog/syntax"
)

// ErrTooManyChoices is wrapped by the errors of Exec, Successors, Initials
// and Replay when they would have to enumerate more than MaxOmitted
// independent choices at once.
var ErrTooManyChoices = errors.New("too many nondeterministic choices to enumerate")

// Transition is one outcome of a step: the thread that took it, the edge
// (of that thread's executing procedure) and the resulting configuration.
type Transition struct {
	Thread int
	Edge   int
	Next   Config
}

// Successors returns every outcome of every edge leaving the top location
// of every thread that may take the next step (see the package doc on
// interleaving and atomicity), by thread, then edge.
func Successors(p *ir.Program, c Config) ([]Transition, error) {
	return SuccessorsContext(context.Background(), p, c)
}

// SuccessorsContext is Successors that stops when ctx ends. One step may
// have up to 2^MaxOmitted outcomes (an assignment of many `*`), seconds of
// work: the enumeration polls ctx every 1024 outcomes, and when it finds it
// ended the call returns no transitions and ctx.Err().
// (A step with fewer outcomes is not interrupted: the caller polls between
// calls.)
func SuccessorsContext(ctx context.Context, p *ir.Program, c Config) ([]Transition, error) {
	s := newStepper(p, nil)
	if ctx.Done() != nil { // a context that can end
		s.ctx = ctx
	}
	var out []Transition
	for t, top := range c.Threads {
		if top == nil || s.blocked(c, t) != "" {
			continue
		}
		for _, e := range p.Procs[top.Proc].Locations[top.Loc].Out {
			next, err := s.step(c, t, e)
			if err != nil {
				return nil, err
			}
			for _, n := range next {
				out = append(out, Transition{Thread: t, Edge: e, Next: n})
			}
		}
	}
	return out, nil
}

// EachSuccessor calls fn with the transitions SuccessorsContext returns,
// in the same order, one at a time as the enumeration finds them, and
// with no cap on a step's free choices: a step that sets many variables
// to `*` has 2^n outcomes, and the caller's own budget, not MaxOmitted,
// decides how many it takes (fn's error stops the enumeration and is
// returned). fn must not modify the configurations. The enumeration polls
// ctx every 1024 outcomes and returns ctx.Err() when it has ended.
//
// live, if not nil, says which locals can be observed from where a frame
// on top of its thread is after the step (LiveLocals): a local that a
// step chooses (an assignment's `*`, the locals of a frame a call, a
// thread start or the end of Getafix's init creates at a procedure's
// entry) and that cannot be observed there takes one value instead of
// both, since either leads to the same future. A thread with 17 locals
// it writes before reading would otherwise start in 2^17 ways.
func EachSuccessor(ctx context.Context, p *ir.Program, c Config, live LiveLocals, fn func(Transition) error) error {
	s := newStepper(p, nil)
	s.live = live
	if ctx.Done() != nil {
		s.ctx = ctx
	}
	for t, top := range c.Threads {
		if top == nil || s.blocked(c, t) != "" {
			continue
		}
		for _, e := range p.Procs[top.Proc].Locations[top.Loc].Out {
			s.emit = func(n Config) error { return fn(Transition{Thread: t, Edge: e, Next: n}) }
			s.free = 0
			if err := s.exec(c, t, e); err != nil {
				return err
			}
		}
	}
	return nil
}

// Exec executes edge id of the procedure on top of thread t's stack from c
// and returns every resulting configuration (none if the edge is blocked).
// It does not modify c. It reports an error if thread t may not take the
// next step, if the edge does not leave t's current location, or if the
// step has more than MaxOmitted observable independent choices.
func Exec(p *ir.Program, c Config, thread, id int) ([]Config, error) {
	s := newStepper(p, nil)
	if why := s.blocked(c, thread); why != "" {
		return nil, fmt.Errorf("interp: %s", why)
	}
	top := c.Threads[thread]
	proc := p.Procs[top.Proc]
	if id < 0 || id >= len(proc.Edges) {
		return nil, fmt.Errorf("interp: %s has no edge %d", proc.Name, id)
	}
	if e := proc.Edges[id]; e.From != top.Loc {
		return nil, fmt.Errorf("interp: edge %d of %s leaves location %d, not the current location %d", id, proc.Name, e.From, top.Loc)
	}
	return s.step(c, thread, id)
}

// fate says how a step chooses the value of a variable it sets
// nondeterministically.
type fate uint8

const (
	free        fate = iota // every possible value: an independent choice
	dead                    // nothing observes the value: one possible value stands for all
	statedFalse             // the trace states false
	statedTrue              // the trace states true
)

// guide tells a step which values a trace states for the variables the step
// sets: for a global, its value right after the step; for a local of the
// frame on top of a thread after the step, its value at that thread's next
// step (the thread's locals do not change in between). A variable that is
// never observed again is dead.
type guide interface {
	global(i int) fate
	local(thread int, proc *ir.Proc, depth, i int) fate
}

// LiveLocals reports whether local i of proc can be observed from
// location loc on (read before it is written, on some path).
type LiveLocals func(proc *ir.Proc, loc, i int) bool

// stepper executes steps.
type stepper struct {
	p         *ir.Program
	g         guide      // nil: every value that can be observed is a free choice
	live      LiveLocals // with g nil: the locals of new frames that can be observed (nil: all)
	atomicVar int        // index of Getafix's global `atomic`, or -1
	free      int        // free two-valued choices enumerated in the current step
	out       []Config   // the outcomes of the current step
	// emit, if set, takes each outcome as it is found instead of out, and
	// a step may then make any number of free choices (EachSuccessor).
	emit func(Config) error

	ctx   context.Context // polled during long enumerations, if not nil
	polls int
}

func newStepper(p *ir.Program, g guide) *stepper {
	s := &stepper{p: p, g: g, atomicVar: -1}
	if len(p.Threads) > 0 {
		s.atomicVar = slices.Index(p.Globals, "atomic")
	}
	return s
}

// blocked returns "" if thread t may take the next step from c, else why
// not.
func (s *stepper) blocked(c Config, t int) string {
	switch {
	case t < 0 || t >= len(c.Threads):
		return fmt.Sprintf("thread %d does not exist (%d threads started)", t, len(c.Threads))
	case c.Threads[t] == nil:
		return fmt.Sprintf("thread %d has ended", t)
	case c.Atomic >= 0 && c.Atomic != t:
		return fmt.Sprintf("a context switch to thread %d inside the atomic section of thread %d", t, c.Atomic)
	case s.atomicVar >= 0 && c.Running >= 0 && c.Running != t && c.Globals[s.atomicVar]:
		return fmt.Sprintf("a context switch from thread %d to thread %d while the global atomic is T", c.Running, t)
	}
	return ""
}

var (
	none    = []bool{}
	onlyF   = []bool{false}
	onlyT   = []bool{true}
	falseTT = []bool{false, true}
)

// pick returns the values a choice among vs takes under fate f (empty if
// the value the trace states is impossible).
func (s *stepper) pick(vs values, f fate) ([]bool, error) {
	switch f {
	case statedFalse, statedTrue:
		if canBe(vs, f == statedTrue) {
			if f == statedTrue {
				return onlyT, nil
			}
			return onlyF, nil
		}
		return none, nil
	}
	switch {
	case vs != either:
		if canBe(vs, true) {
			return onlyT, nil
		}
		return onlyF, nil
	case f == dead:
		return onlyF, nil
	}
	s.free++
	if s.emit == nil && s.free > MaxOmitted {
		return nil, fmt.Errorf("%w: more than %d in one step", ErrTooManyChoices, MaxOmitted)
	}
	return falseTT, nil
}

// each calls fn with every combination of one value from each list of
// opts (a nil list leaves its position false). fn must not keep vals. A
// step may have up to 2^MaxOmitted combinations: each polls s.ctx (if set)
// every 1024 of them.
func (s *stepper) each(opts [][]bool, fn func(vals []bool) error) error {
	idx := make([]int, len(opts))
	vals := make([]bool, len(opts))
	for {
		if s.ctx != nil {
			if s.polls++; s.polls%1024 == 0 {
				if err := s.ctx.Err(); err != nil {
					return err
				}
			}
		}
		for i, o := range opts {
			if o != nil {
				vals[i] = o[idx[i]]
			}
		}
		if err := fn(vals); err != nil {
			return err
		}
		i := len(opts) - 1
		for ; i >= 0; i-- {
			if opts[i] == nil {
				continue
			}
			if idx[i]++; idx[i] < len(opts[i]) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return nil
		}
	}
}

// plan is what a step pops, known from the stack alone before any value is
// chosen: level 0 is the frame the edge leaves on top of the thread, level
// k ≥ 1 the caller calls[k-1] receiving a return.
type plan struct {
	calls     []*Frame // callers that receive a return, in order
	ends      bool     // the bottom frame of the stack returns
	constrain ir.Expr  // the constrain of the step's Assign, or nil

	last  map[int]int  // global → last level whose call assigns it (built on demand)
	reads map[int]bool // global → read by the constrain or a Post (built on demand)
}

func (s *stepper) plan(f *Frame, constrain ir.Expr) plan {
	pl := plan{constrain: constrain}
	proc, loc, cur := s.p.Procs[f.Proc], f.Loc, f
	for loc == proc.Exit {
		caller := cur.Caller
		if caller == nil {
			pl.ends = true
			break
		}
		pl.calls = append(pl.calls, caller)
		proc = s.p.Procs[caller.Proc]
		loc = proc.Edges[caller.Call].To
		cur = caller
	}
	return pl
}

// popped reports whether the frame of the given level is popped.
func (pl *plan) popped(level int) bool { return level < len(pl.calls) || pl.ends }

// overwritten reports whether global g is assigned again after level.
func (pl *plan) overwritten(p *ir.Program, g, level int) bool {
	if len(pl.calls) == 0 {
		return false
	}
	if pl.last == nil {
		pl.last = make(map[int]int)
		for k, caller := range pl.calls {
			for _, t := range p.Procs[caller.Proc].Edges[caller.Call].Op.(*ir.Call).Targets {
				if !t.Discard && t.Var.Global {
					pl.last[t.Var.Index] = k + 1
				}
			}
		}
	}
	return pl.last[g] > level
}

// readsGlobal reports whether global g is read within the step after it
// is assigned: by the constrain or by a call's Post.
func (pl *plan) readsGlobal(p *ir.Program, g int) bool {
	if r, ok := pl.reads[g]; ok {
		return r
	}
	r := mentions(pl.constrain, true, g)
	for _, caller := range pl.calls {
		r = r || mentions(p.Procs[caller.Proc].Edges[caller.Call].Op.(*ir.Call).Post, true, g)
	}
	if pl.reads == nil {
		pl.reads = make(map[int]bool)
	}
	pl.reads[g] = r
	return r
}

func mentions(e ir.Expr, global bool, index int) bool {
	if e == nil {
		return false
	}
	found := false
	ir.Vars(e, func(v *ir.Var) { found = found || (v.Global == global && v.Index == index) })
	return found
}

// globalFate is the fate of global g assigned at the given level.
func (s *stepper) globalFate(pl *plan, level, g int) fate {
	if pl.overwritten(s.p, g, level) {
		if pl.readsGlobal(s.p, g) {
			return free
		}
		return dead
	}
	if s.g == nil {
		return free
	}
	return s.g.global(g)
}

// entryFate is the fate of local i of a frame that starts at proc's
// entry in thread t, when no guide states it.
func (s *stepper) entryFate(t int, proc *ir.Proc, i int) fate {
	switch {
	case s.g != nil:
		return s.g.local(t, proc, 0, i)
	case s.live != nil && !s.live(proc, proc.Entry, i):
		return dead
	}
	return free
}

// localFate is the fate of local i of frame f (proc, depth) of thread t,
// assigned at the given level; reader is what reads it within the step if
// the frame is popped.
func (s *stepper) localFate(pl *plan, level, t int, f *Frame, i int, reader ir.Expr) fate {
	if pl.popped(level) {
		if mentions(reader, false, i) {
			return free
		}
		return dead
	}
	if s.g == nil {
		// A local the frame's location cannot observe (and the step's
		// constrain does not read) is set once, not enumerated.
		if s.live != nil && f.Call < 0 && !mentions(reader, false, i) && !s.live(s.p.Procs[f.Proc], f.Loc, i) {
			return dead
		}
		return free
	}
	return s.g.local(t, s.p.Procs[f.Proc], f.Depth, i)
}

// with returns c with thread t's top frame replaced by f.
func (c Config) with(t int, f *Frame) Config {
	c.Threads = slices.Clone(c.Threads)
	c.Threads[t] = f
	return c
}

// step executes edge id of thread t, which may run, and returns the
// outcomes.
func (s *stepper) step(c Config, t, id int) ([]Config, error) {
	s.free = 0
	s.out = nil
	err := s.exec(c, t, id)
	return s.out, err
}

// exec executes edge id of thread t, which may run, and appends the
// outcomes to s.out.
func (s *stepper) exec(c Config, t, id int) error {
	top := c.Threads[t]
	proc := s.p.Procs[top.Proc]
	e := proc.Edges[id]
	st := state{globals: c.Globals, locals: top.Locals}
	n := c
	n.Running = t
	moved := &Frame{Proc: top.Proc, Loc: e.To, Locals: top.Locals, Call: -1, Caller: top.Caller, Depth: top.Depth}

	switch op := e.Op.(type) {
	case *ir.Skip:
		return s.finish(n, t, moved, nil)

	case *ir.Assume:
		if !canBe(st.eval(op.Cond), true) {
			return nil
		}
		return s.finish(n, t, moved, nil)

	case *ir.AtomicBegin:
		n.Atomic = t
		return s.finish(n, t, moved, nil)

	case *ir.AtomicEnd:
		n.Atomic = -1
		return s.finish(n, t, moved, nil)

	case *ir.EndThread:
		return s.threadEnds(n, t)

	case *ir.Return:
		rets := make([]values, len(op.Values))
		for i, v := range op.Values {
			rets[i] = st.eval(v)
		}
		return s.finish(n, t, moved, rets)

	case *ir.Assign:
		pl := s.plan(moved, op.Constrain)
		opts := make([][]bool, len(op.Targets))
		anyGlobal, anyLocal := false, false
		for i, v := range op.Targets {
			var f fate
			if v.Global {
				anyGlobal = true
				f = s.globalFate(&pl, 0, v.Index)
			} else {
				anyLocal = true
				f = s.localFate(&pl, 0, t, moved, v.Index, op.Constrain)
			}
			o, err := s.pick(st.eval(op.Values[i]), f)
			if err != nil || len(o) == 0 {
				return err
			}
			opts[i] = o
		}
		reuse := true
		err := s.each(opts, func(vals []bool) error {
			g, l := c.Globals, top.Locals
			if anyGlobal {
				g = slices.Clone(g)
			}
			if anyLocal {
				l = slices.Clone(l)
			}
			for i, v := range op.Targets {
				if v.Global {
					g[v.Index] = vals[i]
				} else {
					l[v.Index] = vals[i]
				}
			}
			if op.Constrain != nil {
				two := state{globals: c.Globals, locals: top.Locals, newGlobals: g, newLocals: l}
				if !canBe(two.eval(op.Constrain), true) {
					return nil
				}
			}
			m := n
			m.Globals = g
			f := moved
			if reuse {
				reuse = false // moved is not shared yet: the first outcome takes it
			} else {
				f = &Frame{Proc: moved.Proc, Loc: moved.Loc, Call: -1, Caller: moved.Caller, Depth: moved.Depth}
			}
			f.Locals = l
			return s.pop(m, t, f, nil, &pl, 0)
		})
		return err

	case *ir.Call:
		callee := s.p.Procs[op.Proc]
		caller := &Frame{Proc: top.Proc, Loc: top.Loc, Locals: top.Locals, Call: id, Caller: top.Caller, Depth: top.Depth}
		entry := &Frame{Proc: op.Proc, Loc: callee.Entry, Call: -1, Caller: caller, Depth: top.Depth + 1}
		pl := s.plan(entry, nil)
		opts := make([][]bool, len(callee.Locals))
		for j := range opts {
			vs := either
			if j < callee.Params {
				vs = st.eval(op.Args[j])
			}
			o, err := s.pick(vs, s.localFate(&pl, 0, t, entry, j, nil))
			if err != nil || len(o) == 0 {
				return err
			}
			opts[j] = o
		}
		err := s.each(opts, func(vals []bool) error {
			f := *entry
			f.Locals = slices.Clone(vals)
			return s.pop(n, t, &f, nil, &pl, 0)
		})
		return err

	case *ir.StartThread:
		if c.Init {
			return fmt.Errorf("interp: %s (line %d): start_thread in init: in the Getafix convention the threads start when init returns", proc.Name, e.Pos.Line)
		}
		id := len(c.Threads)
		if op.Goto >= 0 {
			nf := &Frame{Proc: top.Proc, Loc: op.Goto, Locals: top.Locals, Call: -1, Caller: top.Caller, Depth: top.Depth}
			n.Threads = append(slices.Clone(c.Threads), nf)
			return s.finish(n, t, moved, nil)
		}
		callee := s.p.Procs[op.Proc]
		opts := make([][]bool, len(callee.Locals))
		for j := range opts {
			vs := either
			if j < callee.Params {
				vs = st.eval(op.Args[j])
			}
			f := dead // an empty procedure ends the thread at once
			if callee.Entry != callee.Exit {
				f = s.entryFate(id, callee, j)
			}
			o, err := s.pick(vs, f)
			if err != nil || len(o) == 0 {
				return err
			}
			opts[j] = o
		}
		err := s.each(opts, func(vals []bool) error {
			var nf *Frame
			if callee.Entry != callee.Exit {
				nf = &Frame{Proc: op.Proc, Loc: callee.Entry, Locals: slices.Clone(vals), Call: -1}
			}
			m := n
			m.Threads = append(slices.Clone(c.Threads), nf)
			return s.finish(m, t, moved, nil)
		})
		return err
	}
	return fmt.Errorf("interp: %s (line %d): unknown operation %T", proc.Name, e.Pos.Line, e.Op)
}

// finish finishes a step that left frame f (at the edge's target) on top
// of thread t: see pop.
func (s *stepper) finish(n Config, t int, f *Frame, rets []values) error {
	pl := s.plan(f, nil)
	return s.pop(n, t, f, rets, &pl, 0)
}

// pop finishes a step whose frame of the given level, f, has arrived at
// its location: if that is the procedure's exit, f returns (the values it
// can return are rets, or any values if rets is nil) to its caller, which
// may return in turn; if it is the bottom of the stack, the thread ends.
func (s *stepper) pop(n Config, t int, f *Frame, rets []values, pl *plan, level int) error {
	if level == len(pl.calls) {
		if pl.ends {
			return s.threadEnds(n, t)
		}
		return s.output(n.with(t, f))
	}
	caller := pl.calls[level]
	cproc := s.p.Procs[caller.Proc]
	edge := cproc.Edges[caller.Call]
	call := edge.Op.(*ir.Call)
	opts := make([][]bool, len(call.Targets))
	anyGlobal, anyLocal := false, false
	for i, tg := range call.Targets {
		if tg.Discard {
			continue // the value is not needed at all
		}
		vs := either
		if rets != nil {
			vs = rets[i]
		}
		var fa fate
		if tg.Var.Global {
			anyGlobal = true
			fa = s.globalFate(pl, level+1, tg.Var.Index)
		} else {
			anyLocal = true
			fa = s.localFate(pl, level+1, t, caller, tg.Var.Index, call.Post)
		}
		o, err := s.pick(vs, fa)
		if err != nil || len(o) == 0 {
			return err
		}
		opts[i] = o
	}
	err := s.each(opts, func(vals []bool) error {
		g, l := n.Globals, caller.Locals
		if anyGlobal {
			g = slices.Clone(g)
		}
		if anyLocal {
			l = slices.Clone(l)
		}
		for i, tg := range call.Targets {
			if tg.Discard {
				continue
			}
			if tg.Var.Global {
				g[tg.Var.Index] = vals[i]
			} else {
				l[tg.Var.Index] = vals[i]
			}
		}
		if call.Post != nil && !canBe(state{globals: g, locals: l}.eval(call.Post), true) {
			return nil
		}
		m := n
		m.Globals = g
		nf := &Frame{Proc: caller.Proc, Loc: edge.To, Locals: l, Call: -1, Caller: caller.Caller, Depth: caller.Depth}
		return s.pop(m, t, nf, nil, pl, level+1)
	})
	return err
}

// output records an outcome of the current step: to emit if set, else
// in out.
func (s *stepper) output(c Config) error {
	if s.emit != nil {
		return s.emit(c)
	}
	s.out = append(s.out, c)
	return nil
}

// threadEnds ends thread t; the end of Getafix's init starts the threads.
func (s *stepper) threadEnds(n Config, t int) error {
	if !n.Init {
		return s.output(n.with(t, nil))
	}
	n.Init = false
	n.Running = -1
	var opts [][]bool
	for i, pi := range s.p.Threads {
		proc := s.p.Procs[pi]
		for j := range proc.Locals {
			f := dead
			if proc.Entry != proc.Exit {
				f = s.entryFate(i, proc, j)
			}
			o, err := s.pick(either, f)
			if err != nil {
				return err
			}
			opts = append(opts, o)
		}
	}
	err := s.each(opts, func(vals []bool) error {
		m := n
		m.Threads = make([]*Frame, len(s.p.Threads))
		for i, pi := range s.p.Threads {
			proc := s.p.Procs[pi]
			k := len(proc.Locals)
			if proc.Entry != proc.Exit {
				m.Threads[i] = &Frame{Proc: pi, Loc: proc.Entry, Locals: slices.Clone(vals[:k]), Call: -1}
			}
			vals = vals[k:]
		}
		return s.output(m)
	})
	return err
}

// ---------------------------------------------------------------------------
// Expressions

// values is the set of values an expression can take: bit 0 for false,
// bit 1 for true.
type values uint8

const (
	canFalse values = 1 << iota
	canTrue
	either = canFalse | canTrue
)

func canBe(vs values, v bool) bool {
	if v {
		return vs&canTrue != 0
	}
	return vs&canFalse != 0
}

func only(v bool) values {
	if v {
		return canTrue
	}
	return canFalse
}

// state is what expressions read: the current valuation, and for primed
// variables (in a constrain) the new one.
type state struct {
	globals, locals       []bool
	newGlobals, newLocals []bool
}

func (s state) eval(e ir.Expr) values {
	switch e := e.(type) {
	case *ir.Const:
		return only(e.Value)
	case *ir.Nondet:
		return either
	case *ir.Var:
		g, l := s.globals, s.locals
		if e.Primed {
			g, l = s.newGlobals, s.newLocals
		}
		if e.Global {
			return only(g[e.Index])
		}
		return only(l[e.Index])
	case *ir.Not:
		x := s.eval(e.X)
		var r values
		if canBe(x, true) {
			r |= canFalse
		}
		if canBe(x, false) {
			r |= canTrue
		}
		return r
	case *ir.Bin:
		x, y := s.eval(e.X), s.eval(e.Y)
		var r values
		for _, a := range []bool{false, true} {
			for _, b := range []bool{false, true} {
				if canBe(x, a) && canBe(y, b) {
					r |= only(apply(e.Op, a, b))
				}
			}
		}
		return r
	case *ir.Schoose:
		pos, neg := s.eval(e.Pos), s.eval(e.Neg)
		var r values
		if canBe(pos, true) {
			r |= canTrue // schoose[T, _] = T
		}
		if canBe(pos, false) {
			if canBe(neg, true) {
				r |= canFalse // schoose[F, T] = F
			}
			if canBe(neg, false) {
				r |= either // schoose[F, F] = either
			}
		}
		return r
	}
	panic(fmt.Sprintf("interp: bad expression %T", e))
}

// apply applies a binary operator. (interp keeps its own operator table
// rather than sharing one with the engines.)
func apply(op syntax.Op, a, b bool) bool {
	switch op {
	case syntax.And:
		return a && b
	case syntax.Or:
		return a || b
	case syntax.Xor, syntax.Neq:
		return a != b
	case syntax.Eq:
		return a == b
	case syntax.Implies:
		return !a || b
	}
	panic("interp: bad operator " + op.String())
}
