package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/internal/memlimit"
)

// genProgram writes the program `boolprog gen ARGS...` prints into a
// temporary file and returns its path.
func genProgram(t *testing.T, name string, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(append([]string{"gen"}, args...), &stdout, &stderr); code != exitOK {
		t.Fatalf("gen %v: exit %d\n%s", args, code, stderr.String())
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, stdout.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Issue 27: a program whose BDDs outgrow the memory crashed the process
// ("fatal error: runtime: out of memory", exit 2); --memory (by default
// the machine's or the process's limit) makes it UNKNOWN: memory limit.
func TestMemoryFlag(t *testing.T) {
	// The budget is the process's: leave none behind for other tests.
	t.Cleanup(func() { memlimit.Apply(memlimit.Limit{}) })
	p := genProgram(t, "P.bp", "random", "--seed", "1", "--globals", "64", "--locals", "8", "--procs", "20", "--stmts", "20", "--depth", "8")
	q := genProgram(t, "Q.bp", "random", "--seed", "1", "--globals", "64", "--locals", "8", "--procs", "6", "--stmts", "10", "--depth", "6")
	// Programs the explicit engine cannot finish: about 1.8M path edges;
	// 2M configurations of three threads.
	seq := genProgram(t, "S.bp", "random", "--seed", "3", "--globals", "12", "--locals", "6", "--procs", "30", "--stmts", "25", "--depth", "6")
	conc := genProgram(t, "C.bp", "random", "--threads", "3", "--style", "getafix", "--seed", "1", "--globals", "49", "--locals", "12", "--stmts", "130", "--depth", "3", "--procs", "1")
	var model bytes.Buffer
	if code := run([]string{"mucke", "--emit", "summary", q}, &model, &bytes.Buffer{}); code != exitOK {
		t.Fatalf("mucke --emit: exit %d", code)
	}
	mu := filepath.Join(t.TempDir(), "Q.mu")
	if err := os.WriteFile(mu, model.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{name: "check --memory 40M", args: []string{"check", "-q", "--memory", "40M", p}, code: exitUnknown,
			stdout: []string{"\nVERIFICATION UNKNOWN: memory limit (22 MiB: the BDD node table cannot grow beyond "}},
		// The explicit engine's states live in the Go heap, not in node
		// tables: it measures the heap against 70% of the limit, where
		// it used to grow past the limit up to its state budget (about
		// 1 GiB) and, under a cgroup's limit, be killed.
		{name: "check --engine explicit --memory 40M", args: []string{"check", "-q", "--engine", "explicit", "--memory", "40M", seq}, code: exitUnknown,
			stdout: []string{"\nVERIFICATION UNKNOWN: memory limit (", "in the Go heap: more than 70% of the 40 MiB limit)"}},
		{name: "check --engine explicit --memory 64M, concurrent", args: []string{"check", "-q", "--engine", "explicit", "--bound", "rounds:4", "--memory", "64M", conc}, code: exitUnknown,
			stdout: []string{"\nVERIFICATION UNKNOWN: memory limit (", "in the Go heap: more than 70% of the 64 MiB limit)"}},
		{name: "check --memory 0 is no limit", args: []string{"check", "-q", "--memory", "0", q}, code: exitOK, last: "VERIFICATION SUCCESSFUL"},
		{name: "check: a bad size", args: []string{"check", "--memory", "lots", q}, code: exitUsage, stderr: []string{`bad size "lots"`}},
		{name: "check -h documents it", args: []string{"check", "-h"}, code: exitOK, stdout: []string{"-memory", "80% of it", "55%"}},
		{name: "mucke --memory 10M", args: []string{"mucke", "--memory", "10M", mu}, code: exitUnknown,
			stdout: []string{"UNKNOWN: memory limit (5.5 MiB: the BDD node table cannot grow beyond "}},
		{name: "mucke --emit refuses --memory", args: []string{"mucke", "--emit", "summary", "--memory", "1G", q}, code: exitUsage,
			stderr: []string{"--memory applies when evaluating one"}},
		{name: "bench --memory", args: []string{"bench", "--memory", "lots"}, code: exitUsage, stderr: []string{`bad size "lots"`}},
	})
}

// Issue 27: a configuration read through a pipe was read again, empty,
// and replaced by the default (a wrong SUCCESSFUL); an empty configuration
// or formula file is an input error; an observer spec with an empty
// procedure name panicked.
func TestInputsReadOnce(t *testing.T) {
	dir := t.TempDir()
	spec, err := filepath.Abs("../../examples/locking.spec")
	if err != nil {
		t.Fatal(err)
	}
	cfg := "analyses = location, summary, explicitval, observer\nobserver.spec = " + spec + "\nexplicitval.track = all\nmerge = sep\nstop = sep\n"
	fifo := filepath.Join(dir, "obs.cfg")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	// The writer opens the FIFO once and writes the configuration once:
	// a second read would find it empty (or block).
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			done <- err
			return
		}
		_, err = f.WriteString(cfg)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		done <- err
	}()
	// Should the checker open the FIFO a second time, that open would
	// wait for a writer for ever: give it one, without data, so that the
	// test fails instead of hanging.
	watchdog := time.AfterFunc(30*time.Second, func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	defer watchdog.Stop()
	empty := filepath.Join(dir, "empty")
	badSpec := filepath.Join(dir, "bad.spec")
	for path, text := range map[string]string{empty: "", badSpec: "property p\nstates a b\non call : a -> b\n"} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const locking = "../../examples/locking.bp"
	runCases(t, []cliCase{
		{name: "configuration through a FIFO", args: []string{"check", "-q", "--engine", "cpa", "--cpa-config", fifo, locking}, code: exitFailed,
			stdout: []string{"observer"}, last: "VERIFICATION FAILED"},
		{name: "empty configuration", args: []string{"check", "--engine", "cpa", "--cpa-config", empty, locking}, code: exitInput,
			stderr: []string{empty + ": empty configuration"}},
		{name: "empty formula", args: []string{"check", "--engine", "ef", "--formula", empty, locking}, code: exitInput,
			stderr: []string{empty + ": empty formula file"}},
		{name: "spec with an empty procedure name", args: []string{"check", "--spec", badSpec, locking}, code: exitInput,
			stderr: []string{badSpec + ":3:9: want a procedure's name"}},
	})
	if err := <-done; err != nil {
		t.Errorf("writing the FIFO: %v", err)
	}
}

// Issue 27: a program with no assertion and no target label was
// SUCCESSFUL without a word. The verdict stays; stderr warns and the JSON
// report says "nothing_to_check": true.
func TestNothingToCheck(t *testing.T) {
	const warning = "warning: nothing to check: no assertions and label SLIC_ERROR occurs nowhere"
	runCases(t, []cliCase{
		{name: "warned", args: []string{"check", fig1}, code: exitOK, last: "VERIFICATION SUCCESSFUL", stderr: []string{fig1 + ": " + warning}},
		{name: "-q silences it", args: []string{"check", "-q", fig1}, code: exitOK, last: "VERIFICATION SUCCESSFUL"},
		{name: "with a label", args: []string{"check", "-l", "R", fig1}, code: exitFailed, last: "VERIFICATION FAILED"},
		{name: "with an assertion", args: []string{"check", "-"}, stdin: "decl g;\nvoid main() begin g := F; assert(!g); end\n", code: exitOK, last: "VERIFICATION SUCCESSFUL"},
		{name: "with an observer", args: []string{"check", "--spec", "../../examples/locking.spec", "../../examples/locking-ok.bp"}, code: exitOK, last: "VERIFICATION SUCCESSFUL"},
		{name: "JSON", args: []string{"check", "--format", "json", fig1}, code: exitOK, stdout: []string{`"verdict": "safe"`, `"nothing_to_check": true`}},
		{name: "JSON with a label", args: []string{"check", "--format", "json", "-l", "R", fig1}, code: exitFailed, notStdout: []string{"nothing_to_check"}},
	})
}

// Issue 27: `version -h` was "unexpected argument" (exit 1); the usage
// lacked exit code 3.
func TestVersionHelpAndUsage(t *testing.T) {
	runCases(t, []cliCase{
		{name: "version -h", args: []string{"version", "-h"}, code: exitOK, stdout: []string{"usage: boolprog version"}},
		{name: "version --help", args: []string{"version", "--help"}, code: exitOK, stdout: []string{"usage: boolprog version"}},
		{name: "help version", args: []string{"help", "version"}, code: exitOK, stdout: []string{"usage: boolprog version"}},
		{name: "version", args: []string{"version"}, code: exitOK, stdout: []string{"boolprog 0.9.0 ("}},
		{name: "version x", args: []string{"version", "x"}, code: exitUsage, stderr: []string{`unexpected argument "x"`}},
		{name: "usage", args: []string{"-h"}, code: exitOK,
			stdout: []string{"\n  boolprog seq ", "\n  boolprog help ", "3 batch: a wrong answer"}},
	})
}

// Issue 27: several files with --format json printed concatenated
// indented objects; they are JSON Lines, one report per line, each
// decoded by itself.
func TestJSONLines(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.bp")
	if err := os.WriteFile(bad, []byte("void main() begin\n  if (\nend\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run([]string{"check", "--format", "json", "-l", "R", fig1, bad, fig1}, &stdout, &stderr)
	if code != exitInput {
		t.Errorf("exit %d, want %d (the worst)\n%s", code, exitInput, stderr.String())
	}
	lines := strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n")
	want := []struct{ file, verdict string }{{fig1, "unsafe"}, {bad, ""}, {fig1, "unsafe"}}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), stdout.String())
	}
	for i, line := range lines {
		dec := json.NewDecoder(strings.NewReader(line))
		var rep struct {
			File    string            `json:"file"`
			Verdict string            `json:"verdict"`
			Trace   []json.RawMessage `json:"trace"`
			Errors  []json.RawMessage `json:"errors"`
		}
		if err := dec.Decode(&rep); err != nil {
			t.Fatalf("line %d: %v\n%s", i+1, err, line)
		}
		if dec.More() {
			t.Errorf("line %d holds more than one value", i+1)
		}
		if rep.File != want[i].file || rep.Verdict != want[i].verdict {
			t.Errorf("line %d: file %q verdict %q, want %q %q", i+1, rep.File, rep.Verdict, want[i].file, want[i].verdict)
		}
		if (want[i].verdict == "unsafe") != (len(rep.Trace) > 0) || (want[i].verdict == "") != (len(rep.Errors) > 0) {
			t.Errorf("line %d: %d steps, %d errors", i+1, len(rep.Trace), len(rep.Errors))
		}
	}
	// One file's report stays one indented object.
	stdout.Reset()
	run([]string{"check", "--format", "json", "-l", "R", fig1}, &stdout, &stderr)
	if !strings.HasPrefix(stdout.String(), "{\n  \"schema\"") {
		t.Errorf("one file:\n%.200s", stdout.String())
	}
}

// Issue 27: --trace changes showed, on entering a procedure, only the
// callee's locals (a1=1 a2=0 without g), and nothing for a procedure
// without locals; the documented whole state is shown.
func TestTraceChangesEntry(t *testing.T) {
	noLocals := "decl g, h;\nvoid main() begin\n  g := T;\n  f();\n  assert(!g);\nend\nvoid f() begin\n  h := T;\nend\n"
	runCases(t, []cliCase{
		{name: "callee with locals", args: []string{"check", "--trace", "changes", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{" 2. Line 7 main: A(g, h)\n 3.   Line 20 A: if (a1)  State g=1 a1=1 a2=0\n", " 6.     Line 24 A: g := a2\n"}},
		{name: "callee without locals", args: []string{"check", "--trace", "changes", "-"}, stdin: noLocals, code: exitFailed,
			stdout: []string{"2. Line 4 main: f()  State g=1\n3.   Line 8 f: h := T  State g=1 h=0\n4. Line 5 main: assert(!g)  State h=1\n"}},
	})
}

// Issue 27: the README's --engine row listed 2 of 10 engines, and its
// command list lacked seq and help. Every registered engine and command
// is named there.
func TestREADMENamesEveryEngineAndCommand(t *testing.T) {
	readme := readFile(t, "../../README.md")
	var row string
	for _, line := range strings.Split(readme, "\n") {
		if strings.HasPrefix(line, "| `--engine NAME` |") {
			row = line
		}
	}
	for _, info := range engine.Engines() {
		if strings.HasPrefix(info.Name(), "test-") {
			continue // registered by this package's tests
		}
		for _, name := range info.Names {
			if !strings.Contains(row, "`"+name+"`") {
				t.Errorf("the README's --engine row lacks `%s`:\n%s", name, row)
			}
		}
	}
	var stdout bytes.Buffer
	run([]string{"-h"}, &stdout, &bytes.Buffer{})
	for _, line := range strings.Split(stdout.String(), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "boolprog" && !strings.HasPrefix(f[1], "-") {
			if !strings.Contains(readme, "\nboolprog "+f[1]+" ") {
				t.Errorf("the README's command list lacks %q", f[1])
			}
		}
	}
}
