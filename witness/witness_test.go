package witness_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/internal/jsonschema"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/witness"
)

var update = flag.Bool("update", false, "rewrite the golden witnesses in testdata")

var schema = func() *jsonschema.Schema {
	s, err := jsonschema.Parse(witness.SchemaJSON)
	if err != nil {
		panic(err)
	}
	return s
}()

// checkFormat checks that a written witness is in boolprog's format,
// version boolprog-1, and claims no other: a YAML witness conforms to the
// schema; a GraphML witness is a violation witness whose keys all carry
// the boolprog. prefix (none of SV-COMP's GraphML keys) and whose graph
// states the format version.
func checkFormat(t *testing.T, f witness.Format, data []byte) {
	t.Helper()
	if f == witness.YAML {
		j, err := witness.YAMLToJSON(data)
		if err != nil {
			t.Fatalf("not YAML: %v", err)
		}
		if err := schema.Validate(j); err != nil {
			t.Fatalf("the witness does not conform to schema/boolprog-witness-1.json: %v\n%s", err, data)
		}
		return
	}
	text := string(data)
	for _, re := range []*regexp.Regexp{regexp.MustCompile(`(?:id|key|attr\.name)="([^"]*)"`)} {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if strings.HasPrefix(m[0], "id=") && strings.HasPrefix(m[1], "N") {
				continue // a node's id
			}
			if !strings.HasPrefix(m[1], "boolprog.") {
				t.Fatalf("GraphML key %q outside boolprog's namespace", m[1])
			}
		}
	}
	for _, want := range []string{`<data key="boolprog.format-version">` + witness.FormatVersion + `</data>`, `<data key="boolprog.witness-type">violation_witness</data>`} {
		if !strings.Contains(text, want) {
			t.Fatalf("no %s in\n%s", want, text)
		}
	}
}

// TestFormat: the golden witnesses are in boolprog's format, not in a
// form that claims SV-COMP's (format_version 2.0, unprefixed GraphML
// keys); a correctness witness has no GraphML form.
func TestFormat(t *testing.T) {
	for _, name := range []string{"fig1.violation.yaml", "safe.correctness.yaml", "conc.correctness.yaml", "spawn.correctness.yaml", "fig1.violation.graphml"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		f, _ := witness.FormatOf(name)
		checkFormat(t, f, data)
	}
	old, err := os.ReadFile("testdata/legacy/fig1.violation.yaml")
	if err != nil {
		t.Fatal(err)
	}
	j, err := witness.YAMLToJSON(old)
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(j); err == nil || !strings.Contains(err.Error(), "format_version") {
		t.Errorf("the legacy form (format_version 2.0) conforms to the schema: %v", err)
	}
	w := &witness.Witness{Kind: witness.Correctness}
	if err := w.Write(io.Discard, witness.GraphML); !errors.Is(err, witness.ErrGraphMLCorrectness) {
		t.Errorf("a correctness witness as GraphML: %v", err)
	}
}

// TestLegacy: the witnesses earlier versions of boolprog wrote (which
// declared SV-COMP's format_version 2.0, GraphML without the key prefix,
// correctness witnesses as GraphML without edges) are still read, say
// so (Legacy), and validate.
func TestLegacy(t *testing.T) {
	for _, c := range []struct{ name, prog, target string }{
		{"fig1.violation.yaml", "testdata/fig1.bp", "R"},
		{"fig1.violation.graphml", "testdata/fig1.bp", "R"},
		{"safe.correctness.graphml", "testdata/safe.bp", ""},
		{"conc.correctness.graphml", "testdata/conc.bp", ""},
		{"spawn.correctness.graphml", "testdata/spawn.bp", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata/legacy", c.name))
			if err != nil {
				t.Fatal(err)
			}
			w, err := witness.Parse(c.name, data)
			if err != nil {
				t.Fatal(err)
			}
			if !w.Legacy() {
				t.Errorf("format version %q: not legacy", w.Metadata.FormatVersion)
			}
			src, err := os.ReadFile(c.prog)
			if err != nil {
				t.Fatal(err)
			}
			p := testsuite.LowerFile(t, c.prog, c.target)
			if o := validate(t, p, src, w); o.Verdict != witness.Confirmed {
				t.Errorf("%s: %s", o.Verdict, o.Reason)
			}
		})
	}
}

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update to accept):\n%s", path, got)
	}
}

// goldenRoundTrip writes w in format f, compares it with testdata/name,
// and parses the golden file back: what is validated is what was
// committed.
func goldenRoundTrip(t *testing.T, w *witness.Witness, f witness.Format, name string) (*witness.Witness, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := w.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	golden(t, name, b.Bytes())
	checkFormat(t, f, b.Bytes())
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	back, err := witness.Parse(name, data)
	if err != nil {
		t.Fatal(err)
	}
	return back, data
}

// TestGolden writes the witnesses of two small programs in both formats,
// compares them with the golden files, and validates the golden files
// themselves: the violation witness of the Bebop paper's Figure 1 (label
// R) and the correctness witness of testdata/safe.bp (recursion, returned
// values, a nondeterministic goto).
func TestGolden(t *testing.T) {
	cases := []struct {
		name, file, target, engine string
	}{
		{"fig1.violation", "testdata/fig1.bp", "R", "summary"},
		{"safe.correctness", "testdata/safe.bp", "", "summary"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src, err := os.ReadFile(c.file)
			if err != nil {
				t.Fatal(err)
			}
			p := testsuite.LowerFile(t, c.file, c.target)
			res := run(t, c.engine, p)
			var w *witness.Witness
			switch res.Verdict {
			case result.Unsafe:
				w, err = witness.FromTrace(p, res.Trace, witness.Meta(p, src, "test", "engine "+c.engine, stamp, witness.Violation))
			case result.Safe:
				w, err = witness.FromReachable(context.Background(), p, witness.Meta(p, src, "test", "engine "+c.engine, stamp, witness.Correctness), engine.Query{})
			default:
				t.Fatalf("unknown: %s", res.Reason)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range formatsOf(w) {
				name := c.name + "." + f.String()
				back, _ := goldenRoundTrip(t, w, f, name)
				if o := validate(t, p, src, back); o.Verdict != witness.Confirmed {
					t.Errorf("%s: %s: %s", name, o.Verdict, o.Reason)
				}
			}
		})
	}
}

// TestEngines: the traces of several engines give violation witnesses
// that validate, on every unsafe sequential program of the suite.
func TestEngines(t *testing.T) {
	engines := []string{"summary", "explicit", "ef", "cpa", "post*"}
	for _, c := range testsuite.SatabsBoppoOrSkip(t) {
		if !c.Failed {
			continue
		}
		src, err := os.ReadFile(c.File)
		if err != nil {
			t.Fatal(err)
		}
		p := testsuite.LowerFile(t, c.File, c.Target)
		if p.Concurrent {
			continue
		}
		for _, eng := range engines {
			t.Run(c.Name+"/"+eng, func(t *testing.T) {
				res := run(t, eng, p)
				if res.Verdict != result.Unsafe || res.Trace == nil {
					t.Fatalf("%s: %s", res.Verdict, res.Reason)
				}
				w, err := witness.FromTrace(p, res.Trace, witness.Meta(p, src, "test", "engine "+eng, stamp, witness.Violation))
				if err != nil {
					t.Fatal(err)
				}
				back, _ := roundTrip(t, w, witness.YAML)
				if o := validate(t, p, src, back); o.Verdict != witness.Confirmed {
					t.Fatalf("%s: %s", o.Verdict, o.Reason)
				}
			})
		}
	}
}

// goldenWitness reads a golden witness for editing.
func goldenWitness(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestMalformed: a malformed witness is an error at its file:line:col.
func TestMalformed(t *testing.T) {
	yml := goldenWitness(t, "fig1.violation.yaml")
	gml := goldenWitness(t, "fig1.violation.graphml")
	cases := []struct {
		name, text, want string
	}{
		{"empty", "", "w:1:1: empty witness"},
		{"tab", "- entry_type: violation_sequence\n\tmetadata:\n", "w:2:1: tab in indentation"},
		{"entry type", strings.Replace(yml, "entry_type: violation_sequence", "entry_type: proof", 1), "w:1:15: unknown entry_type \"proof\""},
		{"unterminated", strings.Replace(yml, `value: "g & !h"`, `value: "g & !h`, 1), "w:28:22: unterminated string"},
		{"waypoint type", strings.Replace(yml, "type: function_enter", "type: function_exit", 1), "unknown waypoint type \"function_exit\""},
		{"line", strings.Replace(yml, "line: 7", "line: seven", 1), "line: expected a number, found \"seven\""},
		{"no target", strings.Replace(gml, `<data key="boolprog.waypoint">target</data>`, `<data key="boolprog.waypoint">assumption</data>`, 1), "the last waypoint must be the target"},
		{"indentation", strings.Replace(yml, "    producer:", "      producer:", 1), "unexpected indentation"},
		{"xml", strings.Replace(gml, "</graph>", "", 1), "w:"},
		{"xml key", strings.Replace(gml, `<data key="boolprog.startline">7</data>`, `<data key="line">7</data>`, 1), "data with undeclared key \"line\""},
		{"xml branch", strings.Replace(gml, `target="N2"`, `target="N1"`, 1), ""},
		{"xml type", strings.Replace(gml, "violation_witness", "witness", 1), "unknown witness-type"},
		{"xml version", strings.Replace(gml, ">boolprog-1<", ">1.0<", 1), `unsupported format-version "1.0" (want "boolprog-1")`},
		{"xml correctness", strings.Replace(gml, "violation_witness", "correctness_witness", 1), "a boolprog-1 GraphML witness is a violation witness"},
		{"yaml version", strings.Replace(yml, `format_version: "boolprog-1"`, `format_version: "2.1"`, 1), `unsupported format_version "2.1" (want "boolprog-1")`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.text == yml || c.text == gml {
				t.Fatal("the edit did not apply")
			}
			_, err := witness.Parse("w", []byte(c.text))
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), "w:") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q, want one with %q at w:line:col", err, c.want)
			}
		})
	}
}

// TestOtherProgram: a witness that does not fit the program is rejected
// with the reason; a formula that does not parse makes it malformed.
func TestOtherProgram(t *testing.T) {
	src, err := os.ReadFile("testdata/fig1.bp")
	if err != nil {
		t.Fatal(err)
	}
	p := testsuite.LowerFile(t, "testdata/fig1.bp", "R")
	yml := goldenWitness(t, "fig1.violation.yaml")
	safe := goldenWitness(t, "safe.correctness.yaml")
	safeSrc, err := os.ReadFile("testdata/safe.bp")
	if err != nil {
		t.Fatal(err)
	}
	safeP := testsuite.LowerFile(t, "testdata/safe.bp", "")
	cases := []struct {
		name      string
		p         *ir.Program
		src       []byte
		text      string
		want      string
		malformed bool
	}{
		{"hash", p, []byte("decl g;"), yml, "the witness is for another program", false},
		{"function", p, src, strings.Replace(yml, `function: "A"`, `function: "B"`, 1), `the program has no function "B"`, false},
		{"line", p, src, strings.Replace(yml, "line: 7", "line: 99", 1), "main has no statement at line 99", false},
		{"variable", p, src, strings.Replace(yml, `value: "g & !h"`, `value: "g & !k"`, 1), "unknown variable k in main", false},
		{"formula", p, src, strings.Replace(yml, `value: "g & !h"`, `value: "g & & h"`, 1), `expected expression, found '&'`, true},
		{"old in requires", safeP, safeSrc, strings.Replace(safe, `requires: "T"`, `requires: "\\old(x)"`, 1), `\old(x) is not allowed here`, false},
		{"weakened", safeP, safeSrc, strings.Replace(safe, `value: "(g = a) & (g != b) & g"`, `value: "T"`, 1), "lets the assertion fail", false},
		{"weakened contract", safeP, safeSrc, strings.Replace(safe, `ensures: "(g = \\old(g)) & (\\old(x) != \\result)"`, `ensures: "(\\old(x) != \\result)"`, 1), "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if (c.text == yml || c.text == safe) && c.name != "hash" {
				t.Fatal("the edit did not apply")
			}
			w, err := witness.Parse("w.yaml", []byte(c.text))
			if err != nil {
				t.Fatal(err)
			}
			o := validate(t, c.p, c.src, w)
			if o.Verdict != witness.Rejected || !strings.Contains(o.Reason, c.want) || o.Malformed != c.malformed {
				t.Errorf("%s %q (malformed %v), want rejected with %q (malformed %v)", o.Verdict, o.Reason, o.Malformed, c.want, c.malformed)
			}
		})
	}
}
