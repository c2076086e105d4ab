package benchset

import (
	"strings"
	"testing"
)

// TestTranslatorConvention checks the rewriting of a generated program
// into the convention of Getafix's translator: init first with the label
// endinit, the threads next, an explicit return at the end of void
// helpers, no nondeterministic values or double negations.
func TestTranslatorConvention(t *testing.T) {
	src := `decl g0, atomic;

void thread0()
begin
  g0 := !!g0;
  f();
end

void f()
begin
  g0, atomic := *, F;
end

void init()
begin
  g0 := *;
  atomic := F;
end

void thread1()
begin
  skip;
end
`
	got := translatorConvention(src)
	for _, want := range []string{"void init()", "void thread0()", "void thread1()", "void f()"} {
		if !strings.Contains(got, want) {
			t.Fatalf("no %q in\n%s", want, got)
		}
	}
	order := []int{strings.Index(got, "void init()"), strings.Index(got, "void thread0()"), strings.Index(got, "void thread1()"), strings.Index(got, "void f()")}
	for i := 1; i < len(order); i++ {
		if order[i-1] > order[i] {
			t.Errorf("procedures out of order (init, threads, helpers):\n%s", got)
		}
	}
	for _, want := range []string{"  atomic := F;\n  endinit: skip;\nend", "g0, atomic := schoose[F,F], F;\n  return;\nend", "g0 := g0;", "g0 := schoose[F,F];"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "*") || strings.Contains(got, "!!") {
		t.Errorf("a * or !! is left:\n%s", got)
	}
}
