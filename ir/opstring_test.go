package ir_test

import (
	"fmt"
	"testing"

	"boolprog/internal/testsuite"
	"boolprog/ir"
)

// TestOpStringRoundTrip checks that OpString prints an operation as source
// that reads back as the same operation: braced names (`{a<b}`, and the
// reserved words `{T}`, `{if}`) keep their braces on the targets of
// assignments and calls and on procedure names, which OpString dropped
// (`a<b, c := T, F`).
func TestOpStringRoundTrip(t *testing.T) {
	const prog = `decl {a<b}, c, {T}, {if};
bool<2> {my f}(p, q) begin return p, q; end
void g(p) begin skip; end
void main() begin
  decl {x y};
  %s
  {L 2}: skip;
  L: skip;
end
`
	for _, c := range []struct{ stmt, want string }{
		{"{a<b}, c := T, F;", "{a<b}, c := T, F"},
		{"{T}, {if} := {if}, {T};", "{T}, {if} := {if}, {T}"},
		{"c, {a<b} := *, schoose[c, {T}] constrain '{a<b} != c;", "c, {a<b} := *, schoose[c, {T}] constrain '{a<b} != c"},
		{"{x y}, _ := {my f}(c, {a<b});", "{x y}, _ := {my f}(c, {a<b})"},
		{"_, {T} := {my f}(T, {T});", "_, {T} := {my f}(T, {T})"},
		{"g({if});", "g({if})"},
		{"assume({a<b} | !{T});", "assume({a<b} | !{T})"},
		{"start_thread {my f}({x y}, c);", "start_thread {my f}({x y}, c)"},
		{"start_thread goto L;", "start_thread goto L"},
		{"start_thread goto {L 2};", "start_thread goto {L 2}"},
		{"return;", "return"},
	} {
		t.Run(c.want, func(t *testing.T) {
			op := func(stmt string) string {
				t.Helper()
				p := testsuite.Lower(t, "op.bp", fmt.Sprintf(prog, stmt), "")
				m := p.Proc("main")
				out := m.Locations[m.Entry].Out
				if len(out) != 1 {
					t.Fatalf("%s: %d edges leave main's entry", stmt, len(out))
				}
				return p.OpString(m, m.Edges[out[0]].Op)
			}
			got := op(c.stmt)
			if got != c.want {
				t.Fatalf("OpString = %q, want %q", got, c.want)
			}
			if back := op(got + ";"); back != got {
				t.Errorf("%q reads back as %q", got, back)
			}
		})
	}
	for name, want := range map[string]string{"x": "x", "_x1": "_x1", "a<b": "{a<b}", "1x": "{1x}", "T": "{T}", "F": "{F}", "if": "{if}", "sync": "sync"} {
		if got := ir.IdentText(name); got != want {
			t.Errorf("IdentText(%q) = %q, want %q", name, got, want)
		}
	}
}
