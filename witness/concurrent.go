package witness

import (
	"fmt"
	"strconv"
	"strings"

	"boolprog/interp"
	"boolprog/ir"
	"boolprog/syntax"
)

// This file holds the vocabulary of the correctness witnesses of concurrent
// programs: thread stacks, their text, the configuration and thread
// invariants, and how their formulas name the threads' locals.

// Stack is a thread's call stack: the location of each frame, from the
// bottom (the procedure the thread started in, at its pending call) to the
// top (where the thread is). An empty Stack is a thread that has ended.
type Stack []Location

// String returns the stack's text: the frames' "function line:col" from
// the bottom, joined by " > ", or "ended".
func (s Stack) String() string {
	if len(s) == 0 {
		return "ended"
	}
	parts := make([]string, len(s))
	for i, l := range s {
		parts[i] = fmt.Sprintf("%s %d:%d", ir.IdentText(l.Function), l.Line, l.Col)
	}
	return strings.Join(parts, " > ")
}

// ParseStack reads a stack's text (see Stack.String); the frames' file is
// file. A function's name may be braced, as in the program.
func ParseStack(text, file string) (Stack, error) {
	text = strings.TrimSpace(text)
	if text == "ended" {
		return Stack{}, nil
	}
	var s Stack
	for _, part := range strings.Split(text, " > ") {
		part = strings.TrimSpace(part)
		i := strings.LastIndexByte(part, ' ')
		if i < 0 {
			return nil, fmt.Errorf("frame %q: expected \"function line:col\"", part)
		}
		fn, pos := strings.TrimSpace(part[:i]), part[i+1:]
		if strings.HasPrefix(fn, "{") && strings.HasSuffix(fn, "}") {
			fn = fn[1 : len(fn)-1]
		}
		ls, cs, ok := strings.Cut(pos, ":")
		line, err1 := strconv.Atoi(ls)
		col, err2 := strconv.Atoi(cs)
		if fn == "" || !ok || err1 != nil || err2 != nil || line < 1 || col < 0 {
			return nil, fmt.Errorf("frame %q: expected \"function line:col\"", part)
		}
		s = append(s, Location{File: file, Line: line, Col: col, Function: fn})
	}
	return s, nil
}

// ConfigInvariant is an invariant of a concurrent program's configurations
// at one tuple of thread stacks: in every reachable configuration whose
// threads are exactly Threads (thread i's stack is Threads[i]), with the
// atomic section owned by Atomic (-1: by none) and Getafix's init running
// or not (Init), Value holds. Value names the globals and the threads'
// locals (see the package doc, "Concurrent programs").
type ConfigInvariant struct {
	Threads    []Stack
	Atomic     int
	Init       bool
	Value      string
	Pos        syntax.Pos // where the invariant is in the witness file
	ValuePos   syntax.Pos
	ThreadsPos syntax.Pos
}

// Tuple returns the text of the invariant's thread tuple, e.g.
// "(t0: main 9:1 > init 40:3 | t1: foo 60:3 | t2: ended)", with ", atomic
// t1" or ", init" when they apply.
func (c *ConfigInvariant) Tuple() string {
	parts := make([]string, len(c.Threads))
	for i, s := range c.Threads {
		parts[i] = fmt.Sprintf("t%d: %s", i, s)
	}
	s := "(" + strings.Join(parts, " | ")
	if c.Atomic >= 0 {
		s += fmt.Sprintf(", atomic t%d", c.Atomic)
	}
	if c.Init {
		s += ", init"
	}
	return s + ")"
}

// ThreadInvariant is a thread-modular invariant: whenever a thread's call
// stack is Stack, Value holds over the globals and that thread's locals,
// named t.x (see the package doc). A stack that no thread invariant names
// is never reached.
type ThreadInvariant struct {
	Stack    Stack
	Value    string
	Pos      syntax.Pos
	ValuePos syntax.Pos
}

// threadPrefix is how the formulas of thread-modular invariants name the
// thread they speak of.
const threadPrefix = "t"

// vars lays out the variables of a configuration invariant (or of a
// thread invariant) as numbered slots: the globals first, then, thread by
// thread and frame by frame from the bottom, each frame's locals. It names
// them for formulas: a global by its name; local x of thread i's top
// frame ti.x, of its frame at depth d below the top ti.d.x (depth 0 the
// bottom); in a thread invariant the thread is t: t.x, t.d.x. A name that
// is not an identifier with dots is braced.
type vars struct {
	p      *ir.Program
	names  []string       // the text of each slot
	byName map[string]int // raw name (unbraced) -> slot
	frames [][]int        // per thread, per frame: the first slot of its locals
	clash  string         // a name that two slots would share, if any
}

// newVars lays out the variables of the given threads' stacks (procedure
// indices per frame, bottom first); prefix names thread i.
func newVars(p *ir.Program, stacks [][]int, prefix func(i int) string) *vars {
	v := &vars{p: p, byName: map[string]int{}}
	add := func(raw string) {
		if _, ok := v.byName[raw]; ok && v.clash == "" {
			v.clash = raw
		}
		v.byName[raw] = len(v.names)
		v.names = append(v.names, qualText(raw))
	}
	for _, g := range p.Globals {
		add(g)
	}
	for i, st := range stacks {
		fs := make([]int, len(st))
		for d, proc := range st {
			fs[d] = len(v.names)
			for _, l := range p.Procs[proc].Locals {
				if d == len(st)-1 {
					add(prefix(i) + "." + l)
				} else {
					add(prefix(i) + "." + strconv.Itoa(d) + "." + l)
				}
			}
		}
		v.frames = append(v.frames, fs)
	}
	return v
}

// qualText writes a (qualified) name as a formula names it: plain if it is
// made of letters, digits, '_' and '.', not starting with a digit or a
// dot; else braced.
func qualText(raw string) string {
	plain := raw != ""
	for i, c := range raw {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && ('0' <= c && c <= '9' || c == '.')) {
			plain = false
			break
		}
	}
	if plain {
		return raw
	}
	return "{" + raw + "}"
}

// n is the number of slots.
func (v *vars) n() int { return len(v.names) }

// frameStacks returns the procedures of each thread's frames.
func frameStacks(c interp.Config) [][]int {
	out := make([][]int, len(c.Threads))
	for i, top := range c.Threads {
		for _, f := range top.Stack() {
			out[i] = append(out[i], f.Proc)
		}
	}
	return out
}

// values returns the slots' values in configuration c, laid out by v.
func (v *vars) values(c interp.Config) []bool {
	out := make([]bool, 0, v.n())
	out = append(out, c.Globals...)
	for _, top := range c.Threads {
		for _, f := range top.Stack() {
			out = append(out, f.Locals...)
		}
	}
	return out
}

// stackOf returns the stack of frame top (nil: ended) in file.
func stackOf(p *ir.Program, top *interp.Frame) Stack {
	s := Stack{}
	for _, f := range top.Stack() {
		proc := p.Procs[f.Proc]
		pos := proc.Locations[f.Loc].Pos
		s = append(s, Location{File: p.File, Line: pos.Line, Col: pos.Col, Function: proc.Name})
	}
	return s
}

// frames is a stack resolved against the program: each frame's procedure,
// location and (below the top) pending call edge.
type frames []struct{ proc, loc, call int }

// resolveStack resolves a stack of a witness; why says what does not fit.
func resolveStack(p *ir.Program, s Stack) (frames, string) {
	out := make(frames, len(s))
	for d := len(s) - 1; d >= 0; d-- {
		proc, locs, why := resolveLocation(p, s[d])
		if why != "" {
			return nil, why
		}
		out[d].proc, out[d].call = proc.Index, -1
		var keep []int
		for _, l := range locs {
			if d == len(s)-1 {
				keep = append(keep, l)
				continue
			}
			// A caller's frame is at a call of the frame above.
			for _, e := range proc.Locations[l].Out {
				if c, ok := proc.Edges[e].Op.(*ir.Call); ok && c.Proc == out[d+1].proc {
					keep = append(keep, l)
					out[d].call = e
				}
			}
		}
		switch {
		case len(keep) == 0:
			return nil, fmt.Sprintf("%s: no call of %s there", s[d], p.Procs[out[d+1].proc].Name)
		case len(keep) > 1:
			return nil, fmt.Sprintf("%s: %d statements on that line: give the column", s[d], len(keep))
		}
		out[d].loc = keep[0]
	}
	return out, ""
}

// procs returns the procedure of each frame.
func (fs frames) procs() []int {
	out := make([]int, len(fs))
	for i, f := range fs {
		out[i] = f.proc
	}
	return out
}

// build returns the top frame of a stack with the locals' values taken
// from vals, starting at slot first[d] for frame d.
func (fs frames) build(p *ir.Program, vals []bool, first []int) *interp.Frame {
	var top *interp.Frame
	for d, f := range fs {
		n := len(p.Procs[f.proc].Locals)
		call := f.call
		if d == len(fs)-1 {
			call = -1
		}
		top = &interp.Frame{Proc: f.proc, Loc: f.loc, Locals: append([]bool(nil), vals[first[d]:first[d]+n]...), Call: call, Caller: top, Depth: d}
	}
	return top
}
