package syntax

import (
	"fmt"
	"strconv"
)

// MaxNesting bounds how deeply statements and expressions may nest, so that
// the parser and every recursive walker of the tree run in a small stack: a
// pathological input (100,000 open parentheses) gets one diagnostic, and no
// machine-generated program comes near the bound.
//
// What counts: each statement inside a block (a block nested in an `if`
// or `while` is one level deeper), each pair of parentheses, `!` and
// `schoose`, each `=>` of a chain of implications (`a => b => c` is two
// levels), and each change of operator within one precedence level of a
// chain (`a = b != c` is two). What does not: a chain of one associative
// operator (`a & b & ... & z` is one level however long: it is built as a
// balanced tree, which takes in parenthesised chains of the same operator,
// though their parentheses count while they are read) and a chain of
// `elsif` branches (one level for the whole `if`).
const MaxNesting = 1000

// maxErrors is how many syntax errors are reported before giving up; past
// that, more messages are almost always echoes of the first few.
const maxErrors = 10

// ParseFile parses the source of one Boolean program. filename is used in
// diagnostics only. On failure it returns the tree built so far (possibly
// incomplete) and an ErrorList sorted by position.
//
// With d = Auto the file is parsed with Getafix precedence if DetectDialect
// finds the Getafix convention in it, else with CProver precedence; the
// returned File's Dialect says which.
func ParseFile(filename string, src []byte, d Dialect) (*File, error) {
	switch d {
	case Auto:
		f, err := parse(filename, src, CProver)
		if got, _ := DetectDialect(f); got == Getafix {
			return parse(filename, src, Getafix)
		}
		return f, err
	case Getafix:
		return parse(filename, src, Getafix)
	}
	return parse(filename, src, CProver)
}

func parse(filename string, src []byte, d Dialect) (f *File, err error) {
	p := &parser{filename: filename, dialect: d}
	p.sc.init(src, func(pos Pos, msg string) {
		// The scanner only complains about comments and braced names
		// left open; whatever the parser then says about the text they
		// swallowed would be an echo.
		p.errorAt(pos, msg)
		p.truncated = true
	})
	f = &File{Name: filename, Dialect: d}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
		}
		f.Comments = p.sc.comments
		p.ambiguities.Sort()
		f.ambiguities = p.ambiguities
		p.errors.Sort()
		err = p.errors.Err()
	}()
	p.next()
	p.parseFile(f)
	return f, err
}

// bailout is panicked to abandon parsing (too many errors, nesting bound).
type bailout struct{}

type parser struct {
	filename  string
	dialect   Dialect
	mode      Mode // extensions of expressions (ParseExpr only)
	sc        scanner
	errors    ErrorList
	lastLine  int  // line of the last reported error: one error per line
	truncated bool // the scanner hit an unterminated construct: stay quiet
	depth     int

	ambiguities ErrorList // expressions the other dialect reads differently

	// Stacks of the operands and operators of the expression groups
	// being parsed (see parseGroup).
	operands []operand
	ops      []chainOp
}

func (p *parser) next() {
	p.sc.next()
	if p.sc.tok == tIllegal {
		p.errorAt(p.sc.pos, p.sc.lit)
		p.next()
	}
}

func (p *parser) tok() token { return p.sc.tok }

// errorAt records a diagnostic. Only the first per line is kept: after an
// error the parser resynchronises, and what it trips over on the same line
// is noise.
func (p *parser) errorAt(pos Pos, msg string) {
	if p.truncated || len(p.errors) > 0 && pos.Line == p.lastLine {
		return
	}
	p.lastLine = pos.Line
	p.errors.Add(p.filename, pos, msg)
	if len(p.errors) >= maxErrors {
		p.errors.Add(p.filename, pos, "too many errors")
		panic(bailout{})
	}
}

// describe names the current token for "expected X, found Y" messages.
func (p *parser) describe() string {
	switch p.tok() {
	case tIdent:
		if p.sc.braced {
			return "identifier {" + p.sc.lit + "}"
		}
		return "identifier " + p.sc.lit
	case tNumber:
		return "number " + p.sc.lit
	case tEOF:
		return "end of file"
	case tStar:
		return "'" + p.sc.lit + "'"
	case tBackslash:
		return "keyword \\" + p.sc.lit
	}
	if p.tok() > tKeywords {
		return "keyword " + p.tok().String()
	}
	return "'" + p.tok().String() + "'"
}

func (p *parser) errorExpected(what string) {
	p.errorAt(p.sc.pos, fmt.Sprintf("expected %s, found %s", what, p.describe()))
}

// syntaxError is panicked inside a statement or declaration to unwind to
// the nearest recovery point; the message has been recorded already.
type syntaxError struct{}

func (p *parser) fail(what string) {
	p.errorExpected(what)
	panic(syntaxError{})
}

func (p *parser) expect(t token) Pos {
	pos := p.sc.pos
	if p.tok() != t {
		p.fail("'" + t.String() + "'")
	}
	p.next()
	return pos
}

func (p *parser) got(t token) bool {
	if p.tok() == t {
		p.next()
		return true
	}
	return false
}

func (p *parser) enter() {
	p.depth++
	if p.depth > MaxNesting {
		p.tooDeep(p.sc.pos)
	}
}

// tooDeep reports that the program passes MaxNesting at pos and abandons
// parsing.
func (p *parser) tooDeep(pos Pos) {
	p.errors.Add(p.filename, pos, fmt.Sprintf("program nested too deeply (more than %d levels)", MaxNesting))
	panic(bailout{})
}

func (p *parser) leave() { p.depth-- }

// recovering runs parse and, if it hits a syntax error, skips tokens until
// one for which stop returns true (without consuming it) or a semicolon
// (consumed), so that parsing can go on. It always consumes at least one
// token after an error: resuming at the token that failed would fail again
// forever.
func (p *parser) recovering(parse func(), stop func(token) bool) {
	depth := p.depth
	start := p.sc.pos.Offset
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(syntaxError); !ok {
				panic(r)
			}
			p.depth = depth
			if p.sc.pos.Offset == start && p.tok() != tEOF {
				p.next()
			}
			for p.tok() != tEOF && !stop(p.tok()) {
				if p.tok() == tSemi {
					p.next()
					return
				}
				p.next()
			}
		}
	}()
	parse()
}

// ---------------------------------------------------------------------------
// Declarations and procedures

func (p *parser) parseFile(f *File) {
	topStop := func(t token) bool { return t == kwDecl || t == kwVoid || t == kwBool || t == kwDfs }
	for p.tok() != tEOF {
		switch p.tok() {
		case kwDecl:
			p.recovering(func() { f.Globals = append(f.Globals, p.parseDecl()) }, topStop)
		case kwVoid, kwBool, kwDfs, tIdent:
			p.recovering(func() { f.Procs = append(f.Procs, p.parseProc()) }, topStop)
		case tSemi:
			p.next() // a stray semicolon between declarations is harmless
		default:
			p.recovering(p.failTopLevel, topStop)
		}
	}
}

// failTopLevel reports the current token where a declaration or procedure
// should start, saying why when it is recognisably something else.
func (p *parser) failTopLevel() {
	p.failIfCWord()
	t := p.tok()
	if t == tIdent {
		save := p.sc
		p.next()
		t = p.tok()
		p.sc = save
		if t == tAssign || t == tComma || t == tEq || t == tColon {
			t = kwSkip // a statement
		}
	}
	if isStmtStart(t) && !closesBlock(t) {
		p.errorAt(p.sc.pos, fmt.Sprintf("expected declaration or procedure, found %s: statements belong between a procedure's begin and end", p.describe()))
		panic(syntaxError{})
	}
	p.fail("declaration or procedure")
}

func (p *parser) parseIdent() *Ident {
	if p.tok() != tIdent {
		p.fail("identifier")
	}
	id := &Ident{NamePos: p.sc.pos, Name: p.sc.lit, Braced: p.sc.braced}
	p.next()
	return id
}

// parseVarName parses an identifier that declares a variable.
func (p *parser) parseVarName() *Ident {
	id := p.parseIdent()
	if !id.Braced && (id.Name == "T" || id.Name == "F") {
		p.errorAt(id.NamePos, fmt.Sprintf("cannot declare %s: T and F are the Boolean constants", id.Name))
	}
	return id
}

// parseParam parses a parameter name, recognising C's typed parameters.
func (p *parser) parseParam() *Ident {
	typed := p.tok() == kwBool || p.tok() == kwVoid
	if p.tok() == tIdent && !p.sc.braced && cWords[p.sc.lit] != "" {
		save := p.sc
		p.next()
		typed = p.tok() == tIdent || p.tok() == tStar
		p.sc = save
	}
	if typed {
		p.errorAt(p.sc.pos, fmt.Sprintf("this looks like C: '%s' is a type, but parameters of a Boolean program have none (write f(x), not f(bool x))", p.tok2text()))
		panic(syntaxError{})
	}
	return p.parseVarName()
}

// tok2text returns the current token's text.
func (p *parser) tok2text() string {
	if p.tok() == tIdent || p.tok() == tNumber {
		return p.sc.lit
	}
	return p.tok().String()
}

func (p *parser) parseIdentList(parse func() *Ident) []*Ident {
	list := []*Ident{parse()}
	for p.got(tComma) {
		list = append(list, parse())
	}
	return list
}

// parseDecl parses a declaration in either form of initialisers: a list
// after the names (`decl a, b := e1, e2;`) or one after each name (`decl
// a := e1, b := e2;`, as iJIT's and Liu and Wahl's examples write them).
// `decl a := e1, b` is the list form (a mismatch) unless `:=` follows b.
func (p *parser) parseDecl() *Decl {
	d := &Decl{DeclPos: p.expect(kwDecl)}
	d.Names = p.parseIdentList(p.parseVarName)
	if p.tok() == tAssign {
		d.Assign = p.sc.pos
		p.next()
		d.Inits = []Expr{p.parseExpr()}
		for (d.Each || len(d.Names) == 1) && p.tok() == tComma && p.initFollows() {
			p.next()
			d.Names = append(d.Names, p.parseVarName())
			p.expect(tAssign)
			d.Inits = append(d.Inits, p.parseExpr())
			d.Each = true
		}
		for !d.Each && p.got(tComma) {
			d.Inits = append(d.Inits, p.parseExpr())
		}
		if len(d.Inits) != len(d.Names) {
			p.errorAt(d.Assign, fmt.Sprintf("%s declared with %s: give one per variable",
				count(len(d.Names), "variable"), count(len(d.Inits), "initial value")))
		}
	}
	p.expect(tSemi)
	return d
}

// initFollows reports whether the comma at the current token is followed
// by a name and `:=`: the next variable of a declaration with an
// initialiser after each name.
func (p *parser) initFollows() bool {
	save := p.sc
	defer func() { p.sc = save }()
	p.next()
	if p.tok() != tIdent {
		return false
	}
	p.next()
	return p.tok() == tAssign
}

// count formats "1 thing" or "n things".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// parseLabel parses a label where one is used (goto targets): a name, or
// a number as in SATABS's generated programs (`goto 3, 7;`).
func (p *parser) parseLabel() *Ident {
	if p.tok() == tNumber {
		id := &Ident{NamePos: p.sc.pos, Name: p.sc.lit}
		p.next()
		return id
	}
	if p.tok() != tIdent {
		p.fail("label")
	}
	return p.parseIdent()
}

func (p *parser) parseProc() *Proc {
	pr := &Proc{TypePos: p.sc.pos}
	p.got(kwDfs) // SATABS's search-order hint; it does not change the meaning
	switch p.tok() {
	case kwVoid:
		p.next()
	case kwBool:
		p.next()
		pr.Returns = 1
		if p.got(tLess) {
			if p.tok() != tNumber {
				p.fail("number of returned values")
			}
			n, err := strconv.Atoi(p.sc.lit)
			if err != nil || n < 1 || n > 64 {
				p.errorAt(p.sc.pos, fmt.Sprintf("invalid number of returned values %s (must be 1 to 64)", p.sc.lit))
				n = 1
			}
			pr.Returns = n
			p.next()
			p.expect(tGreater)
		}
	case tIdent:
		// The Bebop paper writes procedures without a return type; any
		// other identifier at the top level is a stray statement.
		save := p.sc
		p.next()
		isProc := p.tok() == tLparen
		p.sc = save
		if !isProc {
			p.failTopLevel()
		}
	default:
		p.fail("procedure")
	}
	pr.Name = p.parseIdent()
	if p.tok() == tSemi || p.tok() == tComma {
		p.errorAt(p.sc.pos, fmt.Sprintf("expected '(' after procedure name %s (variables are declared with decl, not a type)", pr.Name.Name))
		panic(syntaxError{})
	}
	p.expect(tLparen)
	if p.tok() != tRparen {
		pr.Params = p.parseIdentList(p.parseParam)
	}
	p.expect(tRparen)
	pr.Begin = p.expect(kwBegin)
	for p.tok() == kwDecl || p.tok() == tSemi {
		if p.got(tSemi) {
			// A stray `;` must not turn the declarations that follow
			// into statements: the printer would write them back as
			// the procedure's declarations, a different tree.
			continue
		}
		p.recovering(func() { pr.Locals = append(pr.Locals, p.parseDecl()) }, isStmtStart)
	}
	if p.tok() == kwEnforce {
		p.recovering(func() {
			p.next()
			pr.Enforce = p.parseExpr()
			p.expectStmtEnd()
		}, isStmtStart)
	}
	pr.Body = p.parseStmtList()
	for p.tok() == kwElse || p.tok() == kwElsif || p.tok() == kwFi || p.tok() == kwOd {
		// A closing keyword with nothing to close: report it and go on
		// with the statements after it.
		opener := "if"
		if p.tok() == kwOd {
			opener = "while"
		}
		p.errorAt(p.sc.pos, fmt.Sprintf("%s without matching %s", p.tok(), opener))
		p.next()
		p.got(tSemi)
		pr.Body = append(pr.Body, p.parseStmtList()...)
	}
	pr.End = p.expect(kwEnd)
	return pr
}

// ---------------------------------------------------------------------------
// Statements

// isStmtStart reports whether t can begin a statement or close a block; it
// is where statement-level recovery resumes.
func isStmtStart(t token) bool {
	switch t {
	case kwSkip, kwPrint, kwGoto, kwReturn, kwIf, kwWhile, kwAssert, kwAssume,
		kwAbortif, kwDead, kwDecl, kwCall, kwStartThread, kwEndThread,
		kwAtomicBegin, kwAtomicEnd, kwEnforce, kwEnd, kwFi, kwOd, kwElse, kwElsif,
		kwVoid, kwBool:
		return true
	}
	return false
}

// closesBlock reports whether t ends a statement list.
func closesBlock(t token) bool {
	switch t {
	case kwEnd, kwFi, kwOd, kwElse, kwElsif, tEOF:
		return true
	}
	return false
}

func (p *parser) parseStmtList() []Stmt {
	var list []Stmt
	for !closesBlock(p.tok()) {
		if p.tok() == kwVoid || p.tok() == kwBool {
			// Most likely a missing `end`: let the caller report it at
			// the procedure that follows.
			break
		}
		if p.got(tSemi) {
			continue // empty statement
		}
		p.recovering(func() {
			if s := p.parseStmt(); s != nil {
				list = append(list, s)
			}
		}, isStmtStart)
	}
	return list
}

// expectStmtEnd consumes the `;` that ends a simple statement. The last
// statement of a block may omit it, as SATABS allows.
func (p *parser) expectStmtEnd() {
	if p.got(tSemi) || closesBlock(p.tok()) {
		return
	}
	p.fail("';'")
}

func (p *parser) parseStmt() Stmt {
	p.enter()
	defer p.leave()
	var labels []*Ident
	for p.tok() == tIdent || p.tok() == tNumber {
		// A label is an identifier or a number (`0: skip;`, as SATABS
		// generates them) followed by ':'; anything else that starts
		// with an identifier is an assignment or a call.
		save := p.sc
		id := &Ident{NamePos: p.sc.pos, Name: p.sc.lit, Braced: p.sc.braced}
		p.next()
		if p.tok() != tColon {
			p.sc = save
			break
		}
		p.next()
		labels = append(labels, id)
	}
	s := p.parseUnlabelled(labels)
	return s
}

func (p *parser) parseUnlabelled(labels []*Ident) Stmt {
	l := Labels{Labels: labels}
	pos := p.sc.pos
	switch p.tok() {
	case kwSkip:
		p.next()
		p.expectStmtEnd()
		return &SkipStmt{Labels: l, Keyword: pos}
	case kwPrint:
		p.next()
		p.expect(tLparen)
		s := &PrintStmt{Labels: l, Keyword: pos}
		if p.tok() != tRparen {
			s.Args = p.parseExprList()
		}
		p.expect(tRparen)
		p.expectStmtEnd()
		return s
	case kwGoto:
		p.next()
		s := &GotoStmt{Labels: l, Keyword: pos, Targets: p.parseIdentList(p.parseLabel)}
		p.expectStmtEnd()
		return s
	case kwReturn:
		p.next()
		s := &ReturnStmt{Labels: l, Keyword: pos}
		if p.tok() != tSemi && !closesBlock(p.tok()) {
			s.Results = p.parseExprList()
		}
		p.expectStmtEnd()
		return s
	case kwAssert, kwAssume, kwAbortif, kwEnforce, kwConstrain:
		kw := p.tok()
		p.next()
		s := condStmt(kw, l, pos, p.parseExpr())
		p.expectStmtEnd()
		return s
	case kwDead:
		p.next()
		s := &DeadStmt{Labels: l, Keyword: pos, Vars: p.parseIdentList(p.parseIdent)}
		p.expectStmtEnd()
		return s
	case kwDecl:
		return &DeclStmt{Labels: l, Decl: p.parseDecl()}
	case kwCall:
		p.next()
		s := p.parseCall(l, nil, p.parseIdent())
		p.expectStmtEnd()
		return s
	case kwStartThread:
		p.next()
		s := &StartThreadStmt{Labels: l, Keyword: pos}
		switch p.tok() {
		case kwGoto:
			gpos := p.sc.pos
			p.next()
			s.Target = &GotoStmt{Keyword: gpos, Targets: []*Ident{p.parseLabel()}}
		case kwCall:
			p.next()
			s.Target = p.parseCall(Labels{}, nil, p.parseIdent())
		case tIdent:
			s.Target = p.parseCall(Labels{}, nil, p.parseIdent())
		default:
			p.fail("procedure call or goto after start_thread")
		}
		p.expectStmtEnd()
		return s
	case kwEndThread:
		p.next()
		p.expectStmtEnd()
		return &EndThreadStmt{Labels: l, Keyword: pos}
	case kwAtomicBegin:
		p.next()
		p.expectStmtEnd()
		return &AtomicBeginStmt{Labels: l, Keyword: pos}
	case kwAtomicEnd:
		p.next()
		p.expectStmtEnd()
		return &AtomicEndStmt{Labels: l, Keyword: pos}
	case kwIf:
		return p.parseIf(l)
	case kwWhile:
		p.next()
		s := &WhileStmt{Labels: l, Keyword: pos, Cond: p.parseExpr()}
		p.expect(kwDo)
		s.Body = p.parseStmtList()
		s.Od = p.expect(kwOd)
		p.got(tSemi)
		return s
	case tIdent:
		return p.parseAssignOrCall(l)
	}
	if len(labels) > 0 && closesBlock(p.tok()) {
		p.errorAt(pos, fmt.Sprintf("label %s must be followed by a statement", labels[len(labels)-1].Name))
		panic(syntaxError{})
	}
	p.fail("statement")
	return nil
}

// condStmt builds the statement of keyword kw, all of which are
// `keyword condition;`.
func condStmt(kw token, l Labels, pos Pos, cond Expr) Stmt {
	switch kw {
	case kwAssert:
		return &AssertStmt{Labels: l, Keyword: pos, Cond: cond}
	case kwAssume:
		return &AssumeStmt{Labels: l, Keyword: pos, Cond: cond}
	case kwAbortif:
		return &AbortifStmt{Labels: l, Keyword: pos, Cond: cond}
	case kwEnforce:
		return &EnforceStmt{Labels: l, Keyword: pos, Cond: cond}
	}
	return &ConstrainStmt{Labels: l, Keyword: pos, Cond: cond}
}

// parseIf parses an `if` with its `elsif` chain, iteratively: a chain of
// any length is one level of nesting.
func (p *parser) parseIf(l Labels) *IfStmt {
	first := &IfStmt{Labels: l, Keyword: p.sc.pos}
	chain := []*IfStmt{first}
	for s := first; ; {
		p.next() // if or elsif
		s.Cond = p.parseExpr()
		p.expect(kwThen)
		s.Then = p.parseStmtList()
		if p.tok() == kwElsif {
			inner := &IfStmt{Keyword: p.sc.pos, Elsif: true}
			s.Else = []Stmt{inner}
			chain = append(chain, inner)
			s = inner
			continue
		}
		if p.tok() == kwElse {
			s.ElsePos = p.sc.pos
			p.next()
			s.Else = p.parseStmtList()
			if s.Else == nil {
				s.Else = []Stmt{}
			}
		}
		break
	}
	fi := p.expect(kwFi)
	for _, s := range chain {
		s.Fi = fi
	}
	p.got(tSemi)
	return first
}

// parseAssignOrCall parses the statements that start with an identifier:
// `f(e);`, `x, y := e1, e2 [constrain c];` and `x, _ := f(e);`.
func (p *parser) parseAssignOrCall(l Labels) Stmt {
	if !p.sc.braced && cWords[p.sc.lit] != "" {
		// `int x;`, `struct s {`: a C declaration among the statements.
		save := p.sc
		p.next()
		c := p.tok() == tIdent || p.tok() == tStar
		p.sc = save
		if c {
			p.failIfCWord()
		}
	}
	first := p.parseIdent()
	if first.Name == "sync" && !first.Braced && p.tok() == tIdent {
		// `sync` is not reserved (Getafix programs may name a variable
		// so); followed by a name it is SATABS's sync statement.
		s := &SyncStmt{Labels: l, Keyword: first.NamePos, Event: p.parseIdent()}
		p.expectStmtEnd()
		return s
	}
	if p.tok() == tLparen {
		s := p.parseCall(l, nil, first)
		p.expectStmtEnd()
		return s
	}
	lhs := []*Ident{first}
	for p.got(tComma) {
		lhs = append(lhs, p.parseIdent())
	}
	if p.tok() == tEq {
		p.errorAt(p.sc.pos, fmt.Sprintf("this looks like C: '=' is equality in a Boolean program; assignment is written %s := ...", identList(lhs)))
		panic(syntaxError{})
	}
	if p.tok() != tAssign {
		if len(lhs) == 1 {
			p.fail("':=', '(' or ':' after identifier " + first.Name)
		}
		p.fail("':='")
	}
	assign := p.sc.pos
	p.next()
	if p.tok() == kwCall {
		p.next()
		s := p.parseCall(l, lhs, p.parseIdent())
		p.expectStmtEnd()
		return s
	}
	if p.tok() == tIdent {
		// `x := f(...)` is a call; `x := y` and `x := y & z` are not.
		save := p.sc
		id := &Ident{NamePos: p.sc.pos, Name: p.sc.lit, Braced: p.sc.braced}
		p.next()
		if p.tok() == tLparen {
			s := p.parseCall(l, lhs, id)
			p.expectStmtEnd()
			return s
		}
		p.sc = save
	}
	s := &AssignStmt{Labels: l, Lhs: lhs, Assign: assign, Rhs: p.parseExprList()}
	if p.got(kwConstrain) {
		s.Constrain = p.parseExpr()
	}
	p.expectStmtEnd()
	return s
}

func (p *parser) parseCall(l Labels, lhs []*Ident, name *Ident) *CallStmt {
	s := &CallStmt{Labels: l, Lhs: lhs, Proc: name, Lparen: p.expect(tLparen)}
	if p.tok() != tRparen {
		s.Args = p.parseExprList()
	}
	p.expect(tRparen)
	return s
}
