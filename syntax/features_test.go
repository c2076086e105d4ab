package syntax

import (
	"fmt"
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

// TestDeclEachInitialiser checks the initial value after each name, `decl
// x:=1, y:=0;` (iJIT's and Liu and Wahl's form), beside the list form: the
// same names and initialisers, the form kept by the printer, and the
// mixed or ambiguous spellings read as the list form or refused.
func TestDeclEachInitialiser(t *testing.T) {
	const src = `decl x:=1, y:=0;
decl a, b := x, y;
decl c := y, d := !x;
void main()
begin
  decl l0:=0, l1:=1, l2:=0;
  decl {p==q} := *, m := l1 & l2;
  skip;
  decl n:=l0;
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
		got = append(got, fmt.Sprintf("%s@%s each=%v", declText(d), d.Assign, d.Each))
		if len(d.Inits) != len(d.Names) {
			t.Errorf("%s: %d initialisers for %d names", declText(d), len(d.Inits), len(d.Names))
		}
	}
	want := []string{
		"decl x := T, y := F;@1:7 each=true",
		"decl a, b := x, y;@2:11 each=false",
		"decl c := y, d := !x;@3:8 each=true",
		"decl l0 := F, l1 := T, l2 := F;@6:10 each=true",
		"decl {p==q} := *, m := l1 & l2;@7:15 each=true",
		"decl n := l0;@9:9 each=false",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	roundTrip(t, "x.bp", []byte(src), CProver)
	roundTrip(t, "x.bp", []byte(src), Getafix)

	for _, tc := range []struct{ src, want string }{
		// A name without a value after a named value is read as the
		// list form.
		{"decl x:=1, y;", "x.bp:1:7: 1 variable declared with 2 initial values"},
		// The list form with one name and two values stays an error.
		{"decl x := T, F;", "x.bp:1:8: 1 variable declared with 2 initial values"},
		{"decl x := T, y := F, T;", "x.bp:1:20: expected ';'"},
	} {
		_, err := ParseFile("x.bp", []byte(tc.src), CProver)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.src, err, tc.want)
		}
	}
}
