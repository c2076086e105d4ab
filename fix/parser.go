package fix

import (
	"context"
	"strconv"
)

// maxDepth bounds the nesting of formulas, so that hostile input cannot
// exhaust the stack.
const maxDepth = 2000

// maxTwice bounds the nesting of if and case conditions inside the
// conditions of others: each is read twice (see twice), so the work
// grows by at most 2^maxTwice.
const maxTwice = 6

// ParseFile parses the source of one Mucke-language file. On errors it
// returns the declarations it could read and an ErrorList with every
// diagnostic (file:line:col: message); it never panics.
func ParseFile(name string, src []byte) (*File, error) {
	return ParseFileContext(context.Background(), name, src)
}

type parser struct {
	file  string
	toks  []token
	i     int
	depth int
	errs  *ErrorList
	// twiceDepth counts the conditions being read twice (twice) around
	// the current token: each doubles the work, so it is bounded.
	twiceDepth int
}

// bailout unwinds the parse of one declaration after its first error.
type bailout struct{}

func (p *parser) tok() token { return p.toks[p.i] }

func (p *parser) peekKind(k int) tok {
	if p.i+k < len(p.toks) {
		return p.toks[p.i+k].kind
	}
	return tEOF
}

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) fail(pos Pos, format string, args ...any) {
	p.errs.add(p.file, pos, format, args...)
	panic(bailout{})
}

func (p *parser) describe(t token) string {
	switch t.kind {
	case tIdent:
		return "identifier " + t.text
	case tInt:
		return "integer " + t.text
	}
	return t.kind.String()
}

func (p *parser) expect(k tok, context string) token {
	t := p.tok()
	if t.kind != k {
		p.fail(t.pos, "expected %v %s, found %s", k, context, p.describe(t))
	}
	return p.advance()
}

func (p *parser) ident(context string) token { return p.expect(tIdent, context) }

// decl parses one top-level declaration; after an error it skips to the
// next ';' and returns nil.
func (p *parser) decl() (d Decl) {
	start := p.i
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			d = nil
			p.depth, p.twiceDepth = 0, 0
			p.sync(start)
		}
	}()
	t := p.tok()
	switch t.kind {
	case tSemi:
		p.advance()
		return nil
	case tEnum:
		return p.enumDecl()
	case tClass:
		return p.classDecl()
	case tMu, tNu:
		return p.relDecl()
	case tBool:
		if p.peekKind(1) == tIdent && p.peekKind(2) == tLParen {
			return p.relDecl()
		}
	case tHash:
		return p.directive()
	}
	q := &Query{Pos: t.pos, Body: p.expr()}
	p.endDecl("after the formula")
	return q
}

// sync skips, after an error in the declaration that began at token
// start, to the ';' that ends it (outside braces), or to the keyword that
// begins the next declaration.
func (p *parser) sync(start int) {
	depth := 0
	for _, t := range p.toks[start:p.i] {
		switch t.kind {
		case tLBrace:
			depth++
		case tRBrace:
			depth--
		}
	}
	errAt := p.i
	if p.i == start {
		p.advance()
	}
	for {
		t := p.tok()
		switch t.kind {
		case tEOF:
			return
		case tSemi:
			if depth <= 0 {
				p.advance()
				return
			}
		case tLBrace:
			depth++
		case tRBrace:
			depth--
		case tEnum, tClass, tMu, tNu, tHash:
			if depth <= 0 && p.i > errAt {
				return
			}
		}
		p.advance()
	}
}

// endDecl accepts the ';' that ends a declaration (optional at the end of
// the file, as the last formula often lacks it).
func (p *parser) endDecl(context string) {
	if p.tok().kind == tEOF {
		return
	}
	p.expect(tSemi, context)
}

func (p *parser) integer() int {
	t := p.expect(tInt, "")
	n, err := strconv.Atoi(t.text)
	if err != nil || n > 1<<20 {
		p.fail(t.pos, "integer %s out of range", t.text)
	}
	return n
}

func (p *parser) enumDecl() Decl {
	pos := p.advance().pos
	d := &EnumDecl{Pos: pos, Name: p.ident("after enum").text}
	p.expect(tLBrace, "after the enum name")
	if p.tok().kind == tInt {
		d.Lo = p.integer()
		p.expect(tDotDot, "in the enum range")
		d.Hi = p.integer()
		if d.Hi < d.Lo {
			p.fail(pos, "empty enum range %d..%d", d.Lo, d.Hi)
		}
	} else {
		for {
			d.Names = append(d.Names, p.ident("in the enum values").text)
			if p.tok().kind != tComma {
				break
			}
			p.advance()
		}
	}
	p.expect(tRBrace, "after the enum values")
	p.endDecl("after the enum declaration")
	return d
}

func (p *parser) typeName(context string) *TypeName {
	t := p.tok()
	switch t.kind {
	case tBool:
		p.advance()
		return &TypeName{Pos: t.pos, Name: "bool"}
	case tIdent:
		p.advance()
		return &TypeName{Pos: t.pos, Name: t.text}
	}
	p.fail(t.pos, "expected a type %s, found %s", context, p.describe(t))
	return nil
}

func (p *parser) classDecl() Decl {
	pos := p.advance().pos
	d := &ClassDecl{Pos: pos, Name: p.ident("after class").text}
	p.expect(tLBrace, "after the class name")
	for p.tok().kind != tRBrace {
		typ := p.typeName("for a field")
		for {
			n := p.ident("as a field name")
			d.Fields = append(d.Fields, &Field{Pos: n.pos, Type: p.arrayOf(typ), Name: n.text})
			if p.tok().kind != tComma {
				break
			}
			p.advance()
		}
		p.expect(tSemi, "after a field")
	}
	p.advance()
	d.Order = p.constraints()
	p.endDecl("after the class declaration")
	return d
}

// constraints parses a possibly empty list  a < b, c ~+ d, ... Mucke's
// other forms are read too: a > b (b < a), a ~- b (interleaved, as ~+:
// the order of the pairs is Mucke's business, the meaning is the same)
// and ~+ a or ~- a alone (a's own components interleaved: no constraint
// here, since a type's fields are laid out by the type's constraints).
func (p *parser) constraints() []*Constraint {
	var cs []*Constraint
	for {
		t := p.tok()
		switch {
		case (t.kind == tInter || t.kind == tSimMinus) && p.peekKind(1) == tIdent:
			p.advance()
			p.advance()
		case t.kind == tIdent && (p.peekKind(1) == tLess || p.peekKind(1) == tGreater ||
			p.peekKind(1) == tInter || p.peekKind(1) == tSimMinus):
			a := p.advance()
			op := p.advance()
			b := p.ident("in an order constraint")
			c := &Constraint{Pos: a.pos, A: a.text, B: b.text, Interleave: op.kind == tInter || op.kind == tSimMinus}
			if op.kind == tGreater {
				c.A, c.B = b.text, a.text
			}
			cs = append(cs, c)
		default:
			return cs
		}
		if p.tok().kind != tComma {
			return cs
		}
		p.advance()
	}
}

func (p *parser) relDecl() Decl {
	t := p.tok()
	d := &RelDecl{Pos: t.pos}
	switch t.kind {
	case tMu:
		d.Kind = Least
		p.advance()
	case tNu:
		d.Kind = Greatest
		p.advance()
	}
	p.expect(tBool, "in a relation definition")
	d.Name = p.ident("as the relation name").text
	p.expect(tLParen, "after the relation name")
	if p.tok().kind != tRParen {
		for {
			typ := p.typeName("for a parameter")
			n := p.ident("as a parameter name")
			d.Params = append(d.Params, &Param{Pos: n.pos, Type: p.arrayOf(typ), Name: n.text})
			if p.tok().kind != tComma {
				break
			}
			p.advance()
		}
	}
	p.expect(tRParen, "after the parameters")
	d.Order = p.constraints()
	if p.tok().kind == tSemi {
		// A declaration without a body: a forward declaration of a
		// relation defined later (Mucke's prototypes, which Getafix's
		// translator writes for mutually recursive summaries), or, for
		// a plain relation never defined, one whose value comes from Go
		// (Solver.Provide).
		p.advance()
		return d
	}
	d.Body = p.expr()
	p.endDecl("after the relation body")
	return d
}

func (p *parser) directive() Decl {
	h := p.advance()
	d := &Directive{Pos: h.pos}
	n := p.tok()
	if n.kind != tIdent || n.pos.Line != h.pos.Line {
		p.fail(n.pos, "expected a directive name after '#'")
	}
	p.advance()
	d.Name = n.text
	// The arguments are the words on the same line, up to ';'.
	for t := p.tok(); t.kind != tSemi && t.kind != tEOF && t.pos.Line == h.pos.Line; t = p.tok() {
		if t.kind != tIdent && t.kind != tInt {
			p.fail(t.pos, "unexpected %s in directive #%s", p.describe(t), d.Name)
		}
		d.Args = append(d.Args, t.text)
		p.advance()
	}
	if p.tok().kind == tSemi {
		p.advance()
	}
	return d
}

// Formulas, loosest first: <->, -> (right associative), |, &, !, = and !=.
func (p *parser) expr() Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		p.fail(p.tok().pos, "formula nested too deeply")
	}
	if p.tok().kind == tIf {
		return p.ite()
	}
	x := p.imp()
	for {
		switch p.tok().kind {
		case tIff:
			pos := p.advance().pos
			x = &Binary{Pos: pos, Op: OpIff, X: x, Y: p.imp()}
		case tXor: // Mucke's <+>: not equivalent
			pos := p.advance().pos
			x = &Not{Pos: pos, X: &Binary{Pos: pos, Op: OpIff, X: x, Y: p.imp()}}
		case tRevImp: // Mucke's <-: y <- x is x -> y
			pos := p.advance().pos
			x = &Binary{Pos: pos, Op: OpImp, X: p.imp(), Y: x}
		default:
			return x
		}
	}
}

// twice parses what parse reads two times from the same tokens, so that
// a construct that uses a part twice (the condition of if-else) gets two
// trees rather than one shared by two parents.
func (p *parser) twice(parse func() Expr) (Expr, Expr) {
	if p.twiceDepth >= maxTwice {
		p.fail(p.tok().pos, "conditions of if or case nested more than %d deep", maxTwice)
	}
	p.twiceDepth++
	defer func() { p.twiceDepth-- }()
	start := p.i
	x := parse()
	end := p.i
	p.i = start
	y := parse()
	p.i = end
	return x, y
}

// ite parses Mucke's conditional: if (c) a else b, which is
// (c & a) | (!c & b), and if (c) a without else, which is c -> a.
func (p *parser) ite() Expr {
	pos := p.advance().pos
	p.expect(tLParen, "after if")
	c1, c2 := p.twice(p.expr)
	p.expect(tRParen, "after the condition of if")
	a := p.expr()
	if p.tok().kind != tElse {
		return &Binary{Pos: pos, Op: OpImp, X: c1, Y: a}
	}
	p.advance()
	b := p.expr()
	return &Binary{Pos: pos, Op: OpOr,
		X: &Binary{Pos: pos, Op: OpAnd, X: c1, Y: a},
		Y: &Binary{Pos: pos, Op: OpAnd, X: &Not{Pos: pos, X: c2}, Y: b}}
}

// caseExpr parses Mucke's case c1 : e1; ...; cn : en; esac: the first
// ci that holds selects ei, and when none holds the value is false
// (if (c1) e1 else ... else cn & en).
func (p *parser) caseExpr() Expr {
	pos := p.advance().pos
	var conds [][2]Expr
	var vals []Expr
	for {
		c1, c2 := p.twice(p.expr)
		p.expect(tColon, "after a condition of case")
		conds = append(conds, [2]Expr{c1, c2})
		vals = append(vals, p.expr())
		p.expect(tSemi, "after a branch of case")
		if p.tok().kind == tEsac {
			p.advance()
			break
		}
	}
	n := len(vals) - 1
	x := Expr(&Binary{Pos: pos, Op: OpAnd, X: conds[n][0], Y: vals[n]})
	for i := n - 1; i >= 0; i-- {
		x = &Binary{Pos: pos, Op: OpOr,
			X: &Binary{Pos: pos, Op: OpAnd, X: conds[i][0], Y: vals[i]},
			Y: &Binary{Pos: pos, Op: OpAnd, X: &Not{Pos: pos, X: conds[i][1]}, Y: x}}
	}
	return x
}

func (p *parser) imp() Expr {
	x := p.or()
	if p.tok().kind == tImp {
		pos := p.advance().pos
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			p.fail(pos, "formula nested too deeply")
		}
		return &Binary{Pos: pos, Op: OpImp, X: x, Y: p.imp()}
	}
	return x
}

func (p *parser) or() Expr {
	x := p.and()
	for p.tok().kind == tOr {
		pos := p.advance().pos
		x = &Binary{Pos: pos, Op: OpOr, X: x, Y: p.and()}
	}
	return x
}

func (p *parser) and() Expr {
	x := p.unary()
	for p.tok().kind == tAnd {
		pos := p.advance().pos
		x = &Binary{Pos: pos, Op: OpAnd, X: x, Y: p.unary()}
	}
	return x
}

func (p *parser) unary() Expr {
	t := p.tok()
	switch t.kind {
	case tNot:
		p.advance()
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			p.fail(t.pos, "formula nested too deeply")
		}
		return &Not{Pos: t.pos, X: p.unary()}
	case tExists, tForall:
		return p.quant()
	case tLParen:
		p.advance()
		x := p.expr()
		p.expect(tRParen, "to close '('")
		return p.compare(x)
	case tCase:
		return p.compare(p.caseExpr())
	case tIdent:
		if p.peekKind(1) == tLParen {
			return p.apply()
		}
	}
	return p.compare(p.term("in a formula"))
}

func (p *parser) compare(x Expr) Expr {
	if k := p.tok().kind; k == tEq || k == tNeq {
		pos := p.advance().pos
		return &Compare{Pos: pos, Neg: k == tNeq, X: x, Y: p.term("after '='")}
	}
	return x
}

// term parses a constant or a variable or field path.
func (p *parser) term(context string) Expr {
	t := p.tok()
	switch t.kind {
	case tTrue, tFalse:
		p.advance()
		return &Const{Pos: t.pos, Value: t.kind == tTrue}
	case tInt:
		return &Int{Pos: t.pos, Value: p.integer()}
	case tIdent:
		p.advance()
		path := &Path{Pos: t.pos, Names: []string{t.text}}
		p.index(path)
		for p.tok().kind == tDot && p.peekKind(1) == tIdent {
			p.advance()
			path.Names = append(path.Names, p.advance().text)
			p.index(path)
		}
		return path
	}
	p.fail(t.pos, "expected a formula or term %s, found %s", context, p.describe(t))
	return nil
}

// arrayOf reads the [n] after a declared name, if any: the declared
// variable is then an array of typ.
func (p *parser) arrayOf(typ *TypeName) *TypeName {
	if p.tok().kind != tLBrack {
		return typ
	}
	pos := p.advance().pos
	n := p.integer()
	p.expect(tRBrack, "after the array length")
	if n < 1 {
		p.fail(pos, "array length %d: want at least 1", n)
	}
	return &TypeName{Pos: typ.Pos, Name: typ.Name, Len: n}
}

// index reads the [i] after a name in a path, if any, as the name "[i]".
// Mucke allows any term there; this package takes integer constants only.
func (p *parser) index(path *Path) {
	for p.tok().kind == tLBrack {
		p.advance()
		if p.tok().kind != tInt {
			p.fail(p.tok().pos, "expected an integer constant as an array index, found %s", p.describe(p.tok()))
		}
		path.Names = append(path.Names, "["+strconv.Itoa(p.integer())+"]")
		p.expect(tRBrack, "after the array index")
	}
}

func (p *parser) apply() Expr {
	n := p.advance()
	a := &Apply{Pos: n.pos, Name: n.text}
	p.advance() // (
	if p.tok().kind != tRParen {
		for {
			a.Args = append(a.Args, p.term("as an argument"))
			if p.tok().kind != tComma {
				break
			}
			p.advance()
		}
	}
	p.expect(tRParen, "after the arguments of "+a.Name)
	return a
}

func (p *parser) quant() Expr {
	t := p.advance()
	q := &Quant{Pos: t.pos, Forall: t.kind == tForall}
	var typ *TypeName
	for {
		// "T x" starts a new type; a lone "x" reuses the previous one.
		if typ == nil || p.tok().kind == tBool || p.peekKind(1) == tIdent {
			typ = p.typeName("for a quantified variable")
		}
		n := p.ident("as a quantified variable")
		q.Vars = append(q.Vars, &Param{Pos: n.pos, Type: p.arrayOf(typ), Name: n.text})
		if p.tok().kind != tComma {
			break
		}
		p.advance()
	}
	if p.tok().kind == tColon { // Mucke allows ':' too
		p.advance()
	} else {
		p.expect(tDot, "after the quantified variables")
	}
	q.Body = p.expr()
	return q
}
