package syntax

import (
	"strings"
	"testing"
)

// TestParseExpr: the formula extensions parse under their mode, print back
// to text that parses to the same tree, and are errors without it, with
// file:line:col positions counted from the start of the formula.
func TestParseExpr(t *testing.T) {
	const all = AllowOld | AllowResult | AllowDotted | AllowTrueFalse
	cases := []struct {
		src  string
		mode Mode
		want string // ExprString of the tree, or the error's text
	}{
		{"g & !x | l", 0, "g & !x | l"},
		{"(g = \\old(g)) & {p==q}", all, "(g = \\old(g)) & {p==q}"},
		{"\\result != !x", all, "\\result != !x"},
		{"\\result0 = \\result12", all, "\\result = \\result12"},
		{"true | false", AllowTrueFalse, "T | F"},
		{"true | false", 0, "true | false"},
		{"{true} & t1.0.x", all, "{true} & t1.0.x"},
		{"a = b => c", 0, "a = (b => c)"},
		{"g & & x", 0, "f:1:5: expected expression, found '&'"},
		{"(g | x", 0, "f:1:7: expected ')', found end of file"},
		{"g x", 0, "f:1:3: expected operator or end of expression, found identifier x"},
		{"", 0, "f:1:1: expected expression, found end of file"},
		{"{p==q", 0, "f:1:1: braced identifier not terminated: missing '}'"},
		{"\\old(g)", 0, "f:1:1: illegal character '\\\\'"},
		{"\\old(g)", AllowResult, "f:1:1: unknown keyword \\old here"},
		{"\\result", AllowOld, "f:1:1: unknown keyword \\result here"},
		{"\\resultx", all, "f:1:1: unknown keyword \\resultx here"},
		{"\\old(!g)", all, "f:1:6: expected variable name in \\old(...), found '!'"},
		{"\\old(g", all, "f:1:7: expected ')', found end of file"},
		{"t1.x", 0, "f:1:3: illegal character '.'"},
		{"x &\n  \\old(y", all, "f:2:9: expected ')', found end of file"},
	}
	for _, c := range cases {
		x, err := ParseExpr("f", []byte(c.src), CProver, c.mode)
		var got string
		if err != nil {
			got = err.Error()
			if x != nil {
				t.Errorf("%q: a tree with an error", c.src)
			}
		} else {
			got = ExprString(x)
			again, err := ParseExpr("f", []byte(got), CProver, c.mode)
			if err != nil || ExprString(again) != got {
				t.Errorf("%q prints as %q, which reads back as %v (%v)", c.src, got, again, err)
			}
		}
		if got != c.want {
			t.Errorf("%q (mode %b): %s, want %s", c.src, c.mode, got, c.want)
		}
	}
}

// TestFormulaKeywordsNotInPrograms: a program with \old, \result or a
// dotted name is rejected as before the formula extensions.
func TestFormulaKeywordsNotInPrograms(t *testing.T) {
	for _, src := range []string{
		"void main() begin assert(\\old(g)); end",
		"bool f() begin return \\result; end",
		"void main() begin decl t1.x; skip; end",
	} {
		_, err := ParseFile("p.bp", []byte(src), CProver)
		if err == nil || !strings.Contains(err.Error(), "illegal character") {
			t.Errorf("%q: %v, want an illegal character", src, err)
		}
	}
}

// FuzzParseExpr: no formula makes ParseExpr panic, and one that parses
// prints as text that parses back to the same text.
func FuzzParseExpr(f *testing.F) {
	for _, s := range []string{"g & !x | l", "(g = \\old(g)) & {p==q}", "\\result1 != t1.0.x", "true => (a ^ b)", "x &\n\\old(y"} {
		f.Add(s)
	}
	const all = AllowOld | AllowResult | AllowDotted | AllowTrueFalse
	f.Fuzz(func(t *testing.T, src string) {
		x, err := ParseExpr("f", []byte(src), CProver, all)
		if err != nil {
			return
		}
		text := ExprString(x)
		again, err := ParseExpr("f", []byte(text), CProver, all)
		if err != nil || ExprString(again) != text {
			t.Errorf("%q prints as %q, which reads back as %v (%v)", src, text, again, err)
		}
	})
}
