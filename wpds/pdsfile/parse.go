package pdsfile

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Parse reads a file in the text format (or, if its first non-blank
// character is '{', in JSON) and checks it. name is used in error
// messages.
func Parse(name string, src []byte) (*File, error) {
	if t := bytes.TrimLeft(src, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return ParseJSON(name, src)
	}
	if !utf8.Valid(src) {
		return nil, &Error{File: name, Pos: firstInvalid(src), Msg: "the file is not valid UTF-8"}
	}
	b := newBuilder(name)
	// phase orders the directives: domain, bits, states, then rules and
	// queries in any order.
	phase := 0
	for i, line := range strings.Split(string(src), "\n") {
		l := &lineLexer{b: b, line: i + 1, s: strings.TrimRight(line, "\r")}
		if j := strings.IndexByte(l.s, '#'); j >= 0 {
			l.s = l.s[:j]
		}
		l.skip()
		if l.i == len(l.s) {
			continue
		}
		pos := l.pos()
		if l.s[l.i] == '<' {
			if phase < 2 {
				if len(b.f.States) == 0 {
					return nil, b.errf(pos, "a rule before the 'states' line")
				}
			}
			phase = 3
			if err := l.rule(); err != nil {
				return nil, err
			}
			continue
		}
		kw, _ := l.name()
		switch kw {
		case "domain":
			if phase > 0 || b.f.Domain != Bool || len(b.f.Bits) > 0 {
				return nil, b.errf(pos, "'domain' must be the first directive, and only one")
			}
			phase = 1
			l.skip()
			p := l.pos()
			d, ok := l.name()
			if !ok {
				return nil, b.errf(p, "want a domain name (bool, minpath or bitvector)")
			}
			if err := b.setDomain(p, d); err != nil {
				return nil, err
			}
		case "bits":
			if phase > 1 {
				return nil, b.errf(pos, "'bits' must come before 'states' and the rules")
			}
			phase = 1
			if err := l.names(b.addBit); err != nil {
				return nil, err
			}
		case "states":
			if phase > 1 {
				return nil, b.errf(pos, "only one 'states' line, before the rules")
			}
			phase = 2
			if err := l.names(b.addState); err != nil {
				return nil, err
			}
			if len(b.f.States) == 0 {
				return nil, b.errf(pos, "'states' needs at least one name")
			}
		case "from", "to":
			if phase < 2 {
				return nil, b.errf(pos, "'%s' before the 'states' line", kw)
			}
			phase = 3
			l.skip()
			p, err := l.config(true)
			if err != nil {
				return nil, err
			}
			if err := l.end(); err != nil {
				return nil, err
			}
			if err := b.addPattern(kw == "to", p); err != nil {
				return nil, err
			}
		default:
			if kw == "" {
				return nil, b.errf(pos, "unexpected %q", l.s[l.i:l.i+1])
			}
			return nil, b.errf(pos, "unknown directive %q (want domain, bits, states, from, to or a rule <p, a> -> <q, b>)", kw)
		}
		if err := l.end(); err != nil {
			return nil, err
		}
	}
	return b.finish()
}

func firstInvalid(src []byte) Pos {
	line, col := 1, 1
	for len(src) > 0 {
		r, n := utf8.DecodeRune(src)
		if r == utf8.RuneError && n <= 1 {
			break
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		src = src[n:]
	}
	return Pos{line, col}
}

// lineLexer reads one line; columns count bytes from 1.
type lineLexer struct {
	b    *builder
	line int
	s    string
	i    int
}

func (l *lineLexer) pos() Pos { return Pos{l.line, l.i + 1} }

func (l *lineLexer) skip() {
	for l.i < len(l.s) && (l.s[l.i] == ' ' || l.s[l.i] == '\t') {
		l.i++
	}
}

func isNameByte(c byte, first bool) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_', c == '$', c == '\'':
		return true
	case c == '.':
		return !first
	}
	return false
}

// name reads a name after blanks; ok is false if there is none.
func (l *lineLexer) name() (string, bool) {
	l.skip()
	j := l.i
	for j < len(l.s) && isNameByte(l.s[j], j == l.i) {
		j++
	}
	n := l.s[l.i:j]
	l.i = j
	return n, n != ""
}

// names reads the names up to the end of the line, giving each to add.
func (l *lineLexer) names(add func(Pos, string) error) error {
	for {
		l.skip()
		if l.i == len(l.s) {
			return nil
		}
		p := l.pos()
		n, ok := l.name()
		if !ok {
			return l.b.errf(p, "want a name, not %q", l.s[l.i:l.i+1])
		}
		if err := add(p, n); err != nil {
			return err
		}
	}
}

func (l *lineLexer) end() error {
	l.skip()
	if l.i < len(l.s) {
		return l.b.errf(l.pos(), "unexpected %q at the end of the line", l.s[l.i:])
	}
	return nil
}

func (l *lineLexer) expect(tok string) error {
	l.skip()
	if !strings.HasPrefix(l.s[l.i:], tok) {
		got := "the end of the line"
		if l.i < len(l.s) {
			got = "\"" + l.s[l.i:l.i+1] + "\""
		}
		return l.b.errf(l.pos(), "want %q, not %s", tok, got)
	}
	l.i += len(tok)
	return nil
}

// config reads <p, a b ...>, <p,> or <p>; "..." only if any.
func (l *lineLexer) config(any bool) (Pattern, error) {
	var p Pattern
	p.Pos = l.pos()
	if err := l.expect("<"); err != nil {
		return p, err
	}
	sp := l.pos()
	st, ok := l.name()
	if !ok {
		return p, l.b.errf(sp, "want a control state after '<'")
	}
	p.State = st
	p.Pos = sp
	l.skip()
	if l.i < len(l.s) && l.s[l.i] == '>' {
		l.i++
		return p, nil
	}
	if err := l.expect(","); err != nil {
		return p, err
	}
	for {
		l.skip()
		q := l.pos()
		switch {
		case l.i == len(l.s):
			return p, l.b.errf(q, "want '>' to close the configuration")
		case l.s[l.i] == '>':
			l.i++
			return p, nil
		case strings.HasPrefix(l.s[l.i:], "..."):
			if !any {
				return p, l.b.errf(q, "'...' (any stack) is for from and to lines, not rules")
			}
			l.i += 3
			p.Any = true
			if err := l.expect(">"); err != nil {
				return p, err
			}
			return p, nil
		}
		g, ok := l.name()
		if !ok {
			return p, l.b.errf(q, "want a stack symbol or '>', not %q", l.s[l.i:l.i+1])
		}
		p.Stack = append(p.Stack, g)
	}
}

// rule reads <p, a> -> <q, w> [weight].
func (l *lineLexer) rule() error {
	lhs, err := l.config(false)
	if err != nil {
		return err
	}
	if len(lhs.Stack) != 1 {
		return l.b.errf(lhs.Pos, "a rule's left side has exactly one stack symbol, not %d", len(lhs.Stack))
	}
	if err := l.expect("->"); err != nil {
		return err
	}
	l.skip()
	rhs, err := l.config(false)
	if err != nil {
		return err
	}
	l.skip()
	wp := l.pos()
	w, err := l.b.parseWeight(wp, l.s[l.i:])
	if err != nil {
		return err
	}
	l.i = len(l.s)
	return l.b.addRule(Rule{Pos: lhs.Pos, From: lhs.State, Sym: lhs.Stack[0], To: rhs.State, Out: rhs.Stack, Weight: w}, rhs.Pos)
}
