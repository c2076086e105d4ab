package witness

import (
	"os"
	"strings"
	"testing"

	"boolprog/ir"
)

// TestFormula: the formula language's precedence, keywords, names and
// errors (with their offsets), evaluated over every valuation against the
// expected truth table.
func TestFormula(t *testing.T) {
	p := &ir.Program{Globals: []string{"g", "p==q"}}
	f := &ir.Proc{Name: "f", Params: 1, Locals: []string{"x", "l"}, Returns: 1}
	p.Procs = []*ir.Proc{f}
	// Valuations: bit 0 g, 1 {p==q}, 2 x, 3 l, 4 \old(g), 5 \result.
	val := func(bits int) func(atom) bool {
		return func(a atom) bool {
			switch {
			case a.kind == atomResult:
				return bits&32 != 0
			case a.kind == atomOld:
				return bits&16 != 0
			case a.ref.Global:
				return bits&(1<<a.ref.Index) != 0
			}
			return bits&(1<<(2+a.ref.Index)) != 0
		}
	}
	bit := func(bits, i int) bool { return bits&(1<<i) != 0 }
	cases := []struct {
		src  string
		want func(b int) bool
	}{
		{"T", func(int) bool { return true }},
		{"false", func(int) bool { return false }},
		{"g & !x | l", func(b int) bool { return bit(b, 0) && !bit(b, 2) || bit(b, 3) }},
		{"g | x & l", func(b int) bool { return bit(b, 0) || bit(b, 2) && bit(b, 3) }},
		{"g ^ x | l", func(b int) bool { return bit(b, 0) != (bit(b, 2) || bit(b, 3)) }},
		{"g = x & l", func(b int) bool { return bit(b, 0) == (bit(b, 2) && bit(b, 3)) }},
		{"g => x => l", func(b int) bool { return !bit(b, 0) || !bit(b, 2) || bit(b, 3) }},
		// =, != and => share the loosest level and group to the right.
		{"g = x => l", func(b int) bool { return bit(b, 0) == (!bit(b, 2) || bit(b, 3)) }},
		{"g => x != l", func(b int) bool { return !bit(b, 0) || bit(b, 2) != bit(b, 3) }},
		{"true & !false", func(int) bool { return true }},
		{"(g = \\old(g)) & {p==q}", func(b int) bool { return bit(b, 0) == bit(b, 4) && bit(b, 1) }},
		{"\\result != !x", func(b int) bool { return bit(b, 5) == bit(b, 2) }},
		{"\\result0 = l", func(b int) bool { return bit(b, 5) == bit(b, 3) }},
	}
	sc := scope{p: p, proc: f, old: true, results: 1}
	for _, c := range cases {
		fm, err := parseFormula(c.src, sc)
		if err != nil {
			t.Errorf("%s: %v", c.src, err)
			continue
		}
		for b := 0; b < 64; b++ {
			if got := fm.eval(val(b)); got != c.want(b) {
				t.Errorf("%s under %06b: %v, want %v", c.src, b, got, c.want(b))
				break
			}
		}
	}
	errs := []struct {
		src     string
		sc      scope
		offset  int
		msg     string
		unknown bool
	}{
		{"g & & x", sc, 4, `expected expression, found '&'`, false},
		{"(g | x", sc, 6, "expected ')'", false},
		{"g $ x", sc, 2, "expected operator or end of expression, found identifier $", false},
		{"g % x", sc, 2, "illegal character '%'", false},
		{"g & *", sc, 4, "a formula is a condition on one state", false},
		{"t1.x", sc, 2, "illegal character '.'", false},
		{"h & x", sc, 0, "unknown variable h in f", true},
		{"\\old(l)", sc, 5, "only globals and parameters have entry values", true},
		{"\\old(g)", scope{p: p, proc: f}, 5, `\old(g) is not allowed here`, true},
		{"\\result1", sc, 0, "no such returned value", true},
		{"\\resultx", sc, 0, "unknown keyword", false},
		{"x", scope{p: p}, 0, "unknown global variable x", true},
		{"", sc, 0, "expected expression, found end of file", false},
		{"{p==q", sc, 0, "braced identifier not terminated", false},
	}
	for _, e := range errs {
		_, err := parseFormula(e.src, e.sc)
		fe, ok := err.(*formulaError)
		if !ok || fe.offset != e.offset || !strings.Contains(fe.msg, e.msg) || fe.unknown != e.unknown {
			t.Errorf("%q: %#v, want offset %d %q (unknown %v)", e.src, err, e.offset, e.msg, e.unknown)
		}
	}
}

// FuzzParse: no input makes Parse panic or hang. (TestMutations runs
// Validate on mutated witnesses.)
func FuzzParse(f *testing.F) {
	for _, g := range []string{"fig1.violation.yaml", "fig1.violation.graphml", "safe.correctness.yaml"} {
		data, err := os.ReadFile("testdata/" + g)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("- a: 'x''y'\n  b:\n  - \"\\u0041\" # c\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = Parse("f", data)
	})
}
