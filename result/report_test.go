package result_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/engine/explicit"
	"boolprog/internal/jsonschema"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestReportSchema validates the report of every verdict kind (safe,
// unsafe with a real trace, unsafe with a cut trace, unknown, bounded safe)
// and of input errors against result/report.schema.json, and checks that
// a document breaking the schema is caught.
func TestReportSchema(t *testing.T) {
	schema, err := jsonschema.Parse(result.ReportSchema)
	if err != nil {
		t.Fatal(err)
	}
	run := func(src, target string) *result.Result {
		p := testsuite.Lower(t, "a&b.bp", src, target)
		res := engine.Run(context.Background(), explicit.New(), p, engine.Query{})
		res.Stats.AddPhase(result.PhaseParse, 1000)
		res.Stats.AddPhase(result.PhaseReplay, 2000)
		return res
	}
	unsafe := run("decl g;\nvoid main() begin g := *; if (g & T) then SLIC_ERROR: skip; fi end\n", "")
	if unsafe.Verdict != result.Unsafe || unsafe.Property == nil {
		t.Fatalf("unsafe program: %s %+v", unsafe.Verdict, unsafe.Property)
	}
	safe := run("decl g;\nvoid main() begin g := T; assert(g); end\n", "")
	bounded := *safe
	bounded.Bound = result.Bound{Kind: result.ContextSwitches, K: 6}
	unknown := result.NewUnknown("explicit", "state budget exhausted (1000 states)")
	cut := &result.Result{Verdict: result.Unsafe, Engine: "summary", TraceCut: true, Reason: "timeout", Property: unsafe.Property}

	omitted := result.NewReport(unsafe, "a&b.bp", "SLIC_ERROR")
	omitted.OmitTrace()
	if omitted.Trace != nil || !omitted.TraceOmitted {
		t.Errorf("OmitTrace: trace %v, trace_omitted %v", omitted.Trace, omitted.TraceOmitted)
	}
	reports := map[string]*result.Report{
		"omitted": omitted,
		"safe":    result.NewReport(safe, "a&b.bp", "SLIC_ERROR"),
		"unsafe":  result.NewReport(unsafe, "a&b.bp", "SLIC_ERROR"),
		"cut":     result.NewReport(cut, "a&b.bp", "SLIC_ERROR"),
		"unknown": result.NewReport(unknown, "a&b.bp", "SLIC_ERROR"),
		"bounded": result.NewReport(&bounded, "a&b.bp", "SLIC_ERROR"),
		"errors":  result.ErrorReport("a&b.bp", result.Message{File: "a&b.bp", Line: 3, Col: 7, Message: "undeclared variable x"}),
		"usage":   result.ErrorReport("", result.Message{Message: "unknown engine \"magic\""}),
	}
	for name, rep := range reports {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := rep.WriteJSON(&b); err != nil {
				t.Fatal(err)
			}
			if err := schema.Validate(b.Bytes()); err != nil {
				t.Errorf("%v\n%s", err, b.String())
			}
			if strings.Contains(b.String(), `\u0026`) || rep.File != "" && !strings.Contains(b.String(), `"a&b.bp"`) {
				t.Errorf("HTML escaping:\n%s", b.String())
			}
			back, err := result.ReadReport(&b)
			if err != nil {
				t.Fatal(err)
			}
			if back.Version != result.ReportVersion || back.Schema != result.ReportSchemaID || (back.Verdict == nil) != (rep.Verdict == nil) {
				t.Errorf("read back %+v", back)
			}
			if rep.Trace != nil && back.Trace.Len() != rep.Trace.Len() {
				t.Errorf("trace of %d steps read back as %d", rep.Trace.Len(), back.Trace.Len())
			}
			if rep.Verdict != nil && *back.Verdict != *rep.Verdict || back.Bound != rep.Bound {
				t.Errorf("verdict or bound changed: %+v", back)
			}
		})
	}

	// The validator must catch what breaks the schema.
	var good bytes.Buffer
	reports["unsafe"].WriteJSON(&good)
	for _, c := range []struct{ name, from, to string }{
		{"unknown verdict", `"verdict": "unsafe"`, `"verdict": "maybe"`},
		{"wrong version", `"version": 1`, `"version": 2`},
		{"extra field", `"verdict": "unsafe"`, `"verdict": "unsafe", "colour": "red"`},
		{"missing stats", `"stats"`, `"statz"`},
		{"string depth", `"depth":0`, `"depth":"0"`},
		{"bad bound", `"bound": null`, `"bound": {"kind": "steps", "k": 3}`},
	} {
		doc := strings.Replace(good.String(), c.from, c.to, 1)
		if doc == good.String() {
			t.Fatalf("%s: %q not in the report", c.name, c.from)
		}
		if err := schema.Validate([]byte(doc)); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// TestReportBound checks the JSON form of bounds.
func TestReportBound(t *testing.T) {
	for _, c := range []struct {
		b    result.Bound
		json string
		text string
	}{
		{result.Bound{}, `null`, "no bound"},
		{result.Bound{Kind: result.ContextSwitches, K: 6}, `{"kind":"context_switches","k":6}`, "6 context switches"},
		{result.Bound{Kind: result.ContextSwitches, K: 1}, `{"kind":"context_switches","k":1}`, "1 context switch"},
		{result.Bound{Kind: result.Rounds, K: 2}, `{"kind":"rounds","k":2}`, "2 rounds"},
	} {
		b, err := json.Marshal(c.b)
		if err != nil || string(b) != c.json || c.b.String() != c.text {
			t.Errorf("%+v: %s %v %q", c.b, b, err, c.b.String())
		}
		var back result.Bound
		if err := json.Unmarshal(b, &back); err != nil || back != c.b {
			t.Errorf("%s read back as %+v, %v", b, back, err)
		}
	}
}

// TestChooses checks which statements are marked as nondeterministic
// choices, by their text.
func TestChooses(t *testing.T) {
	src := `decl g;
bool f() begin decl l; return l; end
bool h(a) begin return a; end
void k() begin skip; end
bool m() begin skip; end
void main() begin
  g := *;
  g := !g;
  if (*) then skip; fi
  if (g) then skip; fi
  g := f();
  g := h(g);
  k();
  g := m();
  L: goto L, M;
  M: assume(schoose[g, F]);
end
`
	p := testsuite.Lower(t, "c.bp", src, "")
	want := map[string]bool{
		"g := *": true, "g := !g": false, "if (*)": true, "if (g)": false, "g := f()": true, "g := h(g)": false,
		"k()": false, "goto L, M": true, "assume(schoose[g, F])": true, "return l": false, "return a": false,
	}
	seen := map[string]bool{}
	for _, proc := range p.Procs {
		for _, e := range proc.Edges {
			w, ok := want[e.Text]
			if !ok {
				continue
			}
			seen[e.Text] = true
			if got := result.Chooses(p, proc, e.ID); got != w {
				t.Errorf("%s (%T): %v, want %v", e.Text, e.Op, got, w)
			}
		}
	}
	// m falls off its end: arriving at its exit chooses the returned value.
	m := p.Proc("m")
	skip := m.Locations[m.Entry].Out[0]
	if !result.Chooses(p, m, skip) {
		t.Errorf("falling off the end of m does not choose its returned value")
	}
	for text := range want {
		if !seen[text] {
			t.Errorf("no edge with text %q", text)
		}
	}
}
