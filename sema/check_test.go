package sema

import (
	"strings"
	"testing"

	"boolprog/syntax"
)

// parse parses src as t.bp in the CPROVER dialect, failing the test on a
// syntax error: every program here is syntactically fine.
func parse(t testing.TB, src string) *syntax.File {
	t.Helper()
	f, err := syntax.ParseFile("t.bp", []byte(src), syntax.CProver)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	return f
}

func lines(l syntax.ErrorList) []string {
	var out []string
	for _, e := range l {
		out = append(out, e.Error())
	}
	return out
}

func same(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkCase checks src and compares both diagnostic lists exactly.
func checkCase(t *testing.T, src string, wantErrs, wantWarns []string) {
	t.Helper()
	_, errs, warns := Check(parse(t, src))
	if got := lines(errs); !same(got, wantErrs) {
		t.Errorf("errors:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(wantErrs, "\n      "))
	}
	if got := lines(warns); !same(got, wantWarns) {
		t.Errorf("warnings:\n got  %s\n want %s", strings.Join(got, "\n      "), strings.Join(wantWarns, "\n      "))
	}
}

// Each malformed program is written so that it has exactly the errors listed
// (and no warnings unless listed): a second, unrelated diagnostic would hide
// whether the checker avoids cascades.
var errorTests = []struct {
	name  string
	src   string
	errs  []string
	warns []string
}{
	{
		name: "duplicate global",
		src: `decl a, b;
decl a;
void main() begin a, b := T, F; end
`,
		errs: []string{"t.bp:2:6: duplicate global variable a (first declared at 1:6)"},
	},
	{
		name: "duplicate global in one decl",
		src: `decl a, a;
void main() begin a := T; end
`,
		errs: []string{"t.bp:1:9: duplicate global variable a (first declared at 1:6)"},
	},
	{
		name: "duplicate parameter",
		src: `void f(a, a) begin assert(a); end
void main() begin f(T, T); end
`,
		errs: []string{"t.bp:1:11: duplicate variable a in procedure f (first declared at 1:8)"},
	},
	{
		name: "local redeclares parameter",
		src: `void f(a) begin
  decl a;
  assert(a);
end
void main() begin f(T); end
`,
		errs: []string{"t.bp:2:8: duplicate variable a in procedure f (first declared at 1:8)"},
	},
	{
		name: "decl statement redeclares local",
		src: `void main() begin
  decl x;
  x := T;
  decl x;
end
`,
		errs: []string{"t.bp:4:8: duplicate variable x in procedure main (first declared at 2:8)"},
	},
	{
		name: "duplicate procedure",
		src: `void f() begin skip; end
bool f() begin return T; end
void main() begin f(); end
`,
		errs: []string{"t.bp:2:6: duplicate procedure f (first defined at 1:6)"},
	},
	{
		name: "undeclared variable once per procedure",
		src: `void g() begin x := y; end
void main() begin
  x := T;
  assert(x & x);
  g();
end
`,
		errs: []string{
			"t.bp:1:16: undeclared variable x",
			"t.bp:1:21: undeclared variable y",
			"t.bp:3:3: undeclared variable x",
		},
	},
	{
		name: "no main",
		src: `// a comment first
decl g;
void f() begin g := T; end
`,
		errs: []string{"t.bp:1:1: no procedure main"},
	},
	{
		name: "empty file",
		src:  ``,
		errs: []string{"t.bp:1:1: no procedure main"},
	},
	{
		name: "undefined procedure",
		src: `void main() begin
  f(T);
  f(F);
  call h();
end
`,
		errs: []string{
			"t.bp:2:3: undefined procedure f",
			"t.bp:4:8: undefined procedure h",
		},
	},
	{
		name: "too few arguments",
		src: `void f(a, b) begin assert(a = b); end
void main() begin f(T); end
`,
		errs: []string{"t.bp:2:19: call of f with 1 argument; f has 2 parameters"},
	},
	{
		name: "too many arguments",
		src: `void f(a) begin assert(a); end
void main() begin call f(T, F, T); end
`,
		errs: []string{"t.bp:2:24: call of f with 3 arguments; f has 1 parameter"},
	},
	{
		name: "arguments to parameterless procedure",
		src: `void f() begin skip; end
void main() begin start_thread f(T); end
`,
		errs: []string{"t.bp:2:32: call of f with 1 argument; f has 0 parameters"},
	},
	{
		name: "fewer targets than returned values",
		src: `bool<2> f() begin return T, F; end
void main() begin decl x; x := f(); assert(x); end
`,
		errs: []string{"t.bp:2:27: f returns 2 values, 1 assigned"},
	},
	{
		name: "more targets than returned values",
		src: `bool f() begin return T; end
void main() begin decl x, y; x, _, y := f(); assert(x = y); end
`,
		errs: []string{"t.bp:2:30: f returns 1 value, 3 assigned"},
	},
	{
		name: "assigning a void result",
		src: `decl g;
void f() begin g := T; end
void main() begin g := f(); end
`,
		errs: []string{"t.bp:3:19: f returns no value, 1 assigned"},
	},
	{
		name: "return count",
		src: `bool<2> f() begin
  return T;
end
void main() begin decl a, b; a, b := f(); assert(a | b); end
`,
		errs: []string{"t.bp:2:3: return of 1 value in procedure f, which returns 2 values"},
	},
	{
		name: "return value from void",
		src: `void main() begin
  return T, F;
end
`,
		errs: []string{"t.bp:2:3: return of 2 values in void procedure main"},
	},
	{
		name: "goto to a repeated label",
		src: `void main() begin
  L: skip;
  if * then
    L: skip;
  fi
  goto L;
  start_thread goto L;
  M: L: skip;
end
`,
		errs: []string{"t.bp:6:8: goto to label L, which is repeated in procedure main (at 2:3, 4:5, 8:6)"},
	},
	{
		name: "repeated label nothing jumps to (Getafix's SafeStack)",
		src: `decl a;
void main() begin
  if a then SLIC_ERROR: skip; fi
  if !a then SLIC_ERROR: SLIC_ERROR: skip; else L: skip; fi
  L: SLIC_ERROR: skip;
end
void f() begin SLIC_ERROR: skip; end
`,
		warns: []string{
			"t.bp:4:14: label SLIC_ERROR repeated in procedure main (first at 3:13); no goto names it, so it marks every occurrence",
			"t.bp:5:3: label L repeated in procedure main (first at 4:49); no goto names it, so it marks every occurrence",
			"t.bp:5:6: label SLIC_ERROR repeated in procedure main (first at 3:13); no goto names it, so it marks every occurrence",
		},
	},
	{
		name: "undefined goto target",
		src: `void main() begin
  goto A, B;
  A: goto B;
end
`,
		errs: []string{"t.bp:2:11: undefined label B in procedure main"},
	},
	{
		name: "labels are per procedure",
		src: `void f() begin L: skip; end
void main() begin f(); goto L; end
`,
		errs: []string{"t.bp:2:29: undefined label L in procedure main"},
	},
	{
		name: "undefined start_thread goto target",
		src: `void main() begin
  start_thread goto T1;
end
`,
		errs: []string{"t.bp:2:21: undefined label T1 in procedure main"},
	},
	{
		name: "assignment count mismatch",
		src: `decl a, b;
void main() begin
  a, b := T;
  a := T, F;
end
`,
		errs: []string{
			"t.bp:3:3: assignment mismatch: 2 targets but 1 value",
			"t.bp:4:3: assignment mismatch: 1 target but 2 values",
		},
	},
	{
		name: "same variable assigned twice (Getafix's reading: blocked where the values differ)",
		src: `decl a, b;
void main() begin
  a, b, a := T, F, T;
  a, a, a := b, !b, * constrain 'a;
end
`,
		warns: []string{
			"t.bp:3:9: a assigned twice in one statement: the step is blocked where the values differ",
			"t.bp:4:6: a assigned twice in one statement: the step is blocked where the values differ",
			"t.bp:4:9: a assigned twice in one statement: the step is blocked where the values differ",
		},
	},
	{
		name: "same variable twice as call target",
		src: `bool<3> f() begin return T, T, T; end
void main() begin
  decl a;
  a, _, a := f();
  _, _, _ := f();
end
`,
		errs: []string{"t.bp:4:9: a assigned twice in one statement"},
	},
	{
		name: "discard used as a value",
		src: `decl a;
void main() begin
  a := _ & a;
  assert(_);
end
`,
		errs: []string{
			"t.bp:3:8: cannot use _ as a value",
			"t.bp:4:10: cannot use _ as a value",
		},
	},
	{
		name: "declaring the discard",
		src: `decl _;
void f(_) begin skip; end
void main() begin decl _; f(T); end
`,
		errs: []string{
			"t.bp:1:6: cannot declare _ as a variable",
			"t.bp:2:8: cannot declare _ as a variable",
			"t.bp:3:24: cannot declare _ as a variable",
		},
	},
	{
		name: "dead",
		src: `decl a;
void main() begin
  a := T;
  dead a, b, _;
end
`,
		errs: []string{
			"t.bp:4:11: undeclared variable b",
			"t.bp:4:14: cannot use _ as a value",
		},
	},
	{
		name: "primed outside constrain",
		src: `decl a, b;
void main() begin
  a, b := 'b, T;
  assert('a);
end
`,
		errs: []string{
			"t.bp:3:11: primed variable 'b outside a constrain clause",
			"t.bp:4:10: primed variable 'a outside a constrain clause",
		},
	},
	{
		name: "primed in enforce and in call arguments",
		src: `decl a;
void f(x) begin
  enforce 'a;
  a := x;
end
void main() begin f('a); end
`,
		errs: []string{
			"t.bp:3:11: primed variable 'a outside a constrain clause",
			"t.bp:6:21: primed variable 'a outside a constrain clause",
		},
	},
	{
		name: "primed discard and undeclared in constrain",
		src: `decl a;
void main() begin
  a := * constrain '_ | 'z;
end
`,
		errs: []string{
			"t.bp:3:21: cannot use _ as a value",
			"t.bp:3:26: undeclared variable z",
		},
	},
	{
		name: "braced names keep their braces",
		src: `decl {p==q};
void main() begin {p==q}, {r} := T, {p==q}; end
`,
		errs: []string{"t.bp:2:27: undeclared variable {r}"},
	},
	{
		name: "errors are sorted across procedures and kinds",
		src: `void main() begin
  g();
  x := T;
end
void f(a) begin
  return a;
  goto nowhere;
end
`,
		errs: []string{
			"t.bp:2:3: undefined procedure g",
			"t.bp:3:3: undeclared variable x",
			"t.bp:6:3: return of 1 value in void procedure f",
			"t.bp:7:8: undefined label nowhere in procedure f",
		},
	},

	// Programs that are fine, to pin down the lenient decisions.
	{
		name: "local shadows global",
		src: `decl x;
void f(x) begin assert(x); end
void main() begin decl x; x := T; f(x); end
`,
		warns: []string{"t.bp:1:6: global variable x declared and not used"},
	},
	{
		name: "main with parameters and results, recursion, plain calls of bool procedures",
		src: `bool<2> main(a, b) begin
  decl r;
  r, _ := main(b, r);
  main(a, b);
  return;
end
`,
	},
	{
		name: "bare return in procedure returning values",
		src: `bool<3> f() begin return; end
void main() begin decl a, b; a, b, _ := f(); assert(a = b); end
`,
	},
	{
		name: "discard as target of a plain assignment",
		src: `decl a;
void main() begin a, _ := T, a; end
`,
	},
	{
		name: "same label repeated on one statement",
		src: `void main() begin
  z: z: z: skip;
  goto z;
end
`,
	},
	{
		name: "goto into and out of blocks, label before use",
		src: `void main() begin
  goto inner;
  while * do
    inner: skip;
    goto out;
  od
  out: skip;
end
`,
	},
	{
		name: "Getafix threads without main",
		src: `decl atomic, a;
void init() begin a := F; end
void thread0() begin atomic := T; a := T; atomic := F; end
void thread1() begin if a then SLIC_ERROR: skip; fi end
`,
	},
	{
		name: "decl statement names are procedure-wide",
		src: `void main() begin
  x := T;
  decl x;
  assert(x);
end
`,
	},
	{
		name: "constrain, schoose, threads and atomic",
		src: `decl g, h;
void t() begin end_thread; end
void main() begin
  g, h := schoose[g, h], * constrain 'g | !'h & h;
  ASYNC_1: t();
  start_thread t();
  atomic_begin; g := F; atomic_end;
  abortif g;
  print(g, h);
end
`,
	},
	{
		name: "primed variable that is not assigned",
		src: `decl a, b;
void main() begin
  a := * constrain 'a = 'b;
end
`,
		warns: []string{"t.bp:3:25: primed variable 'b is not assigned by this assignment (it equals b)"},
	},
}

func TestErrors(t *testing.T) {
	for _, tt := range errorTests {
		t.Run(tt.name, func(t *testing.T) {
			checkCase(t, tt.src, tt.errs, tt.warns)
		})
	}
}
