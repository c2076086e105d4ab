package syntax

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAmbiguities pins the warning for each kind of expression the two
// precedences read differently, and checks that the others get none.
func TestAmbiguities(t *testing.T) {
	tests := []struct {
		src     string
		d       Dialect
		want    string // "" means no warning
		wantGet string // the warning when parsed as getafix, if different
	}{
		{"assert(a & b = c);", CProver,
			"x.bp:1:26: a & b = c means (a & b) = c here (cprover precedence) but a & (b = c) with getafix precedence; add parentheses to say which", ""},
		{"assert(a & b = c);", Getafix,
			"x.bp:1:26: a & b = c means a & (b = c) here (getafix precedence) but (a & b) = c with cprover precedence; add parentheses to say which", ""},
		{"x := p => a | b ^ c;", CProver,
			"x.bp:1:29: a | b ^ c means (a | b) ^ c here (cprover precedence) but a | (b ^ c) with getafix precedence; add parentheses to say which", ""},
		{"x := a => b => c;", CProver,
			"x.bp:1:24: a => b => c means a => (b => c) here (cprover precedence) but (a => b) => c with getafix precedence; add parentheses to say which", ""},
		{"x := a = b != c;", CProver,
			"x.bp:1:24: a = b != c means a = (b != c) here (cprover precedence) but (a = b) != c with getafix precedence; add parentheses to say which", ""},
		{"x := !(a & b = c) & d;", CProver,
			"x.bp:1:26: a & b = c means (a & b) = c here (cprover precedence) but a & (b = c) with getafix precedence; add parentheses to say which", ""},
		// Two separate ambiguities in one group, one warning each.
		{"x := (a & b = c) | (d | e ^ f);", CProver,
			"x.bp:1:25: a & b = c means (a & b) = c here (cprover precedence) but a & (b = c) with getafix precedence; add parentheses to say which\n" +
				"x.bp:1:39: d | e ^ f means (d | e) ^ f here (cprover precedence) but d | (e ^ f) with getafix precedence; add parentheses to say which", ""},
		{"x := (a & b) = c;", CProver, "", ""},
		{"x := a & (b = c);", CProver, "", ""},
		{"x := a = b = c = d;", CProver, "", ""},
		{"x := a & b | c & d => e;", CProver, "", ""},
		{"x := a & b ^ c;", CProver, "", ""},
		{"x := a => (b => c);", CProver, "", ""},
		{"x := schoose[a & b, c] = d;", CProver, "", ""},
		{"x := a, b & c = d;", CProver,
			"x.bp:1:27: b & c = d means (b & c) = d here (cprover precedence) but b & (c = d) with getafix precedence; add parentheses to say which", ""},
	}
	for _, tt := range tests {
		src := "void main() begin " + tt.src + " end"
		f, err := ParseFile("x.bp", []byte(src), tt.d)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		got := f.Ambiguities().Error()
		if got != tt.want {
			t.Errorf("%s (%v):\ngot  %s\nwant %s", tt.src, tt.d, got, tt.want)
		}
	}
}

// TestAmbiguityLongChain checks that the message for a long expression
// stays short and that a huge ambiguous group costs no more than linear
// time (no quadratic search for the ambiguous parts).
func TestAmbiguityLongChain(t *testing.T) {
	src := "void main() begin x := " + strings.Repeat("a & ", 50) + "b = c; end"
	f, err := ParseFile("x.bp", []byte(src), CProver)
	if err != nil {
		t.Fatal(err)
	}
	list := f.Ambiguities()
	if len(list) != 1 || len(list[0].Msg) > 400 || !strings.Contains(list[0].Msg, " ... ") {
		t.Errorf("warnings %v", list)
	}
	big := "void main() begin x := " + strings.Repeat("a & b = c | ", 20000) + "d; end"
	f, err = ParseFile("x.bp", []byte(big), CProver)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Ambiguities()) == 0 {
		t.Error("no warning for a huge ambiguous group")
	}
}

// TestDetectDialect checks the Getafix convention and ParseFile's Auto.
func TestDetectDialect(t *testing.T) {
	const getafix = "decl a, b, c;\nvoid init() begin a := F; end\nvoid thread0() begin assert(a & b = c); end\n"
	const cprover = "decl a, b, c;\nvoid main() begin assert(a & b = c); end\nvoid thread() begin skip; end\n"
	for _, tt := range []struct {
		src     string
		want    Dialect
		why     string
		proc    int // the procedure whose first statement is the assert
		reading string
	}{
		{getafix, Getafix, "procedure thread0 at 3:6 follows the Getafix convention (threads named thread<N>)", 1, "a & (b = c)"},
		{cprover, CProver, "", 0, "(a & b) = c"},
	} {
		f, err := ParseFile("x.bp", []byte(tt.src), Auto)
		if err != nil {
			t.Fatal(err)
		}
		d, why := DetectDialect(f)
		if d != tt.want || why != tt.why || f.Dialect != tt.want {
			t.Errorf("DetectDialect = %v, %q (parsed as %v); want %v, %q", d, why, f.Dialect, tt.want, tt.why)
		}
		cond := f.Procs[tt.proc].Body[0].(*AssertStmt).Cond
		if got := ExprString(cond); got != tt.reading {
			t.Errorf("Auto read %s, want %s", got, tt.reading)
		}
		if len(f.Ambiguities()) != 1 {
			t.Errorf("ambiguities %v", f.Ambiguities())
		}
	}
	for name, want := range map[string]Dialect{"auto": Auto, "getafix": Getafix, "": CProver} {
		if d, ok := ParseDialect(name); !ok || d != want || (name != "" && d.String() != name) {
			t.Errorf("ParseDialect(%q) = %v, %v", name, d, ok)
		}
	}
}

// TestBenchmarkAmbiguities lists, for every public benchmark, the
// expressions the two precedences read differently, against
// testdata/ambiguities.golden, in the dialect each file's convention calls
// for.
func TestBenchmarkAmbiguities(t *testing.T) {
	var report strings.Builder
	for _, path := range benchmarkFiles(t) {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(path[len(benchmarksDir)+1:])
		f, err := ParseFile(name, src, Auto)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Dialect != CProver {
			fmt.Fprintf(&report, "%s: parsed as %v\n", name, f.Dialect)
		}
		for _, w := range f.Ambiguities() {
			fmt.Fprintln(&report, w)
		}
	}
	golden := filepath.Join("testdata", "ambiguities.golden")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, []byte(report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if report.String() != string(want) {
		t.Errorf("benchmark ambiguities differ from %s (UPDATE_GOLDEN=1 to accept):\n--- got\n%s--- want\n%s", golden, report.String(), want)
	}
}

// TestAmbiguitiesRandom checks the warnings against their definition on
// random expressions: a file has ambiguities exactly when the two
// precedences give different trees, and then the warnings read the same
// expressions from either side.
func TestAmbiguitiesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ops := []string{"&", "|", "^", "=", "!=", "=>"}
	var gen func(depth int) string
	gen = func(depth int) string {
		var b strings.Builder
		n := 1 + rng.IntN(6)
		for i := range n {
			if i > 0 {
				b.WriteString(" " + ops[rng.IntN(len(ops))] + " ")
			}
			switch r := rng.IntN(10); {
			case r == 0 && depth < 3:
				b.WriteString("(" + gen(depth+1) + ")")
			case r == 1:
				b.WriteString("!" + string(rune('a'+rng.IntN(4))))
			default:
				b.WriteString(string(rune('a' + rng.IntN(4))))
			}
		}
		return b.String()
	}
	for range 3000 {
		src := gen(0)
		c, g := rhsFile(t, src, CProver), rhsFile(t, src, Getafix)
		differ := ExprString(c.Procs[0].Body[0].(*AssignStmt).Rhs[0]) != ExprString(g.Procs[0].Body[0].(*AssignStmt).Rhs[0])
		if differ != (len(c.Ambiguities()) > 0) || differ != (len(g.Ambiguities()) > 0) {
			t.Fatalf("%s: trees differ %v, warnings %v / %v", src, differ, c.Ambiguities(), g.Ambiguities())
		}
		if len(c.Ambiguities()) != len(g.Ambiguities()) {
			t.Fatalf("%s: %d warnings in cprover, %d in getafix", src, len(c.Ambiguities()), len(g.Ambiguities()))
		}
		for i, w := range c.Ambiguities() {
			if w.Pos != g.Ambiguities()[i].Pos {
				t.Fatalf("%s: warning %d at %v in cprover, %v in getafix", src, i, w.Pos, g.Ambiguities()[i].Pos)
			}
		}
	}
}

func rhsFile(t *testing.T, src string, d Dialect) *File {
	t.Helper()
	f, err := ParseFile("x.bp", []byte("void main() begin x := "+src+"; end"), d)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return f
}
