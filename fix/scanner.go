package fix

import "fmt"

// tok is a token kind.
type tok int

const (
	tEOF tok = iota
	tIdent
	tInt
	tLBrace   // {
	tRBrace   // }
	tLParen   // (
	tRParen   // )
	tSemi     // ;
	tComma    // ,
	tDot      // .
	tDotDot   // ..
	tEq       // =
	tNeq      // !=
	tNot      // !
	tAnd      // &
	tOr       // |
	tImp      // ->
	tIff      // <->
	tLess     // <
	tInter    // ~+
	tHash     // #
	tEnum     // enum
	tClass    // class
	tBool     // bool
	tMu       // mu
	tNu       // nu
	tExists   // exists
	tForall   // forall
	tTrue     // true
	tFalse    // false
	tColon    // :
	tRevImp   // <-
	tXor      // <+>
	tGreater  // >
	tSimMinus // ~-
	tIf       // if
	tElse     // else
	tCase     // case
	tEsac     // esac
	tLBrack   // [
	tRBrack   // ]
	tIllegal
)

var tokNames = [...]string{
	tEOF: "end of file", tIdent: "identifier", tInt: "integer",
	tLBrace: "'{'", tRBrace: "'}'", tLParen: "'('", tRParen: "')'", tSemi: "';'",
	tComma: "','", tDot: "'.'", tDotDot: "'..'", tEq: "'='", tNeq: "'!='",
	tNot: "'!'", tAnd: "'&'", tOr: "'|'", tImp: "'->'", tIff: "'<->'",
	tLess: "'<'", tInter: "'~+'", tHash: "'#'", tEnum: "'enum'",
	tClass: "'class'", tBool: "'bool'", tMu: "'mu'", tNu: "'nu'",
	tExists: "'exists'", tForall: "'forall'", tTrue: "'true'",
	tFalse: "'false'", tColon: "':'", tRevImp: "'<-'", tXor: "'<+>'",
	tGreater: "'>'", tSimMinus: "'~-'", tIf: "'if'", tElse: "'else'",
	tCase: "'case'", tEsac: "'esac'", tLBrack: "'['", tRBrack: "']'", tIllegal: "illegal character",
}

func (t tok) String() string {
	if int(t) < len(tokNames) {
		return tokNames[t]
	}
	return fmt.Sprintf("token(%d)", int(t))
}

var keywords = map[string]tok{
	"enum": tEnum, "class": tClass, "bool": tBool, "mu": tMu, "nu": tNu,
	"exists": tExists, "forall": tForall, "true": tTrue, "false": tFalse,
	// Mucke's other spellings.
	"Exists": tExists, "EXISTS": tExists, "Forall": tForall, "FORALL": tForall,
	"struct": tClass, "if": tIf, "else": tElse, "case": tCase, "esac": tEsac,
}

// scanner splits a source into tokens. It never fails: bad characters
// become tIllegal tokens and an unterminated comment is reported once.
type scanner struct {
	file string
	src  []byte
	off  int
	line int
	col  int
	errs *ErrorList
}

type token struct {
	kind tok
	pos  Pos
	text string
}

func (s *scanner) next() byte {
	c := s.src[s.off]
	s.off++
	if c == '\n' {
		s.line++
		s.col = 1
	} else {
		s.col++
	}
	return c
}

func (s *scanner) peek(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

func isLetter(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skip skips blanks and comments (// to end of line, /* ... */).
func (s *scanner) skip() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			s.next()
		case c == '/' && s.peek(1) == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.next()
			}
		case c == '/' && s.peek(1) == '*':
			start := Pos{s.line, s.col}
			s.next()
			s.next()
			closed := false
			for s.off < len(s.src) {
				if s.src[s.off] == '*' && s.peek(1) == '/' {
					s.next()
					s.next()
					closed = true
					break
				}
				s.next()
			}
			if !closed {
				s.errs.add(s.file, start, "comment not terminated")
			}
		default:
			return
		}
	}
}

func (s *scanner) scan() token {
	s.skip()
	pos := Pos{s.line, s.col}
	if s.off >= len(s.src) {
		return token{kind: tEOF, pos: pos}
	}
	start := s.off
	c := s.next()
	switch {
	case isLetter(c):
		for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off]) || s.src[s.off] == '\'') {
			s.next()
		}
		text := string(s.src[start:s.off])
		if k, ok := keywords[text]; ok {
			return token{kind: k, pos: pos, text: text}
		}
		return token{kind: tIdent, pos: pos, text: text}
	case isDigit(c):
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.next()
		}
		return token{kind: tInt, pos: pos, text: string(s.src[start:s.off])}
	}
	two := func(second byte, k2, k1 tok) token {
		if s.peek(0) == second {
			s.next()
			return token{kind: k2, pos: pos}
		}
		return token{kind: k1, pos: pos}
	}
	switch c {
	case '{':
		return token{kind: tLBrace, pos: pos}
	case '[':
		return token{kind: tLBrack, pos: pos}
	case ']':
		return token{kind: tRBrack, pos: pos}
	case '}':
		return token{kind: tRBrace, pos: pos}
	case '(':
		return token{kind: tLParen, pos: pos}
	case ')':
		return token{kind: tRParen, pos: pos}
	case ';':
		return token{kind: tSemi, pos: pos}
	case ',':
		return token{kind: tComma, pos: pos}
	case '.':
		if s.peek(0) == '.' && s.peek(1) == '.' {
			s.next()
			s.next()
			return token{kind: tDotDot, pos: pos} // Mucke's 0...3
		}
		return two('.', tDotDot, tDot)
	case ':':
		return token{kind: tColon, pos: pos}
	case '>':
		return token{kind: tGreater, pos: pos}
	case '=':
		return token{kind: tEq, pos: pos}
	case '!':
		return two('=', tNeq, tNot)
	case '&':
		return token{kind: tAnd, pos: pos}
	case '|':
		return token{kind: tOr, pos: pos}
	case '#':
		return token{kind: tHash, pos: pos}
	case '-':
		if s.peek(0) == '>' {
			s.next()
			return token{kind: tImp, pos: pos}
		}
	case '<':
		switch {
		case s.peek(0) == '-' && s.peek(1) == '>':
			s.next()
			s.next()
			return token{kind: tIff, pos: pos}
		case s.peek(0) == '+' && s.peek(1) == '>':
			s.next()
			s.next()
			return token{kind: tXor, pos: pos}
		case s.peek(0) == '-':
			s.next()
			return token{kind: tRevImp, pos: pos}
		}
		return token{kind: tLess, pos: pos}
	case '~':
		switch s.peek(0) {
		case '+':
			s.next()
			return token{kind: tInter, pos: pos}
		case '-':
			s.next()
			return token{kind: tSimMinus, pos: pos}
		}
	}
	return token{kind: tIllegal, pos: pos, text: string(s.src[start:s.off])}
}
