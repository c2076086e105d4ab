package syntax

import (
	"strings"
	"testing"
)

// TestNumericLabels checks SATABS's generated style: numbers as labels and
// as goto targets are labels like any other, while a number elsewhere at
// the start of a statement is still an error.
func TestNumericLabels(t *testing.T) {
	const src = `void main()
begin
  0: skip;
  1: L: 2: goto 3, 7;
  3: if (*) then 4: goto 0; fi
  7: start_thread goto 3;
end
`
	f, err := ParseFile("x.bp", []byte(src), CProver)
	if err != nil {
		t.Fatal(err)
	}
	body := f.Procs[0].Body
	var labels []string
	for _, s := range body {
		for _, l := range s.StmtLabels() {
			labels = append(labels, l.Name+"@"+l.Pos().String())
		}
	}
	if got, want := strings.Join(labels, " "), "0@3:3 1@4:3 L@4:6 2@4:9 3@5:3 7@6:3"; got != want {
		t.Errorf("labels %s, want %s", got, want)
	}
	g := body[1].(*GotoStmt)
	if len(g.Targets) != 2 || g.Targets[0].Name != "3" || g.Targets[1].Name != "7" || g.Targets[1].Pos().String() != "4:20" {
		t.Errorf("goto targets %v", g.Targets)
	}
	if st := body[3].(*StartThreadStmt).Target.(*GotoStmt); st.Targets[0].Name != "3" {
		t.Errorf("start_thread goto %v", st.Targets)
	}
	roundTrip(t, "x.bp", []byte(src), CProver)
	out, _ := Format("x.bp", []byte(src), CProver)
	if want := "  1: L: 2: goto 3, 7;\n"; !strings.Contains(string(out), want) {
		t.Errorf("printed:\n%s\nwant a line %q", out, want)
	}
}

// TestDeclInitialisers checks `decl x := e;` in every place a declaration
// may stand, the tree it gives, and its printing.
func TestDeclInitialisers(t *testing.T) {
	const src = `decl g := T;
decl h, k := *, !g;
void main()
begin
  decl l := 1;
  decl s := *;
  decl a, b := l & s, schoose[l, s];
  skip;
  decl m := 0;
end
`
	f, err := ParseFile("x.bp", []byte(src), CProver)
	if err != nil {
		t.Fatal(err)
	}
	decls := append(append([]*Decl{}, f.Globals...), f.Procs[0].Locals...)
	decls = append(decls, f.Procs[0].Body[1].(*DeclStmt).Decl)
	var got []string
	for _, d := range decls {
		got = append(got, declText(d)+"@"+d.Assign.String())
		if len(d.Inits) != len(d.Names) {
			t.Errorf("%s: %d initialisers for %d names", declText(d), len(d.Inits), len(d.Names))
		}
	}
	want := "decl g := T;@1:8 decl h, k := *, !g;@2:11 decl l := T;@5:10 decl s := *;@6:10 decl a, b := l & s, schoose[l, s];@7:13 decl m := F;@9:10"
	if strings.Join(got, " ") != want {
		t.Errorf("got  %s\nwant %s", strings.Join(got, " "), want)
	}
	plain, _ := ParseFile("x.bp", []byte("decl g;"), CProver)
	if d := plain.Globals[0]; d.Inits != nil || d.Assign.IsValid() {
		t.Errorf("decl without := has Inits %v, Assign %v", d.Inits, d.Assign)
	}
	refs := 0
	Inspect(f, func(n Node) bool {
		if _, ok := n.(*VarRef); ok {
			refs++
		}
		return true
	})
	if refs != 5 {
		t.Errorf("Inspect found %d variable references in initialisers, want 5", refs)
	}
	roundTrip(t, "x.bp", []byte(src), CProver)
}
