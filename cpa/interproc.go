package cpa

import (
	"fmt"
)

// Callstack is the call-stack analysis: the composite's states are
// extended with the stack of pending calls (call strings), each frame
// holding the caller's state at the call, so that a Return edge goes back
// only to the call it belongs to. It is exact for programs without
// recursion. With recursion the stack grows without bound: MaxDepth bounds
// it (0: no bound, which Check refuses on a recursive program), and a
// call beyond the bound is not explored but recorded (DepthReached), so
// that no answer claims more than it explored.
type Callstack struct {
	C        *Composite
	MaxDepth int
	// DepthReached is set when a call was cut at MaxDepth.
	DepthReached bool

	frames map[frameKey]*Frame
}

// Frame is a pending call of a call stack: the Call edge, the caller's
// state at the call (split, see Component.Split) and the frames below.
// Frames are interned: equal stacks are the same pointer.
type Frame struct {
	Call   *Edge
	Caller *CState
	Up     *Frame
	Depth  int // number of frames including this one
	key    string
}

type frameKey struct {
	up   *Frame
	call *Edge
	key  string
}

// CSState is a state of the call-stack analysis.
type CSState struct {
	Stack *Frame // nil in main
	S     *CState
}

// NewCallstack returns the call-stack analysis over c.
func NewCallstack(c *Composite, maxDepth int) *Callstack {
	return &Callstack{C: c, MaxDepth: maxDepth, frames: make(map[frameKey]*Frame)}
}

func (a *Callstack) push(up *Frame, call *Edge, caller *CState) *Frame {
	k := frameKey{up, call, a.C.Key(caller)}
	if f, ok := a.frames[k]; ok {
		return f
	}
	d := 1
	if up != nil {
		d = up.Depth + 1
	}
	f := &Frame{Call: call, Caller: caller, Up: up, Depth: d, key: k.key}
	a.frames[k] = f
	return f
}

// Initial returns main's entry with an empty stack.
func (a *Callstack) Initial() (State, Precision) {
	s, p := a.C.Initial()
	return &CSState{S: s}, p
}

// LessOrEqual requires equal stacks.
func (a *Callstack) LessOrEqual(x, y State) bool {
	sx, sy := x.(*CSState), y.(*CSState)
	return sx.Stack == sy.Stack && a.C.LessOrEqual(sx.S, sy.S)
}

// Join joins states with equal stacks (the only ones the algorithm joins:
// they share a partition).
func (a *Callstack) Join(x, y State) State {
	sx, sy := x.(*CSState), y.(*CSState)
	return &CSState{Stack: sx.Stack, S: a.C.Join(sx.S, sy.S)}
}

// Successors follows the edges leaving the state's location: Intra edges
// by the composite's transfer, Call edges by pushing a frame, and the
// Return edge of the top frame at the callee's exit.
func (a *Callstack) Successors(x State, prec Precision) ([]Successor, error) {
	s := x.(*CSState)
	pr := prec.([]Precision)
	loc := s.S.Loc()
	var out []Successor
	for _, e := range a.C.CFA.Out(loc) {
		switch e.Kind {
		case Intra:
			ns, err := a.C.Post(s.S, e, pr)
			if err != nil {
				return nil, err
			}
			for _, n := range ns {
				out = append(out, Successor{State: &CSState{Stack: s.Stack, S: n}, Edge: e})
			}
		case Call:
			if a.MaxDepth > 0 && s.Stack != nil && s.Stack.Depth >= a.MaxDepth {
				a.DepthReached = true
				continue
			}
			for _, piece := range a.C.Split(s.S, e, pr) {
				ns, err := a.C.Enter(piece, e, pr)
				if err != nil {
					return nil, err
				}
				if len(ns) == 0 {
					continue
				}
				f := a.push(s.Stack, e, piece)
				for _, n := range ns {
					out = append(out, Successor{State: &CSState{Stack: f, S: n}, Edge: e})
				}
			}
		case Return:
			if s.Stack == nil || s.Stack.Call != a.C.CFA.CallEdge(e) {
				continue
			}
			ns, err := a.C.Combine(s.Stack.Caller, s.S, e, pr)
			if err != nil {
				return nil, err
			}
			for _, n := range ns {
				out = append(out, Successor{State: &CSState{Stack: s.Stack.Up, S: n}, Edge: e})
			}
		}
	}
	return out, nil
}

// Merge applies the composite's merge to states of one stack.
func (a *Callstack) Merge(x, r State, _ Precision) State {
	sx, sr := x.(*CSState), r.(*CSState)
	m := a.C.MergeStates(sx.S, sr.S)
	if m == sr.S {
		return r
	}
	return &CSState{Stack: sr.Stack, S: m}
}

// Stop applies the composite's stop to the reached states of one stack.
func (a *Callstack) Stop(x State, reached []State, _ Precision) bool {
	s := x.(*CSState)
	var rs []*CState
	for _, r := range reached {
		rs = append(rs, r.(*CSState).S)
	}
	return a.C.Covered(s.S, rs)
}

// Adjust applies the composite's precision adjustment.
func (a *Callstack) Adjust(x State, prec Precision) (State, Precision) {
	s := x.(*CSState)
	n := a.C.Adjust(s.S, prec.([]Precision))
	if n == s.S {
		return x, prec
	}
	return &CSState{Stack: s.Stack, S: n}, prec
}

// Location returns the state's location.
func (a *Callstack) Location(x State) Node { return x.(*CSState).S.Loc() }

// Partition is the stack.
func (a *Callstack) Partition(x State) any { return x.(*CSState).Stack }

// Depth is the stack's depth.
func (a *Callstack) Depth(x State) int {
	if f := x.(*CSState).Stack; f != nil {
		return f.Depth
	}
	return 0
}

// IsTarget asks the composite.
func (a *Callstack) IsTarget(x State) bool { return a.C.IsTarget(x.(*CSState).S) }

// Summaries is the summary-based interprocedural wrapper (block
// summaries, the functional approach of Sharir and Pnueli as tabulated by
// Reps, Horwitz and Sagiv): each procedure is analysed once per context,
// its callers wait for the states that reach its exit, and every exit
// state is combined with every caller. Recursion needs no bound.
//
// With PerEntry, a context is one entry state (its Key): with exact
// components this is exact, and it is the model-checking setting. Without
// it, a procedure has one context whose entry state is whatever merge
// makes of all its entry states (the classical interprocedural data-flow
// analysis).
type Summaries struct {
	C        *Composite
	PerEntry bool

	ctxs map[ctxKey]*Context
	main *Context
}

type ctxKey struct {
	proc int
	key  string
}

// Context is a block context: a procedure and (PerEntry) an entry state.
// It records the callers waiting for its exit states and the exit states
// found so far.
type Context struct {
	Proc    int
	ID      int
	callers []caller
	exits   []*SumState
}

type caller struct {
	piece *CState   // the caller's state at the call, after Split
	state *SumState // the state the call was expanded from (ARG)
	call  *Edge
}

// SumState is a state of the summary wrapper: a context and a composite
// state.
type SumState struct {
	Ctx *Context
	S   *CState
}

// NewSummaries returns the summary wrapper over c.
func NewSummaries(c *Composite, perEntry bool) *Summaries {
	return &Summaries{C: c, PerEntry: perEntry, ctxs: make(map[ctxKey]*Context)}
}

// Contexts returns the number of contexts created.
func (a *Summaries) Contexts() int { return len(a.ctxs) }

func (a *Summaries) context(proc int, entry *CState) *Context {
	k := ctxKey{proc: proc}
	if a.PerEntry {
		k.key = a.C.Key(entry)
	}
	if c, ok := a.ctxs[k]; ok {
		return c
	}
	c := &Context{Proc: proc, ID: len(a.ctxs)}
	a.ctxs[k] = c
	return c
}

// Initial returns main's entry in main's context.
func (a *Summaries) Initial() (State, Precision) {
	s, p := a.C.Initial()
	a.main = a.context(s.Loc().Proc, s)
	return &SumState{Ctx: a.main, S: s}, p
}

// LessOrEqual requires equal contexts.
func (a *Summaries) LessOrEqual(x, y State) bool {
	sx, sy := x.(*SumState), y.(*SumState)
	return sx.Ctx == sy.Ctx && a.C.LessOrEqual(sx.S, sy.S)
}

// Join joins states of one context.
func (a *Summaries) Join(x, y State) State {
	sx, sy := x.(*SumState), y.(*SumState)
	return &SumState{Ctx: sx.Ctx, S: a.C.Join(sx.S, sy.S)}
}

// Successors follows Intra edges with the composite's transfer; at a
// call, registers the caller with the callee's context, enters it and
// combines the exit states found so far; at the exit of a context,
// combines the new exit state with every caller.
func (a *Summaries) Successors(x State, prec Precision) ([]Successor, error) {
	s := x.(*SumState)
	pr := prec.([]Precision)
	loc := s.S.Loc()
	var out []Successor
	cfa := a.C.CFA
	for _, e := range cfa.Out(loc) {
		switch e.Kind {
		case Intra:
			ns, err := a.C.Post(s.S, e, pr)
			if err != nil {
				return nil, err
			}
			for _, n := range ns {
				out = append(out, Successor{State: &SumState{Ctx: s.Ctx, S: n}, Edge: e})
			}
		case Call:
			ret := cfa.ReturnEdge(e)
			for _, piece := range a.C.Split(s.S, e, pr) {
				entries, err := a.C.Enter(piece, e, pr)
				if err != nil {
					return nil, err
				}
				for _, en := range entries {
					ctx := a.context(e.To.Proc, en)
					ctx.callers = append(ctx.callers, caller{piece: piece, state: s, call: e})
					out = append(out, Successor{State: &SumState{Ctx: ctx, S: en}, Edge: e})
					for _, x := range ctx.exits {
						ns, err := a.C.Combine(piece, x.S, ret, pr)
						if err != nil {
							return nil, err
						}
						for _, n := range ns {
							out = append(out, Successor{State: &SumState{Ctx: s.Ctx, S: n}, Edge: ret, Parent: x, Caller: s})
						}
					}
				}
			}
		}
	}
	if loc.Loc == cfa.Prog.Procs[loc.Proc].Exit && s.Ctx != a.main {
		s.Ctx.exits = append(s.Ctx.exits, s)
		for _, c := range s.Ctx.callers {
			ret := cfa.ReturnEdge(c.call)
			ns, err := a.C.Combine(c.piece, s.S, ret, pr)
			if err != nil {
				return nil, err
			}
			for _, n := range ns {
				out = append(out, Successor{State: &SumState{Ctx: c.state.Ctx, S: n}, Edge: ret, Caller: c.state})
			}
		}
	}
	return out, nil
}

// Merge applies the composite's merge within a context.
func (a *Summaries) Merge(x, r State, _ Precision) State {
	sx, sr := x.(*SumState), r.(*SumState)
	m := a.C.MergeStates(sx.S, sr.S)
	if m == sr.S {
		return r
	}
	return &SumState{Ctx: sr.Ctx, S: m}
}

// Stop applies the composite's stop within a context.
func (a *Summaries) Stop(x State, reached []State, _ Precision) bool {
	var rs []*CState
	for _, r := range reached {
		rs = append(rs, r.(*SumState).S)
	}
	return a.C.Covered(x.(*SumState).S, rs)
}

// Adjust applies the composite's precision adjustment.
func (a *Summaries) Adjust(x State, prec Precision) (State, Precision) {
	s := x.(*SumState)
	n := a.C.Adjust(s.S, prec.([]Precision))
	if n == s.S {
		return x, prec
	}
	return &SumState{Ctx: s.Ctx, S: n}, prec
}

// Location returns the state's location.
func (a *Summaries) Location(x State) Node { return x.(*SumState).S.Loc() }

// Partition is the context.
func (a *Summaries) Partition(x State) any { return x.(*SumState).Ctx }

// Depth is 0: contexts have no depth.
func (a *Summaries) Depth(State) int { return 0 }

// IsTarget asks the composite.
func (a *Summaries) IsTarget(x State) bool { return a.C.IsTarget(x.(*SumState).S) }

// CompositeOf returns the composite state of an analysis state of either
// wrapper.
func CompositeOf(x State) *CState {
	switch s := x.(type) {
	case *SumState:
		return s.S
	case *CSState:
		return s.S
	}
	panic(fmt.Sprintf("cpa: not a wrapper state: %T", x))
}
