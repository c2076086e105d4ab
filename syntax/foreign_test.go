package syntax

import "testing"

// TestForeign pins the message for C (and other non-Boolean-program) input:
// each names what it found and why it is not a Boolean program.
func TestForeign(t *testing.T) {
	const body = "void main() begin "
	tests := []struct {
		name, src, want string
	}{
		{"C global", "long x;\nvoid main() begin skip; end",
			"x.bp:1:1: this looks like C: 'long' is not a Boolean program type (variables are Boolean and declared with decl; procedures return void, bool or bool<n>)"},
		{"C function", "int f(int a) {\n  return a;\n}",
			"x.bp:1:1: this looks like C: 'int' is not a Boolean program type (variables are Boolean and declared with decl; procedures return void, bool or bool<n>)"},
		{"C main", "int main(void)\nbegin skip; end",
			"x.bp:1:1: this looks like C: 'int' is not a Boolean program type (variables are Boolean and declared with decl; procedures return void, bool or bool<n>)"},
		{"unsigned global", "unsigned int x;",
			"x.bp:1:1: this looks like C: 'unsigned' is not a Boolean program type (variables are Boolean and declared with decl; procedures return void, bool or bool<n>)"},
		{"struct", "struct s { int a; };",
			"x.bp:1:1: this looks like C: 'struct' defines a C type, but a Boolean program has only Boolean variables"},
		{"typedef", "typedef int t;",
			"x.bp:1:1: this looks like C: 'typedef' defines a C type, but a Boolean program has only Boolean variables"},
		{"static", "static void f() begin skip; end",
			"x.bp:1:1: this looks like C: 'static' is a C qualifier; Boolean programs have none"},
		{"include", "#include <stdio.h>\nvoid main() begin skip; end",
			"x.bp:1:1: this looks like C: '#include' is a preprocessor directive, and Boolean programs have none (run the C preprocessor first)"},
		{"line marker", "# 1 \"x.c\"\nvoid main() begin skip; end",
			"x.bp:1:1: this looks like C: '# 1' is a preprocessor directive, and Boolean programs have none (run the C preprocessor first)"},
		{"define inside a body", body + "\n#define N 3\nskip; end",
			"x.bp:2:1: this looks like C: '#define' is a preprocessor directive, and Boolean programs have none (run the C preprocessor first)"},
		{"C assignment", body + "x = 1; end",
			"x.bp:1:21: this looks like C: '=' is equality in a Boolean program; assignment is written x := ..."},
		{"C parallel assignment", body + "x, y = 1, 0; end",
			"x.bp:1:24: this looks like C: '=' is equality in a Boolean program; assignment is written x, y := ..."},
		{"C local", body + "int x; end",
			"x.bp:1:19: this looks like C: 'int' is not a Boolean program type (variables are Boolean and declared with decl; procedures return void, bool or bool<n>)"},
		{"C pointer local", body + "char *p; end",
			"x.bp:1:19: this looks like C: 'char' is not a Boolean program type (variables are Boolean and declared with decl; procedures return void, bool or bool<n>)"},
		{"C struct local", body + "struct s x; end",
			"x.bp:1:19: this looks like C: 'struct' defines a C type, but a Boolean program has only Boolean variables"},
		{"C block", "void main() {\n  skip;\n}",
			"x.bp:1:13: this looks like C: '{' opens a block; Boolean programs write begin ... end"},
		{"C block after if", body + "if (x) {\n skip; } fi end",
			"x.bp:1:26: this looks like C: '{' opens a block; Boolean programs write begin ... end"},
		{"C closing brace", body + "skip;\n} end",
			"x.bp:2:1: this looks like C: '}' closes a block; Boolean programs write begin ... end"},
		{"typed parameter", "void f(bool a) begin skip; end",
			"x.bp:1:8: this looks like C: 'bool' is a type, but parameters of a Boolean program have none (write f(x), not f(bool x))"},
		{"C typed parameter", "void f(a, int b) begin skip; end",
			"x.bp:1:11: this looks like C: 'int' is a type, but parameters of a Boolean program have none (write f(x), not f(bool x))"},
		{"void parameter list", "void f(void) begin skip; end",
			"x.bp:1:8: this looks like C: 'void' is a type, but parameters of a Boolean program have none (write f(x), not f(bool x))"},
		{"increment", body + "x++; end",
			"x.bp:1:20: illegal character '+': Boolean programs have no arithmetic"},
		{"negative number", body + "x := -1; end",
			"x.bp:1:24: illegal character '-': Boolean programs have no arithmetic"},
		{"string", body + "print(\"hi\"); end",
			"x.bp:1:25: illegal character '\"': Boolean programs have no strings"},
		{"statement at top level", "skip;\nvoid main() begin skip; end",
			"x.bp:1:1: expected declaration or procedure, found keyword skip: statements belong between a procedure's begin and end"},
		{"assignment at top level", "x := T;",
			"x.bp:1:1: expected declaration or procedure, found identifier x: statements belong between a procedure's begin and end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFile("x.bp", []byte(tt.src), CProver)
			if err == nil {
				t.Fatalf("no error for %q", tt.src)
			}
			if got := err.(ErrorList)[0].Error(); got != tt.want {
				t.Errorf("ParseFile(%q):\ngot  %s\nwant %s", tt.src, got, tt.want)
			}
		})
	}
	// C words are names where a Boolean program may use them.
	for _, src := range []string{
		"decl int, long;\nvoid main() begin int := long; static(int); end\nvoid static(const) begin skip; end",
		"long() begin skip; end\nvoid main() begin long(); end",
	} {
		if _, err := ParseFile("x.bp", []byte(src), CProver); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
