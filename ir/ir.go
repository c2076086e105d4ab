// Package ir is the program representation every engine reads: one
// control-flow automaton (CFA) per procedure, whose edges carry operations
// over resolved Boolean variables.
//
// # Control flow
//
// Each statement of a procedure starts at its own Location (the location
// holds the statement's position, text and labels); the procedure also has
// an Exit location (position of `end`), and one assertion-failure location
// per `assert`. Edges follow the Bebop paper's control-flow graph (§2.3:
// Succ, Next, ReturnPt), with one edge per statement outcome:
//
//   - skip, print, a single goto: one Skip edge;
//   - `goto L1, L2`: one Skip edge per target;
//   - `if (c)`, `elsif (c)`, `while (c)`: Assume(c) to the first statement of
//     the branch or body, Assume(!c) to the else branch or the lexical
//     successor;
//   - `assert(c)`: Assume(c) to the successor and Assume(!c) to the
//     statement's assertion-failure location (an error location);
//   - `assume(c)`: Assume(c); `abortif c`: Assume(!c);
//   - assignments, `dead x`, a `decl x` among the statements: one Assign
//     (dead/decl assign Nondet, a `decl x := e` statement assigns e). A `_`
//     target of a plain assignment is dropped with its value. A variable
//     that is a target twice, `a, a := e1, e2` (Getafix's generated files;
//     sema warns), is assigned e1 and the Assign's Constrain gets 'a = e2
//     conjoined: the step exists only where the two values can agree, as
//     Getafix's translator reads it, and no engine needs to know;
//   - a call: one Call edge from the call's location to its return point
//     (the lexical successor) — an intraprocedural edge that stands for the
//     whole call: enter the callee at its Entry, run it to its Exit, return;
//   - `return e`: one Return edge to the Exit;
//   - thread statements: one edge with the thread operation. A call behind
//     a label `ASYNC_n:` is a StartThread.
//
// A label repeated in a procedure (on statements no goto names; sema warns)
// is on each of its locations: Proc.Labels lists them all, and as a target
// label it makes each an error location.
//
// The lexical successor of the last statement of the body is the Exit.
// Reaching the Exit returns from the procedure: the values of the Return edge
// that led there are returned, or nondeterministic values if control fell
// off the end (or `return;` in a procedure that returns values).
//
// # Errors
//
// Error locations have Location.Error set: every assertion-failure location,
// and every statement location carrying the target label (Options.Target,
// default "SLIC_ERROR"). An execution is erroneous iff it reaches an error
// location. In a trace (package result), the final step of a failing
// assertion is the assert's location with the Assume(!c) edge into the
// failure location; the final step for a target label is the labelled
// location itself, with no edge.
//
// # Initialisers
//
// Initialisers are lowered to ordinary Assign edges on the way into a
// procedure, so that every engine (and interp's Replay) gets them right
// without knowing about them, and a trace shows them as steps:
//
//   - Globals (`decl g := e;`): one location before everything else in the
//     procedure where the program starts (main, or init under the Getafix
//     convention), with one parallel Assign of every initialised global; it
//     is that procedure's Entry, so the program's initial states are the
//     states after it. sema rejects calls of that procedure (the step would
//     run again) and initialisers that read variables (they are a
//     constraint on the initial state). A Getafix-convention program with
//     global initialisers and no init gets an init procedure (Init) that
//     consists of that one step, so the initialisers still run before any
//     thread. The location and edge text is the declarations', e.g.
//     "decl a, b := T, *".
//   - Locals of the `decl` lines of a body (`decl l := e;`): one location
//     (after the global one, if any, before the enforce one, if any) with
//     one parallel Assign of every initialised local, evaluated after the
//     parameters are bound: on every entry to the procedure. The
//     initialisers read only parameters and globals (sema).
//   - A `decl x := e;` among the statements: its Assign assigns e.
//
// Each of these Assigns has the procedure's enforce folded in, like every
// other (see below).
//
// # enforce
//
// `enforce e` is lowered to its meaning: the procedure's Entry is a location
// at the enforce clause with an Assume(e) edge to the first statement (after
// the initialiser steps, if any); every
// Assign of the procedure has e (with every variable primed) conjoined to its
// Constrain; and every Call made by the procedure has Post = e, which the
// caller's state after the return must satisfy. Other edges do not change
// the state, so e then holds after every step of the procedure.
//
// # Building programs
//
// Lower builds a Program from a checked syntax tree and its sema.Info; it
// resolves no name itself. A transformation builds one directly with a
// Builder (NewBuilder, Builder.Proc, ProcBuilder.Loc and Edge, Build),
// recording in each location's and edge's Origin what it stands for, and
// Build checks the result with Verify. A transformation that changes a
// program (an instrumentation, a rewrite of some operations) edits a copy
// of it instead: Edit returns a Builder over Clone(p) whose ProcAt adds to
// and changes p's procedures (SetOp, Retarget), with SyntheticOrigin for
// what it adds; Build again verifies, and p is never changed.
package ir

import (
	"fmt"
	"slices"

	"boolprog/syntax"
)

// DefaultTarget is the error label used when Options.Target is empty.
const DefaultTarget = "SLIC_ERROR"

// Program is a lowered Boolean program.
type Program struct {
	File       string   // source file name
	Target     string   // the error label that marks error locations
	Globals    []string // global variable names; VarRef{Global: true, Index: i} is Globals[i]
	Procs      []*Proc  // procedures in source order; Call.Proc indexes this
	Main       int      // index of main in Procs, or -1 (a Getafix program may have none)
	Concurrent bool     // the program uses thread operations or the Getafix thread convention

	// ConcurrentPos and ConcurrentWhy point at the first construct (in
	// source order) that made the program Concurrent, so that an engine
	// that refuses threads can say where they come from: the position and
	// a short description, e.g. "start_thread", "ASYNC_1: label (a thread
	// start)", "procedure thread0 (Getafix thread convention)". Both are
	// zero if the program is not concurrent.
	ConcurrentPos syntax.Pos
	ConcurrentWhy string

	// AtomicCalls is the number of calls of __VERIFIER_atomic_*
	// procedures made atomic (conc.AtomicCalls); AtomicCallsWhy, when
	// the program calls such procedures and they were not made atomic,
	// says why.
	AtomicCalls    int
	AtomicCallsWhy string

	// Init and Threads describe the Getafix convention, which applies when
	// the program has procedures named thread<N>: init (Init, or -1) runs
	// first, then main and every thread<N> (Threads: main first, then the
	// others in source order) run as threads over the shared globals.
	// Such a program is Concurrent; running main alone would be a
	// different program. If the program has global initialisers but no
	// init, Lower adds an init (the last procedure) that runs them.
	Init    int
	Threads []int
}

// Proc is one procedure and its control-flow automaton.
type Proc struct {
	Name    string
	Index   int        // index in Program.Procs
	Pos     syntax.Pos // position of the procedure's definition
	Params  int        // the first Params locals are the parameters, in order
	Locals  []string   // parameters, then `decl` locals, then locals of DeclStmts
	Returns int        // number of returned values

	// Locations[i].ID == i. Entry is where a call starts, Exit where it
	// returns.
	Locations []*Location
	// Edges[i].ID == i.
	Edges []*Edge
	Entry int
	Exit  int
	// Labels maps each statement label of the procedure to the locations
	// that carry it, in location order: one, or several for a label
	// repeated in the procedure (which no goto names; see sema), each of
	// which it marks.
	Labels map[string][]int
	// Enforce is the procedure's `enforce` condition, or nil. It is
	// already lowered into the edges (see the package comment) and is kept
	// here for display only; engines must not apply it again.
	Enforce Expr
}

// NumVars returns the number of variables in scope in the procedure:
// globals plus locals.
func (p *Program) NumVars(proc *Proc) int { return len(p.Globals) + len(proc.Locals) }

// MaxInScope returns the largest number of variables in scope in any
// procedure.
func (p *Program) MaxInScope() int {
	n := len(p.Globals)
	for _, pr := range p.Procs {
		n = max(n, p.NumVars(pr))
	}
	return n
}

// Proc returns the procedure with the given name, or nil.
func (p *Program) Proc(name string) *Proc {
	for _, pr := range p.Procs {
		if pr.Name == name {
			return pr
		}
	}
	return nil
}

// VarName returns the name of a variable as seen from procedure proc.
func (p *Program) VarName(proc *Proc, v VarRef) string {
	if v.Global {
		return p.Globals[v.Index]
	}
	return proc.Locals[v.Index]
}

// LocKind distinguishes the kinds of locations.
type LocKind int

// The kinds of locations.
const (
	StmtLoc LocKind = iota // the start of a statement (or of the enforce clause)
	ExitLoc                // the procedure's exit
	FailLoc                // the failure of an assert (an error location)
)

// Location is a control location of a procedure.
type Location struct {
	ID     int
	Kind   LocKind
	Pos    syntax.Pos // position of the statement (after its labels); `end` for the exit; the assert for a failure location
	Text   string     // canonical text of the statement starting here ("" for exit and failure locations)
	Labels []string   // the statement's labels
	Entry  bool       // this is Proc.Entry
	Exit   bool       // this is Proc.Exit
	Error  bool       // reaching this location is the error
	Out    []int      // ids of the edges leaving this location
	In     []int      // ids of the edges entering this location
	Origin Origin     // where the location comes from
}

// Edge is a transition of a procedure's CFA.
type Edge struct {
	ID       int
	From, To int        // location ids
	Op       Op         // what the edge does
	Pos      syntax.Pos // position of the statement
	Text     string     // canonical statement text for traces, e.g. "h := !g", "A(g, h)", "if (a1)"
	Origin   Origin     // where the edge comes from
}

// Origin records where a location or edge comes from, so that a trace of a
// program built by a transformation (the sequentialisation of a concurrent
// program, say) maps back to the program it was built from. Lower makes
// every location and edge its own origin: Proc is its procedure's index,
// Loc the location's id (-1 for an edge), Edge the edge's id (-1 for a
// location), Thread and Round -1. A transformation copies the origin of
// what it copies and fills in Thread and Round, so origins lead back to the
// lowered program however many transformations there are.
type Origin struct {
	Proc   int // procedure index in the original program
	Loc    int // location id there, or -1
	Edge   int // edge id there, or -1
	Thread int // the thread this copy belongs to, or -1
	Round  int // the round (or context) of this copy, or -1
}

// VarRef names a variable: a global (index into Program.Globals) or a local
// of the current procedure (index into Proc.Locals).
type VarRef struct {
	Global bool
	Index  int
}

// Target is the destination of one returned value in a Call: a variable or,
// with Discard, nowhere (`_`).
type Target struct {
	Var     VarRef
	Discard bool
}

// Op is the operation of an edge: one of *Skip, *Assume, *Assign, *Call,
// *Return, *StartThread, *EndThread, *AtomicBegin, *AtomicEnd.
type Op interface{ isOp() }

// Skip does nothing (skip, print, goto).
type Skip struct{}

// Assume continues only in states where Cond can be true (Cond may contain
// Nondet and Schoose: each is an independent choice).
type Assume struct{ Cond Expr }

// Assign is the parallel assignment Targets := Values [constrain Constrain]:
// all Values are evaluated in the old state (every Nondet an independent
// choice), then assigned simultaneously; if Constrain is not nil, only new
// states for which Constrain can be true survive. In Constrain, a primed Var
// is the variable's new value (the old value if it is not a target) and an
// unprimed Var its old value. Targets are distinct.
type Assign struct {
	Targets   []VarRef
	Values    []Expr
	Constrain Expr
}

// Call calls Procs[Proc] with Args evaluated in the caller's state. The
// callee starts at its Entry with globals unchanged, parameters set to the
// arguments and its other locals nondeterministic. When it reaches its Exit,
// the caller resumes at the edge's To with the callee's globals, its own
// locals, and the returned values assigned to Targets; then states of the
// caller that violate Post (if not nil; the caller's enforce) are cut.
// Targets is empty (all values discarded) or has one entry per returned
// value.
type Call struct {
	Proc    int
	Args    []Expr
	Targets []Target
	Post    Expr
}

// Return returns Values (evaluated in the current state) to the caller; its
// edge leads to the Exit. Values has one entry per returned value (Nondet for
// `return;` in a procedure that returns values).
type Return struct{ Values []Expr }

// StartThread starts a thread: running Procs[Proc](Args) if Goto < 0, else
// running from location Goto of the current procedure (`start_thread goto
// L`). The starting thread continues at the edge's To.
type StartThread struct {
	Proc int
	Args []Expr
	Goto int
}

// EndThread ends the executing thread. (Its edge leads to the lexical
// successor only to keep the graph connected.)
type EndThread struct{}

// AtomicBegin starts an atomic section: no context switch until AtomicEnd.
type AtomicBegin struct{}

// AtomicEnd ends an atomic section.
type AtomicEnd struct{}

func (*Skip) isOp()        {}
func (*Assume) isOp()      {}
func (*Assign) isOp()      {}
func (*Call) isOp()        {}
func (*Return) isOp()      {}
func (*StartThread) isOp() {}
func (*EndThread) isOp()   {}
func (*AtomicBegin) isOp() {}
func (*AtomicEnd) isOp()   {}

// OpString formats an edge operation of procedure proc as Boolean-program
// source, e.g. "assume(!a1)", "h := !g", "A(g, h)", "x, _ := f(a)",
// "return g", "{a<b}, c := T, F": names are braced where the source needs
// it (IdentText), so that the statement reads back as the same operation.
// Two parts have no statement of their own: a call's Post (the caller's
// enforce) follows as " post e", and a start_thread goto names its
// location's first label, or its number if it has none.
func (p *Program) OpString(proc *Proc, op Op) string {
	name := func(v VarRef) string { return identText(p.VarName(proc, v)) }
	ex := func(e Expr) string { return p.ExprString(proc, e) }
	exprs := func(es []Expr) string {
		s := ""
		for i, e := range es {
			if i > 0 {
				s += ", "
			}
			s += ex(e)
		}
		return s
	}
	switch op := op.(type) {
	case *Skip:
		return "skip"
	case *Assume:
		return "assume(" + ex(op.Cond) + ")"
	case *Assign:
		s := ""
		for i, t := range op.Targets {
			if i > 0 {
				s += ", "
			}
			s += name(t)
		}
		s += " := " + exprs(op.Values)
		if op.Constrain != nil {
			s += " constrain " + ex(op.Constrain)
		}
		return s
	case *Call:
		s := ""
		for i, t := range op.Targets {
			if i > 0 {
				s += ", "
			}
			if t.Discard {
				s += "_"
			} else {
				s += name(t.Var)
			}
		}
		if s != "" {
			s += " := "
		}
		s += identText(p.Procs[op.Proc].Name) + "(" + exprs(op.Args) + ")"
		if op.Post != nil {
			s += " post " + ex(op.Post)
		}
		return s
	case *Return:
		if len(op.Values) == 0 {
			return "return"
		}
		return "return " + exprs(op.Values)
	case *StartThread:
		if op.Goto >= 0 {
			if ls := proc.Locations[op.Goto].Labels; len(ls) > 0 {
				return "start_thread goto " + identText(ls[0])
			}
			return fmt.Sprintf("start_thread goto %d", op.Goto)
		}
		return "start_thread " + identText(p.Procs[op.Proc].Name) + "(" + exprs(op.Args) + ")"
	case *EndThread:
		return "end_thread"
	case *AtomicBegin:
		return "atomic_begin"
	case *AtomicEnd:
		return "atomic_end"
	}
	return fmt.Sprintf("%T", op)
}

// ErrorLocations returns the ids of the error locations of proc.
func (proc *Proc) ErrorLocations() []int {
	var ids []int
	for _, l := range proc.Locations {
		if l.Error {
			ids = append(ids, l.ID)
		}
	}
	return ids
}

// Labels returns every statement label of the program (of every procedure),
// sorted and without repetitions. A front end uses it to reject a target
// label that occurs nowhere and to suggest the ones that do.
func (p *Program) Labels() []string {
	var all []string
	for _, pr := range p.Procs {
		for _, l := range pr.Locations {
			all = append(all, l.Labels...)
		}
	}
	slices.Sort(all)
	return slices.Compact(all)
}

// HasLabel reports whether some statement of the program carries the label
// name.
func (p *Program) HasLabel(name string) bool {
	for _, pr := range p.Procs {
		for _, l := range pr.Locations {
			if slices.Contains(l.Labels, name) {
				return true
			}
		}
	}
	return false
}

// ErrorReachableInCFG reports whether an error location is reachable
// from main's entry in the interprocedural control-flow graph, ignoring all
// data (a call edge leads both into the callee and to its return point).
// Without such a path no run can fail, whatever the values: an engine
// answers the program at once, with a proof. It also returns the
// procedures reachable from main through calls, in the order found.
//
// It follows calls only: a sequential program's question. (A concurrent
// one also starts threads; HasErrorLocation is the check for it.)
func (p *Program) ErrorReachableInCFG() (procs []*Proc, reachable bool) {
	seenProc := make([]bool, len(p.Procs))
	type pl struct{ proc, loc int }
	seen := make(map[pl]bool)
	var work []pl
	add := func(proc, loc int) {
		if k := (pl{proc, loc}); !seen[k] {
			seen[k] = true
			work = append(work, k)
		}
		if !seenProc[proc] {
			seenProc[proc] = true
			procs = append(procs, p.Procs[proc])
		}
	}
	add(p.Main, p.Procs[p.Main].Entry)
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		proc := p.Procs[x.proc]
		loc := proc.Locations[x.loc]
		if loc.Error {
			reachable = true
		}
		for _, id := range loc.Out {
			edge := proc.Edges[id]
			if c, ok := edge.Op.(*Call); ok {
				add(c.Proc, p.Procs[c.Proc].Entry)
			}
			add(x.proc, edge.To)
		}
	}
	return procs, reachable
}

// ErrorReachableInThreads is ErrorReachableInCFG for a concurrent program:
// whether an error location is reachable in the control-flow graph,
// ignoring data except constant conditions (assert(T) leads to its failure
// location by an assume(!T) edge, which is never taken), from every
// procedure that starts a thread (main, init, the Getafix threads),
// through calls and thread creation.
func (p *Program) ErrorReachableInThreads() bool {
	type pl struct{ proc, loc int }
	seen := make(map[pl]bool)
	var work []pl
	add := func(proc, loc int) {
		if k := (pl{proc, loc}); !seen[k] {
			seen[k] = true
			work = append(work, k)
		}
	}
	if p.Main >= 0 {
		add(p.Main, p.Procs[p.Main].Entry)
	}
	if p.Init >= 0 {
		add(p.Init, p.Procs[p.Init].Entry)
	}
	for _, t := range p.Threads {
		add(t, p.Procs[t].Entry)
	}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		proc := p.Procs[x.proc]
		if proc.Locations[x.loc].Error {
			return true
		}
		for _, id := range proc.Locations[x.loc].Out {
			e := proc.Edges[id]
			switch op := e.Op.(type) {
			case *Assume:
				if constFalse(op.Cond) {
					continue
				}
			case *Call:
				add(op.Proc, p.Procs[op.Proc].Entry)
			case *StartThread:
				if op.Goto >= 0 {
					add(x.proc, op.Goto)
				} else {
					add(op.Proc, p.Procs[op.Proc].Entry)
				}
			}
			add(x.proc, e.To)
		}
	}
	return false
}

// constFalse reports whether e is F or !T.
func constFalse(e Expr) bool {
	switch e := e.(type) {
	case *Const:
		return !e.Value
	case *Not:
		c, ok := e.X.(*Const)
		return ok && c.Value
	}
	return false
}

// HasErrorLocation reports whether some location of the program is an
// error location (a failing assertion's or the target label's). Without
// one nothing can be reached, however the program runs: engines answer
// such a program at once, with a proof.
func (p *Program) HasErrorLocation() bool {
	for _, pr := range p.Procs {
		for _, l := range pr.Locations {
			if l.Error {
				return true
			}
		}
	}
	return false
}
