package conc

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"boolprog/ir"
)

// Print writes p as the text of a Boolean program that parses, checks and
// lowers on its own to a program with the same executions (each
// statement of the text is one location of p; a location with several
// edges becomes a nondeterministic goto to one labelled statement per
// edge): `boolprog seq` prints sequentialisations with it. The text has
// no initialisers, enforce clauses or thread statements beyond those of
// p's edges; a Call's Post is printed as an assume after the call. Names
// that are not plain identifiers are printed in braces.
func Print(w io.Writer, p *ir.Program) error {
	bw := bufio.NewWriter(w)
	if len(p.Globals) > 0 {
		var names []string
		for _, g := range p.Globals {
			names = append(names, ident(g))
		}
		fmt.Fprintf(bw, "decl %s;\n\n", strings.Join(names, ", "))
	}
	for _, pr := range p.Procs {
		if err := printProc(bw, p, pr); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func ident(name string) string { return ir.IdentText(name) }

func printProc(w *bufio.Writer, p *ir.Program, pr *ir.Proc) error {
	ret := "void"
	switch {
	case pr.Returns == 1:
		ret = "bool"
	case pr.Returns > 1:
		ret = fmt.Sprintf("bool<%d>", pr.Returns)
	}
	var params []string
	for _, l := range pr.Locals[:pr.Params] {
		params = append(params, ident(l))
	}
	fmt.Fprintf(w, "%s %s(%s) begin\n", ret, ident(pr.Name), strings.Join(params, ", "))
	if len(pr.Locals) > pr.Params {
		var ls []string
		for _, l := range pr.Locals[pr.Params:] {
			ls = append(ls, ident(l))
		}
		fmt.Fprintf(w, "  decl %s;\n", strings.Join(ls, ", "))
	}
	label := func(id int) string { return fmt.Sprintf("L%d", id) }
	ex := func(e ir.Expr) string { return p.ExprString(pr, e) }
	exprs := func(es []ir.Expr) string {
		var s []string
		for _, e := range es {
			s = append(s, ex(e))
		}
		return strings.Join(s, ", ")
	}
	// stmt returns the statement of an edge (without its goto) and
	// whether control goes on to the edge's target.
	stmt := func(e *ir.Edge) (string, bool, error) {
		switch op := e.Op.(type) {
		case *ir.Skip:
			return "skip;", true, nil
		case *ir.Assume:
			return "assume(" + ex(op.Cond) + ");", true, nil
		case *ir.Assign:
			var ts []string
			for _, t := range op.Targets {
				ts = append(ts, ident(p.VarName(pr, t)))
			}
			s := strings.Join(ts, ", ") + " := " + exprs(op.Values)
			if op.Constrain != nil {
				s += " constrain " + ex(op.Constrain)
			}
			return s + ";", true, nil
		case *ir.Call:
			var ts []string
			for _, t := range op.Targets {
				if t.Discard {
					ts = append(ts, "_")
				} else {
					ts = append(ts, ident(p.VarName(pr, t.Var)))
				}
			}
			s := ident(p.Procs[op.Proc].Name) + "(" + exprs(op.Args) + ");"
			if len(ts) > 0 {
				s = strings.Join(ts, ", ") + " := " + s
			}
			if op.Post != nil {
				s += " assume(" + ex(op.Post) + ");"
			}
			return s, true, nil
		case *ir.Return:
			if len(op.Values) == 0 {
				return "return;", false, nil
			}
			return "return " + exprs(op.Values) + ";", false, nil
		case *ir.StartThread:
			if op.Goto >= 0 {
				return "start_thread goto " + label(op.Goto) + ";", true, nil
			}
			return "start_thread " + ident(p.Procs[op.Proc].Name) + "(" + exprs(op.Args) + ");", true, nil
		case *ir.EndThread:
			return "end_thread;", false, nil
		case *ir.AtomicBegin:
			return "atomic_begin;", true, nil
		case *ir.AtomicEnd:
			return "atomic_end;", true, nil
		}
		return "", false, fmt.Errorf("conc: cannot print %T", e.Op)
	}
	fmt.Fprintf(w, "  goto %s;\n", label(pr.Entry))
	for _, l := range pr.Locations {
		if l.ID == pr.Exit {
			continue
		}
		prefix := ""
		for _, lab := range l.Labels {
			prefix += ident(lab) + ": "
		}
		prefix += label(l.ID) + ": "
		switch {
		case l.Kind == ir.FailLoc:
			fmt.Fprintf(w, "  %sassert(F);\n", prefix)
			continue
		case len(l.Out) == 0:
			fmt.Fprintf(w, "  %sassume(F);\n", prefix)
			continue
		case len(l.Out) > 1:
			var ts []string
			for _, id := range l.Out {
				ts = append(ts, fmt.Sprintf("%s_%d", label(l.ID), id))
			}
			fmt.Fprintf(w, "  %sgoto %s;\n", prefix, strings.Join(ts, ", "))
		}
		for _, id := range l.Out {
			e := pr.Edges[id]
			s, goesOn, err := stmt(e)
			if err != nil {
				return err
			}
			pre := prefix
			if len(l.Out) > 1 {
				pre = fmt.Sprintf("%s_%d: ", label(l.ID), id)
			}
			if goesOn {
				s += " goto " + label(e.To) + ";"
			}
			fmt.Fprintf(w, "  %s%s\n", pre, s)
		}
	}
	fmt.Fprintf(w, "  %s: skip;\nend\n\n", label(pr.Exit))
	return nil
}
