package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"boolprog/batch"
	"boolprog/gen"
)

// blowupProgram is a generated program whose BDDs grow for some seconds (60
// globals): the summary engine does not stay within a small memory limit.
func blowupProgram() string {
	return gen.Random(3, gen.Options{Globals: 60, MaxLocals: 8, Procs: 4, Stmts: 12})
}

// endlessProgram counts a 40-bit counter up from zero, one step per loop
// iteration, and reaches SLIC_ERROR when every bit is set: 2^40 steps
// away, so no engine decides it within any time limit a test sets. The
// tests of time limits use it rather than blowupProgram, which is
// decided after some seconds (5 s with --reorder off on the project
// machine, 6 s before the BDD tables had huge pages): a time limit near
// that was a race.
func endlessProgram() string { return gen.Counter(40) }

func TestBatchEmit(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "tasks.txt")
	if err := os.WriteFile(list, []byte("a.bp expect=safe timeout=5s\nb.bp target=R\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "bx")
	runCases(t, []cliCase{
		{name: "emit", args: []string{"batch", "--emit-benchexec", out, "--engine", "explicit", list}, code: exitOK,
			stdout: []string{"wrote 2 task definitions, unreach-label.prp and boolprog.xml to " + out},
			stderr: []string{"note: " + list + ":1: timeout=5s has no counterpart in BenchExec"}},
	})
	if got := readFile(t, filepath.Join(out, "b.yml")); !strings.Contains(got, "options:\n  target: \"R\"\n  engine: \"explicit\"\n") {
		t.Errorf("b.yml:\n%s", got)
	}
}

func TestBatchBadInput(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "tasks.txt")
	if err := os.WriteFile(list, []byte("a.bp expect=safe\nb.bp expect=perhaps\nc.bp engine=nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{name: "malformed list: every error, nothing runs", args: []string{"batch", list}, code: exitInput,
			stderr: []string{list + `:2:13: unknown expected verdict "perhaps" (want safe or unsafe)`, list + `:3:13: unknown engine "nope"`}},
		{name: "emit stops at a malformed list too", args: []string{"batch", "--emit-benchexec", filepath.Join(dir, "bx"), list}, code: exitInput,
			stderr: []string{list + ":2:13: "}},
		{name: "missing list", args: []string{"batch", filepath.Join(dir, "none.txt")}, code: exitInput,
			stderr: []string{"none.txt: cannot read the task list: no such file or directory"}},
		{name: "no arguments", args: []string{"batch"}, code: exitUsage, stderr: []string{"no TASKS, DIR or FILE.bp"}},
		{name: "bad -j", args: []string{"batch", "-j", "0", list}, code: exitUsage, stderr: []string{"-j must be at least 1"}},
		{name: "reserved check flag", args: []string{"batch", "--check-flags", "--all --format text", list}, code: exitUsage,
			stderr: []string{"--check-flags: --format is set by the batch"}},
		{name: "bad engine", args: []string{"batch", "--engine", "nope", list}, code: exitUsage, stderr: []string{`unknown engine "nope"`}},
		{name: "help", args: []string{"batch", "-h"}, code: exitOK, stdout: []string{"usage: boolprog batch", "-memory"}},
		{name: "emit with -j", args: []string{"batch", "--emit-benchexec", dir, "-j", "2", list}, code: exitUsage, stderr: []string{"-j, --out and -q would have no effect"}},
	})
}

// TestBatchRun runs the real command on a small task list: a correct and a
// wrong answer, a missing program, a program with a syntax error, and a
// task that times out; then a task that exceeds a small memory limit; then
// a batch stopped by SIGINT.
func TestBatchRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and runs checks for several seconds")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the memory limit needs Linux's /proc")
	}
	bin := buildCommand(t)
	dir := t.TempDir()
	hard, hungry := filepath.Join(dir, "hard.bp"), filepath.Join(dir, "hungry.bp")
	fig1, err := filepath.Abs("../../examples/bebop-fig1.bp")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"hard.bp":   endlessProgram(),
		"hungry.bp": blowupProgram(),
		"bad.bp":    "void main() begin\n  skip;\n  if (\nend\n",
		"tasks.txt": fig1 + " target=R expect=unsafe\n" +
			fig1 + " target=R expect=safe   # wrong on purpose\n" +
			"missing.bp expect=safe\n" +
			"bad.bp\n" +
			`{"file": "hard.bp", "timeout": "1s", "flags": ["--reorder", "off"]}` + "\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out.jsonl")
	cmd := exec.Command(bin, "batch", "-j", "2", "--memory", "0", "--out", out, filepath.Join(dir, "tasks.txt"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if code := cmd.ProcessState.ExitCode(); code != batch.ExitWrong {
		t.Fatalf("exit %d (%v), want %d\nstdout:\n%s\nstderr:\n%s", code, err, batch.ExitWrong, stdout.String(), stderr.String())
	}
	recs := readRecords(t, out)
	want := []struct {
		verdict batch.Verdict
		score   batch.Score
		reason  string
	}{
		{batch.Unsafe, batch.Correct, ""},
		{batch.Unsafe, batch.Wrong, ""},
		{batch.Error, "", "cannot read the program: no such file or directory"},
		{batch.Error, "", filepath.Join(dir, "bad.bp") + ":4:1: expected expression"},
		{batch.Timeout, "", "timeout (1s)"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d:\n%s", len(recs), len(want), readFile(t, out))
	}
	for i, w := range want {
		r := recs[i]
		if r.Verdict != w.verdict || r.Score != w.score || !strings.Contains(r.Reason, w.reason) {
			t.Errorf("task %d: %s/%q %q, want %s/%q %q", i+1, r.Verdict, r.Score, r.Reason, w.verdict, w.score, w.reason)
		}
	}
	if r := recs[0]; r.Target != "R" || r.Engine != "summary" || r.Exit != exitFailed || r.Memory == 0 {
		t.Errorf("first record: %+v", r)
	}
	sum := stdout.String()
	for _, s := range []string{"!!! 1 WRONG ANSWER !!!\n  WRONG  " + fig1 + ": expected safe, got unsafe", "TIMEOUT        " + hard + ": timeout (1s)", "result: 1 correct, 1 wrong, 0 bounded, 3 without an answer, 0 answered without an expectation"} {
		if !strings.Contains(sum, s) {
			t.Errorf("summary lacks %q:\n%s", s, sum)
		}
	}
	if !strings.Contains(stderr.String(), "[5/5] ") {
		t.Errorf("progress:\n%s", stderr.String())
	}

	// A program whose BDDs grow, without a time limit but within 64
	// MiB: the child gets the limit as its --memory and answers UNKNOWN:
	// memory limit before its resident size passes it (the kill past it is tested in
	// package batch with a child that ignores its budget). No
	// expectation: exit 0.
	cmd = exec.Command(bin, "batch", "-q", "--timeout", "2m", "--memory", "64MiB", hungry)
	stdout.Reset()
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	var r batch.Record
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	if r.Verdict != batch.Unknown || r.Exit != exitUnknown || !strings.HasPrefix(r.Reason, "memory limit (35.2 MiB: the BDD node table cannot grow beyond ") {
		t.Errorf("memory record: %+v", r)
	}
	if !strings.Contains(stderr.String(), "unknown        "+hungry+": memory limit (35.2 MiB") {
		t.Errorf("summary:\n%s", stderr.String())
	}

	t.Run("interrupted", func(t *testing.T) { batchInterrupt(t, bin, hard) })
	t.Run("errors and direct files", func(t *testing.T) { batchIssue27(t, bin) })
}

// batchInterrupt stops a real batch with SIGINT while its child runs:
// the child answers UNKNOWN: interrupted, the summary says what ran, and
// the batch exits 130.
func batchInterrupt(t *testing.T, bin, hard string) {
	cmd := exec.Command(bin, "batch", "-q", "--memory", "0", "--timeout", "5m", hard, hard)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second)
	cmd.Process.Signal(os.Interrupt)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 {
		t.Errorf("exit %d, want 130\nstderr:\n%s", code, stderr.String())
	}
	for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
		var r batch.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if r.Verdict != batch.Unknown || r.Reason != "interrupted" {
			t.Errorf("record %+v", r)
		}
	}
	if !strings.Contains(stderr.String(), "boolprog batch: 2 tasks, INTERRUPTED after ") {
		t.Errorf("summary:\n%s", stderr.String())
	}
}

// readRecords reads a file of JSON lines, in task order.
func readRecords(t *testing.T, path string) []*batch.Record {
	t.Helper()
	var recs []*batch.Record
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, path)), "\n") {
		var r batch.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %q: %v", path, line, err)
		}
		recs = append(recs, &r)
	}
	out := make([]*batch.Record, len(recs))
	for _, r := range recs {
		if r.N < 1 || r.N > len(recs) || out[r.N-1] != nil {
			t.Fatalf("%s: bad task numbers", path)
		}
		out[r.N-1] = r
	}
	return out
}

// batchIssue27: a directory whose only task is an input ERROR exited 0; a
// .bp given directly lost the expectation of its _safe/_unsafe name; the
// summary said "WRONG ANSWERs".
func batchIssue27(t *testing.T, bin string) {
	only := t.TempDir()
	unsafe := "decl g;\nvoid main() begin g := T; assert(!g); end\n"
	files := map[string]string{
		filepath.Join(only, "bad_safe.bp"):      "void main() begin\n  if (\nend\n",
		filepath.Join(t.TempDir(), "a_safe.bp"): unsafe,
		filepath.Join(t.TempDir(), "b_safe.bp"): unsafe,
	}
	var direct []string
	for path, text := range files {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(path, only) {
			direct = append(direct, path)
		}
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"a directory of one input error", []string{only}, batch.ExitTaskError, "ERROR          " + filepath.Join(only, "bad_safe.bp") + ":3:1: "},
		{"a .bp given directly keeps its name's expectation", direct[:1], batch.ExitWrong, "!!! 1 WRONG ANSWER !!!\n  WRONG  " + direct[0] + ": expected safe, got unsafe"},
		{"two wrong answers", direct, batch.ExitWrong, "!!! 2 WRONG ANSWERS !!!\n"},
	} {
		cmd := exec.Command(bin, append([]string{"batch", "-q", "--memory", "0"}, tc.args...)...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		if code := cmd.ProcessState.ExitCode(); code != tc.code || !strings.Contains(stderr.String(), tc.stderr) {
			t.Errorf("%s: exit %d, want %d; stderr lacks %q:\n%s", tc.name, code, tc.code, tc.stderr, stderr.String())
		}
	}
}
