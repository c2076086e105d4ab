package result

import (
	"strings"
	"testing"

	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// TestProjectionWriters: the listing sorts by procedure and line and
// counts the locations; the DOT graph keeps the program's graph and fills
// the projected nodes with their values as tooltips.
func TestProjectionWriters(t *testing.T) {
	const src = `decl g;
void main()
begin
  decl h;
  g := *;
  h := g;
  if (h) then
    SLIC_ERROR: skip;
  fi
end
`
	f, err := syntax.ParseFile("p.bp", []byte(src), syntax.CProver)
	if err != nil {
		t.Fatal(err)
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	p, err := ir.Lower(f, info, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	main := p.Procs[p.Main]
	var at []int // the locations of lines 8 and 6, in that order
	for _, line := range []int{8, 6} {
		for i, loc := range main.Locations {
			if loc.Pos.Line == line && loc.Kind != ir.ExitLoc {
				at = append(at, i)
				break
			}
		}
	}
	if len(at) != 2 {
		t.Fatalf("no locations at lines 8 and 6 in %d locations", len(main.Locations))
	}
	vars := []ir.VarRef{{Global: true, Index: 0}, {Index: 0}}
	pr := &Projection{Locations: []ProjectedLocation{
		{Proc: p.Main, Loc: at[0], Vars: vars, Count: 1, Values: []int{1, 1}},
		{Proc: p.Main, Loc: at[1], Vars: vars, Count: 2, Values: []int{-1, 0}},
	}}
	var text strings.Builder
	if err := pr.WriteText(&text, "p.bp", p); err != nil {
		t.Fatal(err)
	}
	want := "error projection: 2 of " // then the program's count
	lines := strings.Split(strings.TrimSpace(text.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], want) ||
		!strings.HasPrefix(lines[1], "p.bp:6: main: ") || !strings.HasSuffix(lines[1], "[g=* h=0] (2 states)") ||
		!strings.HasPrefix(lines[2], "p.bp:8: main: SLIC_ERROR: ") || !strings.HasSuffix(lines[2], "[g=1 h=1] (1 state)") {
		t.Errorf("listing:\n%s", text.String())
	}
	var dot strings.Builder
	if err := pr.WriteDOT(&dot, p); err != nil {
		t.Fatal(err)
	}
	if out := dot.String(); !strings.HasPrefix(out, "digraph") || !strings.HasSuffix(out, "tooltip=\"g=* h=0\"];\n}\n") || strings.Count(out, "fillcolor=yellow") != 2 {
		t.Errorf("DOT:\n%s", out)
	}
}
