package sema

import "boolprog/syntax"

// flow is the statement-level control-flow graph of one procedure, just
// precise enough to find statements that no path from the entry reaches.
// Every condition may be true or false (so assume(F) falls through, and
// both branches of every if are taken), every call returns, and a
// `start_thread goto L` makes L reachable as well as what follows it.
type flow struct {
	labels map[string][]syntax.Stmt
	id     map[syntax.Stmt]int
	succ   [][]int
}

const exit = -1 // the "node" after the procedure's last statement

// unreachable warns about the labelled statements of pi that cannot be
// reached from its entry (see the package comment for which ones).
func (c *checker) unreachable(pi *ProcInfo) {
	g := &flow{labels: pi.Labels, id: make(map[syntax.Stmt]int)}
	g.number(pi.Proc.Body)
	g.succ = make([][]int, len(g.id))
	entry := g.list(pi.Proc.Body, exit)

	reached := make([]bool, len(g.id))
	var work []int
	visit := func(n int) {
		if n != exit && !reached[n] {
			reached[n] = true
			work = append(work, n)
		}
	}
	visit(entry)
	for len(work) > 0 {
		n := work[len(work)-1]
		work = work[:len(work)-1]
		for _, m := range g.succ[n] {
			visit(m)
		}
	}
	c.warnUnreached(pi.Proc.Body, g, reached, false)
}

// number gives every statement a node, in source order.
func (g *flow) number(list []syntax.Stmt) {
	for _, s := range list {
		g.id[s] = len(g.id)
		switch s := s.(type) {
		case *syntax.IfStmt:
			for { // along the elsif chain, iteratively
				g.number(s.Then)
				e := Elsif(s)
				if e == nil {
					break
				}
				s = e
				g.id[s] = len(g.id)
			}
			g.number(s.Else)
		case *syntax.WhileStmt:
			g.number(s.Body)
		}
	}
}

// list adds the edges of the statements of list, whose control continues
// at node follow after the last one, and returns the node where the list
// starts (follow if it is empty).
func (g *flow) list(list []syntax.Stmt, follow int) int {
	next := follow
	for i := len(list) - 1; i >= 0; i-- {
		g.stmt(list[i], next)
		next = g.id[list[i]]
	}
	return next
}

func (g *flow) stmt(s syntax.Stmt, follow int) {
	n := g.id[s]
	add := func(m int) {
		if m != exit {
			g.succ[n] = append(g.succ[n], m)
		}
	}
	targets := func(ids []*syntax.Ident) {
		for _, t := range ids {
			// Undefined and repeated labels were reported as errors
			// already; a repeated one leads to each occurrence, so
			// that no warning follows from the error.
			for _, ls := range g.labels[t.Name] {
				add(g.id[ls])
			}
		}
	}
	switch s := s.(type) {
	case *syntax.GotoStmt:
		targets(s.Targets)
	case *syntax.ReturnStmt, *syntax.EndThreadStmt:
		// Control leaves the procedure (or the thread ends).
	case *syntax.IfStmt:
		for { // along the elsif chain, iteratively
			add(g.list(s.Then, follow))
			e := Elsif(s)
			if e == nil {
				break
			}
			add(g.id[e])
			s, n = e, g.id[e]
		}
		add(g.list(s.Else, follow))
	case *syntax.WhileStmt:
		add(g.list(s.Body, n))
		add(follow)
	case *syntax.StartThreadStmt:
		if t, ok := s.Target.(*syntax.GotoStmt); ok {
			targets(t.Targets)
		}
		add(follow)
	default:
		add(follow)
	}
}

// warnUnreached reports the first labelled statement of each run of
// consecutive unreachable statements of list. quiet says the run that list
// continues (that of an enclosing unreachable if or while) was reported
// already. It reports whether it warned about anything.
func (c *checker) warnUnreached(list []syntax.Stmt, g *flow, reached []bool, quiet bool) (warned bool) {
	for _, s := range list {
		dead := !reached[g.id[s]]
		if !dead {
			quiet = false
		} else if labels := s.StmtLabels(); !quiet && len(labels) > 0 {
			c.warnf(labels[0].Pos(), "unreachable statement labelled %s", show(labels[0]))
			quiet, warned = true, true
		}
		var inner bool
		switch s := s.(type) {
		case *syntax.IfStmt:
			inner = c.warnUnreached(s.Then, g, reached, quiet && dead)
			// Both branches of an unreachable if are one run. The
			// else branch of an elsif chain is a list of one if
			// statement; the loop does what the recursive call on
			// that list would do, link by link.
			q := dead && (quiet || inner)
			for e := Elsif(s); e != nil; e = Elsif(s) {
				s = e
				eDead, eQuiet, w := !reached[g.id[e]], q, false
				if !eDead {
					eQuiet = false
				} else if labels := e.StmtLabels(); !eQuiet && len(labels) > 0 {
					c.warnf(labels[0].Pos(), "unreachable statement labelled %s", show(labels[0]))
					eQuiet, w = true, true
				}
				t := c.warnUnreached(e.Then, g, reached, eQuiet && eDead)
				inner = inner || w || t
				q = eDead && (eQuiet || t)
			}
			inner = c.warnUnreached(s.Else, g, reached, q) || inner
		case *syntax.WhileStmt:
			inner = c.warnUnreached(s.Body, g, reached, quiet && dead)
		}
		if inner {
			warned = true
			// The run goes on after an unreachable if or while
			// whose insides were reported.
			quiet = quiet || dead
		}
	}
	return warned
}
