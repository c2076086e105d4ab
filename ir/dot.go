package ir

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteDOT writes the program's control-flow automata as a Graphviz graph:
// one cluster per procedure, one node per location (labelled with its line,
// labels and statement), one arrow per edge (labelled with its operation).
// Call edges are drawn dashed from the call to its return point, with a
// dotted arrow to the callee's entry. Error locations are red octagons.
func WriteDOT(w io.Writer, p *Program) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "digraph %s {\n", strconv.Quote(p.File))
	fmt.Fprintf(bw, "\tnode [shape=box, fontname=\"monospace\"];\n")
	fmt.Fprintf(bw, "\tedge [fontname=\"monospace\"];\n")
	node := func(proc *Proc, loc int) string { return fmt.Sprintf("\"p%d_l%d\"", proc.Index, loc) }
	for _, proc := range p.Procs {
		fmt.Fprintf(bw, "\tsubgraph \"cluster_%d\" {\n", proc.Index)
		fmt.Fprintf(bw, "\t\tlabel=%s;\n", strconv.Quote(procSignature(p, proc)))
		for _, l := range proc.Locations {
			var label strings.Builder
			if l.Pos.IsValid() {
				fmt.Fprintf(&label, "%d: ", l.Pos.Line)
			}
			for _, lab := range l.Labels {
				label.WriteString(lab + ": ")
			}
			switch l.Kind {
			case ExitLoc:
				label.WriteString("exit")
			case FailLoc:
				label.WriteString("assertion failure")
			default:
				label.WriteString(l.Text)
			}
			attrs := []string{"label=" + strconv.Quote(label.String())}
			switch {
			case l.Error:
				attrs = append(attrs, "shape=octagon", "color=red")
			case l.Exit:
				attrs = append(attrs, "shape=doublecircle")
			}
			if l.Entry {
				attrs = append(attrs, "style=bold")
			}
			fmt.Fprintf(bw, "\t\t%s [%s];\n", node(proc, l.ID), strings.Join(attrs, ", "))
		}
		for _, e := range proc.Edges {
			attrs := []string{"label=" + strconv.Quote(p.OpString(proc, e.Op))}
			if _, ok := e.Op.(*Call); ok {
				attrs = append(attrs, "style=dashed")
			}
			fmt.Fprintf(bw, "\t\t%s -> %s [%s];\n", node(proc, e.From), node(proc, e.To), strings.Join(attrs, ", "))
		}
		fmt.Fprintf(bw, "\t}\n")
	}
	for _, proc := range p.Procs {
		for _, e := range proc.Edges {
			callee := -1
			switch op := e.Op.(type) {
			case *Call:
				callee = op.Proc
			case *StartThread:
				callee = op.Proc
			}
			if callee >= 0 {
				c := p.Procs[callee]
				fmt.Fprintf(bw, "\t%s -> %s [style=dotted];\n", node(proc, e.From), node(c, c.Entry))
			}
		}
	}
	fmt.Fprintf(bw, "}\n")
	return bw.Flush()
}

// procSignature formats "bool<2> f(a, b)".
func procSignature(p *Program, proc *Proc) string {
	var t string
	switch proc.Returns {
	case 0:
		t = "void"
	case 1:
		t = "bool"
	default:
		t = fmt.Sprintf("bool<%d>", proc.Returns)
	}
	params := make([]string, proc.Params)
	for i := range params {
		params[i] = identText(proc.Locals[i])
	}
	return t + " " + identText(proc.Name) + "(" + strings.Join(params, ", ") + ")"
}
