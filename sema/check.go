package sema

import (
	"fmt"

	"boolprog/syntax"
)

// Check checks a parsed file. errs are fatal diagnostics, warns are not; both
// sorted by position. info is never nil; it is complete only if errs is
// empty.
func Check(f *syntax.File) (info *Info, errs, warns syntax.ErrorList) {
	c := &checker{
		file: f,
		info: &Info{
			Uses:         make(map[*syntax.Ident]*Var),
			Defs:         make(map[*syntax.Ident]*Var),
			Calls:        make(map[*syntax.CallStmt]*ProcInfo),
			globalByName: make(map[string]*Var),
			procByName:   make(map[string]*ProcInfo),
		},
		used: make(map[*Var]bool),
	}
	c.declareGlobals()
	c.declareProcs()
	for _, p := range f.Procs {
		c.checkProc(p)
	}
	c.unusedGlobals()
	c.errs.Sort()
	c.warns.Sort()
	return c.info, c.errs, c.warns
}

type checker struct {
	file  *syntax.File
	info  *Info
	errs  syntax.ErrorList
	warns syntax.ErrorList
	used  map[*Var]bool // variables mentioned anywhere

	// State for the procedure being checked.
	proc     *ProcInfo
	reported map[string]bool // "kind name" already reported as undefined here
}

func (c *checker) errorf(pos syntax.Pos, format string, args ...any) {
	c.errs.Add(c.file.Name, pos, fmt.Sprintf(format, args...))
}

func (c *checker) warnf(pos syntax.Pos, format string, args ...any) {
	c.warns.Add(c.file.Name, pos, fmt.Sprintf(format, args...))
}

// once reports whether an "undefined" diagnostic for key has not been given
// in the current procedure yet, and records that it now has: the first
// occurrence is reported, the others would only repeat it.
func (c *checker) once(kind, name string) bool {
	k := kind + " " + name
	if c.reported[k] {
		return false
	}
	c.reported[k] = true
	return true
}

func (c *checker) declareGlobals() {
	for _, d := range c.file.Globals {
		for _, id := range d.Names {
			if id.Name == "_" {
				c.errorf(id.Pos(), "cannot declare _ as a variable")
				continue
			}
			if prev := c.info.globalByName[id.Name]; prev != nil {
				c.errorf(id.Pos(), "duplicate global variable %s (first declared at %s)", show(id), prev.Decl.Pos())
				continue
			}
			v := &Var{Name: id.Name, Global: true, Index: len(c.info.Globals), Decl: id}
			c.info.Globals = append(c.info.Globals, v)
			c.info.globalByName[id.Name] = v
			c.info.Defs[id] = v
		}
	}
}

func (c *checker) declareProcs() {
	threads := false
	for _, p := range c.file.Procs {
		if syntax.IsThreadName(p.Name.Name) {
			threads = true
		}
		if prev := c.info.procByName[p.Name.Name]; prev != nil {
			c.errorf(p.Name.Pos(), "duplicate procedure %s (first defined at %s)", show(p.Name), prev.Proc.Name.Pos())
			continue
		}
		pi := &ProcInfo{Proc: p, Name: p.Name.Name, Index: len(c.info.Procs), Returns: p.Returns}
		c.info.Procs = append(c.info.Procs, pi)
		c.info.procByName[pi.Name] = pi
	}
	c.info.Main = c.info.procByName["main"]
	// Getafix programs consist of init() and thread0(), thread1(), ...;
	// they are complete without main, so only insist on main elsewhere.
	if c.info.Main == nil && !threads {
		c.errorf(syntax.Pos{Offset: 0, Line: 1, Col: 1}, "no procedure main")
	}
}

func (c *checker) checkProc(p *syntax.Proc) {
	pi := c.info.procByName[p.Name.Name]
	if pi == nil || pi.Proc != p {
		// A duplicate definition: check its body all the same, against
		// a ProcInfo that is not recorded in Info.
		pi = &ProcInfo{Proc: p, Name: p.Name.Name, Index: -1, Returns: p.Returns}
	}
	c.proc = pi
	c.reported = make(map[string]bool)
	pi.byName = make(map[string]*Var)
	pi.Labels = make(map[string]syntax.Stmt)

	for _, id := range p.Params {
		c.declareLocal(pi, id, true)
	}
	nparams := len(pi.Vars)
	for _, d := range p.Locals {
		for _, id := range d.Names {
			c.declareLocal(pi, id, false)
		}
	}
	c.collect(pi, p.Body)
	pi.Params = pi.Vars[:nparams:nparams]
	pi.Locals = pi.Vars[nparams:]

	if p.Enforce != nil {
		c.expr(p.Enforce, nil)
	}
	c.stmts(p.Body)
	c.unreachable(pi)

	for _, v := range pi.Vars {
		if !c.used[v] {
			kind := "local variable"
			if v.Param {
				kind = "parameter"
			}
			c.warnf(v.Decl.Pos(), "%s %s declared and not used", kind, v)
		}
	}
	c.proc = nil
}

// declareLocal adds a parameter or local of pi.
func (c *checker) declareLocal(pi *ProcInfo, id *syntax.Ident, param bool) {
	if id.Name == "_" {
		c.errorf(id.Pos(), "cannot declare _ as a variable")
		return
	}
	if prev := pi.byName[id.Name]; prev != nil {
		c.errorf(id.Pos(), "duplicate variable %s in procedure %s (first declared at %s)", show(id), show(pi.Proc.Name), prev.Decl.Pos())
		return
	}
	v := &Var{Name: id.Name, Param: param, Index: len(pi.Vars), Decl: id, Proc: pi.Proc}
	pi.Vars = append(pi.Vars, v)
	pi.byName[id.Name] = v
	c.info.Defs[id] = v
}

// collect gathers, before any statement is checked, the procedure-wide
// names of the body: DeclStmt variables and labels, so that uses and gotos
// may come before the declaration or label in the text.
func (c *checker) collect(pi *ProcInfo, body []syntax.Stmt) {
	for _, s := range body {
		for _, l := range s.StmtLabels() {
			prev, ok := pi.Labels[l.Name]
			if ok && prev == s {
				// `L: L: s` says the same thing twice; SATABS accepts
				// it and c2bp produces it.
				continue
			}
			if ok {
				c.errorf(l.Pos(), "duplicate label %s in procedure %s (first defined at %s)", show(l), show(pi.Proc.Name), labelOf(prev, l.Name).Pos())
				continue
			}
			pi.Labels[l.Name] = s
		}
		switch s := s.(type) {
		case *syntax.DeclStmt:
			for _, id := range s.Decl.Names {
				c.declareLocal(pi, id, false)
			}
		case *syntax.IfStmt:
			c.collect(pi, s.Then)
			c.collect(pi, s.Else)
		case *syntax.WhileStmt:
			c.collect(pi, s.Body)
		}
	}
}

// labelOf returns the label identifier called name on s.
func labelOf(s syntax.Stmt, name string) *syntax.Ident {
	for _, l := range s.StmtLabels() {
		if l.Name == name {
			return l
		}
	}
	panic("sema: label not on its statement")
}

func (c *checker) stmts(list []syntax.Stmt) {
	for _, s := range list {
		c.stmt(s)
	}
}

func (c *checker) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.SkipStmt, *syntax.EndThreadStmt, *syntax.AtomicBeginStmt,
		*syntax.AtomicEndStmt, *syntax.DeclStmt, *syntax.SyncStmt:
		// Nothing to check (DeclStmt names were declared by collect; a
		// sync event is a name of its own namespace that nothing uses).
	case *syntax.EnforceStmt:
		c.expr(s.Cond, nil)
	case *syntax.ConstrainStmt:
		// Getafix's constrain step may change every variable in scope,
		// so every one of them may be primed.
		c.expr(s.Cond, c.inScope())
	case *syntax.PrintStmt:
		for _, e := range s.Args {
			c.expr(e, nil)
		}
	case *syntax.GotoStmt:
		c.gotoTargets(s.Targets)
	case *syntax.ReturnStmt:
		for _, e := range s.Results {
			c.expr(e, nil)
		}
		c.checkReturn(s)
	case *syntax.AssignStmt:
		c.assign(s)
	case *syntax.CallStmt:
		c.call(s, false)
	case *syntax.IfStmt:
		c.expr(s.Cond, nil)
		c.stmts(s.Then)
		c.stmts(s.Else)
	case *syntax.WhileStmt:
		c.expr(s.Cond, nil)
		c.stmts(s.Body)
	case *syntax.AssertStmt:
		c.expr(s.Cond, nil)
	case *syntax.AssumeStmt:
		c.expr(s.Cond, nil)
	case *syntax.AbortifStmt:
		c.expr(s.Cond, nil)
	case *syntax.DeadStmt:
		for _, id := range s.Vars {
			if id.Name == "_" {
				c.errorf(id.Pos(), "cannot use _ as a value")
				continue
			}
			c.resolve(id)
		}
	case *syntax.StartThreadStmt:
		switch t := s.Target.(type) {
		case *syntax.CallStmt:
			c.call(t, true)
		case *syntax.GotoStmt:
			c.gotoTargets(t.Targets)
		default:
			// The parser builds only these two; anything else is a bug
			// there, not in the program.
			panic(fmt.Sprintf("sema: start_thread of %T", s.Target))
		}
	default:
		panic(fmt.Sprintf("sema: unexpected statement %T", s))
	}
}

func (c *checker) gotoTargets(targets []*syntax.Ident) {
	for _, t := range targets {
		if _, ok := c.proc.Labels[t.Name]; !ok && c.once("label", t.Name) {
			c.errorf(t.Pos(), "undefined label %s in procedure %s", show(t), show(c.proc.Proc.Name))
		}
	}
}

func (c *checker) checkReturn(s *syntax.ReturnStmt) {
	n, want := len(s.Results), c.proc.Returns
	if n == 0 || n == want {
		return
	}
	if want == 0 {
		c.errorf(s.Keyword, "return of %s in void procedure %s", count(n, "value"), show(c.proc.Proc.Name))
		return
	}
	c.errorf(s.Keyword, "return of %s in procedure %s, which returns %s", count(n, "value"), show(c.proc.Proc.Name), count(want, "value"))
}

func (c *checker) assign(s *syntax.AssignStmt) {
	if len(s.Lhs) != len(s.Rhs) {
		c.errorf(s.Lhs[0].Pos(), "assignment mismatch: %s but %s", count(len(s.Lhs), "target"), count(len(s.Rhs), "value"))
	}
	for _, e := range s.Rhs {
		c.expr(e, nil)
	}
	targets := c.targets(s.Lhs)
	if s.Constrain != nil {
		c.expr(s.Constrain, targets)
	}
}

// inScope returns the set of variables visible in the current procedure.
func (c *checker) inScope() map[*Var]bool {
	set := make(map[*Var]bool, len(c.info.Globals)+len(c.proc.Vars))
	for _, v := range c.info.Globals {
		set[v] = true
	}
	for _, v := range c.proc.Vars {
		set[v] = true
	}
	return set
}

// targets resolves the assigned identifiers of an assignment or call and
// reports a variable assigned twice. It returns the set of assigned
// variables, which a constrain clause may prime.
func (c *checker) targets(lhs []*syntax.Ident) map[*Var]bool {
	set := make(map[*Var]bool, len(lhs))
	for _, id := range lhs {
		if id.Name == "_" {
			continue
		}
		v := c.resolve(id)
		if v == nil {
			continue
		}
		if set[v] {
			c.errorf(id.Pos(), "%s assigned twice in one statement", show(id))
			continue
		}
		set[v] = true
	}
	return set
}

func (c *checker) call(s *syntax.CallStmt, thread bool) {
	for _, e := range s.Args {
		c.expr(e, nil)
	}
	c.targets(s.Lhs)
	callee := c.info.procByName[s.Proc.Name]
	if callee == nil {
		if c.once("proc", s.Proc.Name) {
			c.errorf(s.Proc.Pos(), "undefined procedure %s", show(s.Proc))
		}
		return
	}
	c.info.Calls[s] = callee
	name := show(s.Proc)
	if n, want := len(s.Args), len(callee.Proc.Params); n != want {
		c.errorf(s.Proc.Pos(), "call of %s with %s; %s has %s", name, count(n, "argument"), name, count(want, "parameter"))
	}
	switch n := len(s.Lhs); {
	case n == 0:
		// A plain call discards whatever the procedure returns.
	case thread:
		c.errorf(s.Lhs[0].Pos(), "start_thread cannot assign the results of %s", name)
	case n != callee.Returns:
		returns := "no value"
		if callee.Returns > 0 {
			returns = count(callee.Returns, "value")
		}
		c.errorf(s.Lhs[0].Pos(), "%s returns %s, %d assigned", name, returns, n)
	}
}

// expr checks an expression. primed is the set of variables a primed
// reference may name: the targets of the assignment whose constrain clause
// e is; nil outside a constrain clause, where primes are not allowed.
func (c *checker) expr(e syntax.Expr, primed map[*Var]bool) {
	switch e := e.(type) {
	case *syntax.Const, *syntax.Nondet:
	case *syntax.VarRef:
		if e.Name.Name == "_" {
			c.errorf(e.Name.Pos(), "cannot use _ as a value")
			return
		}
		v := c.resolve(e.Name)
		if v == nil || !e.Primed {
			return
		}
		switch {
		case primed == nil:
			c.errorf(e.Pos(), "primed variable '%s outside a constrain clause", show(e.Name))
		case !primed[v]:
			// SATABS reads 'x of an unassigned x as the unchanged
			// x, and c2bp emits it (Constrain4 needs it to verify).
			c.warnf(e.Pos(), "primed variable '%s is not assigned by this assignment (it equals %s)", show(e.Name), show(e.Name))
		}
	case *syntax.Unary:
		c.expr(e.X, primed)
	case *syntax.Binary:
		c.expr(e.X, primed)
		c.expr(e.Y, primed)
	case *syntax.Schoose:
		c.expr(e.PosCond, primed)
		c.expr(e.NegCond, primed)
	default:
		panic(fmt.Sprintf("sema: unexpected expression %T", e))
	}
}

// resolve looks a variable use up in the current procedure's scope, records
// it in Info.Uses and marks the variable used; it reports an undeclared name
// (once per procedure) and returns nil for it.
func (c *checker) resolve(id *syntax.Ident) *Var {
	v := c.proc.byName[id.Name]
	if v == nil {
		v = c.info.globalByName[id.Name]
	}
	if v == nil {
		if c.once("var", id.Name) {
			c.errorf(id.Pos(), "undeclared variable %s", show(id))
		}
		return nil
	}
	c.info.Uses[id] = v
	c.used[v] = true
	return v
}

func (c *checker) unusedGlobals() {
	for _, v := range c.info.Globals {
		// Getafix's concurrent semantics read the globals `atomic`
		// and `super_atomic` implicitly (T forbids a context switch),
		// and its rules say to declare both first; declaring them
		// without mentioning them is the convention, not a slip.
		if !c.used[v] && v.Name != "atomic" && v.Name != "super_atomic" {
			c.warnf(v.Decl.Pos(), "global variable %s declared and not used", v)
		}
	}
}

// count formats "1 value", "2 values".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
