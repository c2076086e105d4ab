package witness

import (
	"fmt"
	"strconv"
	"strings"

	"boolprog/bdd"
	"boolprog/ir"
)

// FormatExpression is the constraint format of every formula in a witness:
// a Boolean-program expression (see the package doc, "Formulas").
const FormatExpression = "boolprog_expression"

// formula is a parsed witness formula.
type formula struct {
	op   byte // 'c' constant, 'v' atom, '!', '&', '|', '^', '=', 'n' (!=), '>' (=>)
	val  bool // constant
	atom atom
	x, y *formula
}

// atomKind says which value of a variable an atom names.
type atomKind int

const (
	atomCur    atomKind = iota // the value now
	atomOld                    // the value at the entry of the function: \old(x)
	atomResult                 // returned value i of the function: \result, \resultN
	atomSlot                   // slot of a concurrent invariant's variables (see vars)
)

// atom is one variable occurrence of a formula, resolved against a scope.
type atom struct {
	kind   atomKind
	ref    ir.VarRef // atomCur, atomOld
	ret    int       // atomResult; the slot for atomSlot
	name   string    // as written, for messages
	offset int       // byte offset in the formula
}

// scope says which names a formula may use: the globals and the locals of
// a function; with old, \old(x) of globals and parameters; with results,
// \result0..\result(results-1).
type scope struct {
	p       *ir.Program
	proc    *ir.Proc // nil: globals only
	old     bool
	results int
	// slots, if not nil, names the variables of a concurrent invariant
	// instead of proc and p's globals.
	slots *vars
}

// formulaError is an error at a byte offset of a formula.
type formulaError struct {
	offset  int
	msg     string
	unknown bool // a name the program does not have (not a syntax error)
}

func (e *formulaError) Error() string { return e.msg }

// parseFormula parses a formula and resolves its names in sc.
func parseFormula(src string, sc scope) (*formula, error) {
	ps := &fparser{src: src, sc: sc}
	ps.next()
	f := ps.implies()
	if ps.err == nil && ps.tok != "" {
		ps.fail("unexpected %q", ps.tok)
	}
	if ps.err != nil {
		return nil, ps.err
	}
	return f, nil
}

// fparser is a recursive-descent parser of formulas with the precedence of
// the cprover dialect: ! binds tightest, then &, |, ^, = and !=, =>
// (right-associative).
type fparser struct {
	src    string
	pos    int    // offset after the current token
	tok    string // current token ("" at the end)
	tokPos int
	sc     scope
	err    *formulaError
}

func (ps *fparser) fail(format string, args ...any) {
	if ps.err == nil {
		ps.err = &formulaError{offset: ps.tokPos, msg: fmt.Sprintf(format, args...)}
	}
	ps.tok = ""
}

// failName reports a name the scope does not have.
func (ps *fparser) failName(format string, args ...any) {
	if ps.err == nil {
		ps.fail(format, args...)
		ps.err.unknown = true
	}
}

func isIdentByte(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}

// next scans the next token: an operator, a name (plain or braced), a
// backslash keyword (\old, \result, \resultN), a parenthesis, or "".
func (ps *fparser) next() {
	s := ps.src
	for ps.pos < len(s) && (s[ps.pos] == ' ' || s[ps.pos] == '\t' || s[ps.pos] == '\n' || s[ps.pos] == '\r') {
		ps.pos++
	}
	ps.tokPos = ps.pos
	if ps.pos >= len(s) {
		ps.tok = ""
		return
	}
	start := ps.pos
	c := s[ps.pos]
	switch {
	case c == '!' && ps.pos+1 < len(s) && s[ps.pos+1] == '=', c == '=' && ps.pos+1 < len(s) && s[ps.pos+1] == '>':
		ps.pos += 2
	case strings.IndexByte("!&|^=()", c) >= 0:
		ps.pos++
	case c == '{':
		end := strings.IndexByte(s[ps.pos:], '}')
		if end < 0 {
			ps.fail("unterminated braced name")
			return
		}
		ps.pos += end + 1
	case c == '\\' || isIdentByte(c, true) || '0' <= c && c <= '9':
		ps.pos++
		// A concurrent invariant's names are qualified with dots (t1.x).
		for ps.pos < len(s) && (isIdentByte(s[ps.pos], false) || s[ps.pos] == '.' && ps.sc.slots != nil) {
			ps.pos++
		}
	default:
		ps.fail("unexpected character %q", c)
		return
	}
	ps.tok = s[start:ps.pos]
}

func (ps *fparser) binary(ops []string, codes []byte, sub func() *formula) *formula {
	x := sub()
	for ps.err == nil {
		k := -1
		for i, o := range ops {
			if ps.tok == o {
				k = i
			}
		}
		if k < 0 {
			return x
		}
		ps.next()
		x = &formula{op: codes[k], x: x, y: sub()}
	}
	return x
}

func (ps *fparser) implies() *formula {
	x := ps.binary([]string{"=", "!="}, []byte{'=', 'n'}, ps.xor)
	if ps.err == nil && ps.tok == "=>" {
		ps.next()
		return &formula{op: '>', x: x, y: ps.implies()}
	}
	return x
}

func (ps *fparser) xor() *formula { return ps.binary([]string{"^"}, []byte{'^'}, ps.or) }
func (ps *fparser) or() *formula  { return ps.binary([]string{"|"}, []byte{'|'}, ps.and) }
func (ps *fparser) and() *formula { return ps.binary([]string{"&"}, []byte{'&'}, ps.unary) }

func (ps *fparser) unary() *formula {
	if ps.err != nil {
		return &formula{op: 'c'}
	}
	at := ps.tokPos
	switch tok := ps.tok; {
	case tok == "!":
		ps.next()
		return &formula{op: '!', x: ps.unary()}
	case tok == "(":
		ps.next()
		x := ps.implies()
		if ps.tok != ")" {
			ps.fail("missing )")
			return x
		}
		ps.next()
		return x
	case tok == "T" || tok == "true" || tok == "1":
		ps.next()
		return &formula{op: 'c', val: true}
	case tok == "F" || tok == "false" || tok == "0":
		ps.next()
		return &formula{op: 'c', val: false}
	case tok == `\old`:
		ps.next()
		if ps.tok != "(" {
			ps.fail(`\old needs a parenthesised variable`)
			return &formula{op: 'c'}
		}
		ps.next()
		name, npos := ps.tok, ps.tokPos
		ps.next()
		if ps.tok != ")" {
			ps.fail(`missing ) after \old(%s`, name)
			return &formula{op: 'c'}
		}
		ps.next()
		return ps.variable(name, npos, true)
	case strings.HasPrefix(tok, `\result`):
		ps.next()
		i := 0
		if rest := tok[len(`\result`):]; rest != "" {
			n, err := strconv.Atoi(rest)
			if err != nil {
				ps.tokPos = at
				ps.fail("unknown keyword %s", tok)
				return &formula{op: 'c'}
			}
			i = n
		}
		if i >= ps.sc.results {
			ps.tokPos = at
			ps.failName("%s: no such returned value here", tok)
			return &formula{op: 'c'}
		}
		return &formula{op: 'v', atom: atom{kind: atomResult, ret: i, name: tok, offset: at}}
	case tok == "" || strings.HasPrefix(tok, `\`) || strings.IndexByte("&|^=)", tok[0]) >= 0 || tok == "!=" || tok == "=>":
		if tok == "" {
			ps.fail("unexpected end of formula")
		} else {
			ps.fail("unexpected %q", tok)
		}
		return &formula{op: 'c'}
	default:
		ps.next()
		return ps.variable(tok, at, false)
	}
}

// variable resolves a name (plain or braced) in the scope: a local of the
// function first, then a global.
func (ps *fparser) variable(tok string, at int, old bool) *formula {
	name := tok
	if strings.HasPrefix(tok, "{") && strings.HasSuffix(tok, "}") {
		name = tok[1 : len(tok)-1]
	}
	if name == "" || !(tok[0] == '{' || isIdentByte(tok[0], true)) {
		ps.tokPos = at
		ps.failName("expected a variable, found %q", tok)
		return &formula{op: 'c'}
	}
	sc := ps.sc
	if sc.slots != nil {
		i, ok := sc.slots.byName[name]
		switch {
		case old:
			ps.tokPos = at
			ps.failName(`\old(%s) is not allowed here`, tok)
			return &formula{op: 'c'}
		case !ok:
			ps.tokPos = at
			ps.failName("unknown variable %s", tok)
			return &formula{op: 'c'}
		}
		return &formula{op: 'v', atom: atom{kind: atomSlot, ret: i, name: tok, offset: at}}
	}
	ref, ok := ir.VarRef{}, false
	if sc.proc != nil {
		for i, l := range sc.proc.Locals {
			if l == name {
				ref, ok = ir.VarRef{Index: i}, true
				break
			}
		}
	}
	if !ok {
		for i, g := range sc.p.Globals {
			if g == name {
				ref, ok = ir.VarRef{Global: true, Index: i}, true
				break
			}
		}
	}
	switch {
	case !ok && sc.proc != nil:
		ps.tokPos = at
		ps.failName("unknown variable %s in %s", tok, sc.proc.Name)
		return &formula{op: 'c'}
	case !ok:
		ps.tokPos = at
		ps.failName("unknown global variable %s", tok)
		return &formula{op: 'c'}
	case old && !sc.old:
		ps.tokPos = at
		ps.failName(`\old(%s) is not allowed here`, tok)
		return &formula{op: 'c'}
	case old && !ref.Global && ref.Index >= sc.proc.Params:
		ps.tokPos = at
		ps.failName(`\old(%s): only globals and parameters have entry values`, tok)
		return &formula{op: 'c'}
	}
	kind := atomCur
	if old {
		kind = atomOld
	}
	return &formula{op: 'v', atom: atom{kind: kind, ref: ref, name: tok, offset: at}}
}

// eval evaluates a formula with the atoms' values given by val.
func (f *formula) eval(val func(atom) bool) bool {
	switch f.op {
	case 'c':
		return f.val
	case 'v':
		return val(f.atom)
	case '!':
		return !f.x.eval(val)
	}
	x, y := f.x.eval(val), f.y.eval(val)
	switch f.op {
	case '&':
		return x && y
	case '|':
		return x || y
	case '^', 'n':
		return x != y
	case '=':
		return x == y
	}
	return !x || y // '>'
}

// atoms calls fn on every atom of f.
func (f *formula) atoms(fn func(atom)) {
	if f == nil {
		return
	}
	if f.op == 'v' {
		fn(f.atom)
	}
	f.x.atoms(fn)
	f.y.atoms(fn)
}

// varText is how a formula names variable v of proc (nil: a global): its
// name, braced if needed; \old(name) for its entry value.
func varText(p *ir.Program, proc *ir.Proc, v ir.VarRef, old bool) string {
	var name string
	if v.Global {
		name = p.Globals[v.Index]
	} else {
		name = proc.Locals[v.Index]
	}
	s := ir.IdentText(name)
	if old {
		return `\old(` + s + `)`
	}
	return s
}

// resultText names returned value i.
func resultText(i int) string {
	if i == 0 {
		return `\result`
	}
	return `\result` + strconv.Itoa(i)
}

// shadowed reports whether global g is hidden by a local of proc with the
// same name (a formula then cannot name the global).
func shadowed(p *ir.Program, proc *ir.Proc, g int) bool {
	if proc == nil {
		return false
	}
	for _, l := range proc.Locals {
		if l == p.Globals[g] {
			return true
		}
	}
	return false
}

// bdd builds the BDD of f in m, an atom's BDD given by leaf (which copy of
// which variable it names is the caller's encoding).
func (f *formula) bdd(m *bdd.Manager, leaf func(atom) bdd.Node) bdd.Node {
	switch f.op {
	case 'c':
		if f.val {
			return bdd.True
		}
		return bdd.False
	case 'v':
		return leaf(f.atom)
	case '!':
		return m.Not(f.x.bdd(m, leaf))
	}
	x, y := f.x.bdd(m, leaf), f.y.bdd(m, leaf)
	switch f.op {
	case '&':
		return m.And(x, y)
	case '|':
		return m.Or(x, y)
	case '^', 'n':
		return m.Xor(x, y)
	case '=':
		return m.Equiv(x, y)
	}
	return m.Imp(x, y)
}
