package fix

import (
	"context"
	"strings"
	"testing"
)

// TestMuckeConstructs checks each construct of Mucke's grammar (src/mu.y,
// Keywords.kw, Operators.kw of Mucke 0.5) that Getafix's files do not use
// but Mucke reads: every file's value is the one Mucke gives (checked
// with ../shared/peers/bin/mucke when the test was written).
func TestMuckeConstructs(t *testing.T) {
	tests := []struct {
		name, src string
		want      bool
	}{
		{"if without else is ->", "bool g(bool p, bool q) (if (p) q); forall bool p, bool q. g(p, q) <-> (p -> q);", true},
		{"if else", "bool h(bool p, bool q) (if (p) q else !q); forall bool p, bool q. h(p, q) <-> (p <-> q);", true},
		{"if else as a body", "bool f(bool a) if (a) a else !a; forall bool a. f(a);", true},
		{"if in a quantifier's condition", "bool f(bool a) if (exists bool b. b & a) true else false; forall bool a. f(a) <-> a;", true},
		{"case", "bool k(bool p, bool q) (case p : q; q : p; esac); forall bool p, bool q. k(p, q) <-> (p & q);", true},
		{"case: the first that holds", "bool k(bool p, bool q) (case p : !q; q : p; esac); exists bool p, bool q. k(p, q) & !p;", false},
		{"<+> is xor", "forall bool p, bool q. (p <+> q) <-> !(p <-> q);", true},
		{"<- is reverse implication", "forall bool p, bool q. (p <- q) <-> (q -> p);", true},
		{"EXISTS and ':'", "EXISTS bool p : p;", true},
		{"FORALL and ':'", "FORALL bool p : p | !p;", true},
		{"Exists", "Exists bool p . !p;", true},
		{"Forall", "Forall bool p . p;", false},
		{"struct", "struct S { bool a; bool b; }; exists S s. s.a & !s.b;", true},
		{"range with ...", "enum E {0...3}; exists E e. e = 3;", true},
		{"a > b", "bool f(bool a, bool b) a > b (a & !b); exists bool a, bool b. f(a, b);", true},
		{"a ~- b", "bool f(bool a, bool b) a ~- b (a & b); exists bool a, bool b. f(a, b);", true},
		{"~+ a alone", "bool f(bool a, bool b) ~+ a (a | b); forall bool a, bool b. f(a, b);", false},
		{"class constraints ~- x, x > y", "class C { bool x; bool y; } ~- x, x > y; exists C c. c.x;", true},
		{"array parameter", "bool f(bool a[2]) (a[0] & !a[1]); exists bool b[2]. f(b);", true},
		{"array field", "class C { bool a[3]; }; exists C c. c.a[1] & !c.a[2];", true},
		{"enum array", "enum E {0..2}; bool f(E e[3]) (e[0] = 2 & e[1] = e[2]); forall E x[3]. f(x) -> x[1] = x[2];", true},
		{"enum array elements", "enum E {0..2}; exists E x[2]. x[0] = 1 & x[1] != 1 & x[1] = x[0];", false},
		{"array of classes", "class P { bool v; }; class Q { P p[2]; }; exists Q q. q.p[1].v & !q.p[0].v;", true},
		{"recursive relation over arrays", "mu bool R(bool a[2]); mu bool R(bool a[2]) (a[0] | (exists bool b[2]. (R(b) & b[0] & a[1]))); forall bool a[2]. R(a) <-> (a[0] | a[1]);", true},
		{"mu prototype", "mu bool R(bool a); mu bool R(bool a) (a | R(true)); forall bool a. R(a);", true},
		{"plain prototype", "bool P(bool a); bool P(bool a) (!a); exists bool a. P(a) & a;", false},
		{"mutual recursion through prototypes", "enum N {0..3}; mu bool Odd(N x); mu bool Even(N x) (x = 0 | exists N y. (Odd(y) & (y = 0 & x = 1 | y = 1 & x = 2 | y = 2 & x = 3))); mu bool Odd(N x) (exists N y. (Even(y) & (y = 0 & x = 1 | y = 1 & x = 2 | y = 2 & x = 3))); Even(2) & Odd(3) & !Even(3);", true},
	}
	for _, tt := range tests {
		f, err := ParseFile("c.mu", []byte(tt.src))
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		a, err := Solve(context.Background(), f, Options{})
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if a.Value != tt.want {
			t.Errorf("%s: %v, Mucke says %v", tt.name, a.Value, tt.want)
		}
	}
}

// TestPrototypeErrors checks the forward declarations Check refuses.
func TestPrototypeErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"mu bool R(bool a);\ntrue;", "c.mu:1:1: mu relation R is declared but never defined"},
		{"mu bool R(bool a);\nnu bool R(bool a) (a);\ntrue;", "c.mu:2:1: R is declared mu at 1:1 but defined nu"},
		{"mu bool R(bool a);\nmu bool R(bool a, bool b) (a);\ntrue;", "c.mu:2:1: R is declared with 1 parameters at 1:1 but defined with 2"},
		{"enum E {0..2};\nmu bool R(bool a);\nmu bool R(E a) (a = 1);\ntrue;", "c.mu:3:13: parameter a of R has type E, but bool at 2:16"},
		{"mu bool R(bool a);\nmu bool R(bool a) (a);\nmu bool R(bool a) (a);\ntrue;", "c.mu:3:1: relation R defined twice"},
	}
	for _, tt := range tests {
		f, err := ParseFile("c.mu", []byte(tt.src))
		if err == nil {
			err = Check(f)
		}
		if err == nil || err.Error() != tt.want {
			t.Errorf("%q: %v, want %s", tt.src, err, tt.want)
		}
	}
}

// TestNestedConditions checks that conditions nested in conditions, each
// read twice, are bounded rather than exponential.
func TestNestedConditions(t *testing.T) {
	cond := "true"
	for range 40 {
		cond = "if (" + cond + ") true else false"
	}
	_, err := ParseFile("c.mu", []byte(cond+";"))
	if err == nil || !strings.Contains(err.Error(), "nested more than 6 deep") {
		t.Errorf("40 nested conditions: %v", err)
	}
	cond = "true"
	for range 6 {
		cond = "if (" + cond + ") true else false"
	}
	f, err := ParseFile("c.mu", []byte(cond+";"))
	if err != nil {
		t.Fatal(err)
	}
	if a, err := Solve(context.Background(), f, Options{}); err != nil || !a.Value {
		t.Errorf("6 nested conditions: %v, %v", a, err)
	}
}
