package gen

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/syntax"
)

var update = flag.Bool("update", false, "rewrite examples/bebop-t3.bp from BebopTemplate(3)")

// scopeCounts returns the number of variables of f and the largest number
// in scope in one procedure (globals plus its parameters and locals).
func scopeCounts(f *syntax.File) (vars, maxScope int) {
	globals := 0
	for _, d := range f.Globals {
		globals += len(d.Names)
	}
	vars = globals
	for _, p := range f.Procs {
		own := len(p.Params)
		for _, d := range p.Locals {
			own += len(d.Names)
		}
		vars += own
		maxScope = max(maxScope, globals+own)
	}
	return vars, maxScope
}

func TestBebopTemplateStructure(t *testing.T) {
	for _, tc := range []struct {
		n     int
		e     TemplateError
		procs int
		vars  int
		label string
	}{
		{1, NoError, 2, 4, "reach"},
		{2, NoError, 3, 7, "reach"},
		{3, NoError, 4, 10, "reach"},
		{10, NoError, 11, 31, "reach"},
		{100, NoError, 101, 301, "reach"},
		{800, NoError, 801, 2401, "reach"}, // the paper's largest instance: 2401 variables
		{5, ReachableError, 6, 17, "SLIC_ERROR"},
		{5, UnreachableError, 6, 17, "SLIC_ERROR"},
	} {
		name := fmt.Sprintf("T(%d)-%d", tc.n, tc.e)
		src := BebopTemplateWith(tc.n, tc.e)
		if tc.e == NoError && src != BebopTemplate(tc.n) {
			t.Errorf("%s: BebopTemplate differs from BebopTemplateWith(n, NoError)", name)
		}
		f, printed, warns := parseCheck(t, name, src)
		if len(warns) > 0 {
			t.Errorf("%s: warnings: %v", name, warns)
		}
		if len(f.Procs) != tc.procs {
			t.Errorf("%s: %d procedures, want %d", name, len(f.Procs), tc.procs)
		}
		vars, scope := scopeCounts(f)
		if vars != tc.vars || scope != 4 {
			t.Errorf("%s: %d variables, at most %d in scope; want %d and 4", name, vars, scope, tc.vars)
		}
		if f.Procs[0].Name.Name != "main" {
			t.Errorf("%s: first procedure is %s, want main", name, f.Procs[0].Name.Name)
		}
		for i, p := range f.Procs[1:] {
			if want := fmt.Sprintf("level%d", i+1); p.Name.Name != want {
				t.Errorf("%s: procedure %d is %s, want %s", name, i+1, p.Name.Name, want)
			}
			// Each level calls the next one twice, the last none.
			calls := 0
			syntax.Inspect(p.Body[0], func(n syntax.Node) bool {
				if c, ok := n.(*syntax.CallStmt); ok {
					calls++
					if want := fmt.Sprintf("level%d", i+2); c.Proc.Name != want {
						t.Errorf("%s: %s calls %s, want %s", name, p.Name.Name, c.Proc.Name, want)
					}
				}
				return true
			})
			if want := 2; i+1 == tc.n {
				if calls != 0 {
					t.Errorf("%s: last level makes %d calls", name, calls)
				}
			} else if calls != want {
				t.Errorf("%s: %s makes %d calls, want %d", name, p.Name.Name, calls, want)
			}
		}
		if !strings.Contains(src, tc.label+": skip;") {
			t.Errorf("%s: no label %s", name, tc.label)
		}
		if tc.e == NoError && (strings.Contains(src, "SLIC_ERROR") || strings.Contains(src, "assert")) {
			t.Errorf("%s: the paper's template has no error", name)
		}
		// Printing and parsing again gives the same text.
		_, again, _ := parseCheck(t, name+"(printed)", printed)
		if again != printed {
			t.Errorf("%s: print/parse round trip differs", name)
		}
	}
}

func TestBebopTemplatePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("BebopTemplate(0) did not panic")
		}
	}()
	BebopTemplate(0)
}

// TestGoldenT3 checks that examples/bebop-t3.bp is BebopTemplate(3); run
// `go test ./gen -run GoldenT3 -update` to rewrite it.
func TestGoldenT3(t *testing.T) {
	path := filepath.Join("..", "examples", "bebop-t3.bp")
	want := BebopTemplate(3)
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s differs from BebopTemplate(3); run go test ./gen -run GoldenT3 -update", path)
	}
}

// TestFig1 checks examples/bebop-fig1.bp: it is valid and its statements sit
// on the line numbers of the paper's Figure 1.
func TestFig1(t *testing.T) {
	path := filepath.Join("..", "examples", "bebop-fig1.bp")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, _, warns := parseCheck(t, path, string(src))
	if len(warns) > 0 {
		t.Errorf("warnings: %v", warns)
	}
	want := map[int]string{
		6: "h := !g;", 7: "A(g, h);", 8: "skip;", 9: "A(g, h);", 10: "skip;",
		11: "if", 12: "R: skip;", 14: "skip;",
		20: "if", 21: "A(a2, a1);", 22: "skip;", 24: "g := a2;",
	}
	got := map[int]string{}
	for _, p := range f.Procs {
		syntax.Inspect(p, func(n syntax.Node) bool {
			if s, ok := n.(syntax.Stmt); ok {
				line := s.Pos().Line
				text := syntax.StmtString(s)
				for i := len(s.StmtLabels()) - 1; i >= 0; i-- {
					text = s.StmtLabels()[i].Name + ": " + strings.TrimSpace(text)
				}
				if _, ok := s.(*syntax.IfStmt); ok {
					text = "if"
				}
				got[line] = text
			}
			return true
		})
	}
	for line, w := range want {
		if g := strings.TrimSpace(got[line]); g != w {
			t.Errorf("line %d: statement %q, want %q", line, g, w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("statements on lines %v, want exactly the paper's %d", got, len(want))
	}
	if len(f.Procs) != 2 || len(f.Globals) != 1 {
		t.Errorf("%d procedures and %d global decls, want 2 and 1", len(f.Procs), len(f.Globals))
	}
}

// TestTemplateErrorNames: every variant's name parses back to it, and an
// unknown name does not parse.
func TestTemplateErrorNames(t *testing.T) {
	for _, e := range []TemplateError{NoError, ReachableError, UnreachableError} {
		got, ok := ParseTemplateError(e.String())
		if !ok || got != e {
			t.Errorf("ParseTemplateError(%q) = %v, %v; want %v", e.String(), got, ok, e)
		}
	}
	if _, ok := ParseTemplateError("sometimes"); ok {
		t.Error("ParseTemplateError accepted an unknown name")
	}
	if s := TemplateError(7).String(); s != "" {
		t.Errorf("TemplateError(7).String() = %q, want \"\"", s)
	}
}
