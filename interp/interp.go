// Package interp is the concrete semantics of lowered Boolean programs: a
// configuration is a valuation of the globals plus one call stack per
// thread, and Exec/Successors enumerate every nondeterministic outcome of a
// step.
//
// Replay (replay.go) is the independent judge of every engine's traces. It
// is written for clarity and shares no code with any engine's search: that
// independence is why it evaluates expressions itself (state.eval, by the
// definition of package ir, recursively) rather than with ir.Possible or
// ir.Eval, the possible-values algebra the engines share, so that a
// mistake there cannot make a wrong trace replay.
//
// # Configurations
//
// A Config holds the globals (shared by all threads) and, per thread, the
// top Frame of its call stack. Frames are immutable and point to their
// caller, so a step builds one new frame and shares the rest of the stack:
// a step costs time in the size of the frame it changes (and the number of
// threads), never in the depth of the stack.
//
// # Sequential semantics, per edge operation of package ir
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
//     call's Post cut; this may pop several frames in one step. A value
//     that nothing can observe (a discarded result, a local of a frame the
//     same step pops, a global the same step overwrites) is not a choice:
//     one representative outcome stands for all.
//
// # Threads
//
// Threads are numbered from 0 in the order they are created; a number is
// never reused. The globals are shared; each thread has its own stack.
//
//   - Start: a program that does not follow the Getafix convention starts
//     with one thread, 0, at main's entry (globals and main's locals
//     nondeterministic). In the Getafix convention (ir.Program.Threads is not
//     empty) thread 0 first runs init (Program.Init) alone; when init
//     returns (or executes end_thread), threads 0, 1, … start at the entries
//     of Program.Threads[0], [1], … (main first if there is one), with
//     nondeterministic locals, and the globals as init left them. Without
//     init (or with an empty one) the program starts with those threads. A
//     start_thread inside init is an error (Exec reports it): the convention
//     has no threads before init returns.
//   - StartThread f(args): the arguments are evaluated in the starting
//     thread's state; a new thread (the next number) starts with one frame,
//     f at its entry, parameters bound, other locals nondeterministic; the
//     starting thread continues at the edge's target. A call behind an
//     `ASYNC_` label is lowered to this. StartThread goto L: the new thread
//     starts with a copy of the starting thread's stack whose top frame is at
//     location L (the same locals; when that procedure returns, the new
//     thread returns into the same callers), as in SATABS's Boppo, which
//     inlines procedures and gives the new thread the same code from L on.
//   - A thread ends when it executes end_thread or when the bottom frame of
//     its stack returns (main returning ends thread 0, not the others). The
//     program has ended when every thread has ended.
//   - Interleaving: any live thread may take the next step, subject to
//     atomicity. The thread that took the last step is Config.Running; a
//     step by another thread is a context switch. There is no switch at the
//     first step, nor at the first step after Getafix's init returns: which
//     thread runs first is a free choice (Config.Running is -1), although
//     init ran as thread 0.
//   - Atomic sections: atomic_begin makes its thread the owner of the
//     atomic section (Config.Atomic) and atomic_end releases it (sections do
//     not nest: a second atomic_begin changes nothing, an atomic_end
//     outside a section does nothing). While a thread owns the section, no
//     other thread may step; if the owner blocks or ends inside the section,
//     the program is stuck (as in Boppo).
//   - Getafix's `atomic`: in the Getafix convention, a global named
//     `atomic` that is T forbids a context switch: the thread that ran last
//     must take the next step (again stuck if it cannot).
//
// An error is reached when any thread arrives at an error location.
package interp

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"boolprog/ir"
)

// MaxOmitted bounds enumeration: the largest number of independent
// nondeterministic choices of two values each that one step (or the start)
// may have to enumerate because nothing fixes them. For Replay those are the
// values a trace omits; for Exec, Successors and Initials every choice that
// can be observed. Beyond it they report an error instead of enumerating
// 2^n outcomes.
const MaxOmitted = 20

// Frame is the activation of a procedure. A frame is never modified once it
// is part of a configuration: configurations share frames.
type Frame struct {
	Proc   int    // index in Program.Procs
	Loc    int    // current location (of a caller: the pending call's location)
	Locals []bool // values of Procs[Proc].Locals; never modified
	Call   int    // id of the pending call edge in a caller's frame; -1 in the top frame
	Caller *Frame // the frame below, nil at the bottom of the stack
	Depth  int    // number of frames below this one: 0 at the bottom
}

// Stack returns the frames from the bottom of the stack to f.
func (f *Frame) Stack() []*Frame {
	if f == nil {
		return nil
	}
	fs := make([]*Frame, f.Depth+1)
	for x := f; x != nil; x = x.Caller {
		fs[x.Depth] = x
	}
	return fs
}

// Config is a concrete configuration. Configs are values whose slices and
// frames are shared with other configurations: never modify them.
type Config struct {
	Globals []bool
	// Threads holds the top frame of each thread's stack, by thread number;
	// nil for a thread that has ended.
	Threads []*Frame
	// Running is the thread that took the last step, or -1 when the next
	// step is a free choice (Getafix's threads just started).
	Running int
	// Atomic is the thread that owns the atomic section, or -1.
	Atomic int
	// Init is set while Getafix's init runs (as thread 0), before the
	// threads start.
	Init bool
}

// startProcs returns the procedures whose frames exist before the first
// step: main; in the Getafix convention init (and init is true), or the
// thread procedures if there is no init or it is empty.
func startProcs(p *ir.Program) (procs []int, init bool) {
	if len(p.Threads) == 0 {
		return []int{p.Main}, false
	}
	if p.Init >= 0 && p.Procs[p.Init].Entry != p.Procs[p.Init].Exit {
		return []int{p.Init}, true
	}
	return p.Threads, false
}

// StartLocals returns the number of locals Initial takes: those of the
// frames that exist before the first step (see startProcs in the package
// doc: main's, init's, or every thread procedure's in order).
func StartLocals(p *ir.Program) int {
	n := 0
	procs, _ := startProcs(p)
	for _, pi := range procs {
		n += len(p.Procs[pi].Locals)
	}
	return n
}

// Initial returns the configuration before the first step with the given
// values of the globals and of the locals of the starting frames (main's;
// in the Getafix convention init's, or without init every thread
// procedure's, in order; see StartLocals). It panics if the lengths do not
// match the program.
func Initial(p *ir.Program, globals, locals []bool) Config {
	if len(globals) != len(p.Globals) || len(locals) != StartLocals(p) {
		panic("interp: Initial: wrong number of values")
	}
	starts, init := startProcs(p)
	c := Config{Globals: slices.Clone(globals), Threads: make([]*Frame, len(starts)), Running: 0, Atomic: -1, Init: init}
	if len(p.Threads) > 0 && !init {
		c.Running = -1 // the first thread to run is a free choice
	}
	for t, pi := range starts {
		proc := p.Procs[pi]
		n := len(proc.Locals)
		if proc.Entry != proc.Exit { // an empty procedure ends at once
			c.Threads[t] = &Frame{Proc: pi, Loc: proc.Entry, Locals: slices.Clone(locals[:n]), Call: -1}
		}
		locals = locals[n:]
	}
	return c
}

// Initials returns every initial configuration: one per valuation of the
// globals and the starting frames' locals, in the order of the valuations'
// bits (global 0 is bit 0), leaving out those that have ended at once. It
// is for exhaustive searches over small programs, and reports an error if
// there are more than MaxOmitted variables (2^n configurations).
func Initials(p *ir.Program) ([]Config, error) {
	ng := len(p.Globals)
	n := ng + StartLocals(p)
	if n > MaxOmitted {
		return nil, fmt.Errorf("interp: %d variables at the start: at most %d can be enumerated", n, MaxOmitted)
	}
	var cs []Config
	v := make([]bool, n)
	for bits := uint64(0); bits < uint64(1)<<n; bits++ {
		for i := range v {
			v[i] = bits&(uint64(1)<<i) != 0
		}
		if c := Initial(p, v[:ng], v[ng:]); !c.Ended() {
			cs = append(cs, c)
		}
	}
	return cs, nil
}

// Ended reports whether the program has ended: every thread has ended.
func (c Config) Ended() bool {
	for _, f := range c.Threads {
		if f != nil {
			return false
		}
	}
	return !c.Init
}

// Thread returns the top frame of thread t, or nil if t has ended or does
// not exist.
func (c Config) Thread(t int) *Frame {
	if t < 0 || t >= len(c.Threads) {
		return nil
	}
	return c.Threads[t]
}

// Top returns the top frame of the thread that ran last (thread 0 before
// any step, or when the next step is a free choice): the executing frame of
// a sequential program. It is nil if that thread has ended.
func (c Config) Top() *Frame { return c.Thread(max(c.Running, 0)) }

// Depth returns the call depth of Top (main = 0), or -1 if it is nil.
func (c Config) Depth() int {
	if f := c.Top(); f != nil {
		return f.Depth
	}
	return -1
}

// AtError reports whether some thread is at an error location.
func (c Config) AtError(p *ir.Program) bool {
	for _, f := range c.Threads {
		if f != nil && p.Procs[f.Proc].Locations[f.Loc].Error {
			return true
		}
	}
	return false
}

// Key returns a string that identifies the configuration (equal
// configurations have equal keys). It walks every stack: it is meant for
// searches over small programs.
func (c Config) Key() string {
	var b strings.Builder
	bits(&b, c.Globals)
	fmt.Fprintf(&b, "/%d/%d/%t", c.Running, c.Atomic, c.Init)
	for _, top := range c.Threads {
		b.WriteString("||")
		for _, f := range top.Stack() {
			b.WriteByte('|')
			b.WriteString(strconv.Itoa(f.Proc))
			b.WriteByte('.')
			b.WriteString(strconv.Itoa(f.Loc))
			b.WriteByte('.')
			b.WriteString(strconv.Itoa(f.Call))
			b.WriteByte('.')
			bits(&b, f.Locals)
		}
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

// Config.String shows at most maxShown frames of a stack and
// maxGlobalsShown globals, so that a message stays readable.
const (
	maxShown        = 8
	maxGlobalsShown = 32
)

// String formats the configuration for humans, e.g.
// "g=1 | main@7 h=0 | A@20 a1=1 a2=0" for a sequential program (the stack
// from the bottom; of a stack deeper than 8 frames, the bottom one and the
// top 7; the first 32 globals), and "g=1 || t0: main@7 | f@3 x=0 || t1:
// ended" for a concurrent one.
func (c Config) String(p *ir.Program) string {
	var g []string
	for i, name := range p.Globals {
		if i == maxGlobalsShown && len(p.Globals) > maxGlobalsShown+1 {
			g = append(g, fmt.Sprintf("… %d more globals", len(p.Globals)-i))
			break
		}
		g = append(g, name+"="+bit(c.Globals[i]))
	}
	frame := func(f *Frame) string {
		proc := p.Procs[f.Proc]
		s := fmt.Sprintf("%s@%d", proc.Name, proc.Locations[f.Loc].Pos.Line)
		for i, name := range proc.Locals {
			s += " " + name + "=" + bit(f.Locals[i])
		}
		return s
	}
	frames := func(top *Frame) []string {
		stack := top.Stack()
		var parts []string
		if n := len(stack); n > maxShown {
			// The bottom frame and the top ones: a message about a deep
			// recursion must stay readable.
			parts = append(parts, frame(stack[0]), fmt.Sprintf("… %d frames …", n-maxShown))
			stack = stack[n-maxShown+1:]
		}
		for _, f := range stack {
			parts = append(parts, frame(f))
		}
		return parts
	}
	if !p.Concurrent {
		return strings.Join(append([]string{strings.Join(g, " ")}, frames(c.Thread(0))...), " | ")
	}
	s := strings.Join(g, " ")
	for t, top := range c.Threads {
		st := "ended"
		if top != nil {
			st = strings.Join(frames(top), " | ")
		}
		s += fmt.Sprintf(" || t%d: %s", t, st)
	}
	if c.Atomic >= 0 {
		s += fmt.Sprintf(" (atomic: t%d)", c.Atomic)
	}
	return s
}

func bit(v bool) string {
	if v {
		return "1"
	}
	return "0"
}
