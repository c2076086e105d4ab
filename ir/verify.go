package ir

import (
	"errors"
	"fmt"

	"boolprog/syntax"
)

// Verify checks that a program is well formed, i.e. keeps every promise
// this package documents for a Program that engines rely on:
//
//   - procedure, location and edge ids equal their indexes; procedure names
//     are distinct; Main, Init and Threads name procedures;
//   - each procedure's Params is at most its number of locals; its Entry
//     and Exit are locations, marked as such and only they; the Exit and
//     every failure location have no outgoing edge; failure locations are
//     error locations; Labels lists exactly the labelled locations;
//   - every edge's endpoints exist and agree with the locations' Out and In
//     lists; every edge has an operation;
//   - every variable reference is in range (globals of the program, locals
//     of the procedure), primed only inside Assign.Constrain; no expression
//     is nil;
//   - an Assign has as many values as targets, distinct targets; a Call
//     names a procedure, has one argument per parameter and no or one
//     target per returned value, distinct; a Return leads to the Exit with
//     one value per returned value; a StartThread names a procedure (with
//     one argument per parameter) or a location.
//
// It returns nil or an error listing every problem found.
func Verify(p *Program) error {
	if p == nil {
		return errors.New("ir: no program")
	}
	v := &verifier{p: p}
	v.program()
	return errors.Join(v.errs...)
}

type verifier struct {
	p    *Program
	proc *Proc
	errs []error
}

// maxVerifyErrors bounds the report on a badly broken program: the first
// problems say what is wrong, thousands more would only repeat it.
const maxVerifyErrors = 50

func (v *verifier) errorf(format string, args ...any) {
	if len(v.errs) == maxVerifyErrors {
		v.errs = append(v.errs, errors.New("ir: too many problems; the rest are not listed"))
	}
	if len(v.errs) >= maxVerifyErrors {
		return
	}
	where := "ir"
	if v.proc != nil {
		where = "ir: " + v.proc.Name
	}
	v.errs = append(v.errs, fmt.Errorf(where+": "+format, args...))
}

func (v *verifier) procIndex(i int, what string, noneOK bool) bool {
	if noneOK && i == -1 || i >= 0 && i < len(v.p.Procs) {
		return true
	}
	v.errorf("%s procedure %d, which does not exist", what, i)
	return false
}

func (v *verifier) program() {
	p := v.p
	names := make(map[string]bool)
	for i, pr := range p.Procs {
		if pr == nil {
			v.errorf("procedure %d is nil", i)
			return
		}
		if pr.Index != i {
			v.errorf("procedure %s has index %d at position %d", pr.Name, pr.Index, i)
		}
		if names[pr.Name] {
			v.errorf("two procedures named %s", pr.Name)
		}
		names[pr.Name] = true
	}
	v.procIndex(p.Main, "Main is", true)
	v.procIndex(p.Init, "Init is", true)
	for _, t := range p.Threads {
		v.procIndex(t, "a thread is", false)
	}
	for _, pr := range p.Procs {
		v.proc = pr
		v.procedure()
	}
	v.proc = nil
}

func (v *verifier) procedure() {
	pr := v.proc
	n := len(pr.Locations)
	if pr.Params < 0 || pr.Params > len(pr.Locals) || pr.Returns < 0 {
		v.errorf("%d parameters, %d locals, %d returned values", pr.Params, len(pr.Locals), pr.Returns)
	}
	inRange := func(l int) bool { return l >= 0 && l < n }
	type labelAt struct {
		name string
		loc  int
	}
	mapped := make(map[labelAt]bool)
	for lab, ids := range pr.Labels {
		for _, id := range ids {
			mapped[labelAt{lab, id}] = true
		}
	}
	if !inRange(pr.Entry) || !inRange(pr.Exit) {
		v.errorf("entry %d or exit %d is not one of the %d locations", pr.Entry, pr.Exit, n)
	}
	for i, l := range pr.Locations {
		if l == nil {
			v.errorf("location %d is nil", i)
			return
		}
		if l.ID != i {
			v.errorf("location %d has id %d", i, l.ID)
		}
		if l.Entry != (i == pr.Entry) || l.Exit != (i == pr.Exit) {
			v.errorf("location %d: Entry %v, Exit %v, but the procedure's entry is %d and exit %d", i, l.Entry, l.Exit, pr.Entry, pr.Exit)
		}
		if (l.Exit || l.Kind == FailLoc) && len(l.Out) > 0 {
			v.errorf("location %d is an exit or failure location with outgoing edges", i)
		}
		if l.Kind == FailLoc && !l.Error {
			v.errorf("failure location %d is not an error location", i)
		}
		for _, lab := range l.Labels {
			if !mapped[labelAt{lab, i}] {
				v.errorf("location %d carries label %s, which Labels does not map to it", i, lab)
			}
		}
	}
	for lab, ids := range pr.Labels {
		for _, id := range ids {
			if !inRange(id) {
				v.errorf("label %s names location %d, which does not exist", lab, id)
			}
		}
	}
	for i, e := range pr.Edges {
		if e == nil {
			v.errorf("edge %d is nil", i)
			return
		}
		if e.ID != i {
			v.errorf("edge %d has id %d", i, e.ID)
		}
		if !inRange(e.From) || !inRange(e.To) {
			v.errorf("edge %d from %d to %d: no such location", i, e.From, e.To)
			continue
		}
		v.op(e)
	}
	// Every Out (In) entry is an edge leaving (entering) its location,
	// and every edge is listed exactly once: then each edge is in the Out
	// of its source and the In of its target. Counting keeps this linear
	// (an exit may have an In entry per statement).
	outs := make([]int, len(pr.Edges))
	ins := make([]int, len(pr.Edges))
	for i, l := range pr.Locations {
		for _, id := range l.Out {
			if id < 0 || id >= len(pr.Edges) || pr.Edges[id] == nil || pr.Edges[id].From != i {
				v.errorf("location %d lists edge %d among its Out, which does not leave it", i, id)
				continue
			}
			outs[id]++
		}
		for _, id := range l.In {
			if id < 0 || id >= len(pr.Edges) || pr.Edges[id] == nil || pr.Edges[id].To != i {
				v.errorf("location %d lists edge %d among its In, which does not enter it", i, id)
				continue
			}
			ins[id]++
		}
	}
	for i, e := range pr.Edges {
		if inRange(e.From) && inRange(e.To) && (outs[i] != 1 || ins[i] != 1) {
			v.errorf("edge %d is listed %d times in the Out of location %d and %d times in the In of location %d; once each is right", i, outs[i], e.From, ins[i], e.To)
		}
	}
	if pr.Enforce != nil {
		v.expr(pr.Enforce, false, "enforce")
	}
}

func isBinary(op syntax.Op) bool {
	switch op {
	case syntax.And, syntax.Or, syntax.Xor, syntax.Eq, syntax.Neq, syntax.Implies:
		return true
	}
	return false
}

// op checks the operation of edge e.
func (v *verifier) op(e *Edge) {
	at := fmt.Sprintf("edge %d", e.ID)
	switch op := e.Op.(type) {
	case nil:
		v.errorf("%s has no operation", at)
	case *Skip, *EndThread, *AtomicBegin, *AtomicEnd:
	case *Assume:
		v.expr(op.Cond, false, at)
	case *Assign:
		if len(op.Targets) != len(op.Values) {
			v.errorf("%s assigns %d values to %d targets", at, len(op.Values), len(op.Targets))
		}
		v.targets(op.Targets, at)
		v.exprs(op.Values, at)
		if op.Constrain != nil {
			v.expr(op.Constrain, true, at)
		}
	case *Call:
		if !v.procIndex(op.Proc, at+" calls", false) {
			return
		}
		callee := v.p.Procs[op.Proc]
		if len(op.Args) != callee.Params {
			v.errorf("%s calls %s with %d arguments; it has %d parameters", at, callee.Name, len(op.Args), callee.Params)
		}
		if len(op.Targets) != 0 && len(op.Targets) != callee.Returns {
			v.errorf("%s assigns %d results of %s, which returns %d", at, len(op.Targets), callee.Name, callee.Returns)
		}
		var refs []VarRef
		for _, t := range op.Targets {
			if !t.Discard {
				refs = append(refs, t.Var)
			}
		}
		v.targets(refs, at)
		v.exprs(op.Args, at)
		if op.Post != nil {
			v.expr(op.Post, false, at)
		}
	case *Return:
		if e.To != v.proc.Exit {
			v.errorf("%s returns but does not lead to the exit", at)
		}
		if len(op.Values) != v.proc.Returns {
			v.errorf("%s returns %d values; the procedure returns %d", at, len(op.Values), v.proc.Returns)
		}
		v.exprs(op.Values, at)
	case *StartThread:
		if op.Goto >= 0 {
			if op.Goto >= len(v.proc.Locations) {
				v.errorf("%s starts a thread at location %d, which does not exist", at, op.Goto)
			}
			return
		}
		if !v.procIndex(op.Proc, at+" starts", false) {
			return
		}
		if callee := v.p.Procs[op.Proc]; len(op.Args) != callee.Params {
			v.errorf("%s starts %s with %d arguments; it has %d parameters", at, callee.Name, len(op.Args), callee.Params)
		}
		v.exprs(op.Args, at)
	default:
		v.errorf("%s has an unknown operation %T", at, op)
	}
}

func (v *verifier) targets(refs []VarRef, at string) {
	seen := make(map[VarRef]bool, len(refs))
	for _, r := range refs {
		v.ref(r, at)
		if seen[r] {
			v.errorf("%s assigns %s twice", at, v.refName(r))
		}
		seen[r] = true
	}
}

func (v *verifier) ref(r VarRef, at string) bool {
	n := len(v.proc.Locals)
	if r.Global {
		n = len(v.p.Globals)
	}
	if r.Index < 0 || r.Index >= n {
		v.errorf("%s refers to %s, which does not exist", at, v.refName(r))
		return false
	}
	return true
}

func (v *verifier) refName(r VarRef) string {
	if r.Global {
		return fmt.Sprintf("global %d", r.Index)
	}
	return fmt.Sprintf("local %d", r.Index)
}

func (v *verifier) exprs(es []Expr, at string) {
	for _, e := range es {
		v.expr(e, false, at)
	}
}

// expr checks an expression iteratively (a transformation may build deep
// ones).
func (v *verifier) expr(e Expr, primesOK bool, at string) {
	stack := []Expr{e}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case nil:
			v.errorf("%s has a nil expression", at)
		case *Const, *Nondet:
		case *Var:
			if v.ref(e.VarRef, at) && e.Primed && !primesOK {
				v.errorf("%s has the primed %s outside a constrain", at, v.refName(e.VarRef))
			}
		case *Not:
			stack = append(stack, e.X)
		case *Bin:
			if !isBinary(e.Op) {
				v.errorf("%s has the binary operator %v", at, e.Op)
			}
			stack = append(stack, e.Y, e.X)
		case *Schoose:
			stack = append(stack, e.Neg, e.Pos)
		default:
			v.errorf("%s has an unknown expression %T", at, e)
		}
	}
}
