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
	wrapper  // C is the composite
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
	return &Callstack{wrapper: wrapper{C: c}, MaxDepth: maxDepth, frames: make(map[frameKey]*Frame)}
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

// Successors follows the edges leaving the state's location: Intra edges
// by the composite's transfer, Call edges by pushing a frame, and the
// Return edge of the top frame at the callee's exit.
func (a *Callstack) Successors(x State, prec Precision) ([]Successor, error) {
	s := x.(*CSState)
	pr := prec.([]Precision)
	return a.successors(s, pr, func(out []Successor, e *Edge) ([]Successor, error) {
		switch e.Kind {
		case Call:
			if a.MaxDepth > 0 && s.Stack != nil && s.Stack.Depth >= a.MaxDepth {
				a.DepthReached = true
				return out, nil
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
				return out, nil
			}
			ns, err := a.C.Combine(s.Stack.Caller, s.S, e, pr)
			if err != nil {
				return nil, err
			}
			for _, n := range ns {
				out = append(out, Successor{State: &CSState{Stack: s.Stack.Up, S: n}, Edge: e})
			}
		}
		return out, nil
	})
}

// Depth is the stack's depth.
func (a *Callstack) Depth(x State) int {
	if f := x.(*CSState).Stack; f != nil {
		return f.Depth
	}
	return 0
}

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
	wrapper  // C is the composite
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
	return &Summaries{wrapper: wrapper{C: c}, PerEntry: perEntry, ctxs: make(map[ctxKey]*Context)}
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

// Successors follows Intra edges with the composite's transfer; at a
// call, registers the caller with the callee's context, enters it and
// combines the exit states found so far; at the exit of a context,
// combines the new exit state with every caller.
func (a *Summaries) Successors(x State, prec Precision) ([]Successor, error) {
	s := x.(*SumState)
	pr := prec.([]Precision)
	cfa := a.C.CFA
	out, err := a.successors(s, pr, func(out []Successor, e *Edge) ([]Successor, error) {
		if e.Kind != Call {
			return out, nil
		}
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
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	if loc := s.S.Loc(); loc.Loc == cfa.Prog.Procs[loc.Proc].Exit && s.Ctx != a.main {
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

// Depth is 0: contexts have no depth.
func (a *Summaries) Depth(State) int { return 0 }

// CompositeOf returns the composite state of an analysis state of either
// wrapper.
func CompositeOf(x State) *CState {
	if w, ok := x.(wrapped); ok {
		return w.comp()
	}
	panic(fmt.Sprintf("cpa: not a wrapper state: %T", x))
}

// wrapped is a state of an interprocedural wrapper: a composite state
// tagged with what the wrapper keeps apart (a call stack, a block
// context), which is its partition of the reached set.
type wrapped interface {
	comp() *CState
	tag() any
	with(*CState) State // the state with the same tag and another composite state
}

func (s *CSState) comp() *CState         { return s.S }
func (s *CSState) tag() any              { return s.Stack }
func (s *CSState) with(c *CState) State  { return &CSState{Stack: s.Stack, S: c} }
func (s *SumState) comp() *CState        { return s.S }
func (s *SumState) tag() any             { return s.Ctx }
func (s *SumState) with(c *CState) State { return &SumState{Ctx: s.Ctx, S: c} }

// wrapper is what both wrappers do with their states: the composite's
// order, join, merge, stop, precision adjustment and targets, within one
// tag (the algorithm compares, joins and merges only states of one
// partition).
type wrapper struct {
	C *Composite
}

// LessOrEqual requires equal tags.
func (w wrapper) LessOrEqual(x, y State) bool {
	wx, wy := x.(wrapped), y.(wrapped)
	return wx.tag() == wy.tag() && w.C.LessOrEqual(wx.comp(), wy.comp())
}

// Join joins states of one tag.
func (w wrapper) Join(x, y State) State {
	wx := x.(wrapped)
	return wx.with(w.C.Join(wx.comp(), y.(wrapped).comp()))
}

// Merge applies the composite's merge within a tag.
func (w wrapper) Merge(x, r State, _ Precision) State {
	wr := r.(wrapped)
	m := w.C.MergeStates(x.(wrapped).comp(), wr.comp())
	if m == wr.comp() {
		return r
	}
	return wr.with(m)
}

// Stop applies the composite's stop to the reached states of one tag.
func (w wrapper) Stop(x State, reached []State, _ Precision) bool {
	rs := make([]*CState, len(reached))
	for i, r := range reached {
		rs[i] = r.(wrapped).comp()
	}
	return w.C.Covered(x.(wrapped).comp(), rs)
}

// Adjust applies the composite's precision adjustment.
func (w wrapper) Adjust(x State, prec Precision) (State, Precision) {
	wx := x.(wrapped)
	n := w.C.Adjust(wx.comp(), prec.([]Precision))
	if n == wx.comp() {
		return x, prec
	}
	return wx.with(n), prec
}

// successors follows the edges leaving x's location: an Intra edge by the
// composite's transfer, within x's tag; the others (Call, Return,
// CallToReturn) by the wrapper's own interprocedural step, which appends
// to out.
func (w wrapper) successors(x wrapped, pr []Precision, inter func(out []Successor, e *Edge) ([]Successor, error)) ([]Successor, error) {
	var out []Successor
	for _, e := range w.C.CFA.Out(x.comp().Loc()) {
		if e.Kind != Intra {
			var err error
			if out, err = inter(out, e); err != nil {
				return nil, err
			}
			continue
		}
		ns, err := w.C.Post(x.comp(), e, pr)
		if err != nil {
			return nil, err
		}
		for _, n := range ns {
			out = append(out, Successor{State: x.with(n), Edge: e})
		}
	}
	return out, nil
}

// Location returns the state's location.
func (w wrapper) Location(x State) Node { return x.(wrapped).comp().Loc() }

// Partition is the tag: the stack, or the context.
func (w wrapper) Partition(x State) any { return x.(wrapped).tag() }

// IsTarget asks the composite.
func (w wrapper) IsTarget(x State) bool { return w.C.IsTarget(x.(wrapped).comp()) }
