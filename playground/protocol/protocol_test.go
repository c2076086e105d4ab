package protocol

import (
	"encoding/json"
	"strings"
	"testing"

	"boolprog/result"
)

func TestHandle(t *testing.T) {
	fig1 := `decl g;
main() begin decl h; h := !g; A(g, h); skip; A(g, h); skip; if (g) then R: skip; fi end
A(a1, a2) begin if (a1) then A(a2, a1); skip; else g := a2; fi end
`
	tests := []struct {
		name    string
		req     string
		exit    int
		verdict string // "" for an error report
		text    string // a line of Text
	}{
		{"unsafe", mustJSON(Request{Source: fig1, Filename: "fig1.bp", Target: "R"}), 10, "unsafe", "fig1.bp:2:76: error: label R reached"},
		{"safe", mustJSON(Request{Source: fig1, Engine: "explicit"}), 0, "safe", "VERIFICATION SUCCESSFUL"},
		{"endless loop", mustJSON(Request{Source: "decl g;\nmain() begin while (T) do g := !g; od end\n", TimeoutMS: 60000, Engine: "summary"}), 0, "safe", "checked: no assertions"},
		{"bound refused", mustJSON(Request{Source: fig1, Bound: "cs:2"}), 5, "unknown", "VERIFICATION UNKNOWN: "},
		{"input error", mustJSON(Request{Source: "main() begin x := T; end"}), 2, "", "input.bp:1:14: undeclared variable x"},
		{"bad bound", mustJSON(Request{Source: fig1, Bound: "cs:x"}), 1, "", `bound: want none, cs:K or rounds:K with K >= 0 (K >= 1 for rounds), not "cs:x"`},
		{"bad dialect", mustJSON(Request{Source: fig1, Dialect: "c"}), 1, "", `unknown dialect "c"`},
		{"unknown engine", mustJSON(Request{Source: fig1, Engine: "nope"}), 1, "", `Engine: unknown engine "nope"`},
		{"warning", mustJSON(Request{Source: "decl a, b, c;\nmain() begin assert(a & b = c); end\n"}), 10, "unsafe", "input.bp:2:21: warning: "},
		{"malformed request", `{"source": 3}`, 1, "", "malformed request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var resp Response
			if err := json.Unmarshal(Handle([]byte(tt.req)), &resp); err != nil {
				t.Fatal(err)
			}
			if resp.ExitCode != tt.exit {
				t.Errorf("exit %d, want %d\n%s", resp.ExitCode, tt.exit, resp.Text)
			}
			rep, err := result.ReadReport(strings.NewReader(string(resp.Report)))
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.verdict == "" && (rep.Verdict != nil || len(rep.Errors) == 0):
				t.Errorf("report %+v, want errors", rep)
			case tt.verdict != "" && (rep.Verdict == nil || rep.Verdict.String() != tt.verdict):
				t.Errorf("report %+v, want %s", rep, tt.verdict)
			}
			if !strings.Contains(resp.Text, tt.text) {
				t.Errorf("text %q does not contain %q", resp.Text, tt.text)
			}
		})
	}
}

func mustJSON(r Request) string {
	b, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestCheckerHTML checks that the HTML report is the last verdict's, and
// that there is none after a request without a verdict.
func TestCheckerHTML(t *testing.T) {
	var c Checker
	if c.HTML() != nil {
		t.Errorf("an HTML report before any check")
	}
	c.Handle([]byte(mustJSON(Request{Source: "decl g;\nmain() begin g := *; assert(g); end\n", Filename: "a.bp"})))
	if html := string(c.HTML()); !strings.Contains(html, "VERIFICATION FAILED") || !strings.Contains(html, "assert(g)") {
		t.Errorf("HTML report:\n%.300s", html)
	}
	c.Handle([]byte(mustJSON(Request{Source: "main() begin x := T; end"})))
	if c.HTML() != nil {
		t.Errorf("an HTML report after an input error")
	}
}
