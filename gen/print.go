package gen

import (
	"strconv"
	"strings"
)

// printer writes a program in the canonical syntax: `begin`/`end`,
// `decl a, b;`, `if (e) then ... fi`, `while (e) do ... od`, constants T and
// F, and every binary subexpression in parentheses, so that the text means
// the same under both precedence dialects.
type printer struct {
	b strings.Builder
}

func (p *printer) line(indent int, s string) {
	for i := 0; i < indent; i++ {
		p.b.WriteString("  ")
	}
	p.b.WriteString(s)
	p.b.WriteByte('\n')
}

func (prog *program) String() string {
	var p printer
	if prog.header != "" {
		for _, l := range strings.Split(prog.header, "\n") {
			p.line(0, "// "+l)
		}
	}
	if len(prog.globals) > 0 {
		p.line(0, "decl "+strings.Join(prog.globals, ", ")+";")
	}
	for _, pr := range prog.procs {
		p.b.WriteByte('\n')
		p.proc(prog, pr)
	}
	return p.b.String()
}

func procType(returns int) string {
	switch returns {
	case 0:
		return "void"
	case 1:
		return "bool"
	}
	return "bool<" + strconv.Itoa(returns) + ">"
}

func (p *printer) proc(prog *program, pr *proc) {
	p.line(0, procType(pr.returns)+" "+pr.name+"("+strings.Join(pr.params, ", ")+")")
	p.line(0, "begin")
	if len(pr.locals) > 0 {
		p.line(1, "decl "+strings.Join(pr.locals, ", ")+";")
	}
	if pr.enforce != nil {
		p.line(1, "enforce "+expr(pr.enforce)+";")
	}
	p.block(prog, pr.body, 1)
	p.line(0, "end")
}

func (p *printer) block(prog *program, ss []*st, indent int) {
	for _, s := range ss {
		p.stmt(prog, s, indent)
	}
}

func labelPrefix(s *st) string {
	var b strings.Builder
	if s.label != "" {
		b.WriteString(s.label)
		b.WriteString(": ")
	}
	for _, l := range s.labels {
		b.WriteString(l)
		b.WriteString(": ")
	}
	return b.String()
}

func exprList(xs []*ex) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = expr(x)
	}
	return strings.Join(parts, ", ")
}

func (p *printer) stmt(prog *program, s *st, indent int) {
	lp := labelPrefix(s)
	switch s.kind {
	case sSkip:
		p.line(indent, lp+"skip;")
	case sAssign:
		t := lp + strings.Join(s.lhs, ", ") + " := " + exprList(s.rhs)
		if s.constrain != nil {
			t += " constrain " + expr(s.constrain)
		}
		p.line(indent, t+";")
	case sCall:
		t := lp
		if len(s.lhs) > 0 {
			t += strings.Join(s.lhs, ", ") + " := "
		}
		p.line(indent, t+prog.procs[s.callee].name+"("+exprList(s.args)+");")
	case sIf:
		p.line(indent, lp+"if ("+cond(s.cond)+") then")
		p.ifRest(prog, s, indent)
		p.line(indent, "fi")
	case sWhile:
		p.line(indent, lp+"while ("+cond(s.cond)+") do")
		p.block(prog, s.body, indent+1)
		p.line(indent, "od")
	case sAssume:
		p.line(indent, lp+"assume("+cond(s.cond)+");")
	case sAssert:
		p.line(indent, lp+"assert("+cond(s.cond)+");")
	case sDead:
		p.line(indent, lp+"dead "+strings.Join(s.vars, ", ")+";")
	case sGoto:
		names := make([]string, len(s.targets))
		for i, t := range s.targets {
			names[i] = t.label
		}
		p.line(indent, lp+"goto "+strings.Join(names, ", ")+";")
	case sReturn:
		if len(s.results) == 0 {
			p.line(indent, lp+"return;")
		} else {
			p.line(indent, lp+"return "+exprList(s.results)+";")
		}
	case sStart:
		if len(s.targets) > 0 {
			p.line(indent, lp+"start_thread goto "+s.targets[0].label+";")
		} else {
			p.line(indent, lp+"start_thread "+prog.procs[s.callee].name+"("+exprList(s.args)+");")
		}
	case sAtomicBegin:
		p.line(indent, lp+"atomic_begin;")
	case sAtomicEnd:
		p.line(indent, lp+"atomic_end;")
	default:
		panic("gen: unknown statement kind")
	}
}

// ifRest prints the branches of an if statement after its `then` line,
// unfolding elsif chains.
func (p *printer) ifRest(prog *program, s *st, indent int) {
	p.block(prog, s.then, indent+1)
	switch {
	case s.els == nil:
	case len(s.els) == 1 && s.els[0].kind == sIf && s.els[0].elsif:
		e := s.els[0]
		p.line(indent, "elsif ("+cond(e.cond)+") then")
		p.ifRest(prog, e, indent)
	default:
		p.line(indent, "else")
		p.block(prog, s.els, indent+1)
	}
}

// cond prints an expression that stands inside the parentheses of a
// condition: the outermost binary operator needs no parentheses of its own.
func cond(x *ex) string {
	if x.kind == eBin {
		return expr(x.x) + " " + x.op + " " + expr(x.y)
	}
	return expr(x)
}

// expr prints an expression with every binary subexpression parenthesised.
func expr(x *ex) string {
	switch x.kind {
	case eConst:
		if x.val {
			return "T"
		}
		return "F"
	case eNondet:
		return "*"
	case eVar:
		if x.primed {
			return "'" + x.name
		}
		return x.name
	case eNot:
		return "!" + expr(x.x)
	case eBin:
		return "(" + expr(x.x) + " " + x.op + " " + expr(x.y) + ")"
	case eSchoose:
		return "schoose[" + expr(x.x) + ", " + expr(x.y) + "]"
	}
	panic("gen: unknown expression kind")
}
