package ir_test

import (
	"slices"
	"strings"
	"testing"

	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// A copy of sema's test helper (test files cannot share code across
// packages); drop the fallback once the parser reads initialisers.
// parseInits parses src, whose declarations may have initialisers (`decl
// a, b := T, *;`, each on one line). If the parser reads initialisers it
// is used as it is; otherwise (before the front end's support lands) the
// initialisers are blanked out for the parser and parsed on their own,
// with their positions moved to where they stand in src.
func parseInits(t *testing.T, src string) *syntax.File {
	t.Helper()
	if f, err := syntax.ParseFile("i.bp", []byte(src), syntax.CProver); err == nil {
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
	f, err := syntax.ParseFile("i.bp", []byte(strings.Join(lines, "\n")), syntax.CProver)
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

func lowerInits(t *testing.T, src string) *ir.Program {
	t.Helper()
	f := parseInits(t, src)
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	p, err := ir.Lower(f, info, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInitialisers(t *testing.T) {
	p := lowerInits(t, `decl s1 := *;
decl g;
decl s2, s3 := 0, T & !F;
void f(a) begin
  decl l := a & s1;
  decl m;
  decl n := !s2;
  enforce l | n;
  decl k := m;
  return;
end
void main() begin
  decl x := T;
  f(x);
end
`)
	checkInvariants(t, p)
	m, f := p.Proc("main"), p.Proc("f")
	want := []string{
		"decl s1 := *; decl s2, s3 := F, T & !F => s1, s2, s3 := *, F, T & !F",
		"decl x := T => x := T",
		"f(x) => f(x)",
	}
	if got := edgeTexts(p, m); !slices.Equal(got, want) {
		t.Errorf("main:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if e := m.Edges[0]; m.Entry != e.From || m.Locations[e.From].Pos.Line != 1 || m.Locations[e.To].Pos.Line != 13 {
		t.Errorf("main's entry %d, global step %d -> %d", m.Entry, e.From, e.To)
	}
	want = []string{
		"decl l := a & s1; decl n := !s2 => l, n := a & s1, !s2 constrain 'l | 'n",
		"enforce l | n => assume(l | n)",
		"decl k := m => k := m constrain 'l | 'n",
		"return => return",
	}
	if got := edgeTexts(p, f); !slices.Equal(got, want) {
		t.Errorf("f:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// f's entry: the initialisers, then enforce, then the body.
	if l := f.Locations[f.Entry]; l.Text != "decl l := a & s1; decl n := !s2" || l.Pos.Line != 5 || l.Kind != ir.StmtLoc {
		t.Errorf("f's entry %+v", l)
	}
}

func TestInitialisersGetafix(t *testing.T) {
	p := lowerInits(t, `decl g := T;
void main() begin assert(g); end
void thread1() begin g := F; end
`)
	checkInvariants(t, p)
	if p.Init != 2 || !slices.Equal(p.Threads, []int{0, 1}) {
		t.Fatalf("init %d threads %v", p.Init, p.Threads)
	}
	in := p.Procs[p.Init]
	if in.Name != "init" || len(in.Edges) != 1 || p.OpString(in, in.Edges[0].Op) != "g := T" || in.Locations[in.Entry].Text != "decl g := T" {
		t.Errorf("synthetic init: %q", edgeTexts(p, in))
	}
	if got := edgeTexts(p, p.Procs[0]); got[0] != "assert(g) => assume(g)" {
		t.Errorf("main starts with %q", got[0])
	}

	p = lowerInits(t, `decl g := T;
void thread0() begin g := F; end
void init() begin skip; end
`)
	checkInvariants(t, p)
	in = p.Procs[p.Init]
	if in.Name != "init" || p.Init != 1 || !slices.Equal(edgeTexts(p, in), []string{"decl g := T => g := T", "skip => skip"}) {
		t.Errorf("init %d: %q", p.Init, edgeTexts(p, in))
	}
}
