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
// (as go/ssa builds from a checked types.Info). Lower resolves no name
// itself; every variable, procedure and label comes from info. It reports
// an error, and never panics, if info is nil, records errors, or does not
// describe f.
func Lower(f *syntax.File, info *sema.Info, opts Options) (*Program, error) {
	if info == nil {
		return nil, fmt.Errorf("ir.Lower %s: no sema.Info (check the file with sema.Check first)", f.Name)
	}
	l := &lowerer{
		file: f,
		info: info,
		b:    NewBuilder(f.Name, opts.Target),
	}
	if info.Errors > 0 {
		return nil, fmt.Errorf("ir.Lower %s: sema reported %d errors; only a file without errors can be lowered", f.Name, info.Errors)
	}
	return l.lower()
}

type lowerer struct {
	file *syntax.File
	info *sema.Info
	b    *Builder
	errs syntax.ErrorList // resolutions missing from info

	// Initial state: the globals with an initialiser and their values,
	// and the text and position of the step that assigns them.
	initTargets []VarRef
	initValues  []Expr
	initText    string
	initPos     syntax.Pos
	start       int // the procedure whose entry runs the global initialisers, or -1

	// per procedure
	pi      *sema.ProcInfo
	pb      *ProcBuilder
	stmtLoc map[syntax.Stmt]int
	enforce Expr // the procedure's enforce condition (and enforce statements in force), or nil
}

func (l *lowerer) errorf(pos syntax.Pos, format string, args ...any) {
	l.errs.Add(l.file.Name, pos, fmt.Sprintf(format, args...))
}

func (l *lowerer) lower() (*Program, error) {
	info, b := l.info, l.b
	inFile := make(map[*syntax.Proc]bool, len(l.file.Procs))
	for _, p := range l.file.Procs {
		inFile[p] = true
	}
	for _, pi := range info.Procs {
		if !inFile[pi.Proc] {
			return nil, fmt.Errorf("ir.Lower %s: sema.Info describes another syntax tree (procedure %s)", l.file.Name, pi.Name)
		}
	}
	for _, v := range info.Globals {
		b.Global(v.Name)
	}
	var threads []int
	initProc, mainProc := -1, -1
	for _, pi := range info.Procs {
		params := make([]string, len(pi.Params))
		for i, v := range pi.Params {
			params[i] = v.Name
		}
		pb := b.Proc(pi.Name, pi.Proc.Pos(), params, pi.Returns)
		for _, v := range pi.Locals {
			pb.Local(v.Name)
		}
		switch name := pi.Name; {
		case pi == info.Main:
			mainProc = pb.Index()
		case name == "init":
			initProc = pb.Index()
		case syntax.IsThreadName(name):
			threads = append(threads, pb.Index())
			if len(threads) == 1 {
				b.SetConcurrent(pi.Proc.Name.Pos(), fmt.Sprintf("procedure %s (Getafix thread convention)", pi.Name))
			}
		}
	}
	b.SetMain(mainProc)
	l.start = mainProc
	if len(threads) > 0 {
		if mainProc >= 0 {
			threads = append([]int{mainProc}, threads...)
		}
		l.start = initProc
	} else {
		initProc = -1 // an ordinary procedure that happens to be called init
	}
	if mainProc < 0 && len(threads) == 0 {
		l.errorf(l.file.Pos(), "no procedure main")
	}

	l.globalInits()
	if l.initTargets != nil && l.start < 0 {
		if len(threads) == 0 {
			return nil, l.errs.Err()
		}
		// A Getafix program without init: the initialisers become
		// one, which runs first.
		initProc = l.syntheticInit()
		l.start = initProc
	}
	if len(threads) > 0 {
		b.SetThreads(initProc, threads)
	}
	for i, pi := range info.Procs {
		l.lowerProc(pi, b.prog.Procs[i])
	}
	if err := l.errs.Err(); err != nil {
		return nil, err
	}
	return b.Build()
}

// globalInits lowers the initialisers of the global declarations into one
// parallel assignment (see the package comment, "Initialisers").
func (l *lowerer) globalInits() {
	var texts []string
	for _, d := range l.file.Globals {
		if d.Inits == nil {
			continue
		}
		if !l.initPos.IsValid() {
			l.initPos = d.DeclPos
		}
		texts = append(texts, declInitText(d))
		for i, id := range d.Names {
			v := l.info.Defs[id]
			if v == nil || i >= len(d.Inits) {
				l.errorf(id.Pos(), "ir: global %s has no declaration or initialiser in sema.Info", id.Name)
				continue
			}
			l.initTargets = append(l.initTargets, VarRef{Global: true, Index: v.Index})
			l.initValues = append(l.initValues, l.expr(d.Inits[i]))
		}
	}
	l.initText = strings.Join(texts, "; ")
}

// syntheticInit adds a procedure init that only runs the global
// initialisers, for a program in the Getafix convention that has none.
func (l *lowerer) syntheticInit() int {
	pb := l.b.Proc("init", l.initPos, nil, 0)
	from := pb.Loc(Location{Kind: StmtLoc, Pos: l.initPos, Text: l.initText, Origin: locOrigin(pb.Index(), 0)})
	exit := pb.Loc(Location{Kind: ExitLoc, Pos: l.initPos, Origin: locOrigin(pb.Index(), 1)})
	pb.Edge(Edge{From: from, To: exit, Op: &Assign{Targets: l.initTargets, Values: l.initValues},
		Pos: l.initPos, Text: l.initText, Origin: edgeOrigin(pb.Index(), 0)})
	pb.SetEntry(from)
	pb.SetExit(exit)
	return pb.Index()
}

func locOrigin(proc, loc int) Origin {
	return Origin{Proc: proc, Loc: loc, Edge: -1, Thread: -1, Round: -1}
}

func edgeOrigin(proc, edge int) Origin {
	return Origin{Proc: proc, Loc: -1, Edge: edge, Thread: -1, Round: -1}
}

func (l *lowerer) newLoc(kind LocKind, pos syntax.Pos, text string, labels []string) int {
	id := len(l.pb.p.Locations)
	return l.pb.Loc(Location{Kind: kind, Pos: pos, Text: text, Labels: labels, Origin: locOrigin(l.pb.Index(), id)})
}

func (l *lowerer) addEdge(from, to int, op Op, pos syntax.Pos, text string) {
	id := len(l.pb.p.Edges)
	l.pb.Edge(Edge{From: from, To: to, Op: op, Pos: pos, Text: text, Origin: edgeOrigin(l.pb.Index(), id)})
}

func (l *lowerer) lowerProc(pi *sema.ProcInfo, proc *Proc) {
	src := pi.Proc
	l.pi = pi
	l.pb = &ProcBuilder{b: l.b, p: proc}
	l.stmtLoc = make(map[syntax.Stmt]int)
	l.enforce = nil

	// One location per statement, in source order, so that location ids
	// follow the text; the steps that run on entry come first.
	globalLoc, localLoc, enforceLoc := -1, -1, -1
	if proc.Index == l.start && l.initTargets != nil {
		globalLoc = l.newLoc(StmtLoc, l.initPos, l.initText, nil)
	}
	var localTargets []VarRef
	var localValues []Expr
	var localTexts []string
	var localPos syntax.Pos
	for _, d := range src.Locals {
		if d.Inits == nil {
			continue
		}
		if !localPos.IsValid() {
			localPos = d.DeclPos
		}
		localTexts = append(localTexts, declInitText(d))
		for i, id := range d.Names {
			if i < len(d.Inits) {
				localTargets = append(localTargets, l.def(id))
				localValues = append(localValues, l.expr(d.Inits[i]))
			}
		}
	}
	localText := strings.Join(localTexts, "; ")
	if localTargets != nil {
		localLoc = l.newLoc(StmtLoc, localPos, localText, nil)
	}
	if src.Enforce != nil {
		enforceLoc = l.newLoc(StmtLoc, src.Enforce.Pos(), "enforce "+exprText(src.Enforce), nil)
		l.enforce = l.expr(src.Enforce)
		l.pb.SetEnforce(l.enforce)
	}
	l.makeLocs(src.Body)
	exit := l.newLoc(ExitLoc, src.End, "", nil)
	l.pb.SetExit(exit)

	// The entry steps, chained: global initialisers, local initialisers,
	// enforce, then the body.
	type step struct {
		loc  int
		op   Op
		pos  syntax.Pos
		text string
	}
	var steps []step
	if globalLoc >= 0 {
		steps = append(steps, step{globalLoc, l.assign(l.initTargets, l.initValues, nil), l.initPos, l.initText})
	}
	if localLoc >= 0 {
		steps = append(steps, step{localLoc, l.assign(localTargets, localValues, nil), localPos, localText})
	}
	if enforceLoc >= 0 {
		steps = append(steps, step{enforceLoc, &Assume{Cond: l.enforce}, src.Enforce.Pos(), proc.Locations[enforceLoc].Text})
	}
	body := l.first(src.Body, exit)
	l.pb.SetEntry(body)
	for i, s := range steps {
		to := body
		if i+1 < len(steps) {
			to = steps[i+1].loc
		}
		l.addEdge(s.loc, to, s.op, s.pos, s.text)
		if i == 0 {
			l.pb.SetEntry(s.loc)
		}
	}
	l.lowerSeq(src.Body, exit)
}

// makeLocs creates the start locations of the statements, recursively
// (iteratively along elsif chains), with their labels.
func (l *lowerer) makeLocs(stmts []syntax.Stmt) {
	for _, s := range stmts {
		for s != nil {
			var labels []string
			for _, lab := range s.StmtLabels() {
				if !containsString(labels, lab.Name) { // `L: L: s` labels s once
					labels = append(labels, lab.Name)
				}
			}
			l.stmtLoc[s] = l.newLoc(StmtLoc, syntax.StmtPos(s), stmtText(s), labels)
			var next syntax.Stmt
			switch s := s.(type) {
			case *syntax.IfStmt:
				l.makeLocs(s.Then)
				if e := sema.Elsif(s); e != nil {
					next = e
				} else {
					l.makeLocs(s.Else)
				}
			case *syntax.WhileStmt:
				l.makeLocs(s.Body)
			}
			s = next
		}
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
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
			c := l.expr(e.Cond)
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
	text := l.pb.p.Locations[from].Text
	edge := func(to int, op Op) { l.addEdge(from, to, op, pos, text) }

	switch s := s.(type) {
	case *syntax.SkipStmt, *syntax.PrintStmt, *syntax.SyncStmt:
		edge(next, &Skip{})
	case *syntax.GotoStmt:
		for _, t := range s.Targets {
			if to, ok := l.label(t); ok {
				edge(to, &Skip{})
			}
		}
	case *syntax.ReturnStmt:
		var vals []Expr
		if len(s.Results) == 0 {
			for range l.pi.Returns {
				vals = append(vals, &Nondet{})
			}
		} else {
			vals = l.exprs(s.Results)
		}
		edge(l.pb.p.Exit, &Return{Values: vals})
	case *syntax.AssignStmt:
		edge(next, l.assignStmt(s))
	case *syntax.DeadStmt:
		edge(next, l.havoc(l.uses(s.Vars)))
	case *syntax.EnforceStmt:
		edge(next, &Assume{Cond: l.expr(s.Cond)})
	case *syntax.ConstrainStmt:
		// Every variable in scope may change (see syntax.ConstrainStmt).
		var all []VarRef
		for i := range l.b.prog.Globals {
			all = append(all, VarRef{Global: true, Index: i})
		}
		for i := range l.pb.p.Locals {
			all = append(all, VarRef{Index: i})
		}
		vals := make([]Expr, len(all))
		for i := range vals {
			vals[i] = &Nondet{}
		}
		edge(next, l.assign(all, vals, l.expr(s.Cond)))
	case *syntax.DeclStmt:
		// Executing a declaration forgets the values, or assigns the
		// initialisers.
		var targets []VarRef
		var vals []Expr
		for i, id := range s.Decl.Names {
			targets = append(targets, l.def(id))
			if i < len(s.Decl.Inits) {
				vals = append(vals, l.expr(s.Decl.Inits[i]))
			} else {
				vals = append(vals, &Nondet{})
			}
		}
		edge(next, l.assign(targets, vals, nil))
	case *syntax.CallStmt:
		callee, ok := l.callee(s)
		if !ok {
			return
		}
		if lab := asyncLabel(s); lab != nil {
			if len(s.Lhs) > 0 {
				// sema leaves ASYNC_ labels to the lowering.
				l.errorf(pos, "a thread start (label %s) cannot assign results", lab.Name)
				return
			}
			l.b.SetConcurrent(lab.Pos(), lab.Name+": label (a thread start)")
			edge(next, &StartThread{Proc: callee, Args: l.exprs(s.Args), Goto: -1})
			return
		}
		var targets []Target
		for _, id := range s.Lhs {
			if id.Name == "_" {
				targets = append(targets, Target{Discard: true})
			} else {
				targets = append(targets, Target{Var: l.use(id)})
			}
		}
		edge(next, &Call{Proc: callee, Args: l.exprs(s.Args), Targets: targets, Post: l.enforce})
	case *syntax.IfStmt:
		for { // along the elsif chain, iteratively
			c := l.expr(s.Cond)
			edge(l.first(s.Then, next), &Assume{Cond: c})
			edge(l.first(s.Else, next), &Assume{Cond: &Not{X: c}})
			l.lowerSeq(s.Then, next)
			e := sema.Elsif(s)
			if e == nil {
				break
			}
			s = e
			from, pos = l.stmtLoc[s], syntax.StmtPos(s)
			text = l.pb.p.Locations[from].Text
		}
		l.lowerSeq(s.Else, next)
	case *syntax.WhileStmt:
		c := l.expr(s.Cond)
		edge(l.first(s.Body, from), &Assume{Cond: c})
		edge(next, &Assume{Cond: &Not{X: c}})
		l.lowerSeq(s.Body, from)
	case *syntax.AssertStmt:
		c := l.expr(s.Cond)
		fail := l.newLoc(FailLoc, pos, "", nil)
		edge(next, &Assume{Cond: c})
		edge(fail, &Assume{Cond: &Not{X: c}})
	case *syntax.AssumeStmt:
		edge(next, &Assume{Cond: l.expr(s.Cond)})
	case *syntax.AbortifStmt:
		edge(next, &Assume{Cond: &Not{X: l.expr(s.Cond)}})
	case *syntax.StartThreadStmt:
		l.b.SetConcurrent(s.Keyword, "start_thread")
		switch t := s.Target.(type) {
		case *syntax.CallStmt:
			if callee, ok := l.callee(t); ok {
				edge(next, &StartThread{Proc: callee, Args: l.exprs(t.Args), Goto: -1})
			}
		case *syntax.GotoStmt:
			if len(t.Targets) != 1 {
				l.errorf(pos, "ir: start_thread goto needs exactly one label")
				return
			}
			if to, ok := l.label(t.Targets[0]); ok {
				edge(next, &StartThread{Proc: -1, Goto: to})
			}
		default:
			l.errorf(pos, "ir: bad start_thread")
		}
	case *syntax.EndThreadStmt:
		l.b.SetConcurrent(s.Keyword, "end_thread")
		edge(next, &EndThread{})
	case *syntax.AtomicBeginStmt:
		l.b.SetConcurrent(s.Keyword, "atomic_begin")
		edge(next, &AtomicBegin{})
	case *syntax.AtomicEndStmt:
		l.b.SetConcurrent(s.Keyword, "atomic_end")
		edge(next, &AtomicEnd{})
	default:
		l.errorf(pos, "ir: cannot lower %T", s)
	}
}

// assignStmt lowers a parallel assignment. A `_` target discards its value
// (which has no effect to keep; with nothing else to do the step is a
// Skip). A variable that is a target more than once
// (`a, a := e1, e2`, accepted by sema with a warning) is assigned its first
// value, and the constraint 'a = e conjoined for each other value e: the
// step exists only where the values can agree, as Getafix's translator
// reads it.
func (l *lowerer) assignStmt(s *syntax.AssignStmt) Op {
	var targets []VarRef
	var vals []Expr
	var c Expr
	if s.Constrain != nil {
		c = l.expr(s.Constrain)
	}
	seen := make(map[VarRef]bool, len(s.Lhs))
	for i, id := range s.Lhs {
		var val Expr
		if i < len(s.Rhs) {
			val = l.expr(s.Rhs[i])
		}
		if id.Name == "_" {
			continue
		}
		r := l.use(id)
		if !seen[r] {
			seen[r] = true
			targets = append(targets, r)
			vals = append(vals, val)
			continue
		}
		if val == nil {
			continue // a count mismatch, which sema reported
		}
		eq := &Bin{Op: syntax.Eq, X: &Var{VarRef: r, Primed: true}, Y: val}
		if c == nil {
			c = eq
		} else {
			c = &Bin{Op: syntax.And, X: c, Y: eq}
		}
	}
	for i := len(s.Lhs); i < len(s.Rhs); i++ {
		vals = append(vals, l.expr(s.Rhs[i])) // a count mismatch: Verify reports it
	}
	if len(targets) == 0 && len(vals) == 0 && c == nil {
		return &Skip{}
	}
	return l.assign(targets, vals, c)
}

// asyncLabel returns the first ASYNC_ label of a call, which makes it a
// thread start, or nil.
func asyncLabel(s *syntax.CallStmt) *syntax.Ident {
	for _, lab := range s.Labels.Labels {
		if strings.HasPrefix(lab.Name, asyncPrefix) {
			return lab
		}
	}
	return nil
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

// label returns the location of the statement a goto target names.
func (l *lowerer) label(id *syntax.Ident) (int, bool) {
	s, ok := l.info.Jumps[id]
	if !ok {
		l.errorf(id.Pos(), "ir: label %s has no target in sema.Info", id.Name)
		return 0, false
	}
	to, ok := l.stmtLoc[s]
	if !ok {
		l.errorf(id.Pos(), "ir: label %s names a statement of another procedure", id.Name)
	}
	return to, ok
}

// callee returns the index of the procedure a call names.
func (l *lowerer) callee(s *syntax.CallStmt) (int, bool) {
	pi := l.info.Calls[s]
	if pi == nil || pi.Index < 0 || pi.Index >= len(l.b.prog.Procs) {
		l.errorf(s.Proc.Pos(), "ir: call of %s has no procedure in sema.Info", s.Proc.Name)
		return 0, false
	}
	return pi.Index, true
}

// use returns the variable an identifier refers to.
func (l *lowerer) use(id *syntax.Ident) VarRef {
	return l.ref(l.info.Uses[id], id)
}

// def returns the variable an identifier declares.
func (l *lowerer) def(id *syntax.Ident) VarRef {
	return l.ref(l.info.Defs[id], id)
}

func (l *lowerer) ref(v *sema.Var, id *syntax.Ident) VarRef {
	if v == nil {
		l.errorf(id.Pos(), "ir: variable %s has no resolution in sema.Info", id.Name)
		return VarRef{Global: true}
	}
	return VarRef{Global: v.Global, Index: v.Index}
}

func (l *lowerer) uses(ids []*syntax.Ident) []VarRef {
	refs := make([]VarRef, len(ids))
	for i, id := range ids {
		refs[i] = l.use(id)
	}
	return refs
}

func (l *lowerer) exprs(xs []syntax.Expr) []Expr {
	es := make([]Expr, len(xs))
	for i, x := range xs {
		es[i] = l.expr(x)
	}
	return es
}

// expr translates an expression. Its depth is that of the syntax tree,
// which the parser bounds (nesting limit, balanced operator chains).
func (l *lowerer) expr(x syntax.Expr) Expr {
	switch x := x.(type) {
	case *syntax.Const:
		return &Const{Value: x.Value}
	case *syntax.Nondet:
		return &Nondet{}
	case *syntax.VarRef:
		return &Var{VarRef: l.use(x.Name), Primed: x.Primed}
	case *syntax.Unary:
		return &Not{X: l.expr(x.X)}
	case *syntax.Binary:
		return &Bin{Op: x.Op, X: l.expr(x.X), Y: l.expr(x.Y)}
	case *syntax.Schoose:
		return &Schoose{Pos: l.expr(x.PosCond), Neg: l.expr(x.NegCond)}
	case nil:
		l.errorf(syntax.Pos{}, "ir: missing expression")
		return False
	}
	l.errorf(x.Pos(), "ir: cannot lower expression %T", x)
	return False
}

// ---------------------------------------------------------------------------
// Statement text

// stmtText returns the canonical text of a statement (syntax.StmtString)
// without labels and without the final semicolon; for if, elsif and while
// it is the header, e.g. "if (a1)".
func stmtText(s syntax.Stmt) string {
	t := strings.TrimSuffix(syntax.StmtString(s), ";")
	switch s := s.(type) {
	case *syntax.DeclStmt:
		if s.Decl.Inits != nil {
			t = declInitText(s.Decl)
		}
	case *syntax.IfStmt:
		t = strings.TrimSuffix(t, " then")
	case *syntax.WhileStmt:
		t = strings.TrimSuffix(t, " do")
	}
	return t
}

// declInitText returns the text of a declaration with initialisers, e.g.
// "decl a, b := T, *", for the step that assigns them.
func declInitText(d *syntax.Decl) string {
	names := make([]string, len(d.Names))
	for i, id := range d.Names {
		names[i] = identText(id.Name)
	}
	vals := make([]string, len(d.Inits))
	for i, e := range d.Inits {
		vals[i] = exprText(e)
	}
	return "decl " + strings.Join(names, ", ") + " := " + strings.Join(vals, ", ")
}

// exprText returns the canonical text of an expression.
func exprText(x syntax.Expr) string { return syntax.ExprString(x) }
