package syntax

// Inspect traverses the tree rooted at n in depth-first order: it calls
// f(n); if that returns true, Inspect visits each child of n, in source
// order. Labels, declarations and identifiers are visited as children too.
//
// Inspect keeps its own stack instead of recursing, so that no tree (a
// chain of 100,000 elsif branches, say) can exhaust the goroutine stack.
func Inspect(n Node, f func(Node) bool) {
	stack := []Node{n}
	var kids []Node
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil || !f(n) {
			continue
		}
		kids = appendChildren(kids[:0], n)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
}

// appendChildren appends the children of n, in source order, to list.
func appendChildren(list []Node, n Node) []Node {
	idents := func(xs []*Ident) {
		for _, x := range xs {
			list = append(list, x)
		}
	}
	exprs := func(xs []Expr) {
		for _, x := range xs {
			list = append(list, x)
		}
	}
	stmts := func(xs []Stmt) {
		for _, x := range xs {
			list = append(list, x)
		}
	}
	// A nil optional child (Enforce, Constrain) is left out: a typed nil
	// in a Node would not compare equal to nil.
	expr := func(x Expr) {
		if x != nil {
			list = append(list, x)
		}
	}
	if s, ok := n.(Stmt); ok {
		idents(s.StmtLabels())
	}
	switch n := n.(type) {
	case *File:
		for _, d := range n.Globals {
			list = append(list, d)
		}
		for _, p := range n.Procs {
			list = append(list, p)
		}
	case *Decl:
		idents(n.Names)
		exprs(n.Inits)
	case *Proc:
		list = append(list, n.Name)
		idents(n.Params)
		for _, d := range n.Locals {
			list = append(list, d)
		}
		expr(n.Enforce)
		stmts(n.Body)
	case *VarRef:
		list = append(list, n.Name)
	case *Old:
		list = append(list, n.Name)
	case *Unary:
		list = append(list, n.X)
	case *Binary:
		list = append(list, n.X, n.Y)
	case *Schoose:
		list = append(list, n.PosCond, n.NegCond)
	case *PrintStmt:
		exprs(n.Args)
	case *GotoStmt:
		idents(n.Targets)
	case *ReturnStmt:
		exprs(n.Results)
	case *AssignStmt:
		idents(n.Lhs)
		exprs(n.Rhs)
		expr(n.Constrain)
	case *CallStmt:
		idents(n.Lhs)
		list = append(list, n.Proc)
		exprs(n.Args)
	case *IfStmt:
		list = append(list, n.Cond)
		stmts(n.Then)
		stmts(n.Else)
	case *WhileStmt:
		list = append(list, n.Cond)
		stmts(n.Body)
	case *AssertStmt:
		list = append(list, n.Cond)
	case *AssumeStmt:
		list = append(list, n.Cond)
	case *AbortifStmt:
		list = append(list, n.Cond)
	case *DeadStmt:
		idents(n.Vars)
	case *EnforceStmt:
		list = append(list, n.Cond)
	case *ConstrainStmt:
		list = append(list, n.Cond)
	case *SyncStmt:
		list = append(list, n.Event)
	case *DeclStmt:
		list = append(list, n.Decl)
	case *StartThreadStmt:
		list = append(list, n.Target)
	}
	return list
}
