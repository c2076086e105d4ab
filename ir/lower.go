package ir

import (
	"fmt"
	"strings"

	"boolprog/sema"
	"boolprog/syntax"
)

// Options control lowering.
type Options struct {
	// Target is the error label: reaching a statement that carries it is
	// the error. Empty means DefaultTarget ("SLIC_ERROR").
	Target string
}

// asyncPrefix starts the labels that turn a call into a thread start
// (SATABS tests only the prefix).
const asyncPrefix = "ASYNC_"

// Lower builds the control-flow automata of a file from its semantic
// information: info must be what sema.Check returned for f with no errors
// (as go/ssa builds from a checked types.Info). Lower reports an error, never
// panics, if info is nil or does not describe f completely.
func Lower(f *syntax.File, info *sema.Info, opts Options) (*Program, error) {
	if info == nil {
		return nil, fmt.Errorf("ir.Lower %s: no sema.Info (check the file with sema.Check first)", f.Name)
	}
	target := opts.Target
	if target == "" {
		target = DefaultTarget
	}
	l := &lowerer{
		file:    f,
		prog:    &Program{File: f.Name, Target: target, Main: -1, Init: -1},
		globals: make(map[string]int),
		procs:   make(map[string]int),
	}
	for _, d := range f.Globals {
		for _, id := range d.Names {
			if _, dup := l.globals[id.Name]; dup {
				continue
			}
			l.globals[id.Name] = len(l.prog.Globals)
			l.prog.Globals = append(l.prog.Globals, id.Name)
		}
	}
	for i, p := range f.Procs {
		if _, dup := l.procs[p.Name.Name]; dup {
			l.errorf(p.Name.NamePos, "procedure %s redeclared", p.Name.Name)
			continue
		}
		l.procs[p.Name.Name] = i
		l.prog.Procs = append(l.prog.Procs, &Proc{
			Name:    p.Name.Name,
			Index:   i,
			Pos:     p.Pos(),
			Params:  len(p.Params),
			Returns: p.Returns,
			Labels:  make(map[string]int),
		})
		switch name := p.Name.Name; {
		case name == "main":
			l.prog.Main = i
		case name == "init":
			l.prog.Init = i
		case syntax.IsThreadName(name):
			l.prog.Threads = append(l.prog.Threads, i)
		}
	}
	if len(l.prog.Threads) > 0 {
		if l.prog.Main >= 0 {
			l.prog.Threads = append([]int{l.prog.Main}, l.prog.Threads...)
		}
		l.prog.Concurrent = true
	} else {
		l.prog.Init = -1 // an ordinary procedure that happens to be called init
	}
	if len(l.errs) == 0 {
		for i, p := range f.Procs {
			l.lowerProc(p, l.prog.Procs[i])
		}
	}
	if l.prog.Main < 0 && len(l.prog.Threads) == 0 {
		l.errorf(f.Pos(), "no procedure main")
	}
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	return l.prog, nil
}

type lowerer struct {
	file    *syntax.File
	prog    *Program
	globals map[string]int
	procs   map[string]int
	errs    syntax.ErrorList

	// per procedure
	src     *syntax.Proc
	proc    *Proc
	locals  map[string]int
	stmtLoc map[syntax.Stmt]int
	enforce Expr // the procedure's enforce condition, or nil
}

func (l *lowerer) errorf(pos syntax.Pos, format string, args ...any) {
	l.errs.Add(l.file.Name, pos, fmt.Sprintf(format, args...))
}

func (l *lowerer) addLocal(id *syntax.Ident) {
	if _, dup := l.locals[id.Name]; dup {
		return
	}
	l.locals[id.Name] = len(l.proc.Locals)
	l.proc.Locals = append(l.proc.Locals, id.Name)
}

func (l *lowerer) newLoc(kind LocKind, pos syntax.Pos, text string) int {
	id := len(l.proc.Locations)
	l.proc.Locations = append(l.proc.Locations, &Location{ID: id, Kind: kind, Pos: pos, Text: text})
	return id
}

func (l *lowerer) addEdge(from, to int, op Op, pos syntax.Pos, text string) {
	id := len(l.proc.Edges)
	l.proc.Edges = append(l.proc.Edges, &Edge{ID: id, From: from, To: to, Op: op, Pos: pos, Text: text})
	l.proc.Locations[from].Out = append(l.proc.Locations[from].Out, id)
	l.proc.Locations[to].In = append(l.proc.Locations[to].In, id)
}

func (l *lowerer) lowerProc(src *syntax.Proc, proc *Proc) {
	l.src, l.proc = src, proc
	l.locals = make(map[string]int)
	l.stmtLoc = make(map[syntax.Stmt]int)
	l.enforce = nil

	// Locals: parameters, decl lines, then DeclStmts anywhere in the body.
	for _, id := range src.Params {
		l.addLocal(id)
	}
	if len(l.locals) != len(src.Params) {
		l.errorf(src.Name.NamePos, "duplicate parameter names in %s", src.Name.Name)
	}
	for _, d := range src.Locals {
		for _, id := range d.Names {
			l.addLocal(id)
		}
	}
	for _, s := range src.Body {
		syntax.Inspect(s, func(n syntax.Node) bool {
			if d, ok := n.(*syntax.DeclStmt); ok {
				for _, id := range d.Decl.Names {
					l.addLocal(id)
				}
			}
			return true
		})
	}

	// One location per statement, in source order, so that location ids
	// follow the text.
	var enforceLoc = -1
	if src.Enforce != nil {
		enforceLoc = l.newLoc(StmtLoc, src.Enforce.Pos(), "enforce "+exprText(src.Enforce))
		l.enforce = l.expr(src.Enforce, false)
		proc.Enforce = l.enforce
	}
	l.makeLocs(src.Body)
	proc.Exit = l.newLoc(ExitLoc, src.End, "")
	proc.Locations[proc.Exit].Exit = true

	first := l.first(src.Body, proc.Exit)
	proc.Entry = first
	if enforceLoc >= 0 {
		proc.Entry = enforceLoc
		l.addEdge(enforceLoc, first, &Assume{Cond: l.enforce}, src.Enforce.Pos(), proc.Locations[enforceLoc].Text)
	}
	proc.Locations[proc.Entry].Entry = true
	l.lowerSeq(src.Body, proc.Exit)
}

// makeLocs creates the start locations of the statements, recursively, and
// records their labels.
func (l *lowerer) makeLocs(stmts []syntax.Stmt) {
	for _, s := range stmts {
		id := l.newLoc(StmtLoc, syntax.StmtPos(s), stmtText(s))
		l.stmtLoc[s] = id
		loc := l.proc.Locations[id]
		for _, lab := range s.StmtLabels() {
			if prev, dup := l.proc.Labels[lab.Name]; dup {
				if prev != id { // the same label repeated on one statement is fine
					l.errorf(lab.NamePos, "label %s redefined", lab.Name)
				}
				continue
			}
			l.proc.Labels[lab.Name] = id
			loc.Labels = append(loc.Labels, lab.Name)
			if lab.Name == l.prog.Target {
				loc.Error = true
			}
		}
		switch s := s.(type) {
		case *syntax.IfStmt:
			l.makeLocs(s.Then)
			l.makeLocs(s.Else)
		case *syntax.WhileStmt:
			l.makeLocs(s.Body)
		}
	}
}

// first returns the location of the first statement of stmts, or next if
// there is none.
func (l *lowerer) first(stmts []syntax.Stmt, next int) int {
	if len(stmts) == 0 {
		return next
	}
	return l.stmtLoc[stmts[0]]
}

// lowerSeq adds the edges of a statement sequence whose lexical successor
// is next.
//
// An `enforce e;` among the statements holds from there to the end of the
// sequence (SATABS's meaning): it is conjoined to the procedure's enforce
// condition while the rest of the sequence is lowered. That is lexical, as
// in SATABS: a goto into the rest of the block does not check e first.
func (l *lowerer) lowerSeq(stmts []syntax.Stmt, next int) {
	saved := l.enforce
	defer func() { l.enforce = saved }()
	for i, s := range stmts {
		succ := next
		if i+1 < len(stmts) {
			succ = l.stmtLoc[stmts[i+1]]
		}
		l.lowerStmt(s, succ)
		if e, ok := s.(*syntax.EnforceStmt); ok {
			c := l.expr(e.Cond, false)
			if l.enforce != nil {
				c = &Bin{Op: syntax.And, X: l.enforce, Y: c}
			}
			l.enforce = c
		}
	}
}

func (l *lowerer) lowerStmt(s syntax.Stmt, next int) {
	from := l.stmtLoc[s]
	pos := syntax.StmtPos(s)
	text := l.proc.Locations[from].Text
	edge := func(to int, op Op) { l.addEdge(from, to, op, pos, text) }

	switch s := s.(type) {
	case *syntax.SkipStmt, *syntax.PrintStmt:
		if p, ok := s.(*syntax.PrintStmt); ok {
			for _, a := range p.Args { // resolve for diagnostics only
				l.expr(a, false)
			}
		}
		edge(next, &Skip{})
	case *syntax.GotoStmt:
		for _, t := range s.Targets {
			if to, ok := l.label(t); ok {
				edge(to, &Skip{})
			}
		}
	case *syntax.ReturnStmt:
		var vals []Expr
		switch {
		case len(s.Results) == 0:
			for range l.proc.Returns {
				vals = append(vals, &Nondet{})
			}
		case len(s.Results) != l.proc.Returns:
			l.errorf(pos, "%s returns %d values, not %d", l.proc.Name, l.proc.Returns, len(s.Results))
		default:
			vals = l.exprs(s.Results)
		}
		edge(l.proc.Exit, &Return{Values: vals})
	case *syntax.AssignStmt:
		if len(s.Lhs) != len(s.Rhs) {
			l.errorf(pos, "%d variables but %d values", len(s.Lhs), len(s.Rhs))
		}
		targets := l.targets(s.Lhs)
		var c Expr
		if s.Constrain != nil {
			c = l.expr(s.Constrain, true)
		}
		edge(next, l.assign(targets, l.exprs(s.Rhs), c))
	case *syntax.DeadStmt:
		edge(next, l.havoc(l.targets(s.Vars)))
	case *syntax.EnforceStmt:
		edge(next, &Assume{Cond: l.expr(s.Cond, false)})
	case *syntax.ConstrainStmt:
		// Every variable in scope may change (see syntax.ConstrainStmt).
		var all []VarRef
		for i := range l.prog.Globals {
			all = append(all, VarRef{Global: true, Index: i})
		}
		for i := range l.proc.Locals {
			all = append(all, VarRef{Index: i})
		}
		vals := make([]Expr, len(all))
		for i := range vals {
			vals[i] = &Nondet{}
		}
		edge(next, l.assign(all, vals, l.expr(s.Cond, true)))
	case *syntax.SyncStmt:
		edge(next, &Skip{})
	case *syntax.DeclStmt:
		edge(next, l.havoc(l.targets(s.Decl.Names)))
	case *syntax.CallStmt:
		callee, ok := l.callee(s.Proc, len(s.Args))
		if !ok {
			return
		}
		if l.isAsync(s) {
			if len(s.Lhs) > 0 {
				l.errorf(pos, "a thread start cannot assign results")
			}
			l.prog.Concurrent = true
			edge(next, &StartThread{Proc: callee, Args: l.exprs(s.Args), Goto: -1})
			return
		}
		var targets []Target
		if len(s.Lhs) > 0 {
			if n := l.prog.Procs[callee].Returns; len(s.Lhs) != n {
				l.errorf(pos, "%s returns %d values, not %d", s.Proc.Name, n, len(s.Lhs))
			}
			for _, id := range s.Lhs {
				if id.Name == "_" {
					targets = append(targets, Target{Discard: true})
				} else {
					targets = append(targets, Target{Var: l.resolve(id)})
				}
			}
		}
		edge(next, &Call{Proc: callee, Args: l.exprs(s.Args), Targets: targets, Post: l.enforce})
	case *syntax.IfStmt:
		c := l.expr(s.Cond, false)
		edge(l.first(s.Then, next), &Assume{Cond: c})
		edge(l.first(s.Else, next), &Assume{Cond: &Not{X: c}})
		l.lowerSeq(s.Then, next)
		l.lowerSeq(s.Else, next)
	case *syntax.WhileStmt:
		c := l.expr(s.Cond, false)
		edge(l.first(s.Body, from), &Assume{Cond: c})
		edge(next, &Assume{Cond: &Not{X: c}})
		l.lowerSeq(s.Body, from)
	case *syntax.AssertStmt:
		c := l.expr(s.Cond, false)
		fail := l.newLoc(FailLoc, pos, "")
		l.proc.Locations[fail].Error = true
		edge(next, &Assume{Cond: c})
		edge(fail, &Assume{Cond: &Not{X: c}})
	case *syntax.AssumeStmt:
		edge(next, &Assume{Cond: l.expr(s.Cond, false)})
	case *syntax.AbortifStmt:
		edge(next, &Assume{Cond: &Not{X: l.expr(s.Cond, false)}})
	case *syntax.StartThreadStmt:
		l.prog.Concurrent = true
		switch t := s.Target.(type) {
		case *syntax.CallStmt:
			if callee, ok := l.callee(t.Proc, len(t.Args)); ok {
				edge(next, &StartThread{Proc: callee, Args: l.exprs(t.Args), Goto: -1})
			}
		case *syntax.GotoStmt:
			if len(t.Targets) != 1 {
				l.errorf(pos, "start_thread goto needs exactly one label")
				return
			}
			if to, ok := l.label(t.Targets[0]); ok {
				edge(next, &StartThread{Proc: -1, Goto: to})
			}
		default:
			l.errorf(pos, "bad start_thread")
		}
	case *syntax.EndThreadStmt:
		l.prog.Concurrent = true
		edge(next, &EndThread{})
	case *syntax.AtomicBeginStmt:
		l.prog.Concurrent = true
		edge(next, &AtomicBegin{})
	case *syntax.AtomicEndStmt:
		l.prog.Concurrent = true
		edge(next, &AtomicEnd{})
	default:
		l.errorf(pos, "cannot lower %T", s)
	}
}

// isAsync reports whether a call carries an ASYNC_ label.
func (l *lowerer) isAsync(s *syntax.CallStmt) bool {
	for _, lab := range s.Labels.Labels {
		if strings.HasPrefix(lab.Name, asyncPrefix) {
			return true
		}
	}
	return false
}

// assign builds an Assign with the procedure's enforce folded in.
func (l *lowerer) assign(targets []VarRef, values []Expr, constrain Expr) *Assign {
	if l.enforce != nil {
		pe := Prime(l.enforce)
		if constrain == nil {
			constrain = pe
		} else {
			constrain = &Bin{Op: syntax.And, X: constrain, Y: pe}
		}
	}
	return &Assign{Targets: targets, Values: values, Constrain: constrain}
}

func (l *lowerer) havoc(targets []VarRef) *Assign {
	vals := make([]Expr, len(targets))
	for i := range vals {
		vals[i] = &Nondet{}
	}
	return l.assign(targets, vals, nil)
}

func (l *lowerer) label(id *syntax.Ident) (int, bool) {
	to, ok := l.proc.Labels[id.Name]
	if !ok {
		l.errorf(id.NamePos, "label %s not defined in %s", id.Name, l.proc.Name)
	}
	return to, ok
}

func (l *lowerer) callee(id *syntax.Ident, nargs int) (int, bool) {
	i, ok := l.procs[id.Name]
	if !ok {
		l.errorf(id.NamePos, "procedure %s not declared", id.Name)
		return 0, false
	}
	if n := l.prog.Procs[i].Params; n != nargs {
		l.errorf(id.NamePos, "%s takes %d arguments, not %d", id.Name, n, nargs)
		return 0, false
	}
	return i, true
}

func (l *lowerer) resolve(id *syntax.Ident) VarRef {
	if i, ok := l.locals[id.Name]; ok {
		return VarRef{Index: i}
	}
	if i, ok := l.globals[id.Name]; ok {
		return VarRef{Global: true, Index: i}
	}
	l.errorf(id.NamePos, "variable %s not declared", id.Name)
	return VarRef{Global: true}
}

func (l *lowerer) targets(ids []*syntax.Ident) []VarRef {
	var refs []VarRef
	seen := make(map[VarRef]bool)
	for _, id := range ids {
		r := l.resolve(id)
		if seen[r] {
			l.errorf(id.NamePos, "variable %s assigned twice", id.Name)
			continue
		}
		seen[r] = true
		refs = append(refs, r)
	}
	return refs
}

func (l *lowerer) exprs(xs []syntax.Expr) []Expr {
	es := make([]Expr, len(xs))
	for i, x := range xs {
		es[i] = l.expr(x, false)
	}
	return es
}

// expr resolves an expression; primes are allowed only in constrain.
func (l *lowerer) expr(x syntax.Expr, primesOK bool) Expr {
	switch x := x.(type) {
	case *syntax.Const:
		return &Const{Value: x.Value}
	case *syntax.Nondet:
		return &Nondet{}
	case *syntax.VarRef:
		if x.Primed && !primesOK {
			l.errorf(x.Pos(), "primed variable '%s outside constrain", x.Name.Name)
		}
		return &Var{VarRef: l.resolve(x.Name), Primed: x.Primed}
	case *syntax.Unary:
		return &Not{X: l.expr(x.X, primesOK)}
	case *syntax.Binary:
		return &Bin{Op: x.Op, X: l.expr(x.X, primesOK), Y: l.expr(x.Y, primesOK)}
	case *syntax.Schoose:
		return &Schoose{Pos: l.expr(x.PosCond, primesOK), Neg: l.expr(x.NegCond, primesOK)}
	}
	l.errorf(x.Pos(), "cannot lower expression %T", x)
	return False
}

// ---------------------------------------------------------------------------
// Statement text

// stmtText returns the canonical text of a statement (syntax.StmtString)
// without labels and without the final semicolon; for if, elsif and while
// it is the header, e.g. "if (a1)".
func stmtText(s syntax.Stmt) string {
	t := strings.TrimSuffix(syntax.StmtString(s), ";")
	switch s.(type) {
	case *syntax.IfStmt:
		t = strings.TrimSuffix(t, " then")
	case *syntax.WhileStmt:
		t = strings.TrimSuffix(t, " do")
	}
	return t
}

// exprText returns the canonical text of an expression.
func exprText(x syntax.Expr) string { return syntax.ExprString(x) }
