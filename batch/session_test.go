package batch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSummaryExitCode: a wrong answer before a task that ended ERROR
// before success.
func TestSummaryExitCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		recs []*Record
		want int
	}{
		{"none", nil, 0},
		{"right", []*Record{{Score: Correct}}, 0},
		{"error", []*Record{{Score: Correct}, {Verdict: Error}}, ExitTaskError},
		{"wrong", []*Record{{Verdict: Error}, {Score: Wrong}}, ExitWrong},
	} {
		if got := (&Summary{Records: tc.recs}).ExitCode(); got != tc.want {
			t.Errorf("%s: exit %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestRunnerWriteBenchExec: the tasks are written as the runner would run
// them, its engine for a task without one, its flags before the task's.
func TestRunnerWriteBenchExec(t *testing.T) {
	dir := t.TempDir()
	tasks := []Task{
		{File: filepath.Join(dir, "a", "main.bp"), Source: "l.txt:1"},
		{File: filepath.Join(dir, "b", "main.bp"), Engine: "explicit", Flags: []string{"--max-vars", "30"}, Source: "l.txt:2"},
	}
	r := &Runner{Engine: "ef", Flags: []string{"--bound", "cs:2"}}
	if _, err := r.WriteBenchExec(filepath.Join(dir, "bx"), tasks); err != nil {
		t.Fatal(err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "bx", "a_main.yml"))
	b, _ := os.ReadFile(filepath.Join(dir, "bx", "b_main.yml"))
	if !strings.Contains(string(a), `engine: "ef"`) || !strings.Contains(string(a), "- \"--bound\"\n    - \"cs:2\"") {
		t.Errorf("a task without an engine:\n%s", a)
	}
	if !strings.Contains(string(b), `engine: "explicit"`) || !strings.Contains(string(b), "- \"cs:2\"\n    - \"--max-vars\"") {
		t.Errorf("a task with its engine and flags:\n%s", b)
	}
}

// TestRunAllOutput: the summary follows a blank line unless quiet, and an
// ended context marks the batch interrupted.
func TestRunAllOutput(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, quiet := range []bool{false, true} {
		var lines, sum bytes.Buffer
		s, _ := (&Runner{Exe: "/nonexistent", Jobs: 1}).RunAll(ctx, nil, Output{Lines: &lines, Summary: &sum, Quiet: quiet})
		if s == nil || !s.Interrupted || strings.HasPrefix(sum.String(), "\n") == quiet || lines.Len() != 0 {
			t.Errorf("quiet %v: summary %+v\n%q", quiet, s, sum.String())
		}
	}
}
