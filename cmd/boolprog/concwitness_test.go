package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/internal/testsuite"
)

// TestConcurrentWitnessCLI: a concurrent program proved safe without a
// bound gets a correctness witness that validate confirms, in both formats
// (configuration invariants for p-conc, thread invariants for Threads4,
// which starts threads without end); a bounded answer gets none, and
// stderr says why; a widened invariant is rejected (exit 10) with the
// tuple of stacks and the configuration.
func TestConcurrentWitnessCLI(t *testing.T) {
	files := map[string]string{}
	for _, c := range testsuite.SatabsBoppoOrSkip(t) {
		files[c.Name] = c.File
	}
	pconc, threads4 := files["p-conc"], files["Threads4"]
	if pconc == "" || threads4 == "" {
		t.Fatal("p-conc or Threads4 missing from the satabs suite")
	}
	dir := t.TempDir()
	steps := []cliStep{
		{"p-conc yaml", []string{"check", "--engine", "explicit", "-l", "SLIC_ERROR", "--witness", dir + "/pc.yml", pconc}, exitOK, "VERIFICATION SUCCESSFUL", "correctness witness (242 configuration invariants) written to " + dir + "/pc.yml"},
		{"validate p-conc yaml", []string{"validate", pconc, dir + "/pc.yml"}, exitOK, "configurations checked", ""},
		{"p-conc graphml", []string{"check", "--engine", "explicit", "-l", "SLIC_ERROR", "--witness", dir + "/pc.graphml", pconc}, exitOK, "VERIFICATION SUCCESSFUL", "no witness written to " + dir + "/pc.graphml: a correctness witness has no GraphML form"},
		{"validate within a budget", []string{"validate", "--max-configs", "10", pconc, dir + "/pc.yml"}, exitFailed, "WITNESS REJECTED: the invariants admit more than 10 configurations", ""},
		{"bounded: no witness", []string{"check", "-q", "--engine", "explicit", "--bound", "cs:2", "-l", "SLIC_ERROR", "--witness", dir + "/b.yml", pconc}, exitOK, "VERIFICATION SUCCESSFUL up to 2 context switches",
			"no witness written to " + dir + "/b.yml: a bounded answer (up to 2 context switches) is no proof, and has no correctness witness"},
		{"Threads4", []string{"check", "--engine", "explicit", "--witness", dir + "/t4.yml", threads4}, exitOK, "VERIFICATION SUCCESSFUL", "correctness witness (7 thread invariants) written to"},
		{"validate Threads4", []string{"validate", threads4, dir + "/t4.yml"}, exitOK, "thread states and interferences checked", ""},
		{"another program", []string{"validate", threads4, dir + "/pc.yml"}, exitFailed, "WITNESS REJECTED: the witness is for another program", ""},
	}
	runSteps(t, steps)
	if _, err := os.Stat(dir + "/b.yml"); err == nil {
		t.Error("a bounded answer wrote a witness")
	}
	checkWitnessFiles(t, dir, "pc.yml", "t4.yml")

	// Widen the invariant where foo_1 is about to assume !g0 (then reach
	// SLIC_ERROR) while main waits at line 13.
	data, err := os.ReadFile(dir + "/pc.yml")
	if err != nil {
		t.Fatal(err)
	}
	group := "          - \"main 13:19\"\n          - \"foo_1 56:1\"\n        value: \"g0\""
	if !bytes.Contains(data, []byte(group)) {
		t.Fatalf("no group %q to widen", group)
	}
	weak := filepath.Join(dir, "weak.yml")
	if err := os.WriteFile(weak, bytes.Replace(data, []byte(group), []byte(strings.Replace(group, `"g0"`, `"T"`, 1)), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run([]string{"validate", pconc, weak}, &out, &errb)
	want := "WITNESS REJECTED: the invariant at (t0: main 13:19 | t1: foo_1 56:1) admits the configuration g0=0 || t0: main@13 || t1: foo_1@56, from which thread "
	if code != exitFailed || !strings.Contains(out.String(), want) || !strings.Contains(out.String(), weak+":") {
		t.Errorf("weakened: exit %d, stdout %q, want %q after a %s:line:col line", code, out.String(), want, weak)
	}
}
