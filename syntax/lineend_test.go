package syntax

import (
	"strings"
	"testing"
)

// TestLineEnds checks that positions are the same whether a file ends its
// lines with LF, CRLF or CR alone, for tokens, comments and errors.
func TestLineEnds(t *testing.T) {
	const src = "decl g; // one\n/* two\nlines */ void main()\nbegin\n  g := {a b};\n  x := 2;\nend\n"
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		text := strings.ReplaceAll(src, "\n", eol)
		f, err := ParseFile("x.bp", []byte(text), CProver)
		if err == nil {
			t.Fatalf("%q: no error", eol)
		}
		if got, want := err.Error(), "x.bp:6:8: invalid constant 2: the Boolean constants are 0, 1, F and T"; got != want {
			t.Errorf("%q: error %q, want %q", eol, got, want)
		}
		if got := f.Procs[0].Pos(); got.Line != 3 || got.Col != 10 {
			t.Errorf("%q: main at %v, want 3:10", eol, got)
		}
		if got := f.Procs[0].Body[0].Pos(); got.Line != 5 || got.Col != 3 {
			t.Errorf("%q: first statement at %v, want 5:3", eol, got)
		}
		var texts []string
		for _, c := range f.Comments {
			texts = append(texts, c.Pos().String()+" "+c.Text)
		}
		if got, want := strings.Join(texts, "|"), "1:9 // one|2:1 /* two\nlines */"; got != want {
			t.Errorf("%q: comments %q, want %q", eol, got, want)
		}
	}
}

// TestLineEndsRoundTrip checks that CR-only and CRLF files print (with LF)
// to the same tree, comments included.
func TestLineEndsRoundTrip(t *testing.T) {
	const src = "decl g; // one\n/* two\nlines */ void main()\nbegin\n  g := !g; // three\nend\n"
	for _, eol := range []string{"\r\n", "\r"} {
		roundTrip(t, "x.bp", []byte(strings.ReplaceAll(src, "\n", eol)), CProver)
	}
}
