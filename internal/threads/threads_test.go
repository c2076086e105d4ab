package threads

import (
	"strings"
	"testing"

	"boolprog/internal/testsuite"
)

// TestApply: a thread list makes a sequential program concurrent, and a
// wrong one is a diagnostic of the file, never a panic.
func TestApply(t *testing.T) {
	const src = "decl g;\nvoid main() begin skip; end\nvoid f() begin g := T; end\nvoid h() begin assert(!g); end\n"
	for _, tc := range []struct {
		name       string
		names      []string
		concurrent bool
		err        string // substring of the one diagnostic, or ""
	}{
		{"none", nil, false, ""},
		{"two threads", []string{"f", "h"}, true, ""},
		{"a thread repeated", []string{"f", "f", "h"}, true, ""},
		{"an unknown procedure", []string{"f", "nope"}, false, "nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := testsuite.Lower(t, "t.bp", src, "")
			q, errs := Apply("t.bp", p, tc.names, true)
			if tc.err != "" {
				if len(errs) != 1 || errs[0].Filename != "t.bp" || !strings.Contains(errs[0].Msg, tc.err) {
					t.Fatalf("errors %v, want one of t.bp with %q", errs, tc.err)
				}
				return
			}
			if len(errs) > 0 {
				t.Fatalf("errors %v", errs)
			}
			if q.Concurrent != tc.concurrent {
				t.Errorf("Concurrent = %v, want %v", q.Concurrent, tc.concurrent)
			}
		})
	}
}
