package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"boolprog/syntax"
)

// TestCLI pins the command's contract: exit codes, the verdict line as the
// last line of output, and diagnostics in file:line:col form on stderr.
func TestCLI(t *testing.T) {
	tests := []struct {
		name      string
		args      []string
		code      int
		lastLine  string // last line of stdout ("" to skip)
		stderrHas string // substring of stderr ("" to require empty stderr)
		stdoutHas string // substring of stdout
	}{
		{"failing assert", []string{"check", "testdata/assert.bp"}, exitFailed, "VERIFICATION FAILED", "", "Line 6 main: assert(g)  State g=0\ntestdata/assert.bp:6:3: error: assertion assert(g) fails\nchecked: 1 assertion (label SLIC_ERROR occurs nowhere)\n"},
		{"safe", []string{"check", "testdata/safe.bp"}, exitOK, "VERIFICATION SUCCESSFUL", "", ""},
		{"fig1 target R", []string{"check", "-l", "R", "../../examples/bebop-fig1.bp"}, exitFailed, "VERIFICATION FAILED", "", "Line 24 A: g := a2"},
		{"fig1 error line", []string{"check", "-l", "R", "../../examples/bebop-fig1.bp"}, exitFailed, "VERIFICATION FAILED", "", "Line 12 main: skip  State g=1 h=0\n../../examples/bebop-fig1.bp:12:8: error: label R reached\nchecked: no assertions, label R (line 12)\n"},
		{"flags after file", []string{"check", "../../examples/bebop-fig1.bp", "--target", "R"}, exitFailed, "VERIFICATION FAILED", "", ""},
		{"fig1 default target is safe", []string{"check", "../../examples/bebop-fig1.bp"}, exitOK, "VERIFICATION SUCCESSFUL", "warning: nothing to check", ""},
		{"bebop style", []string{"check", "--trace-style", "bebop", "-l", "R", "../../examples/bebop-fig1.bp"}, exitFailed, "VERIFICATION FAILED", "", "Label R (line 12) reachable by following path:\nLine 12 State g=1 h=0\nLine 11 State g=1 h=0"},
		{"stats", []string{"check", "--stats", "testdata/safe.bp"}, exitOK, "VERIFICATION SUCCESSFUL", "", "engine: summary\n"},
		{"threads unsupported", []string{"check", "--engine", "summary", "testdata/threads.bp"}, exitUnknown, "VERIFICATION UNKNOWN: concurrent program: not supported by the summary engine", "", ""},
		{"getafix threads unsupported", []string{"check", "--engine", "summary", "testdata/getafix.bp"}, exitUnknown, "VERIFICATION UNKNOWN: concurrent program: not supported by the summary engine", "testdata/getafix.bp: note: reading with the getafix operator precedence: procedure thread1 at 16:6", ""},
		{"mucke --emit conc: threads that call no procedure, the product", []string{"mucke", "--emit", "conc", "--bound", "cs:1", "testdata/getafix.bp"}, exitOK, "  | (exists State a0, State a1. (P1_1(a0, a1) & Target(a1))));", "", "mu bool P1_1(State a0, State a1)"},
		{"mucke --emit conc: the product by rounds", []string{"mucke", "--emit", "conc", "--bound", "rounds:2", "testdata/getafix.bp"}, exitOK, "  | (exists State a0, State a1. (P1_1(a0, a1) & Target(a1))));", "", "mu bool P1_1(State a0, State a1)"},
		{"mucke --emit conc: dynamic threads that call no procedure, the product", []string{"mucke", "--emit", "conc", "testdata/threads.bp"}, exitOK, "  | (exists State a0, State a1. (P3_1(a0, a1) & Target(a1) & a1.g1 = 1)));", "", "mu bool P3_1(State a0, State a1)"},
		{"bench --set bluetooth: template flags", []string{"bench", "--set", "bluetooth", "--sizes", "5"}, exitUsage, "", "--sizes is not for --set bluetooth", ""},
		{"conc-fix: dynamic threads", []string{"check", "-q", "--engine", "conc-fix", "--bound", "cs:2", "testdata/threads.bp"}, exitFailed, "VERIFICATION FAILED", "", "1. Line 7 main: start_thread t()"},
		{"conc-fix", []string{"check", "-q", "--engine", "conc-fix", "--bound", "cs:1", "testdata/getafix.bp"}, exitFailed, "VERIFICATION FAILED", "", "<switch>"},
		{"conc-fix without a bound: its default, rounds:4", []string{"check", "-q", "--engine", "conc-fix", "testdata/getafix.bp"}, exitFailed, "VERIFICATION FAILED", "", "bound: the error is reached within 2 rounds (the trace makes 1 context switch)"},
		{"--max-nodes on a concurrent program, default portfolio: its BDD engines share it", []string{"check", "-q", "--max-nodes", "100000", "testdata/threads.bp"}, exitFailed, "VERIFICATION FAILED", "", ""},
		{"--all on a concurrent program, default engine", []string{"check", "--all", "testdata/threads.bp"}, exitUsage, "", "testdata/threads.bp: a concurrent program: --all: the concurrent engines stop at the first error", ""},
		{"--max-nodes on a concurrent program, a BDD engine", []string{"check", "-q", "--max-nodes", "100000", "--engine", "conc-eager", "testdata/threads.bp"}, exitFailed, "VERIFICATION FAILED", "", ""},
		{"threads: the explicit interleaving oracle", []string{"check", "--engine", "explicit", "testdata/threads.bp"}, exitFailed, "VERIFICATION FAILED", "", ""},
		{"getafix threads: the explicit interleaving oracle", []string{"check", "-q", "--engine", "explicit", "--bound", "cs:1", "testdata/getafix.bp"}, exitFailed, "VERIFICATION FAILED", "", ""},
		{"getafix threads: safe without a switch", []string{"check", "-q", "--engine", "explicit", "--bound", "cs:0", "testdata/getafix.bp"}, exitOK, "VERIFICATION SUCCESSFUL up to 0 context switches", "", ""},
		{"variable limit", []string{"check", "--engine", "explicit", "--max-vars", "1", "-l", "R", "../../examples/bebop-fig1.bp"}, exitUnknown, "", "", "VERIFICATION UNKNOWN"},
		{"enforce holds to the end of its block", []string{"check", "testdata/enforce_block.bp"}, exitFailed, "VERIFICATION FAILED", "", "Line 13 main: assert(a)  State a=0\n"},
		{"constrain statement", []string{"check", "testdata/constrain_stmt.bp"}, exitFailed, "VERIFICATION FAILED", "", "Line 10 main: assert(b)  State a=0 b=0\n"},
		{"semantic errors", []string{"check", "testdata/bad.bp"}, exitInput, "", "testdata/bad.bp:5:8: undeclared variable h\ntestdata/bad.bp:6:3: undefined procedure f\n", ""},
		{"syntax error", []string{"check", "testdata/syntax.bp"}, exitInput, "", "testdata/syntax.bp:4:1: expected 'fi', found keyword end\n", ""},
		{"missing file", []string{"check", "testdata/nonexistent.bp"}, exitInput, "", "nonexistent.bp", ""},
		{"no file", []string{"check"}, exitUsage, "", "no FILE to check", ""},
		{"unknown engine", []string{"check", "--engine", "magic", "testdata/safe.bp"}, exitUsage, "", "unknown engine \"magic\"", ""},
		{"unknown style", []string{"check", "--trace-style", "sideways", "testdata/safe.bp"}, exitUsage, "", "unknown trace style", ""},
		{"unknown flag", []string{"check", "--frobnicate", "testdata/safe.bp"}, exitUsage, "", "flag provided but not defined", ""},
		{"unknown command", []string{"verify"}, exitUsage, "", "unknown command", ""},
		{"no command", nil, exitUsage, "", "Usage:", ""},
		{"fmt", []string{"fmt", "testdata/safe.bp"}, exitOK, "end", "", "void main()\nbegin\n  g := T;"},
		{"fmt syntax error", []string{"fmt", "testdata/syntax.bp"}, exitInput, "", "testdata/syntax.bp:4:1:", ""},
		{"graph", []string{"graph", "testdata/assert.bp"}, exitOK, "", "", "digraph"},
		{"gen random", []string{"gen", "random", "--seed", "7"}, exitOK, "", "", "void main()"},
		{"gen template", []string{"gen", "bebop-template", "2"}, exitOK, "", "", "level2"},
		{"bench", []string{"bench", "--engine", "explicit", "--sizes", "2,4", "--runs", "1", "--error", "unreachable"}, exitOK, "", "", "  4    14     safe"},
		{"bench: T(N) for label reach, trace replayed", []string{"bench", "--sizes", "2,3", "--runs", "1"}, exitOK, "", "", "label reach, trace built and replayed"},
		{"bench bad size", []string{"bench", "--sizes", "3,x"}, exitUsage, "", "bad size", ""},
		{"gen template bad variant", []string{"gen", "bebop-template", "--error", "maybe", "3"}, exitUsage, "", "invalid value \"maybe\" for flag -error: want none, reachable or unreachable", ""},
		{"bench bad variant", []string{"bench", "--error", "maybe"}, exitUsage, "", "invalid value \"maybe\" for flag -error", ""},
		{"gen template bad N", []string{"gen", "bebop-template", "zero"}, exitUsage, "", "N must be a whole number", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.code, stdout.String(), stderr.String())
			}
			if tt.lastLine != "" {
				lines := strings.Split(strings.TrimRight(stdout.String(), "\n"), "\n")
				if got := lines[len(lines)-1]; got != tt.lastLine {
					t.Errorf("last line %q, want %q", got, tt.lastLine)
				}
			}
			if tt.stderrHas == "" && stderr.Len() > 0 {
				t.Errorf("unexpected stderr:\n%s", stderr.String())
			}
			if !strings.Contains(stderr.String(), tt.stderrHas) {
				t.Errorf("stderr %q does not contain %q", stderr.String(), tt.stderrHas)
			}
			if !strings.Contains(stdout.String(), tt.stdoutHas) {
				t.Errorf("stdout does not contain %q:\n%s", tt.stdoutHas, stdout.String())
			}
		})
	}
}

func TestCheckJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--format", "json", "-l", "R", "../../examples/bebop-fig1.bp"}, &stdout, &stderr); code != exitFailed {
		t.Fatalf("exit code %d; stderr: %s", code, stderr.String())
	}
	var out struct {
		Verdict string `json:"verdict"`
		Engine  string `json:"engine"`
		Trace   []struct {
			Line  int `json:"line"`
			Depth int `json:"depth"`
		} `json:"trace"`
		Stats map[string]any `json:"stats"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("output is not one JSON object: %v\n%s", err, stdout.String())
	}
	var lines []int
	for _, s := range out.Trace {
		lines = append(lines, s.Line)
	}
	want := []int{6, 7, 20, 21, 20, 24, 22, 8, 9, 20, 21, 20, 24, 22, 10, 11, 12}
	if out.Verdict != "unsafe" || out.Engine == "" || out.Stats == nil || !slices.Equal(lines, want) {
		t.Errorf("got verdict %q engine %q lines %v; want unsafe, an engine, stats and lines %v", out.Verdict, out.Engine, lines, want)
	}
}

func TestFmtWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.bp")
	src := "decl g; void main() begin g:=!g /* flip */ ; L: if g then skip fi end"
	if err := os.WriteFile(path, []byte(src), 0o640); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"fmt", "-w", path}, &stdout, &stderr); code != exitOK || stdout.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout.String(), stderr.String())
	}
	got, _ := os.ReadFile(path)
	want, err := syntax.Format("p.bp", []byte(src), syntax.CProver)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("file after fmt -w:\n%s\nwant:\n%s", got, want)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o640 {
		t.Errorf("fmt -w changed the file mode to %v", info.Mode().Perm())
	}
	if !strings.Contains(string(got), "/* flip */") {
		t.Errorf("fmt -w lost a comment:\n%s", got)
	}
}
