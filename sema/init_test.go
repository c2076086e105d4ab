package sema

import (
	"strings"
	"testing"

	"boolprog/syntax"
)

// parseInits parses src, whose declarations may have initialisers (`decl
// a, b := T, *;`, each on one line). If the parser reads initialisers it
// is used as it is; otherwise (before the front end's support lands) the
// initialisers are blanked out for the parser and parsed on their own,
// with their positions moved to where they stand in src.
func parseInits(t *testing.T, src string) *syntax.File {
	t.Helper()
	if f, err := syntax.ParseFile("t.bp", []byte(src), syntax.CProver); err == nil {
		return f
	}
	type pending struct {
		line, col, assignCol int
		exprs                []string
		cols                 []int
	}
	var todo []pending
	lines := strings.Split(src, "\n")
	for li, line := range lines {
		for from := 0; ; {
			i := strings.Index(line[from:], "decl ")
			if i < 0 {
				break
			}
			i += from
			end := strings.IndexByte(line[i:], ';') + i
			a := strings.Index(line[i:end], ":=")
			if a < 0 {
				from = end
				continue
			}
			a += i
			p := pending{line: li + 1, col: i + 1, assignCol: a + 1}
			// Split the initialisers at commas outside brackets.
			depth, start := 0, a+2
			for j := a + 2; j <= end; j++ {
				switch c := line[j]; {
				case c == '[' || c == '(':
					depth++
				case c == ']' || c == ')':
					depth--
				case c == ',' && depth == 0 || c == ';':
					text := line[start:j]
					trim := strings.TrimLeft(text, " ")
					p.exprs = append(p.exprs, strings.TrimSpace(text))
					p.cols = append(p.cols, start+len(text)-len(trim)+1)
					start = j + 1
				}
			}
			todo = append(todo, p)
			line = line[:a] + strings.Repeat(" ", end-a) + line[end:]
			from = end
		}
		lines[li] = line
	}
	f, err := syntax.ParseFile("t.bp", []byte(strings.Join(lines, "\n")), syntax.CProver)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	decls := map[syntax.Pos]*syntax.Decl{}
	syntax.Inspect(f, func(n syntax.Node) bool {
		if d, ok := n.(*syntax.Decl); ok {
			decls[syntax.Pos{Line: d.DeclPos.Line, Col: d.DeclPos.Col}] = d
		}
		return true
	})
	for _, p := range todo {
		d := decls[syntax.Pos{Line: p.line, Col: p.col}]
		if d == nil {
			t.Fatalf("no declaration at %d:%d", p.line, p.col)
		}
		d.Assign = syntax.Pos{Line: p.line, Col: p.assignCol}
		for i, text := range p.exprs {
			d.Inits = append(d.Inits, parseExprAt(t, text, p.line, p.cols[i]))
		}
	}
	return f
}

// parseExprAt parses an expression and moves its positions to line:col.
func parseExprAt(t *testing.T, text string, line, col int) syntax.Expr {
	t.Helper()
	const prefix = "void main() begin assume("
	f, err := syntax.ParseFile("e.bp", []byte(prefix+text+"); end"), syntax.CProver)
	if err != nil {
		t.Fatalf("initialiser %q: %v", text, err)
	}
	e := f.Procs[0].Body[0].(*syntax.AssumeStmt).Cond
	move := func(p *syntax.Pos) { *p = syntax.Pos{Line: line, Col: p.Col - len(prefix) - 1 + col} }
	syntax.Inspect(e, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Ident:
			move(&n.NamePos)
		case *syntax.VarRef:
			move(&n.TickPos)
		case *syntax.Const:
			move(&n.ValuePos)
		case *syntax.Nondet:
			move(&n.StarPos)
		case *syntax.Unary:
			move(&n.OpPos)
		case *syntax.Binary:
			move(&n.OpPos)
		case *syntax.Schoose:
			move(&n.Keyword)
		}
		return true
	})
	return e
}

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
			_, errs, warns := Check(parseInits(t, tt.src))
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
	f := parseInits(t, "decl a, b := T, F;\nvoid main() begin assert(a & b); end\n")
	f.Globals[0].Inits = f.Globals[0].Inits[:1]
	_, errs, _ := Check(f)
	want := []string{"t.bp:1:11: declaration mismatch: 2 variables but 1 initialiser"}
	if got := lines(errs); !same(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
