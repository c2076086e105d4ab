package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestErrorProjectionCLI pins --error-projection of check (the projection
// as source lines before the verdict) and graph (marked nodes), and the
// post* and pre* engines' names with their star.
func TestErrorProjectionCLI(t *testing.T) {
	const fig1 = "../../examples/bebop-fig1.bp"
	tests := []struct {
		name      string
		args      []string
		code      int
		stdoutHas []string
		stderrHas string
	}{
		{"check fig1", []string{"check", "--error-projection", "--trace", "none", "-l", "R", fig1}, exitFailed,
			[]string{"error projection: 12 of 14 locations lie on a run to an error\n", fig1 + ":21: A: A(a2, a1)  [g=1 a1=1 a2=0] (1 state)\n", fig1 + ":12: main: R: skip  [g=1 h=0] (1 state)\n", "VERIFICATION FAILED\n"}, ""},
		{"check safe", []string{"check", "--error-projection", "testdata/safe.bp"}, exitOK,
			[]string{"error projection: 0 of ", "VERIFICATION SUCCESSFUL\n"}, ""},
		{"check concurrent", []string{"check", "--engine", "explicit", "--error-projection", "testdata/threads.bp"}, exitFailed,
			[]string{"VERIFICATION FAILED\n"}, "note: no error projection: the program is concurrent"},
		{"check json", []string{"check", "--error-projection", "--format", "json", fig1}, exitUsage, nil, ""},
		{"graph fig1", []string{"graph", "--error-projection", "-l", "R", fig1}, exitOK,
			[]string{"digraph", "\t\"p1_l1\" [style=filled, fillcolor=yellow, tooltip=\"g=1 a1=1 a2=0\"];\n", "tooltip=\"g=1 a1=* a2=*\"];\n}\n"}, ""},
		{"post* engine", []string{"check", "--engine", "post*", "-l", "R", fig1}, exitFailed, []string{"VERIFICATION FAILED\n"}, ""},
		{"prestar alias", []string{"check", "--engine", "prestar", "--max-nodes", "100000", "-l", "R", fig1}, exitFailed, []string{"VERIFICATION FAILED\n"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout.String(), stderr.String())
			}
			for _, want := range tt.stdoutHas {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("stdout does not contain %q:\n%s", want, stdout.String())
				}
			}
			if !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tt.stderrHas)
			}
		})
	}
}
