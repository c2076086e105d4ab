package sema

import (
	"fmt"
	"strings"

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
			Jumps:        make(map[*syntax.Ident]syntax.Stmt),
			globalByName: make(map[string]*Var),
			procByName:   make(map[string]*ProcInfo),
		},
		used: make(map[*Var]bool),
	}
	c.declareGlobals()
	c.declareProcs()
	c.globalInits()
	for _, p := range f.Procs {
		c.checkProc(p)
	}
	c.startCalled()
	c.unusedGlobals()
	c.errs.Sort()
	c.warns.Sort()
	c.info.Errors = len(c.errs)
	return c.info, c.errs, c.warns
}

type checker struct {
	file  *syntax.File
	info  *Info
	errs  syntax.ErrorList
	warns syntax.ErrorList
	used  map[*Var]bool // variables mentioned anywhere

	// threads is set if the file follows the Getafix thread convention.
	threads bool

	// State for the procedure being checked.
	proc     *ProcInfo
	reported map[string]bool // "kind name" already reported as undefined here
	jumped   map[string]bool // labels named by a goto or start_thread goto
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
	for _, p := range c.file.Procs {
		if syntax.IsThreadName(p.Name.Name) {
			c.threads = true
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
	if c.info.Main == nil && !c.threads {
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
	c.jumped = make(map[string]bool)
	pi.byName = make(map[string]*Var)
	pi.Labels = make(map[string][]syntax.Stmt)

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

	for _, d := range p.Locals {
		c.inits(d, localInit)
	}
	if p.Enforce != nil {
		c.expr(p.Enforce, nil)
	}
	c.stmts(p.Body)
	c.repeatedLabels(pi)
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
//
// A label may label several statements (see Labels); whether that is
// accepted depends on the gotos, so it is judged later (gotoTargets,
// repeatedLabels).
func (c *checker) collect(pi *ProcInfo, body []syntax.Stmt) {
	for _, s := range body {
		// An elsif chain is walked in this loop, not by recursion:
		// its length is not bounded by the parser's nesting limit.
		for s != nil {
			var next syntax.Stmt
			for _, l := range s.StmtLabels() {
				occ := pi.Labels[l.Name]
				if n := len(occ); n > 0 && occ[n-1] == s {
					// `L: L: s` says the same thing twice; SATABS
					// accepts it and c2bp produces it.
					continue
				}
				pi.Labels[l.Name] = append(occ, s)
			}
			switch s := s.(type) {
			case *syntax.DeclStmt:
				for _, id := range s.Decl.Names {
					c.declareLocal(pi, id, false)
				}
			case *syntax.IfStmt:
				c.collect(pi, s.Then)
				if e := Elsif(s); e != nil {
					next = e
				} else {
					c.collect(pi, s.Else)
				}
			case *syntax.WhileStmt:
				c.collect(pi, s.Body)
			}
			s = next
		}
	}
}

// Elsif returns the `elsif` branch of s, or nil if s has none: the single
// IfStmt with Elsif set that its Else holds. Walkers of statements use it
// to follow an elsif chain in a loop, since its length is unbounded.
func Elsif(s *syntax.IfStmt) *syntax.IfStmt {
	if len(s.Else) != 1 {
		return nil
	}
	if e, ok := s.Else[0].(*syntax.IfStmt); ok && e.Elsif {
		return e
	}
	return nil
}

// repeatedLabels warns about each label that labels several statements of
// pi (accepted because no goto names it; gotoTargets reported the others).
func (c *checker) repeatedLabels(pi *ProcInfo) {
	for name, occ := range pi.Labels {
		if len(occ) < 2 || c.jumped[name] {
			continue
		}
		first := labelOf(occ[0], name)
		for _, s := range occ[1:] {
			c.warnf(labelOf(s, name).Pos(), "label %s repeated in procedure %s (first at %s); no goto names it, so it marks every occurrence",
				show(first), show(pi.Proc.Name), first.Pos())
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

// initKind says where a declaration with initialisers stands.
type initKind int

const (
	globalInit initKind = iota // a global `decl`
	localInit                  // a `decl` line at the top of a body
	stmtInit                   // a `decl` statement among the others
)

// inits checks the initialisers of a declaration (see the package comment,
// "Initialisers", for what each kind may read).
func (c *checker) inits(d *syntax.Decl, kind initKind) {
	if d.Inits == nil {
		return
	}
	if len(d.Inits) != len(d.Names) {
		// The parser builds one per name; a hand-built tree may not.
		c.errorf(d.Assign, "declaration mismatch: %s but %s", count(len(d.Names), "variable"), count(len(d.Inits), "initialiser"))
	}
	for i, e := range d.Inits {
		name := "?"
		if i < len(d.Names) {
			name = show(d.Names[i])
		}
		if kind == globalInit {
			// There is no procedure scope here: report the first
			// variable instead of resolving it.
			if v := firstVarRef(e); v != nil {
				c.errorf(v.Pos(), "initialiser of global %s may use only constants and *, not the variable %s", name, show(v.Name))
			}
			continue
		}
		c.expr(e, nil)
		if kind != localInit {
			continue
		}
		syntax.Inspect(e, func(n syntax.Node) bool {
			if r, ok := n.(*syntax.VarRef); ok {
				if v := c.info.Uses[r.Name]; v != nil && !v.Global && !v.Param {
					c.errorf(r.Pos(), "initialiser of %s reads the local %s, which has no value on entry (only parameters and globals may be read)", name, show(r.Name))
				}
			}
			return true
		})
	}
}

// firstVarRef returns the first variable reference of e, or nil.
func firstVarRef(e syntax.Expr) *syntax.VarRef {
	var first *syntax.VarRef
	syntax.Inspect(e, func(n syntax.Node) bool {
		if r, ok := n.(*syntax.VarRef); ok && first == nil {
			first = r
		}
		return first == nil
	})
	return first
}

// globalInits checks the initialisers of the global declarations.
func (c *checker) globalInits() {
	for _, d := range c.file.Globals {
		c.inits(d, globalInit)
	}
}

// startCalled reports calls of the procedure at whose entry the global
// initialisers run: they would run again at each such call.
func (c *checker) startCalled() {
	var first *syntax.Decl
	for _, d := range c.file.Globals {
		if d.Inits != nil {
			first = d
			break
		}
	}
	if first == nil {
		return
	}
	start := c.info.Main
	if c.threads {
		start = c.info.procByName["init"]
	}
	if start == nil {
		return
	}
	for call, callee := range c.info.Calls {
		if callee == start {
			c.errorf(call.Proc.Pos(), "call of %s in a program with global initialisers (first at %s): they run once, at the entry of %s",
				show(call.Proc), first.Assign, show(start.Proc.Name))
		}
	}
}

func (c *checker) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.SkipStmt, *syntax.EndThreadStmt, *syntax.AtomicBeginStmt,
		*syntax.AtomicEndStmt, *syntax.SyncStmt:
		// Nothing to check (a sync event is a name of its own namespace
		// that nothing uses).
	case *syntax.DeclStmt:
		// The names were declared by collect.
		c.inits(s.Decl, stmtInit)
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
		for { // along the elsif chain, iteratively
			c.expr(s.Cond, nil)
			c.stmts(s.Then)
			e := Elsif(s)
			if e == nil {
				break
			}
			s = e
		}
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
		occ := c.proc.Labels[t.Name]
		switch {
		case len(occ) == 0:
			if c.once("label", t.Name) {
				c.errorf(t.Pos(), "undefined label %s in procedure %s", show(t), show(c.proc.Proc.Name))
			}
		case len(occ) > 1:
			c.jumped[t.Name] = true
			if c.once("repeated label", t.Name) {
				var at []string
				for _, s := range occ {
					at = append(at, labelOf(s, t.Name).Pos().String())
				}
				c.errorf(t.Pos(), "goto to label %s, which is repeated in procedure %s (at %s)", show(t), show(c.proc.Proc.Name), strings.Join(at, ", "))
			}
		default:
			c.jumped[t.Name] = true
			c.info.Jumps[t] = occ[0]
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
	targets := c.targets(s.Lhs, true)
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
// reports a variable assigned twice: with a warning if twiceOK (a parallel
// assignment, see the package comment), else as an error. It returns the
// set of assigned variables, which a constrain clause may prime.
func (c *checker) targets(lhs []*syntax.Ident, twiceOK bool) map[*Var]bool {
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
			if twiceOK {
				c.warnf(id.Pos(), "%s assigned twice in one statement: the step is blocked where the values differ", show(id))
			} else {
				c.errorf(id.Pos(), "%s assigned twice in one statement", show(id))
			}
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
	c.targets(s.Lhs, false)
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
		// Getafix's concurrent semantics read the global `atomic`
		// implicitly (T forbids a context switch), and Getafix's
		// experiment programs declare `super_atomic` first (its
		// translator's atomic flag is the first global); declaring them
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
