package fix

import (
	"context"
	"strings"
	"testing"
)

// TestFrontier: files whose answer needs every application's delta (the
// second application of R in Two reads the new tuple), with and without
// #frontier; and the directives Check refuses.
func TestFrontier(t *testing.T) {
	const two = `
enum N {0..4};
bool E(N a, N b, N c) ( (a=0 & b=0 & c=1) | (a=0 & b=1 & c=2) | (a=2 & b=2 & c=3) );
mu bool R(N x) ( x=0 | exists N y, N z. (R(y) & R(z) & E(y, z, x)) );
`
	const mutual = `
enum N {0..7};
mu bool A(N x) ( x=0 | exists N y. (B(y) & (y=0 & x=2 | y=3 & x=4 | y=5 & x=6)) );
mu bool B(N x) ( x=1 | exists N y. (A(y) & (y=0 & x=3 | y=2 & x=5 | y=4 & x=7)) | exists N y. (B(y) & y=1 & x=0) );
`
	for _, tc := range []struct {
		name, src, query string
		want             bool
	}{
		{"second application", two, "R(2)", true},
		{"third", two, "R(3)", true},
		{"not too much", two, "R(4)", false},
		{"mutual", mutual, "A(6) & B(7)", true},
		{"mutual, unreachable", mutual, "A(1) | B(2)", false},
	} {
		for _, frontier := range []bool{false, true} {
			src := tc.src + tc.query + ";\n"
			if frontier {
				name := "A"
				if strings.Contains(tc.src, "mu bool R") {
					name = "R"
				}
				src = tc.src + "#frontier " + name + ";\n" + tc.query + ";\n"
			}
			f, err := ParseFile("f.mu", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			ans, err := Solve(context.Background(), f, Options{})
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if ans.Value != tc.want {
				t.Errorf("%s (frontier %v): %v, want %v", tc.name, frontier, ans.Value, tc.want)
			}
		}
	}
	for _, tc := range []struct{ name, src, want string }{
		{"negation", "enum N {0..3};\nmu bool R(N x) ( x=0 | exists N y. (!R(y) & x=1) );\n#frontier R;\n", "f.mu:3:1: #frontier R: R applies R under a negation"},
		{"forall", "enum N {0..3};\nmu bool R(N x) ( x=0 | forall N y. R(y) );\n#frontier R;\n", "f.mu:3:1: #frontier R: R applies R under"},
		{"nu", "enum N {0..3};\nnu bool R(N x) ( R(x) );\n#frontier R;\n", "f.mu:3:1: #frontier R: R is not a mu relation"},
		{"unknown", "#frontier Q;\n", "f.mu:1:1: #frontier names Q, which is not a relation"},
	} {
		f, err := ParseFile("f.mu", []byte(tc.src))
		if err == nil {
			err = Check(f)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}
