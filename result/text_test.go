package result

import (
	"bytes"
	"strings"
	"testing"
)

// deep returns a trace of n steps, step i at depth i, in procedure f with
// one global g and one local {p==q}; the values change every other step.
func deep(n int) *Trace {
	tr := &Trace{}
	for i := 0; i < n; i++ {
		tr.Steps = append(tr.Steps, Step{
			Proc: "f", Line: 10 + i, Text: "x := *", Depth: i, Choice: i%2 == 0,
			Values: []Value{{"g", i >= 2}, {"p==q", false}},
		})
	}
	return tr
}

func TestTraceOptions(t *testing.T) {
	flat := &Trace{Steps: []Step{
		{Proc: "main", Line: 1, Text: "a := *", Choice: true, Values: []Value{{"g", false}, {"a", false}}},
		{Proc: "main", Line: 2, Text: "g := a", Values: []Value{{"g", false}, {"a", true}}},
		{Proc: "f", Line: 7, Text: "skip", Depth: 1, Values: []Value{{"g", true}, {"a", true}}},
		{Proc: "main", Line: 3, Text: "assert(!g)", Values: []Value{{"g", true}, {"a", true}}},
	}}
	for _, c := range []struct {
		name string
		tr   *Trace
		o    TraceOptions
		want string
	}{
		{"none", flat, TraceOptions{Mode: None}, ""},
		{"changes numbered marked", flat, TraceOptions{Mode: Changes, Numbered: true, MarkChoices: true},
			"1. Line 1 main: * a := *  State g=0 a=0\n" +
				"2. Line 2 main: g := a  State a=1\n" +
				"3.   Line 7 f: skip  State g=1 a=1\n" +
				"4. Line 3 main: assert(!g)  State g=1\n"},
		{"changes with globals", flat, TraceOptions{Mode: Changes, Globals: 1},
			"Line 1 main: a := *  State g=0 a=0\n" +
				"Line 2 main: g := a  State a=1\n" +
				"  Line 7 f: skip  State g=1 a=1\n" +
				"Line 3 main: assert(!g)\n"},
		{"bebop changes", flat, TraceOptions{Style: Bebop, Mode: Changes, Globals: 1},
			"Line 3\n  Line 7 State g=1 a=1\nLine 2 State a=1\nLine 1 State g=0 a=0\n"},
		{"indent cap", deep(4), TraceOptions{MaxIndent: 2},
			"Line 10 f: x := *  State g=0 {p==q}=0\n" +
				"  Line 11 f: x := *  State g=0 {p==q}=0\n" +
				"    Line 12 f: x := *  State g=1 {p==q}=0\n" +
				"    [depth 3] Line 13 f: x := *  State g=1 {p==q}=0\n"},
		{"no variables", &Trace{Steps: []Step{{Proc: "main", Line: 1, Text: "f()"}, {Proc: "f", Line: 2, Text: "skip", Depth: 1}}},
			TraceOptions{}, "Line 1 main: f()\n  Line 2 f: skip\n"},
		{"no indent", deep(2), TraceOptions{MaxIndent: -1},
			"Line 10 f: x := *  State g=0 {p==q}=0\n[depth 1] Line 11 f: x := *  State g=0 {p==q}=0\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := WriteTraceOptions(&b, c.tr, c.o); err != nil {
				t.Fatal(err)
			}
			if b.String() != c.want {
				t.Errorf("got:\n%s\nwant:\n%s", b.String(), c.want)
			}
		})
	}
}

// TestDeepTraceIndentation checks that a 10,000-deep trace costs no more
// than the cap in indentation per line.
func TestDeepTraceIndentation(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTraceOptions(&b, deep(10000), TraceOptions{}); err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if lead := len(line) - len(strings.TrimLeft(line, " ")); lead > DefaultMaxIndent*len(Indent) {
			t.Fatalf("line %d indented by %d", i+1, lead)
		}
	}
}

func TestStreaming(t *testing.T) {
	var b bytes.Buffer
	tw := NewTraceWriter(&b, TraceOptions{Numbered: true}, 12)
	tr := deep(12)
	for i := range tr.Steps {
		if err := tw.WriteStep(&tr.Steps[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	WriteTraceOptions(&whole, tr, TraceOptions{Numbered: true})
	if b.String() != whole.String() || !strings.HasPrefix(b.String(), " 1. Line 10") {
		t.Errorf("streamed:\n%s\nwhole:\n%s", b.String(), whole.String())
	}
}

func TestDisplayName(t *testing.T) {
	for name, want := range map[string]string{
		"g": "g", "a_1$": "a_1$", "x#y-z": "x#y-z", "p==q": "{p==q}", "*x>0": "{*x>0}", "1a": "{1a}", "T": "{T}", "": "{}", "a b": "{a b}",
	} {
		if got := DisplayName(name); got != want {
			t.Errorf("DisplayName(%q) = %q, want %q", name, got, want)
		}
	}
}
