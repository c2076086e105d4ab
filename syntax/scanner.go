package syntax

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// scanner splits source text into tokens. It never fails: problems are
// reported through the error callback and scanning goes on, so that one
// stray byte costs one diagnostic, not the rest of the file. The callback
// is only used for constructs that run away (comments and braced names
// left open), after which the parser stays quiet; a stray byte becomes a
// tIllegal token instead.
type scanner struct {
	src  []byte
	off  int // offset of the next unread byte
	line int // line of src[off]
	col  int // column of src[off]
	err  func(pos Pos, msg string)

	comments []*Comment

	// The current token.
	tok    token
	pos    Pos
	lit    string // identifier name, number digits, keyword after `\`, or for tIllegal the diagnostic
	braced bool   // tok is an identifier written {...}

	// Extensions of formulas (see ParseExpr): backslash scans `\word` as
	// one tBackslash token, dotted lets `.` continue a name (t1.x).
	backslash bool
	dotted    bool
}

func (s *scanner) init(src []byte, err func(Pos, string)) {
	s.src, s.off, s.line, s.col, s.err = src, 0, 1, 1, err
	// A UTF-8 byte order mark is not part of the program.
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off = 3
	}
}

func (s *scanner) here() Pos { return Pos{Offset: s.off, Line: s.line, Col: s.col} }

// advance consumes one byte, keeping line and column up to date. A line
// ends at LF, at CRLF (counted once, at its LF) and at a CR on its own (old
// Mac files), so positions are right whichever convention a file uses.
func (s *scanner) advance() {
	if c := s.src[s.off]; c == '\n' || c == '\r' && s.peekByte(1) != '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	s.off++
}

// isLineEnd reports whether c ends a line (LF, or CR alone or before LF).
func isLineEnd(c byte) bool { return c == '\n' || c == '\r' }

func (s *scanner) peekByte(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

func isLetter(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$'
}
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isIdentRest reports whether c may continue an identifier. SATABS also
// allows `#` and `-` inside names (c2bp uses them); since the language has
// no subtraction, `a-b` can only be a name.
func isIdentRest(c byte) bool { return isLetter(c) || isDigit(c) || c == '#' || c == '-' }

// next scans the next token into s.tok, s.pos and s.lit.
func (s *scanner) next() {
	s.skipSpaceAndComments()
	s.pos = s.here()
	s.lit = ""
	s.braced = false
	if s.off >= len(s.src) {
		s.tok = tEOF
		return
	}
	c := s.src[s.off]
	switch {
	case isLetter(c):
		start := s.off
		for s.off < len(s.src) && (isIdentRest(s.src[s.off]) || s.dotted && s.src[s.off] == '.') {
			s.advance()
		}
		word := string(s.src[start:s.off])
		if kw, ok := keywords[word]; ok {
			s.tok = kw
			return
		}
		s.tok, s.lit = tIdent, word
		return
	case isDigit(c):
		start := s.off
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.advance()
		}
		s.tok, s.lit = tNumber, string(s.src[start:s.off])
		return
	case c == '{':
		s.scanBraced()
		return
	case c == '#':
		s.scanDirective()
		return
	case c == '\\' && s.backslash:
		s.advance()
		start := s.off
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
			s.advance()
		}
		s.tok, s.lit = tBackslash, string(s.src[start:s.off])
		return
	}
	s.advance()
	two := func(next byte, long, short token) token {
		if s.off < len(s.src) && s.src[s.off] == next {
			s.advance()
			return long
		}
		return short
	}
	switch c {
	case '(':
		s.tok = tLparen
	case ')':
		s.tok = tRparen
	case '[':
		s.tok = tLbrack
	case ']':
		s.tok = tRbrack
	case ',':
		s.tok = tComma
	case ';':
		s.tok = tSemi
	case ':':
		s.tok = two('=', tAssign, tColon)
	case '<':
		s.tok = tLess
	case '>':
		s.tok = tGreater
	case '\'':
		s.tok = tTick
	case '!':
		s.tok = two('=', tNeq, tNot)
	case '~':
		s.tok = tNot
	case '&':
		s.tok = two('&', tAnd, tAnd)
	case '|':
		s.tok = two('|', tOr, tOr)
	case '^':
		s.tok = tXor
	case '=':
		s.tok = two('>', tImplies, tEq)
		if s.tok == tEq && s.off < len(s.src) && s.src[s.off] == '=' {
			// `==` is C's equality; accept it as `=`.
			s.advance()
		}
	case '*', '?':
		s.tok, s.lit = tStar, string(c)
	default:
		s.tok = tIllegal
		if hint, ok := illegalHints[c]; ok {
			s.lit = hint
			return
		}
		s.lit = s.illegalText(s.pos.Offset)
	}
}

// illegalText describes the byte at off in a diagnostic and skips the rest
// of a multi-byte character so that it yields one diagnostic.
func (s *scanner) illegalText(off int) string {
	r, size := utf8.DecodeRune(s.src[off:])
	if r == utf8.RuneError && size <= 1 {
		return fmt.Sprintf("illegal byte 0x%02x", s.src[off])
	}
	for i := 1; i < size; i++ {
		s.off++
		s.col++
	}
	if r < 0x20 || r == 0x7f {
		return fmt.Sprintf("illegal control character %U", r)
	}
	return fmt.Sprintf("illegal character %q", r)
}

// scanBraced scans a braced identifier `{...}`: any text up to the next `}`.
func (s *scanner) scanBraced() {
	start := s.here()
	s.advance() // {
	textStart := s.off
	for s.off < len(s.src) && s.src[s.off] != '}' && !isLineEnd(s.src[s.off]) {
		s.advance()
	}
	if s.off >= len(s.src) {
		s.err(start, "braced identifier not terminated: missing '}'")
		s.tok, s.lit, s.braced = tIdent, string(s.src[textStart:]), true
		return
	}
	if isLineEnd(s.src[s.off]) {
		// A braced name is one line of text; a '{' that runs on is most
		// likely a C block, certainly so if nothing follows it.
		if len(bytes.TrimSpace(s.src[textStart:s.off])) == 0 {
			s.err(start, "this looks like C: '{' opens a block; Boolean programs write begin ... end")
		} else {
			s.err(start, "braced identifier not closed on its line: missing '}' (blocks are written begin ... end)")
		}
		s.tok, s.lit, s.braced = tIdent, string(s.src[textStart:s.off]), true
		return
	}
	s.tok, s.lit, s.braced = tIdent, string(s.src[textStart:s.off]), true
	s.advance() // }
	if s.lit == "" {
		s.tok, s.lit = tIllegal, "empty braced identifier {}"
	}
}

func (s *scanner) skipSpaceAndComments() {
	for s.off < len(s.src) {
		switch c := s.src[s.off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.advance()
		case c == '/' && s.peekByte(1) == '/':
			start, pos := s.off, s.here()
			for s.off < len(s.src) && !isLineEnd(s.src[s.off]) {
				s.advance()
			}
			s.comments = append(s.comments, &Comment{Slash: pos, Text: string(s.src[start:s.off])})
		case c == '/' && s.peekByte(1) == '*':
			start, pos := s.off, s.here()
			s.advance()
			s.advance()
			for s.off < len(s.src) && !(s.src[s.off] == '*' && s.peekByte(1) == '/') {
				s.advance()
			}
			if s.off >= len(s.src) {
				s.err(pos, "comment not terminated: missing */")
				return
			}
			s.advance()
			s.advance()
			s.comments = append(s.comments, &Comment{Slash: pos, Text: normalizeLineEnds(s.src[start:s.off])})
		default:
			return
		}
	}
}

// normalizeLineEnds returns text with every CRLF and lone CR turned into
// LF, so that a comment's text (which the printer writes back) does not
// depend on the line-end convention of the file it came from.
func normalizeLineEnds(text []byte) string {
	if bytes.IndexByte(text, '\r') < 0 {
		return string(text)
	}
	text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	return string(bytes.ReplaceAll(text, []byte("\r"), []byte("\n")))
}
