package syntax

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// TestMalformed pins the exact diagnostic for each kind of bad input: the
// message a user sees is part of the contract.
func TestMalformed(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"missing semicolon after decl", "decl a\nvoid main() begin skip; end",
			"x.bp:2:1: expected ';', found keyword void"},
		{"decl without names", "decl ;\nvoid main() begin skip; end",
			"x.bp:1:6: expected identifier, found ';'"},
		{"number as decl name", "decl 1;\nvoid main() begin skip; end",
			"x.bp:1:6: expected identifier, found number 1"},
		{"declare constant T", "decl T;\nvoid main() begin skip; end",
			"x.bp:1:6: cannot declare T: T and F are the Boolean constants"},
		{"missing begin", "void main() skip; end",
			"x.bp:1:13: expected 'begin', found keyword skip"},
		{"missing end", "void main() begin skip;",
			"x.bp:1:24: expected 'end', found end of file"},
		{"missing end before next proc", "void f() begin skip;\nvoid main() begin skip; end",
			"x.bp:2:1: expected 'end', found keyword void"},
		{"missing paren in header", "void main( begin skip; end",
			"x.bp:1:12: expected identifier, found keyword begin"},
		{"bad param list", "void main(a,) begin skip; end",
			"x.bp:1:13: expected identifier, found ')'"},
		{"bool width not a number", "bool<x> f() begin return T; end",
			"x.bp:1:6: expected number of returned values, found identifier x"},
		{"bool width zero", "bool<0> f() begin return; end",
			"x.bp:1:6: invalid number of returned values 0 (must be 1 to 64)"},
		{"bool width missing >", "bool<2 f() begin return T, F; end",
			"x.bp:1:8: expected '>', found identifier f"},
		{"garbage at top level", "x := 1;",
			"x.bp:1:1: expected declaration or procedure, found identifier x: statements belong between a procedure's begin and end"},
		{"illegal character", "void main() begin skip; @ end",
			"x.bp:1:25: illegal character '@'"},
		{"illegal byte", "void main() begin skip; \xff end",
			"x.bp:1:25: illegal byte 0xff"},
		{"illegal unicode", "void main() begin x := é; end",
			"x.bp:1:24: illegal character 'é'"},
		{"unterminated comment", "void main() begin skip; /* forever",
			"x.bp:1:25: comment not terminated: missing */"},
		{"unterminated braced name", "decl {p==q;\nvoid main() begin skip; end",
			"x.bp:1:6: braced identifier not closed on its line: missing '}' (blocks are written begin ... end)"},
		{"braced name at end of file", "decl {p==q",
			"x.bp:1:6: braced identifier not terminated: missing '}'"},
		{"C block instead of begin end", "void main() {\n  skip;\n}",
			"x.bp:1:13: this looks like C: '{' opens a block; Boolean programs write begin ... end"},
		{"variable declared with a type", "bool x;\nvoid main() begin skip; end",
			"x.bp:1:7: expected '(' after procedure name x (variables are declared with decl, not a type)"},
		{"schoose three arguments", "void main() begin x := schoose[a, b, c]; end",
			"x.bp:1:36: schoose takes two arguments: schoose[pos, neg]"},
		{"C conditional expression", "void main() begin g := h ? T : F; end",
			"x.bp:1:26: expected ';', found '?'"},
		{"sync without event", "void main() begin sync; end",
			"x.bp:1:23: expected ':=', '(' or ':' after identifier sync, found ';'"},
		{"empty braced name", "decl {};\nvoid main() begin skip; end",
			"x.bp:1:6: empty braced identifier {}"},
		{"missing then", "void main() begin if T skip; fi end",
			"x.bp:1:24: expected 'then', found keyword skip"},
		{"missing fi", "void main() begin if T then skip; end",
			"x.bp:1:35: expected 'fi', found keyword end"},
		{"missing do", "void main() begin while T skip; od end",
			"x.bp:1:27: expected 'do', found keyword skip"},
		{"missing od", "void main() begin while T do skip; end",
			"x.bp:1:36: expected 'od', found keyword end"},
		{"else without if", "void main() begin else skip; end",
			"x.bp:1:19: else without matching if"},
		{"fi without if", "void main() begin skip; fi end",
			"x.bp:1:25: fi without matching if"},
		{"assignment missing rhs", "void main() begin x := ; end",
			"x.bp:1:24: expected expression, found ';'"},
		{"assignment missing :=", "void main() begin x, y; end",
			"x.bp:1:23: expected ':=', found ';'"},
		{"lone identifier", "void main() begin x; end",
			"x.bp:1:20: expected ':=', '(' or ':' after identifier x, found ';'"},
		{"equals instead of assign", "void main() begin x = T; end",
			"x.bp:1:21: this looks like C: '=' is equality in a Boolean program; assignment is written x := ..."},
		{"missing semicolon between statements", "void main() begin skip skip; end",
			"x.bp:1:24: expected ';', found keyword skip"},
		{"goto without label", "void main() begin goto; end",
			"x.bp:1:23: expected label, found ';'"},
		{"goto trailing comma", "void main() begin goto L,; end",
			"x.bp:1:26: expected label, found ';'"},
		{"label without statement", "void main() begin L: end",
			"x.bp:1:22: label L must be followed by a statement"},
		{"invalid constant 2", "void main() begin x := 2; end",
			"x.bp:1:24: invalid constant 2: the Boolean constants are 0, 1, F and T"},
		{"call inside expression", "void main() begin x := !f(); end",
			"x.bp:1:26: call of f inside an expression: a call must be a statement of its own (x := f(...);)"},
		{"unclosed paren", "void main() begin x := (a & b; end",
			"x.bp:1:30: expected ')', found ';'"},
		{"extra close paren", "void main() begin x := a); end",
			"x.bp:1:25: expected ';', found ')'"},
		{"binary operator missing operand", "void main() begin x := a & ; end",
			"x.bp:1:28: expected expression, found ';'"},
		{"prime on parenthesis", "void main() begin x := * constrain '(x); end",
			"x.bp:1:37: expected variable name after prime ('), found '('"},
		{"schoose one argument", "void main() begin x := schoose[a]; end",
			"x.bp:1:33: schoose takes two arguments: schoose[pos, neg]"},
		{"schoose missing bracket", "void main() begin x := schoose[a, b; end",
			"x.bp:1:36: expected ']', found ';'"},
		{"print missing paren", "void main() begin print a; end",
			"x.bp:1:25: expected '(', found identifier a"},
		{"start_thread of nothing", "void main() begin start_thread; end",
			"x.bp:1:31: expected procedure call or goto after start_thread, found ';'"},
		{"enforce without condition", "void main() begin skip; enforce; end",
			"x.bp:1:32: expected expression, found ';'"},
		{"dead without names", "void main() begin dead; end",
			"x.bp:1:23: expected identifier, found ';'"},
		{"constrain statement without condition", "void main() begin constrain; end",
			"x.bp:1:28: expected expression, found ';'"},
		{"keyword as variable", "void main() begin if := T; end",
			"x.bp:1:22: expected expression, found ':='"},
		{"call with missing paren", "void main() begin f(a, b; end",
			"x.bp:1:25: expected ')', found ';'"},
		{"decl after statements in header position", "void main() begin decl a skip; end",
			"x.bp:1:26: expected ';', found keyword skip"},
		{"return with dangling comma", "bool f() begin return T,; end",
			"x.bp:1:25: expected expression, found ';'"},
		{"decl with too few initial values", "decl a, b := T;",
			"x.bp:1:11: 2 variables declared with 1 initial value: give one per variable"},
		{"decl with too many initial values", "void main() begin decl a := T, F; end",
			"x.bp:1:26: 1 variable declared with 2 initial values: give one per variable"},
		{"decl with empty initialiser", "decl a := ;",
			"x.bp:1:11: expected expression, found ';'"},
		{"number not a label", "void main() begin 0; end",
			"x.bp:1:19: expected statement, found number 0"},
		{"goto a constant", "void main() begin goto T, *; end",
			"x.bp:1:27: expected label, found '*'"},
	}
	if len(tests) < 40 {
		t.Fatalf("only %d cases", len(tests))
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile("x.bp", []byte(tt.src), CProver)
			if err == nil {
				t.Fatalf("no error for %q", tt.src)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("ParseFile(%q):\ngot  %s\nwant %s", tt.src, got, tt.want)
			}
		})
	}
}

// TestHostileInput feeds inputs meant to break a parser: each must give
// diagnostics, and never a panic, a stack overflow or a hang.
func TestHostileInput(t *testing.T) {
	deepParens := "void main() begin x := " + strings.Repeat("(", 100000) + "T" + strings.Repeat(")", 100000) + "; end"
	deepNot := "void main() begin x := " + strings.Repeat("!", 100000) + "T; end"
	deepImplies := "void main() begin x := a" + strings.Repeat(" => a", 100000) + "; end"
	deepIf := "void main() begin " + strings.Repeat("if T then ", 100000) + "skip;" + strings.Repeat(" fi", 100000) + " end"
	garbage := make([]byte, 1<<16)
	for i := range garbage {
		garbage[i] = byte(i*7919 + i>>8)
	}
	// 10 MB of one long statement list: valid, large input must simply work.
	var big bytes.Buffer
	big.WriteString("decl g;\nvoid main() begin\n")
	for big.Len() < 10<<20 {
		big.WriteString("  g := !g & (g | *) constrain 'g = g;\n")
	}
	big.WriteString("end\n")
	tests := []struct {
		name    string
		src     []byte
		wantErr string // a substring of the first diagnostic; "" means no error
	}{
		{"100000 nested parentheses", []byte(deepParens), "x.bp:1:1024: program nested too deeply (more than 1000 levels)"},
		{"100000 negations", []byte(deepNot), "program nested too deeply"},
		{"100000 implications", []byte(deepImplies), "program nested too deeply"},
		{"100000 nested ifs", []byte(deepIf), "program nested too deeply"},
		{"garbage bytes", garbage, "illegal"},
		{"NUL bytes", make([]byte, 1000), "x.bp:1:1: illegal control character U+0000"},
		{"only an open comment", []byte("/*"), "x.bp:1:1: comment not terminated: missing */"},
		{"only an open brace", []byte("{"), "x.bp:1:1: braced identifier not terminated: missing '}'"},
		{"10 MB program", big.Bytes(), ""},
		{"empty file", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile("x.bp", tt.src, CProver)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("no error")
			}
			list := err.(ErrorList)
			if len(list) > maxErrors+1 {
				t.Errorf("%d diagnostics; at most %d expected", len(list), maxErrors+1)
			}
			if first := list[0].Error(); !strings.Contains(first, tt.wantErr) {
				t.Errorf("first diagnostic %q does not contain %q", first, tt.wantErr)
			}
		})
	}
}

// TestDialects checks the two precedence tables on expressions where they
// disagree, by the printed (fully disambiguated) form.
func TestDialects(t *testing.T) {
	tests := []struct {
		src              string
		cprover, getafix string
	}{
		{"a & b = c", "(a & b) = c", "a & (b = c)"},
		{"a = b & c", "a = (b & c)", "(a = b) & c"},
		{"a | b ^ c", "(a | b) ^ c", "a | (b ^ c)"},
		{"a ^ b | c", "a ^ (b | c)", "(a ^ b) | c"},
		{"a => b => c", "a => (b => c)", "(a => b) => c"},
		{"a = b != c", "a = (b != c)", "(a = b) != c"},
		{"a & b & c", "a & b & c", "a & b & c"},
		{"a | b & c", "a | b & c", "a | b & c"},
		{"!a & 'b", "!a & 'b", "!a & 'b"},
		{"!(a & b) => c", "!(a & b) => c", "!(a & b) => c"},
		{"a && b || c", "a & b | c", "a & b | c"},
		// A chain of one associative operator is one balanced tree in
		// both dialects; only the operators around it differ.
		{"a = b = c = d", "a = b = c = d", "a = b = c = d"},
		{"a != b != c", "a != b != c", "a != b != c"},
		{"a = b = c != d", "a = b = (c != d)", "(a = b = c) != d"},
		{"a != b = c = d", "a != (b = c = d)", "(a != b) = c = d"},
		// Parentheses inside a run of one associative operator are
		// not kept; around another operator they are.
		{"(a & b) & c", "a & b & c", "a & b & c"},
		{"a & (b & c)", "a & b & c", "a & b & c"},
		{"(a = b) != c", "(a = b) != c", "(a = b) != c"},
		{"a != (b = c)", "a != (b = c)", "a != (b = c)"},
		{"(a != b) = c = d", "(a != b) = c = d", "(a != b) = c = d"},
		{"(a | b) & (c | d)", "(a | b) & (c | d)", "(a | b) & (c | d)"},
		{"(a & b = c) & d", "((a & b) = c) & d", "a & (b = c) & d"},
		{"(a => b) => c", "(a => b) => c", "(a => b) => c"},
		{"a => b = c = d", "a => (b = c = d)", "a => (b = c = d)"},
		{"~a == b", "!a = b", "!a = b"},
		{"a = b => c", "a = (b => c)", "(a = b) => c"},
	}
	for _, tt := range tests {
		for _, d := range []Dialect{CProver, Getafix} {
			want := tt.cprover
			if d == Getafix {
				want = tt.getafix
			}
			f, err := ParseFile("x.bp", []byte("void main() begin x := "+tt.src+"; end"), d)
			if err != nil {
				t.Fatalf("%s (%v): %v", tt.src, d, err)
			}
			got := ExprString(f.Procs[0].Body[0].(*AssignStmt).Rhs[0])
			if got != want {
				t.Errorf("%s in %v: got %s, want %s", tt.src, d, got, want)
			}
		}
	}
}

// TestSpellings checks that alternative spellings give the canonical tree,
// and that the printer writes the canonical spelling.
func TestSpellings(t *testing.T) {
	src := `decl g, {p==q};
// Bebop's style: no return type, call keyword, ? decider, 0 and 1
main() begin
  decl h
  ;
  L1: L2: h := 0;
  call A(g, 1);
  if ? then skip fi;
  while (h) do h := !h od;
  x, _ := B()
end
dfs bool<2> B() begin return T, F; end
`
	want := `decl g, {p==q};
// Bebop's style: no return type, call keyword, ? decider, 0 and 1
void main()
begin
  decl h;
  L1: L2: h := F;
  A(g, T);
  if (*) then
    skip;
  fi
  while (h) do
    h := !h;
  od
  x, _ := B();
end
bool<2> B()
begin
  return T, F;
end
`
	got, err := Format("x.bp", []byte(src), CProver)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	roundTrip(t, "x.bp", []byte(src), CProver)
}

func TestIsThreadName(t *testing.T) {
	for name, want := range map[string]bool{
		"thread0": true, "thread12": true, "thread": false, "threadx": false, "thread1a": false, "mythread1": false,
	} {
		if got := IsThreadName(name); got != want {
			t.Errorf("IsThreadName(%q) = %v", name, got)
		}
	}
}

// TestDialectStatements round-trips the statements only some dialects
// have: SATABS's enforce inside a block and sync, Getafix's constrain step.
func TestDialectStatements(t *testing.T) {
	src := `decl a, sync;
void main() begin
  skip;
  L: enforce a | sync;
  if * then enforce !a; fi
  sync ev;
  sync := T;
  constrain('a = !a & 'sync);
  constrain(*);
end
`
	roundTrip(t, "x.bp", []byte(src), CProver)
	f, err := ParseFile("x.bp", []byte(src), CProver)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range f.Procs[0].Body {
		kinds = append(kinds, fmt.Sprintf("%T", s))
	}
	want := "[*syntax.SkipStmt *syntax.EnforceStmt *syntax.IfStmt *syntax.SyncStmt *syntax.AssignStmt *syntax.ConstrainStmt *syntax.ConstrainStmt]"
	if got := fmt.Sprint(kinds); got != want {
		t.Errorf("statements %s, want %s", got, want)
	}
}
