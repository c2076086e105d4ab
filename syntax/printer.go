package syntax

import (
	"bufio"
	"io"
	"strconv"
	"strings"
)

// Fprint writes f as canonical source: one statement per line, two-space
// indentation, `begin`/`end` on lines of their own, parentheses around
// conditions, constants as T and F, and in expressions exactly the
// parentheses that both precedence dialects need to read the same tree.
// Comments are kept: each is written before the first item that followed it
// in the source, or at the end of the line of the item it trailed.
func Fprint(w io.Writer, f *File) error {
	pr := &printer{comments: f.Comments}
	pr.file(f)
	pr.flushComments(-1)
	bw := bufio.NewWriter(w)
	for _, line := range pr.lines {
		bw.WriteString(line)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// Format parses src and returns it printed canonically.
func Format(filename string, src []byte, d Dialect) ([]byte, error) {
	f, err := ParseFile(filename, src, d)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	if err := Fprint(&b, f); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}

type printer struct {
	lines    []string
	indent   int
	comments []*Comment
	lastLine int // source line of the item that produced the last output line
	// top says that the printer is between top-level items (or at a
	// procedure's header), where it keeps the source's empty lines.
	top bool
	// header says that the next line is a procedure's header.
	header bool
}

// emit writes one output line for an item that starts at source position
// pos, after the comments that precede it in the source.
func (p *printer) emit(pos Pos, text string) {
	if pos.IsValid() {
		p.flushComments(pos.Offset)
		p.gap(pos.Line, p.header)
	}
	p.lines = append(p.lines, strings.Repeat("  ", p.indent)+text)
	if pos.IsValid() {
		p.lastLine = pos.Line
	}
}

// closing emits a line for a closing keyword (`end`, `fi`, `od`, `else`):
// comments before it are written inside the block, indented one level more.
func (p *printer) closing(pos Pos, text string) {
	if pos.IsValid() {
		p.indent++
		p.flushComments(pos.Offset)
		p.indent--
	}
	p.emit(pos, text)
}

// flushComments writes the comments that start before offset (all of them
// if offset < 0).
func (p *printer) flushComments(offset int) {
	for len(p.comments) > 0 && (offset < 0 || p.comments[0].Slash.Offset < offset) {
		c := p.comments[0]
		p.comments = p.comments[1:]
		if len(p.lines) > 0 && c.Slash.Line == p.lastLine && !strings.Contains(c.Text, "\n") {
			p.lines[len(p.lines)-1] += " " + c.Text
			continue
		}
		p.gap(c.Slash.Line, false)
		p.lines = append(p.lines, strings.Repeat("  ", p.indent)+c.Text)
		p.lastLine = c.Slash.Line + strings.Count(c.Text, "\n")
	}
}

// blank separates sections with an empty line, after first attaching the
// comments that trail the last line written. A comment of several lines is
// left for the next section: written on lines of its own before the blank
// line, it would move to the next section when the output is printed again.
func (p *printer) blank() {
	for len(p.comments) > 0 && p.comments[0].Slash.Line == p.lastLine && len(p.lines) > 0 &&
		!strings.Contains(p.comments[0].Text, "\n") {
		p.flushComments(p.comments[0].Slash.Offset + 1)
	}
	if len(p.lines) > 0 && p.lines[len(p.lines)-1] != "" {
		p.lines = append(p.lines, "")
	}
}

// file prints the declarations and procedures with their layout: an
// empty line between two of them, or before a comment between them, where
// the source has one (several make one), as gofmt does, so that `fmt`
// keeps the lines of a file whose comments cite them (the Bebop paper's
// figure). A tree without positions (built, not parsed) gets an empty line
// before each procedure.
func (p *printer) file(f *File) {
	p.top = true
	for _, d := range f.Globals {
		p.emit(d.DeclPos, declText(d))
	}
	for _, pr := range f.Procs {
		if !pr.TypePos.IsValid() {
			p.blank()
		}
		p.top, p.header = true, true
		p.proc(pr)
	}
	p.top = true // the comments after the last procedure
}

// gap writes an empty line before a top-level item or comment that starts
// at source line line if the source has an empty line before it (see
// file).
// An item on the line where the previous one ends (the printer breaks the
// source's line) gets the layout of a tree without positions.
func (p *printer) gap(line int, header bool) {
	if !p.top || p.lastLine == 0 || len(p.lines) == 0 || p.lines[len(p.lines)-1] == "" {
		return
	}
	if line > p.lastLine+1 || line == p.lastLine && header {
		p.lines = append(p.lines, "")
	}
}

func declText(d *Decl) string {
	if d.Each && len(d.Inits) == len(d.Names) {
		parts := make([]string, len(d.Names))
		for i, x := range d.Names {
			parts[i] = identText(x) + " := " + ExprString(d.Inits[i])
		}
		return "decl " + strings.Join(parts, ", ") + ";"
	}
	if d.Inits != nil {
		return "decl " + identList(d.Names) + " := " + exprList(d.Inits) + ";"
	}
	return "decl " + identList(d.Names) + ";"
}

func identText(x *Ident) string {
	if x.Braced {
		return "{" + x.Name + "}"
	}
	return x.Name
}

func identList(xs []*Ident) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = identText(x)
	}
	return strings.Join(parts, ", ")
}

func (p *printer) proc(pr *Proc) {
	typ := "void"
	switch {
	case pr.Returns == 1:
		typ = "bool"
	case pr.Returns > 1:
		typ = "bool<" + strconv.Itoa(pr.Returns) + ">"
	}
	p.emit(pr.TypePos, typ+" "+identText(pr.Name)+"("+identList(pr.Params)+")")
	p.top, p.header = false, false
	p.emit(pr.Begin, "begin")
	p.indent++
	for _, d := range pr.Locals {
		p.emit(d.DeclPos, declText(d))
	}
	if pr.Enforce != nil {
		p.emit(pr.Enforce.Pos(), "enforce "+ExprString(pr.Enforce)+";")
	}
	p.stmts(pr.Body)
	p.indent--
	p.closing(pr.End, "end")
}

func (p *printer) stmts(list []Stmt) {
	for _, s := range list {
		p.stmt(s)
	}
}

func labelPrefix(s Stmt) string {
	var b strings.Builder
	for _, l := range s.StmtLabels() {
		b.WriteString(identText(l))
		b.WriteString(": ")
	}
	return b.String()
}

func (p *printer) stmt(s Stmt) {
	prefix := labelPrefix(s)
	switch s := s.(type) {
	case *IfStmt:
		p.emit(s.Pos(), prefix+"if ("+ExprString(s.Cond)+") then")
		for {
			p.indent++
			p.stmts(s.Then)
			p.indent--
			if len(s.Else) == 1 {
				if in, ok := s.Else[0].(*IfStmt); ok && in.Elsif {
					p.closing(in.Keyword, "elsif ("+ExprString(in.Cond)+") then")
					s = in
					continue
				}
			}
			break
		}
		if s.Else != nil {
			p.closing(s.ElsePos, "else")
			p.indent++
			p.stmts(s.Else)
			p.indent--
		}
		p.closing(s.Fi, "fi")
	case *WhileStmt:
		p.emit(s.Pos(), prefix+"while ("+ExprString(s.Cond)+") do")
		p.indent++
		p.stmts(s.Body)
		p.indent--
		p.closing(s.Od, "od")
	default:
		p.emit(s.Pos(), prefix+StmtString(s))
	}
}

// StmtString returns the canonical one-line text of a simple statement,
// without labels; for `if` and `while` it returns their header.
func StmtString(s Stmt) string {
	switch s := s.(type) {
	case *SkipStmt:
		return "skip;"
	case *PrintStmt:
		return "print(" + exprList(s.Args) + ");"
	case *GotoStmt:
		return "goto " + identList(s.Targets) + ";"
	case *ReturnStmt:
		if len(s.Results) == 0 {
			return "return;"
		}
		return "return " + exprList(s.Results) + ";"
	case *AssignStmt:
		text := identList(s.Lhs) + " := " + exprList(s.Rhs)
		if s.Constrain != nil {
			text += " constrain " + ExprString(s.Constrain)
		}
		return text + ";"
	case *CallStmt:
		return callText(s) + ";"
	case *AssertStmt:
		return "assert(" + ExprString(s.Cond) + ");"
	case *AssumeStmt:
		return "assume(" + ExprString(s.Cond) + ");"
	case *AbortifStmt:
		return "abortif " + ExprString(s.Cond) + ";"
	case *DeadStmt:
		return "dead " + identList(s.Vars) + ";"
	case *EnforceStmt:
		return "enforce " + ExprString(s.Cond) + ";"
	case *ConstrainStmt:
		return "constrain(" + ExprString(s.Cond) + ");"
	case *SyncStmt:
		return "sync " + identText(s.Event) + ";"
	case *DeclStmt:
		return declText(s.Decl)
	case *StartThreadStmt:
		switch t := s.Target.(type) {
		case *CallStmt:
			return "start_thread " + callText(t) + ";"
		case *GotoStmt:
			return "start_thread goto " + identList(t.Targets) + ";"
		}
		return "start_thread;"
	case *EndThreadStmt:
		return "end_thread;"
	case *AtomicBeginStmt:
		return "atomic_begin;"
	case *AtomicEndStmt:
		return "atomic_end;"
	case *IfStmt:
		kw := "if"
		if s.Elsif {
			kw = "elsif"
		}
		return kw + " (" + ExprString(s.Cond) + ") then"
	case *WhileStmt:
		return "while (" + ExprString(s.Cond) + ") do"
	}
	return ""
}

func callText(s *CallStmt) string {
	text := identText(s.Proc) + "(" + exprList(s.Args) + ")"
	if len(s.Lhs) > 0 {
		text = identList(s.Lhs) + " := " + text
	}
	return text
}

func exprList(xs []Expr) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = ExprString(x)
	}
	return strings.Join(parts, ", ")
}

// ExprString returns the canonical text of an expression, parenthesised so
// that it parses to the same tree in both dialects: to x itself if x was
// parsed, and in general to the canonical form of x, in which each maximal
// run of one associative operator is the balanced tree of its operands (a
// run is written as a flat chain whatever its shape; see runOperands).
func ExprString(x Expr) string {
	var b strings.Builder
	writeExpr(&b, x)
	return b.String()
}

func writeExpr(b *strings.Builder, x Expr) {
	switch x := x.(type) {
	case *Const:
		if x.Value {
			b.WriteByte('T')
		} else {
			b.WriteByte('F')
		}
	case *Nondet:
		b.WriteByte('*')
	case *VarRef:
		if x.Primed {
			b.WriteByte('\'')
		}
		b.WriteString(identText(x.Name))
	case *Unary:
		b.WriteByte('!')
		if _, ok := x.X.(*Binary); ok {
			b.WriteByte('(')
			writeExpr(b, x.X)
			b.WriteByte(')')
		} else {
			writeExpr(b, x.X)
		}
	case *Binary:
		if associative(x.Op) {
			for i, l := range runOperands(x) {
				if i > 0 {
					writeOp(b, x.Op)
				}
				writeOperand(b, x, l)
			}
			return
		}
		writeOperand(b, x, x.X)
		writeOp(b, x.Op)
		writeOperand(b, x, x.Y)
	case *Old:
		b.WriteString(`\old(`)
		b.WriteString(identText(x.Name))
		b.WriteByte(')')
	case *Result:
		b.WriteString(`\result`)
		if x.Index > 0 {
			b.WriteString(strconv.Itoa(x.Index))
		}
	case *Schoose:
		b.WriteString("schoose[")
		writeExpr(b, x.PosCond)
		b.WriteString(", ")
		writeExpr(b, x.NegCond)
		b.WriteByte(']')
	}
}

func writeOp(b *strings.Builder, op Op) {
	b.WriteByte(' ')
	b.WriteString(op.String())
	b.WriteByte(' ')
}

// writeOperand writes child, an operand of parent, in parentheses unless
// both dialects would read it as an operand of parent without them.
func writeOperand(b *strings.Builder, parent *Binary, child Expr) {
	c, ok := child.(*Binary)
	if ok && (needParens(CProver, parent.Op, c.Op) || needParens(Getafix, parent.Op, c.Op)) {
		b.WriteByte('(')
		writeExpr(b, child)
		b.WriteByte(')')
		return
	}
	writeExpr(b, child)
}

// needParens reports whether a binary operand with operator child of a
// parent with operator parent needs parentheses to be read back as that
// operand in dialect d. An operand with the parent's own associative
// operator never reaches it: it is part of the parent's run (see
// runOperands). Any other operand at the parent's level needs them: the two
// dialects group the operators that share a level in opposite directions.
func needParens(d Dialect, parent, child Op) bool {
	pp, _ := precedence(d, parent)
	cp, _ := precedence(d, child)
	return cp <= pp
}

// runOperands returns the operands of the run of x's operator rooted at x
// (x's subtrees with the same operator, taken together), in order. The
// printer writes the run as a flat chain of them, whatever its shape: the
// parser reads such a chain (and any other grouping of it) as the balanced
// tree of those operands, the one shape it builds, so a parsed tree prints
// back to itself, and a tree of another shape (made by a program
// transformation) to its canonical form, which means the same. It works
// without recursion, so that a run of any length and shape costs linear
// time and constant stack.
func runOperands(x *Binary) []Expr {
	var leaves []Expr
	stack := []Expr{x}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c, ok := e.(*Binary); ok && c.Op == x.Op {
			stack = append(stack, c.Y, c.X)
			continue
		}
		leaves = append(leaves, e)
	}
	return leaves
}
