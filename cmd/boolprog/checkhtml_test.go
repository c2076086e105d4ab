package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/htmlreport"
)

// TestCheckHTML pins `check --format html`: the page on standard output or
// in the file of -o / --trace-file, the verdict's exit code, and the flags
// that would have no effect refused.
func TestCheckHTML(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "page.html")
	tests := []struct {
		name      string
		args      []string
		code      int
		stdoutHas string // "" with file set: stdout is the page
		stderrHas string
		file      string // the page's file, "" for stdout
		pageHas   []string
		steps     int // trace steps embedded in the page
	}{
		{name: "fig1", args: []string{"check", "--format", "html", "-l", "R", "../../examples/bebop-fig1.bp"}, code: exitFailed,
			pageHas: []string{"VERIFICATION FAILED", "label R reached at line 12", "checked: no assertions, label R (line 12)", "replayed this trace"}, steps: 17},
		{name: "-o", args: []string{"check", "--format", "html", "-o", out, "-l", "R", "../../examples/bebop-fig1.bp"}, code: exitFailed,
			stdoutHas: "report: " + out + "\nVERIFICATION FAILED\n", file: out, pageHas: []string{"VERIFICATION FAILED"}, steps: 17},
		{name: "--trace-file", args: []string{"check", "--format=html", "--trace-file", out, "testdata/assert.bp"}, code: exitFailed,
			stdoutHas: "report: " + out + "\nVERIFICATION FAILED\n", file: out, pageHas: []string{"assertion assert(g) fails"}, steps: 2},
		{name: "safe", args: []string{"check", "--format", "html", "testdata/safe.bp"}, code: exitOK,
			pageHas: []string{"VERIFICATION SUCCESSFUL", "No trace: the verdict is SUCCESSFUL.", `id="cfa0"`}},
		{name: "bounded", args: []string{"check", "-q", "--format", "html", "--engine", "explicit", "--bound", "cs:0", "testdata/getafix.bp"}, code: exitOK,
			pageHas: []string{"VERIFICATION SUCCESSFUL up to 0 context switches", "a bounded answer, not a proof"}},
		{name: "concurrent", args: []string{"check", "--format", "html", "--engine", "explicit", "testdata/threads.bp"}, code: exitFailed,
			pageHas: []string{"start_thread t()", "VERIFICATION FAILED"}, steps: 2},
		{name: "unknown", args: []string{"check", "--format", "html", "--engine", "summary", "testdata/threads.bp"}, code: exitUnknown,
			pageHas: []string{"VERIFICATION UNKNOWN: concurrent program", "note: the program is concurrent"}},
		{name: "trace none", args: []string{"check", "--format", "html", "--trace", "none", "testdata/assert.bp"}, code: exitFailed,
			pageHas: []string{"The trace was left out (--trace none)."}},
		{name: "no replay", args: []string{"check", "--format", "html", "--no-replay", "testdata/assert.bp"}, code: exitFailed,
			pageHas: []string{"not replayed"}, steps: 2},
		{name: "input error", args: []string{"check", "--format", "html", "testdata/syntax.bp"}, code: exitInput, stderrHas: "testdata/syntax.bp:4:1:"},
		{name: "several files", args: []string{"check", "--format", "html", "testdata/safe.bp", "testdata/assert.bp"}, code: exitUsage, stderrHas: "--format html writes one page for one FILE, not 2"},
		{name: "trace style", args: []string{"check", "--format", "html", "--trace-style", "bebop", "testdata/assert.bp"}, code: exitUsage, stderrHas: "--trace-style is for the text trace"},
		{name: "trace changes", args: []string{"check", "--format", "html", "--trace", "changes", "testdata/assert.bp"}, code: exitUsage, stderrHas: "marks the changed ones"},
		{name: "-o without html", args: []string{"check", "-o", out, "testdata/assert.bp"}, code: exitUsage, stderrHas: "-o writes the HTML page of --format html"},
		{name: "projection", args: []string{"check", "--format", "html", "--error-projection", "testdata/assert.bp"}, code: exitUsage, stderrHas: "not in the HTML page"},
		{name: "bad format", args: []string{"check", "--format", "pdf", "testdata/assert.bp"}, code: exitUsage, stderrHas: "want text, json or html"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			os.Remove(out)
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Fatalf("exit code %d, want %d\nstderr:\n%s", code, tt.code, stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tt.stderrHas)
			}
			if tt.pageHas == nil {
				if tt.code != exitUsage && stdout.Len() > 0 {
					t.Errorf("unexpected stdout:\n%s", stdout.String())
				}
				return
			}
			page := stdout.Bytes()
			if tt.file != "" {
				if stdout.String() != tt.stdoutHas {
					t.Errorf("stdout %q, want %q", stdout.String(), tt.stdoutHas)
				}
				var err error
				if page, err = os.ReadFile(tt.file); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")) || !bytes.HasSuffix(page, []byte("</html>\n")) {
				t.Errorf("not one HTML page:\n%.300s", page)
			}
			for _, want := range tt.pageHas {
				if !bytes.Contains(page, []byte(want)) {
					t.Errorf("the page lacks %q", want)
				}
			}
			d, err := htmlreport.Extract(page)
			if err != nil {
				t.Fatal(err)
			}
			if tt.steps > 0 && len(d.Steps) != tt.steps {
				t.Errorf("%d steps in the page, want %d", len(d.Steps), tt.steps)
			}
		})
	}
}
