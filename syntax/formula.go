package syntax

import (
	"fmt"
	"strconv"
	"strings"
)

// Mode selects the extensions of the expression language that ParseExpr
// admits beyond the expressions of programs. Witness formulas use them
// (package witness); a program never has them, and ParseFile rejects them
// as it rejects any stray character.
type Mode uint

const (
	// AllowOld admits `\old(x)`, the value of x when the function was
	// entered (an Old node).
	AllowOld Mode = 1 << iota
	// AllowResult admits `\result` and `\result0`, `\result1`, ..., the
	// values a function returns (a Result node).
	AllowResult
	// AllowDotted lets a name contain dots, as the thread-qualified
	// names of concurrent invariants do (t1.x, t1.0.x).
	AllowDotted
	// AllowTrueFalse reads the plain names true and false as the
	// constants T and F (a variable so named must then be braced).
	AllowTrueFalse
)

// ParseExpr parses the source of one expression, such as a formula of a
// witness, with precedence d (Auto means CProver) and the extensions of
// mode. filename is used in diagnostics only; positions count from the
// start of src (line 1, column 1, offset 0). On failure it returns an
// ErrorList sorted by position and a nil Expr.
func ParseExpr(filename string, src []byte, d Dialect, mode Mode) (x Expr, err error) {
	if d == Auto {
		d = CProver
	}
	p := &parser{filename: filename, dialect: d, mode: mode}
	p.sc.init(src, func(pos Pos, msg string) {
		p.errorAt(pos, msg)
		p.truncated = true
	})
	p.sc.backslash = mode&(AllowOld|AllowResult) != 0
	p.sc.dotted = mode&AllowDotted != 0
	defer func() {
		if r := recover(); r != nil {
			switch r.(type) {
			case bailout, syntaxError:
			default:
				panic(r)
			}
		}
		p.errors.Sort()
		if err = p.errors.Err(); err != nil {
			x = nil
		}
	}()
	p.next()
	x = p.parseExpr()
	if p.tok() != tEOF {
		p.fail("operator or end of expression")
	}
	return x, nil
}

// parseBackslash parses a formula keyword: `\old(x)` or `\resultN`.
func (p *parser) parseBackslash() operand {
	pos, word := p.sc.pos, p.sc.lit
	switch {
	case word == "old" && p.mode&AllowOld != 0:
		p.next()
		lparen := p.expect(tLparen)
		if p.tok() != tIdent {
			p.fail(`variable name in \old(...)`)
		}
		x := &Old{Keyword: pos, Lparen: lparen, Name: p.parseIdent()}
		x.Rparen = p.expect(tRparen)
		return operand{x: x}
	case strings.HasPrefix(word, "result") && p.mode&AllowResult != 0:
		i := 0
		if digits := word[len("result"):]; digits != "" {
			n, err := strconv.Atoi(digits)
			if err != nil {
				break
			}
			i = n
		}
		p.next()
		return operand{x: &Result{ResultPos: pos, Index: i}}
	}
	p.errorAt(pos, fmt.Sprintf(`unknown keyword \%s here`, word))
	panic(syntaxError{})
}
