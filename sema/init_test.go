package sema

import (
	"strings"
	"testing"
)

var initTests = []struct {
	name  string
	src   string
	errs  []string
	warns []string
}{
	{
		name: "iJIT's initialisers",
		src: `decl s1 := *;
decl s2, s3 := 0, T & !F;
void main() begin
  decl l := 0;
  decl m, n := s1 & s2, schoose[s3, *];
  l, m, n := !l, !m, !n;
  decl x := l;
  assert(x | s3);
end
`,
	},
	{
		name: "a global initialiser reads a variable",
		src: `decl a, b := T, a | *;
decl c := !'c;
void main() begin assert(a | b | c); end
`,
		errs: []string{
			"t.bp:1:17: initialiser of global b may use only constants and *, not the variable a",
			"t.bp:2:12: initialiser of global c may use only constants and *, not the variable c",
		},
	},
	{
		name: "a local initialiser reads a local",
		src: `decl g;
void f(p) begin
  decl a := p & g;
  decl b, c := a, c;
  decl d := 'p;
  assert(a | b | c | d);
end
void main() begin f(g); end
`,
		errs: []string{
			"t.bp:4:16: initialiser of b reads the local a, which has no value on entry (only parameters and globals may be read)",
			"t.bp:4:19: initialiser of c reads the local c, which has no value on entry (only parameters and globals may be read)",
			"t.bp:5:13: primed variable 'p outside a constrain clause",
		},
	},
	{
		name: "an initialiser names an undeclared variable",
		src: `void main() begin
  decl a := nowhere;
  assert(a);
end
`,
		errs: []string{"t.bp:2:13: undeclared variable nowhere"},
	},
	{
		name: "main called in a program with global initialisers",
		src: `decl g := T;
void f() begin main(); end
void main() begin f(); ASYNC_1: main(); end
`,
		errs: []string{
			"t.bp:2:16: call of main in a program with global initialisers (first at 1:8): they run once, at the entry of main",
			"t.bp:3:33: call of main in a program with global initialisers (first at 1:8): they run once, at the entry of main",
		},
		warns: []string{"t.bp:1:6: global variable g declared and not used"},
	},
	{
		name: "init called under the Getafix convention (main may be)",
		src: `decl g := F;
void init() begin skip; end
void main() begin init(); end
void thread1() begin main(); assert(!g); end
`,
		errs: []string{"t.bp:3:19: call of init in a program with global initialisers (first at 1:8): they run once, at the entry of init"},
	},
	{
		name: "an initialised variable nobody reads is unused",
		src: `void main() begin decl u := T; skip; end
`,
		warns: []string{"t.bp:1:24: local variable u declared and not used"},
	},
}

func TestInitialisers(t *testing.T) {
	for _, tt := range initTests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, warns := Check(parse(t, tt.src))
			if got := lines(errs); !same(got, tt.errs) {
				t.Errorf("errors:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(tt.errs, "\n      "))
			}
			if got := lines(warns); !same(got, tt.warns) {
				t.Errorf("warnings:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(tt.warns, "\n      "))
			}
		})
	}
}

// TestInitialiserMismatch: the parser gives one initialiser per name, a
// hand-built tree may not.
func TestInitialiserMismatch(t *testing.T) {
	f := parse(t, "decl a, b := T, F;\nvoid main() begin assert(a & b); end\n")
	f.Globals[0].Inits = f.Globals[0].Inits[:1]
	_, errs, _ := Check(f)
	want := []string{"t.bp:1:11: declaration mismatch: 2 variables but 1 initialiser"}
	if got := lines(errs); !same(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
