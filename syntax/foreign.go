package syntax

import "fmt"

// Messages for input that is not a Boolean program at all, most often C
// (a .c file given by mistake, or C left in a translated .bp file). Each
// says what was found and why it does not belong, instead of a bare
// "expected X, found Y".

// cWords are C keywords that cannot start anything in a Boolean program
// where they are reported (see cWordMessage), with why.
var cWords = map[string]string{
	"int": "type", "long": "type", "short": "type", "char": "type", "float": "type",
	"double": "type", "signed": "type", "unsigned": "type", "_Bool": "type",
	"struct": "typedef", "union": "typedef", "enum": "typedef", "typedef": "typedef",
	"static": "qualifier", "extern": "qualifier", "const": "qualifier",
	"volatile": "qualifier", "register": "qualifier", "inline": "qualifier",
}

// cWordMessage returns the message for the C keyword word, or "" if word
// is not one.
func cWordMessage(word string) string {
	switch cWords[word] {
	case "type":
		return fmt.Sprintf("this looks like C: '%s' is not a Boolean program type (variables are Boolean and declared with decl; procedures return void, bool or bool<n>)", word)
	case "typedef":
		return fmt.Sprintf("this looks like C: '%s' defines a C type, but a Boolean program has only Boolean variables", word)
	case "qualifier":
		return fmt.Sprintf("this looks like C: '%s' is a C qualifier; Boolean programs have none", word)
	}
	return ""
}

// failIfCWord reports the current token as C and abandons the construct
// if it is an unbraced C keyword.
func (p *parser) failIfCWord() {
	if p.tok() != tIdent || p.sc.braced {
		return
	}
	if msg := cWordMessage(p.sc.lit); msg != "" {
		p.errorAt(p.sc.pos, msg)
		panic(syntaxError{})
	}
}

// illegalHints explain the bytes a Boolean program never has but other
// languages do.
var illegalHints = map[byte]string{
	'}': "this looks like C: '}' closes a block; Boolean programs write begin ... end",
	'+': "illegal character '+': Boolean programs have no arithmetic",
	'-': "illegal character '-': Boolean programs have no arithmetic",
	'"': "illegal character '\"': Boolean programs have no strings",
}

// scanDirective scans a C preprocessor line (`#include <stdio.h>`,
// `# 1 "x.c"`) as one illegal token, so that the rest of the line causes
// no further errors.
func (s *scanner) scanDirective() {
	start := s.off
	s.advance() // #
	for s.off < len(s.src) && (s.src[s.off] == ' ' || s.src[s.off] == '\t') {
		s.advance()
	}
	word := s.off
	for s.off < len(s.src) && (isLetter(s.src[s.off]) || isDigit(s.src[s.off])) {
		s.advance()
	}
	text := string(s.src[start:s.off])
	for s.off < len(s.src) && !isLineEnd(s.src[s.off]) {
		s.advance()
	}
	s.tok = tIllegal
	if s.off == word && text == "#" {
		s.lit = "illegal character '#'"
		return
	}
	s.lit = fmt.Sprintf("this looks like C: '%s' is a preprocessor directive, and Boolean programs have none (run the C preprocessor first)", text)
}
