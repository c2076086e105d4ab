package syntax

// Inspect traverses the tree rooted at n in depth-first order: it calls
// f(n); if that returns true, Inspect visits each child of n, in source
// order. Labels, declarations and identifiers are visited as children too.
func Inspect(n Node, f func(Node) bool) {
	if n == nil || !f(n) {
		return
	}
	idents := func(xs []*Ident) {
		for _, x := range xs {
			Inspect(x, f)
		}
	}
	exprs := func(xs []Expr) {
		for _, x := range xs {
			Inspect(x, f)
		}
	}
	stmts := func(xs []Stmt) {
		for _, x := range xs {
			Inspect(x, f)
		}
	}
	if s, ok := n.(Stmt); ok {
		idents(s.StmtLabels())
	}
	switch n := n.(type) {
	case *File:
		for _, d := range n.Globals {
			Inspect(d, f)
		}
		for _, p := range n.Procs {
			Inspect(p, f)
		}
	case *Decl:
		idents(n.Names)
	case *Proc:
		Inspect(n.Name, f)
		idents(n.Params)
		for _, d := range n.Locals {
			Inspect(d, f)
		}
		if n.Enforce != nil {
			Inspect(n.Enforce, f)
		}
		stmts(n.Body)
	case *VarRef:
		Inspect(n.Name, f)
	case *Unary:
		Inspect(n.X, f)
	case *Binary:
		Inspect(n.X, f)
		Inspect(n.Y, f)
	case *Schoose:
		Inspect(n.PosCond, f)
		Inspect(n.NegCond, f)
	case *PrintStmt:
		exprs(n.Args)
	case *GotoStmt:
		idents(n.Targets)
	case *ReturnStmt:
		exprs(n.Results)
	case *AssignStmt:
		idents(n.Lhs)
		exprs(n.Rhs)
		if n.Constrain != nil {
			Inspect(n.Constrain, f)
		}
	case *CallStmt:
		idents(n.Lhs)
		Inspect(n.Proc, f)
		exprs(n.Args)
	case *IfStmt:
		Inspect(n.Cond, f)
		stmts(n.Then)
		stmts(n.Else)
	case *WhileStmt:
		Inspect(n.Cond, f)
		stmts(n.Body)
	case *AssertStmt:
		Inspect(n.Cond, f)
	case *AssumeStmt:
		Inspect(n.Cond, f)
	case *AbortifStmt:
		Inspect(n.Cond, f)
	case *DeadStmt:
		idents(n.Vars)
	case *EnforceStmt:
		Inspect(n.Cond, f)
	case *ConstrainStmt:
		Inspect(n.Cond, f)
	case *SyncStmt:
		Inspect(n.Event, f)
	case *DeclStmt:
		Inspect(n.Decl, f)
	case *StartThreadStmt:
		Inspect(n.Target, f)
	}
}
