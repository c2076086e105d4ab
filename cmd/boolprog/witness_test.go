package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/internal/jsonschema"
	"boolprog/witness"
)

// TestWitnessCLI: check --witness writes what validate confirms, in both
// formats; validate rejects a weakened or foreign witness (exit 10) and
// reports a malformed one at file:line:col (exit 2); --witness is never
// ignored silently.
func TestWitnessCLI(t *testing.T) {
	dir := t.TempDir()
	fig1 := "../../examples/bebop-fig1.bp"
	steps := []cliStep{
		{"violation yaml", []string{"check", "-l", "R", "--trace", "none", "--witness", dir + "/v.yml", fig1}, exitFailed, "VERIFICATION FAILED", "violation witness (22 waypoints) written to"},
		{"validate violation yaml", []string{"validate", fig1, dir + "/v.yml"}, exitOK, "WITNESS CONFIRMED", ""},
		{"violation graphml by extension", []string{"check", "-l", "R", "--trace", "none", "--witness", dir + "/v.graphml", fig1}, exitFailed, "VERIFICATION FAILED", "written to"},
		{"validate violation graphml", []string{"validate", fig1, dir + "/v.graphml"}, exitOK, "WITNESS CONFIRMED", ""},
		{"validate within a budget", []string{"validate", "--max-configs", "2", fig1, dir + "/v.yml"}, exitUnknown, "WITNESS UNKNOWN: searched 2 configurations", ""},
		{"validate against another program", []string{"validate", "testdata/assert.bp", dir + "/v.yml"}, exitFailed, "WITNESS REJECTED: the witness is for another program", ""},
		{"correctness, format flag", []string{"check", "--engine", "explicit", "--witness", dir + "/c.out", "--witness-format", "yaml", "testdata/safe.bp"}, exitOK, "VERIFICATION SUCCESSFUL", "the invariants come from the summary engine"},
		{"correctness as graphml: no witness", []string{"check", "--witness", dir + "/c.graphml", "testdata/safe.bp"}, exitOK, "VERIFICATION SUCCESSFUL", "no witness written to " + dir + "/c.graphml: a correctness witness has no GraphML form (its invariants are found by location, not by a run of an automaton): write it as YAML (--witness-format yaml)"},
		{"validate the legacy form", []string{"validate", "../../witness/testdata/fig1.bp", "../../witness/testdata/legacy/fig1.violation.graphml"}, exitOK, "WITNESS CONFIRMED", "is in the form earlier versions of boolprog wrote (format version 2.0, which is not SV-COMP's)"},
		{"validate correctness", []string{"validate", "testdata/safe.bp", dir + "/c.out"}, exitOK, "WITNESS CONFIRMED", ""},
		{"bounded: no witness", []string{"check", "-q", "--engine", "explicit", "--bound", "cs:0", "--witness", dir + "/b.yml", "testdata/getafix.bp"}, exitOK, "VERIFICATION SUCCESSFUL up to 0 context switches", "no witness written to " + dir + "/b.yml: a bounded answer"},
		{"unknown: no witness", []string{"check", "--engine", "summary", "--witness", dir + "/u.yml", "testdata/threads.bp"}, exitUnknown, "VERIFICATION UNKNOWN", "no witness written to " + dir + "/u.yml: the verdict is unknown"},
		{"timeout: no witness", []string{"check", "--timeout", "1ns", "--witness", dir + "/t.yml", "testdata/safe.bp"}, exitUnknown, "VERIFICATION UNKNOWN: timeout (1ns)", "no witness written to " + dir + "/t.yml: the verdict is unknown (timeout (1ns)): the program was not read"},
		{"format without witness", []string{"check", "--witness-format", "yaml", "testdata/safe.bp"}, exitUsage, "", "--witness-format needs --witness FILE"},
		{"bad format", []string{"check", "--witness", dir + "/x", "--witness-format", "json", "testdata/safe.bp"}, exitUsage, "", "unknown witness format"},
		{"two files", []string{"check", "--witness", dir + "/x", "testdata/safe.bp", "testdata/assert.bp"}, exitUsage, "", "--witness takes the witness of one FILE"},
		{"validate usage", []string{"validate", fig1}, exitUsage, "", "want PROGRAM and WITNESS"},
		{"validate missing witness", []string{"validate", fig1, dir + "/none.yml"}, exitInput, "", dir + "/none.yml: open: no such file or directory\n"},
	}
	runSteps(t, steps)
	if _, err := os.Stat(dir + "/b.yml"); err == nil {
		t.Error("a bounded answer wrote a witness")
	}
	checkWitnessFiles(t, dir, "v.yml", "c.out")

	// A weakened invariant and a malformed witness.
	data, err := os.ReadFile(dir + "/v.yml")
	if err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.yml")
	if err := os.WriteFile(bad, bytes.Replace(data, []byte(`value: "g & !h"`), []byte(`value: "g & (!h"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"validate", fig1, bad}, &out, &errb); code != exitInput || !strings.Contains(errb.String(), bad+":28:") {
		t.Errorf("malformed: exit %d, stderr %q", code, errb.String())
	}
	cw, err := os.ReadFile(dir + "/c.out")
	if err != nil {
		t.Fatal(err)
	}
	weak := filepath.Join(dir, "weak.yml")
	if !strings.Contains(string(cw), `value: "g"`) {
		t.Fatalf("no invariant g to weaken:\n%s", cw)
	}
	if err := os.WriteFile(weak, []byte(strings.ReplaceAll(string(cw), `value: "g"`, `value: "T"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run([]string{"validate", "testdata/safe.bp", weak}, &out, &errb); code != exitFailed || !strings.Contains(out.String(), "WITNESS REJECTED") {
		t.Errorf("weakened: exit %d, stdout %q", code, out.String())
	}
}

// checkWitnessFiles checks that the YAML witnesses check wrote into dir
// conform to the schema of boolprog's witness format.
func checkWitnessFiles(t *testing.T, dir string, names ...string) {
	t.Helper()
	s, err := jsonschema.Parse(witness.SchemaJSON)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		j, err := witness.YAMLToJSON(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := s.Validate(j); err != nil {
			t.Errorf("%s does not conform to the witness schema: %v", name, err)
		}
	}
}

// cliStep is one command of a CLI session and what it must answer: the
// exit code and a piece of each output stream.
type cliStep struct {
	name      string
	args      []string
	code      int
	stdoutHas string
	stderrHas string
}

// runSteps runs the steps in order and stops at the first that answers
// otherwise (later steps read the files earlier ones write).
func runSteps(t *testing.T, steps []cliStep) {
	t.Helper()
	for _, s := range steps {
		var out, errb bytes.Buffer
		code := run(s.args, &out, &errb)
		if code != s.code || !strings.Contains(out.String(), s.stdoutHas) || !strings.Contains(errb.String(), s.stderrHas) {
			t.Fatalf("%s: %v: exit %d (want %d)\nstdout:\n%s\nstderr:\n%s", s.name, s.args, code, s.code, out.String(), errb.String())
		}
	}
}
