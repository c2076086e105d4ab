// Package interp is the concrete semantics of lowered Boolean programs: a
// configuration is a valuation of the globals plus a call stack of frames,
// and Exec/Successors enumerate every nondeterministic outcome of a step.
//
// Replay (replay.go) is the independent judge of every engine's traces. It
// is written for clarity and shares no code with any engine's search.
//
// The semantics, per edge operation of package ir:
//
//   - Skip: go to the edge's target.
//   - Assume(c): continue iff c can be true.
//   - Assign: evaluate all values in the old state (each `*` and undecided
//     schoose an independent choice), assign simultaneously, keep the new
//     states in which the constrain can be true (primed variables read the
//     new state).
//   - Call: evaluate the arguments; push a frame for the callee at its entry
//     with the parameters bound and its other locals nondeterministic; the
//     caller's frame stays at the call's location with the call pending.
//   - Return: evaluate the values; the edge leads to the exit, which pops the
//     frame.
//   - Arriving at a procedure's exit (by any edge) pops the frame: the
//     caller continues at the pending call's target with the callee's
//     globals, the returned values (nondeterministic if control fell off
//     the end) assigned to the call's targets, and states violating the
//     call's Post cut. Returning from main ends the program (empty stack).
//
// Thread operations are not supported: Exec reports an error for them.
package interp

import (
	"fmt"
	"strconv"
	"strings"

	"boolprog/ir"
	"boolprog/syntax"
)

// Frame is the activation of a procedure.
type Frame struct {
	Proc   int    // index in Program.Procs
	Loc    int    // current location (of a caller: the pending call's location)
	Locals []bool // values of Procs[Proc].Locals
	Call   int    // id of the pending call edge in a caller's frame; -1 in the top frame
}

// Config is a concrete configuration of a sequential program. An empty
// stack means the program has ended (main returned).
type Config struct {
	Globals []bool
	Stack   []Frame // Stack[0] is main's frame, the last one executes
}

// Initial returns the configuration at main's entry with the given values of
// the globals and of main's locals (parameters first). It panics if the
// lengths do not match the program.
func Initial(p *ir.Program, globals, mainLocals []bool) Config {
	main := p.Procs[p.Main]
	if len(globals) != len(p.Globals) || len(mainLocals) != len(main.Locals) {
		panic("interp: Initial: wrong number of values")
	}
	c := Config{
		Globals: append([]bool(nil), globals...),
		Stack:   []Frame{{Proc: p.Main, Loc: main.Entry, Locals: append([]bool(nil), mainLocals...), Call: -1}},
	}
	if main.Entry == main.Exit { // an empty main ends at once
		c.Stack = nil
	}
	return c
}

// Initials returns every initial configuration: one per valuation of the
// globals and main's locals, in the order of the valuations' bits (global 0
// is bit 0), leaving out a main that ends at once. It is for exhaustive
// searches over small programs: there are 2^n of them for n variables.
func Initials(p *ir.Program) []Config {
	main := p.Procs[p.Main]
	n := len(p.Globals) + len(main.Locals)
	var cs []Config
	for bits := 0; bits < 1<<n; bits++ {
		v := make([]bool, n)
		for i := range v {
			v[i] = bits&(1<<i) != 0
		}
		if c := Initial(p, v[:len(p.Globals)], v[len(p.Globals):]); !c.Ended() {
			cs = append(cs, c)
		}
	}
	return cs
}

// Ended reports whether the program has ended.
func (c Config) Ended() bool { return len(c.Stack) == 0 }

// Top returns the executing frame. It panics if the program has ended.
func (c Config) Top() *Frame { return &c.Stack[len(c.Stack)-1] }

// Depth returns the call depth of the executing frame (main = 0).
func (c Config) Depth() int { return len(c.Stack) - 1 }

// AtError reports whether the executing frame is at an error location.
func (c Config) AtError(p *ir.Program) bool {
	if c.Ended() {
		return false
	}
	t := c.Top()
	return p.Procs[t.Proc].Locations[t.Loc].Error
}

// Clone returns a deep copy of c.
func (c Config) Clone() Config {
	d := Config{Globals: append([]bool(nil), c.Globals...), Stack: make([]Frame, len(c.Stack))}
	for i, f := range c.Stack {
		f.Locals = append([]bool(nil), f.Locals...)
		d.Stack[i] = f
	}
	return d
}

// Key returns a string that identifies the configuration (equal
// configurations have equal keys).
func (c Config) Key() string {
	var b strings.Builder
	bits(&b, c.Globals)
	for _, f := range c.Stack {
		b.WriteByte('|')
		b.WriteString(strconv.Itoa(f.Proc))
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(f.Loc))
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(f.Call))
		b.WriteByte('.')
		bits(&b, f.Locals)
	}
	return b.String()
}

func bits(b *strings.Builder, vs []bool) {
	for _, v := range vs {
		if v {
			b.WriteByte('1')
		} else {
			b.WriteByte('0')
		}
	}
}

// String formats the configuration for humans, e.g.
// "g=1 | main@7 h=0 | A@20 a1=1 a2=0".
func (c Config) String(p *ir.Program) string {
	var parts []string
	var g []string
	for i, name := range p.Globals {
		g = append(g, name+"="+bit(c.Globals[i]))
	}
	parts = append(parts, strings.Join(g, " "))
	for _, f := range c.Stack {
		proc := p.Procs[f.Proc]
		s := fmt.Sprintf("%s@%d", proc.Name, proc.Locations[f.Loc].Pos.Line)
		for i, name := range proc.Locals {
			s += " " + name + "=" + bit(f.Locals[i])
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | ")
}

func bit(v bool) string {
	if v {
		return "1"
	}
	return "0"
}

// Transition is one outcome of a step: the edge taken and the resulting
// configuration.
type Transition struct {
	Edge int
	Next Config
}

// Successors returns every outcome of every edge leaving the executing
// frame's location.
func Successors(p *ir.Program, c Config) ([]Transition, error) {
	if c.Ended() {
		return nil, nil
	}
	t := c.Top()
	var out []Transition
	for _, e := range p.Procs[t.Proc].Locations[t.Loc].Out {
		next, err := Exec(p, c, e)
		if err != nil {
			return nil, err
		}
		for _, n := range next {
			out = append(out, Transition{Edge: e, Next: n})
		}
	}
	return out, nil
}

// Exec executes edge id of the executing procedure from c and returns every
// resulting configuration (none if the edge is blocked). It does not modify
// c. It reports an error if the edge does not leave the current location or
// is a thread operation.
func Exec(p *ir.Program, c Config, id int) ([]Config, error) {
	if c.Ended() {
		return nil, fmt.Errorf("interp: the program has ended")
	}
	top := c.Top()
	proc := p.Procs[top.Proc]
	if id < 0 || id >= len(proc.Edges) {
		return nil, fmt.Errorf("interp: %s has no edge %d", proc.Name, id)
	}
	e := proc.Edges[id]
	if e.From != top.Loc {
		return nil, fmt.Errorf("interp: edge %d of %s leaves location %d, not the current location %d", id, proc.Name, e.From, top.Loc)
	}
	st := state{globals: c.Globals, locals: top.Locals}

	switch op := e.Op.(type) {
	case *ir.Skip:
		return arrive(p, moved(c, e.To), nil)

	case *ir.Assume:
		if !canBe(st.eval(op.Cond), true) {
			return nil, nil
		}
		return arrive(p, moved(c, e.To), nil)

	case *ir.Assign:
		var out []Config
		for _, vals := range choices(st, op.Values) {
			n := moved(c, e.To)
			nt := n.Top()
			for i, v := range op.Targets {
				set(n.Globals, nt.Locals, v, vals[i])
			}
			if op.Constrain != nil {
				two := state{globals: c.Globals, locals: top.Locals, newGlobals: n.Globals, newLocals: nt.Locals}
				if !canBe(two.eval(op.Constrain), true) {
					continue
				}
			}
			more, err := arrive(p, n, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
		}
		return out, nil

	case *ir.Call:
		callee := p.Procs[op.Proc]
		var out []Config
		for _, args := range choices(st, op.Args) {
			for _, rest := range allValuations(len(callee.Locals) - callee.Params) {
				n := c.Clone()
				n.Top().Call = id // the caller waits at the call's location
				locals := append(append([]bool(nil), args...), rest...)
				n.Stack = append(n.Stack, Frame{Proc: op.Proc, Loc: callee.Entry, Locals: locals, Call: -1})
				more, err := arrive(p, n, nil)
				if err != nil {
					return nil, err
				}
				out = append(out, more...)
			}
		}
		return out, nil

	case *ir.Return:
		var out []Config
		for _, vals := range choices(st, op.Values) {
			more, err := arrive(p, moved(c, e.To), vals)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("interp: %s (line %d): thread operation %q: concurrent programs are not supported", proc.Name, e.Pos.Line, e.Text)
}

// moved returns a copy of c whose executing frame is at location to.
func moved(c Config, to int) Config {
	n := c.Clone()
	n.Top().Loc = to
	return n
}

// arrive finishes a step that put the executing frame at its location: if
// that is the procedure's exit, the frame returns (with the given values,
// or nondeterministic ones if vals is nil), possibly several times in a row.
func arrive(p *ir.Program, c Config, vals []bool) ([]Config, error) {
	top := c.Top()
	proc := p.Procs[top.Proc]
	if top.Loc != proc.Exit {
		return []Config{c}, nil
	}
	if len(c.Stack) == 1 { // main returns: the program ends
		return []Config{{Globals: c.Globals}}, nil
	}
	var results [][]bool
	if vals != nil {
		results = [][]bool{vals}
	} else {
		results = allValuations(proc.Returns)
	}
	var out []Config
	for _, rv := range results {
		n := c.Clone()
		n.Stack = n.Stack[:len(n.Stack)-1]
		caller := n.Top()
		cproc := p.Procs[caller.Proc]
		call := cproc.Edges[caller.Call].Op.(*ir.Call)
		for i, t := range call.Targets {
			if !t.Discard {
				set(n.Globals, caller.Locals, t.Var, rv[i])
			}
		}
		if call.Post != nil {
			if !canBe(state{globals: n.Globals, locals: caller.Locals}.eval(call.Post), true) {
				continue
			}
		}
		caller.Loc = cproc.Edges[caller.Call].To
		caller.Call = -1
		more, err := arrive(p, n, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, more...)
	}
	return out, nil
}

func set(globals, locals []bool, v ir.VarRef, x bool) {
	if v.Global {
		globals[v.Index] = x
	} else {
		locals[v.Index] = x
	}
}

// allValuations returns all 2^n valuations of n variables.
func allValuations(n int) [][]bool {
	out := [][]bool{{}}
	for range n {
		var next [][]bool
		for _, v := range out {
			next = append(next, append(append([]bool(nil), v...), false))
			next = append(next, append(append([]bool(nil), v...), true))
		}
		out = next
	}
	return out
}

// choices returns every combination of values the expressions can take,
// each chosen independently.
func choices(st state, es []ir.Expr) [][]bool {
	out := [][]bool{{}}
	for _, e := range es {
		vs := st.eval(e)
		var next [][]bool
		for _, prefix := range out {
			for _, v := range []bool{false, true} {
				if canBe(vs, v) {
					next = append(next, append(append([]bool(nil), prefix...), v))
				}
			}
		}
		out = next
	}
	return out
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
