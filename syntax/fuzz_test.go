package syntax

import (
	"bytes"
	"os"
	"reflect"
	"testing"
)

// FuzzRoundTrip feeds arbitrary bytes to the parser: it must never panic
// or hang, and whatever it accepts must survive printing: the printed text
// parses (in both dialects) to the same tree and prints identically again.
func FuzzRoundTrip(f *testing.F) {
	for _, seed := range []string{
		"decl g;\nvoid main() begin g := !g; end",
		"void main() begin if (*) then L: skip; elsif g then goto L; else assert(F); fi end",
		"bool<2> f(a) begin return a & !a, schoose[a, F]; end\nvoid main() begin x, _ := f(T); end",
		"void main() begin x, y := *, * constrain 'x = !'y; while x do dead y; od end",
		"decl {p==q}; // c\nvoid main() begin enforce {p==q}; /* c */ start_thread goto L; L: atomic_begin; atomic_end; end_thread; end",
		"void main() begin x := a => b = c ^ d | e & f; end",
		"void main() begin skip; L: enforce a; sync e; constrain('a = a); end",
		"void main() begin x := a & b & c & (d & e) | f = g = h != i; y := (a & b) & c ^ a & (b & c); end",
		"void main() begin x := a => b => c = d = e => (f => g); end",
		"decl g := T; decl a, b := *, !g;\nvoid main() begin decl l := 1; 0: skip; 2: goto 3, 0; 3: decl m, n := l, m; end",
		"void main() begin if a then skip; elsif b then skip; elsif c then if d then skip; elsif e then skip; fi else skip; fi end",
		"decl x:=1, y:=0;\n\n// c\n\nvoid main() begin decl l0:=0, l1:=!l0, l2; end\nvoid f() begin end /* t */\n\n\n",
		"decl g;\r\rvoid main()\rbegin /* a\rb */ g := g != g != g; // c\r\nend",
		"void main() begin x := ((((!((a)&(!('b))))&(!((c)&(!('a)))))&(!((b)&(!('c)))))&(!((c)&(!('a))))); end",
		"void main() begin x := ((a = b) != c) = (d = (a != b)); y := (a & b = c) & (d | (a | b)) & !((c)); end",
	} {
		f.Add([]byte(seed))
	}
	if files, err := benchmarkFilesForFuzz(); err == nil {
		for _, path := range files {
			if src, err := os.ReadFile(path); err == nil && len(src) < 8<<10 {
				f.Add(src)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		f1, err := ParseFile("fuzz.bp", src, CProver)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Fprint(&out, f1); err != nil {
			t.Fatal(err)
		}
		f2, err := ParseFile("fuzz.bp", out.Bytes(), Getafix)
		if err != nil {
			t.Fatalf("printed text does not parse: %v\n%s", err, out.String())
		}
		if diff := sameTree(f1, f2); diff != "" {
			t.Fatalf("tree changed: %s\n%s", diff, out.String())
		}
		Inspect(f1, func(n Node) bool {
			x, ok := n.(Expr)
			if !ok {
				return true
			}
			if diff := diffValue("x", reflect.ValueOf(canonical(x)), reflect.ValueOf(x)); diff != "" {
				t.Fatalf("%s is not in canonical form: %s", ExprString(x), diff)
			}
			return false
		})
		var out2 bytes.Buffer
		Fprint(&out2, f2)
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatalf("not idempotent:\n%s\n---\n%s", out.String(), out2.String())
		}
	})
}
