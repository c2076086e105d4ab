package result

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func sample() *Result {
	r := &Result{
		Verdict: Unsafe,
		Engine:  "explicit",
		Trace: &Trace{Steps: []Step{
			{Proc: "main", Loc: 0, Edge: 0, Line: 6, Col: 3, Text: "h := !g", Values: []Value{{"g", true}, {"h", false}}},
			{Proc: "A", Loc: 0, Edge: 1, Line: 20, Col: 3, Text: "if (a1)", Depth: 1, Values: []Value{{"g", true}, {"a1", false}, {"a2", true}}},
			{Proc: "main", Loc: 6, Edge: NoEdge, Line: 12, Col: 8, Text: "skip", Values: []Value{{"g", true}, {"h", false}}},
		}},
	}
	r.Stats.Set("path_edges", 7)
	return r
}

func TestJSON(t *testing.T) {
	r := sample()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{`"verdict":"unsafe"`, `"engine":"explicit"`, `"trace":[{"proc":"main"`, `"stats":{`, `"path_edges":7`, `"edge":-1`} {
		if !strings.Contains(s, want) {
			t.Errorf("JSON %s lacks %s", s, want)
		}
	}
	var back Result
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(&back)
	if !bytes.Equal(b, b2) {
		t.Errorf("round trip:\n%s\n%s", b, b2)
	}
	if b, _ := json.Marshal(&Result{Verdict: Safe}); !strings.Contains(string(b), `"verdict":"safe"`) || strings.Contains(string(b), "trace") {
		t.Errorf("safe result JSON %s", b)
	}
}

func TestText(t *testing.T) {
	for _, c := range []struct {
		style Style
		want  string
	}{
		{Bebop, "Line 12 State g=1 h=0\n  Line 20 State g=1 a1=0 a2=1\nLine 6 State g=1 h=0\nVERIFICATION FAILED\n"},
		{Forward, "Line 6 main: h := !g  State g=1 h=0\n  Line 20 A: if (a1)  State g=1 a1=0 a2=1\nLine 12 main: skip  State g=1 h=0\nVERIFICATION FAILED\n"},
	} {
		var b bytes.Buffer
		if err := WriteText(&b, sample(), c.style); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.style, b.String(), c.want)
		}
	}
}

func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		v      Verdict
		name   string
		code   int
		banner string
	}{
		{Safe, "safe", 0, "VERIFICATION SUCCESSFUL"},
		{Unsafe, "unsafe", 10, "VERIFICATION FAILED"},
		{Unknown, "unknown", 5, "VERIFICATION UNKNOWN: timeout"},
	} {
		if c.v.String() != c.name || c.v.ExitCode() != c.code || c.v.Banner("timeout") != c.banner {
			t.Errorf("%v: %s %d %s", c.v, c.v.String(), c.v.ExitCode(), c.v.Banner("timeout"))
		}
		if v, ok := ParseVerdict(c.name); !ok || v != c.v {
			t.Errorf("ParseVerdict(%s)", c.name)
		}
	}
}

// TestBoundValidate checks which bounds a query may carry: 0 rounds is
// refused (engines answered SUCCESSFUL, FAILED and UNKNOWN to the same
// program: a run of 0 rounds takes no step).
func TestBoundValidate(t *testing.T) {
	for _, c := range []struct {
		b  Bound
		ok bool
	}{
		{Bound{}, true},
		{Bound{Kind: ContextSwitches, K: 0}, true},
		{Bound{Kind: ContextSwitches, K: 3}, true},
		{Bound{Kind: Rounds, K: 1}, true},
		{Bound{Kind: Rounds, K: 0}, false},
		{Bound{Kind: Rounds, K: -1}, false},
		{Bound{Kind: ContextSwitches, K: -1}, false},
		{Bound{K: 2}, false},
		{Bound{Kind: 7}, false},
	} {
		if err := c.b.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: Validate() = %v, want ok %v", c.b, err, c.ok)
		}
	}
}
