package fix

import (
	"errors"
	"strings"
	"testing"
)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // each a full diagnostic line
	}{
		{"illegal char", "enum A {0..1};\n bool R(A x) (x = 1 $ x = 0);",
			[]string{"e.mu:2:21: illegal character \"$\"", "e.mu:2:23: expected ')' to close '(', found identifier x"}},
		{"missing paren", "bool R(bool x) (x & ;\ntrue;",
			[]string{"e.mu:1:21: expected a formula or term in a formula, found ';'"}},
		{"unterminated comment", "true; /* no end",
			[]string{"e.mu:1:7: comment not terminated"}},
		{"bad enum", "enum A {3..1};", []string{"e.mu:1:1: empty enum range 3..1"}},
		{"two errors", "enum {0..1};\nclass C { bool ; };\ntrue;",
			[]string{"e.mu:1:6: expected identifier after enum, found '{'", "e.mu:2:16: expected identifier as a field name, found ';'"}},
		{"quantifier without dot", "exists bool x (x);",
			[]string{"e.mu:1:15: expected '.' after the quantified variables, found '('"}},
		{"directive without name", "# ;", []string{"e.mu:1:3: expected a directive name after '#'"}},
		{"huge int", "enum A {0..99999999999999999999};", []string{"e.mu:1:12: integer 99999999999999999999 out of range"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseFile("e.mu", []byte(tc.src))
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("err = %v, want an ErrorList", err)
			}
			got := strings.Split(list.Error(), "\n")
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestParseShape(t *testing.T) {
	src := `// a comment
enum M {0..4};
enum C {red, green};
class G { bool v1; M m; };
class Gs { G g0; G h0; } g0 ~+ h0;
#size R;
mu bool R(M m, Gs s, M m')
 m < s,
 m ~+ m'
( R(0, s, m') | (exists M a, b, G x. (a=b & x.v1 = 1)) -> !s.g0.v1 <-> m = m' );
#timer go;
#reset R;
(R(1, t, 2));
`
	f, err := ParseFile("s.mu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Decls) != 9 {
		t.Fatalf("%d declarations, want 9", len(f.Decls))
	}
	e := f.Decls[0].(*EnumDecl)
	if e.Lo != 0 || e.Hi != 4 || e.Pos != (Pos{2, 1}) {
		t.Errorf("enum: %+v", e)
	}
	if c := f.Decls[1].(*EnumDecl); len(c.Names) != 2 || c.Names[1] != "green" {
		t.Errorf("named enum: %+v", c)
	}
	gs := f.Decls[3].(*ClassDecl)
	if len(gs.Fields) != 2 || len(gs.Order) != 1 || !gs.Order[0].Interleave {
		t.Errorf("class: %+v", gs)
	}
	if d := f.Decls[4].(*Directive); d.Name != "size" || len(d.Args) != 1 || d.Args[0] != "R" {
		t.Errorf("directive: %+v", d)
	}
	r := f.Decls[5].(*RelDecl)
	if r.Kind != Least || len(r.Params) != 3 || r.Params[2].Name != "m'" || len(r.Order) != 2 || r.Order[0].Interleave || !r.Order[1].Interleave {
		t.Errorf("relation: %+v", r)
	}
	// <-> is loosest, then ->, then |.
	iff, ok := r.Body.(*Binary)
	if !ok || iff.Op != OpIff {
		t.Fatalf("body: %#v, want <-> at the top", r.Body)
	}
	imp, ok := iff.X.(*Binary)
	if !ok || imp.Op != OpImp {
		t.Fatalf("left of <->: %#v, want ->", iff.X)
	}
	or, ok := imp.X.(*Binary)
	if !ok || or.Op != OpOr {
		t.Fatalf("left of ->: %#v, want |", imp.X)
	}
	q, ok := or.Y.(*Quant)
	if ok && q.Pos != (Pos{10, 18}) {
		t.Errorf("quantifier at %v, want 10:18", q.Pos)
	}
	if !ok || len(q.Vars) != 3 || q.Vars[1].Type.Name != "M" || q.Vars[2].Type.Name != "G" {
		t.Fatalf("quantifier: %#v", or.Y)
	}
	if _, ok := f.Decls[8].(*Query); !ok {
		t.Errorf("last declaration %T, want the query", f.Decls[8])
	}
}

func TestCheckErrors(t *testing.T) {
	const base = "enum M {0..4};\nclass G { bool v1; M m; };\nbool R(M m, G g) (m = g.m);\n"
	tests := []struct {
		name, src string
		want      string // the first diagnostic
	}{
		{"unknown field", "exists G g. g.v2;", "c.mu:4:13: class G has no field v2"},
		{"field of bool", "exists G g. g.v1.x;", "c.mu:4:13: g.v1 is of type bool, which has no fields (selecting .x)"},
		{"arity", "exists G g. R(1);", "c.mu:4:13: R takes 2 arguments, not 1"},
		{"arg type", "exists G g. R(g, g);", "c.mu:4:15: argument 1 of R: g is of type G, want M"},
		{"arg const range", "exists G g. R(7, g);", "c.mu:4:15: argument 1 of R: 7 is outside enum M (0..4)"},
		{"class const", "R(1, 2);", "c.mu:4:6: argument 2 of R: a constant cannot be a value of class G"},
		{"undefined var", "exists G g. x = 1;", "c.mu:4:13: undefined: x"},
		{"undefined relation", "S(1);", "c.mu:4:1: undefined relation S"},
		{"undefined type", "exists H h. true;", "c.mu:4:8: undefined type H"},
		{"compare types", "exists G g, M m. g = m;", "c.mu:4:20: cannot compare g (G) with m (M)"},
		{"enum as formula", "exists M m. m;", "c.mu:4:13: m is of type M, not bool; compare it with '='"},
		{"bool const", "exists G g. g.v1 = 2;", "c.mu:4:20: 2 is not a bool value (0 or 1)"},
		{"two constants", "1 = 1;", "c.mu:4:3: comparison of two constants"},
		{"plain recursion", "bool P(M m) (P(m));", "c.mu:4:1: P is recursive: declare it mu (least) or nu (greatest)"},
		{"bad constraint", "bool P(M m) m < n (true);", "c.mu:4:13: order constraint names n, which is not a parameter of P"},
		{"duplicate relation", "bool R(M m) (true);", "c.mu:4:1: relation R defined twice"},
		{"duplicate field", "class H { bool a; bool a; };", "c.mu:4:24: field a declared twice in class H"},
		{"free variable in query", "m = 1;", "c.mu:4:1: undefined: m"},
		{"unknown directive", "#frobnicate;", "c.mu:4:1: unknown directive #frobnicate"},
		{"size of nothing", "#size Nope;", "c.mu:4:1: #size names Nope, which is not a relation"},
		{"class too wide", "class A0 { M a; M b; };\nclass A1 { A0 a; A0 b; };\nclass A2 { A1 a; A1 b; };\nclass A3 { A2 a; A2 b; };\nclass A4 { A3 a; A3 b; };\nclass A5 { A4 a; A4 b; };\nclass A6 { A5 a; A5 b; };\nclass A7 { A6 a; A6 b; };\nclass A8 { A7 a; A7 b; };\nclass A9 { A8 a; A8 b; };\nclass B0 { A9 a; A9 b; };\nclass B1 { B0 a; B0 b; };\nclass B2 { B1 a; B1 b; };\nclass B3 { B2 a; B2 b; };\nclass B4 { B3 a; B3 b; };\nclass B5 { B4 a; B4 b; };",
			"c.mu:18:1: class B4 has 98304 bits, more than the 65536 a value may have"},
		{"enum name wrong enum", "enum C {red}; enum D {blue}; exists C c. c = blue;", "c.mu:4:46: blue is not a value of enum C"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := ParseFile("c.mu", []byte(base+tc.src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			err = Check(f)
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("err = %v, want an ErrorList", err)
			}
			if !strings.Contains(list[0].Error(), tc.want) {
				t.Errorf("first error %q, want %q (all: %v)", list[0].Error(), tc.want, err)
			}
		})
	}
}

func TestCheckSeveralErrors(t *testing.T) {
	src := "enum M {0..1};\nbool R(M m) (m = 2);\nbool S(M m) (R(m, m) & T(m));\n"
	f, _ := ParseFile("c.mu", []byte(src))
	err := Check(f)
	var list ErrorList
	if !errors.As(err, &list) || len(list) != 3 {
		t.Fatalf("got %v, want 3 errors", err)
	}
}
