package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boolprog/benchset"
	"boolprog/engine"
	"boolprog/gen"
	"boolprog/internal/interrupt"
	"boolprog/internal/jsonschema"
	"boolprog/internal/replay"
	"boolprog/ir"
	"boolprog/result"
)

// The regression tests of issue 16's findings, each as the issue states it,
// through the whole command.

// cliCase is one run of the command and what it must print.
type cliCase struct {
	name  string
	args  []string
	stdin string
	code  int
	// stdout and stderr are substrings the stream must contain, in order;
	// nil stderr means stderr must be empty.
	stdout, stderr []string
	// notStdout are substrings stdout must not contain.
	notStdout []string
	// last is the last line of stdout ("" to skip).
	last string
}

func (tc cliCase) run(t *testing.T) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := runContext(context.Background(), tc.args, &streams{stdin: strings.NewReader(tc.stdin), stdout: &stdout, stderr: &stderr})
	checkOutput(t, tc, code, stdout.String(), stderr.String())
}

func checkOutput(t *testing.T, tc cliCase, code int, stdout, stderr string) {
	t.Helper()
	if code != tc.code {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout, stderr)
	}
	containsInOrder(t, "stdout", stdout, tc.stdout)
	if tc.stderr == nil && stderr != "" {
		t.Errorf("unexpected stderr:\n%s", stderr)
	}
	containsInOrder(t, "stderr", stderr, tc.stderr)
	for _, s := range tc.notStdout {
		if strings.Contains(stdout, s) {
			t.Errorf("stdout contains %q:\n%s", s, stdout)
		}
	}
	if tc.last != "" {
		lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
		if got := lines[len(lines)-1]; got != tc.last {
			t.Errorf("last line of stdout %q, want %q", got, tc.last)
		}
	}
}

func containsInOrder(t *testing.T, what, s string, subs []string) {
	t.Helper()
	rest := s
	for _, sub := range subs {
		i := strings.Index(rest, sub)
		if i < 0 {
			t.Errorf("%s does not contain %q (in order):\n%s", what, sub, s)
			return
		}
		rest = rest[i+len(sub):]
	}
}

func runCases(t *testing.T, cases []cliCase) {
	for _, tc := range cases {
		t.Run(tc.name, tc.run)
	}
}

const fig1 = "../../examples/bebop-fig1.bp"

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Finding 5: a misspelled target label silently proved the program safe.
func TestFinding5TargetLabel(t *testing.T) {
	labels := "decl g;\nvoid main() begin\n  ERROR: g := T;\n  START: skip;\n  ERR0R: skip;\n  Error2: assert(g);\nend\n"
	runCases(t, []cliCase{
		{name: "check -l NOPE examples/bebop-fig1.bp", args: []string{"check", "-l", "NOPE", fig1}, code: exitInput,
			stderr: []string{fig1 + ": target label NOPE occurs nowhere; the program's labels, closest first: R\n"}},
		{name: "closest first", args: []string{"check", "--target", "EROR", "-"}, stdin: labels, code: exitInput,
			stderr: []string{"<stdin>: target label EROR occurs nowhere; the program's labels, closest first: ERROR, ERR0R, Error2, START\n"}},
		{name: "no labels at all", args: []string{"check", "-l", "R", "testdata/safe.bp"}, code: exitInput,
			stderr: []string{"target label R occurs nowhere: the program has no labels"}},
		{name: "graph checks the label too", args: []string{"graph", "-l", "NOPE", fig1}, code: exitInput,
			stderr: []string{"target label NOPE occurs nowhere"}},
		{name: "the default SLIC_ERROR may be absent", args: []string{"check", fig1}, code: exitOK,
			stdout: []string{"checked: no assertions (label SLIC_ERROR occurs nowhere)\nVERIFICATION SUCCESSFUL\n"}, last: "VERIFICATION SUCCESSFUL",
			stderr: []string{fig1 + ": warning: nothing to check: no assertions and label SLIC_ERROR occurs nowhere\n"}},
		{name: "the checked line names assertions and label", args: []string{"check", "-l", "START", "-"}, stdin: labels, code: exitFailed,
			stdout: []string{"<stdin>:4:10: error: label START reached\n", "checked: 1 assertion, label START (line 4)\nVERIFICATION FAILED\n"}, last: "VERIFICATION FAILED"},
		{name: "an existing label is accepted", args: []string{"check", "-l", "R", fig1}, code: exitFailed, last: "VERIFICATION FAILED"},
	})
}

// zeros is an endless input, like /dev/zero.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// Finding 8: the command-line contract.
func TestFinding8CLI(t *testing.T) {
	helps := [][]string{
		{"-h"}, {"--help"}, {"help"}, {"check", "-h"}, {"check", "--help"}, {"fmt", "-h"}, {"graph", "-h"},
		{"gen", "-h"}, {"gen", "--help"}, {"gen", "random", "-h"}, {"gen", "bebop-template", "-h"}, {"bench", "-h"},
		{"check", "--format", "json", "-h"},
	}
	var cases []cliCase
	for _, args := range helps {
		cases = append(cases, cliCase{name: strings.Join(args, " ") + " prints to stdout and exits 0", args: args, code: exitOK, stdout: []string{"sage"}})
	}
	cases = append(cases, []cliCase{
		{name: "the usage lists every command", args: []string{"-h"}, code: exitOK,
			stdout: []string{"boolprog check", "boolprog fmt", "boolprog graph", "boolprog gen random", "boolprog gen bebop-template", "boolprog bench", "boolprog version"}},
		{name: "--version", args: []string{"--version"}, code: exitOK, stdout: []string{"boolprog ", " go1."}},
		{name: "version", args: []string{"version"}, code: exitOK, stdout: []string{"boolprog "}},
		{name: "- reads standard input", args: []string{"check", "-l", "R", "-"}, stdin: readFile(t, fig1), code: exitFailed,
			stdout: []string{"<stdin>:12:8: error: label R reached"}, last: "VERIFICATION FAILED"},
		{name: "fmt -", args: []string{"fmt", "-"}, stdin: "decl g; void main() begin g:=!g; end", code: exitOK, stdout: []string{"decl g;\n\nvoid main()\nbegin\n  g := !g;\nend\n"}},
		{name: "fmt -w - is refused", args: []string{"fmt", "-w", "-"}, code: exitUsage, stderr: []string{"cannot rewrite standard input"}},
		{name: "stdin only once", args: []string{"check", "-", "-"}, code: exitUsage, stderr: []string{"only once"}},
		{name: "/dev/zero is not read without limit", args: []string{"check", "--max-input", "1MiB", "/dev/zero"}, code: exitInput,
			stderr: []string{"/dev/zero: input larger than 1MiB, the limit (raise it with --max-input)\n"}},
		{name: "bad --max-input", args: []string{"check", "--max-input", "lots", "x.bp"}, code: exitUsage, stderr: []string{"want a positive size"}},
		{name: "fmt exits 2 on semantic errors", args: []string{"fmt", "testdata/bad.bp"}, code: exitInput,
			stderr: []string{"testdata/bad.bp:5:8: undeclared variable h\n"}, notStdout: []string{"main"}},
		{name: "check several files: one result each, the worst exit code", args: []string{"check", "testdata/safe.bp", "testdata/assert.bp", "testdata/safe.bp"}, code: exitFailed,
			stdout: []string{"== testdata/safe.bp\n", "VERIFICATION SUCCESSFUL\n== testdata/assert.bp\n", "testdata/assert.bp:6:3: error: assertion assert(g) fails\n", "VERIFICATION FAILED\n== testdata/safe.bp\n", "VERIFICATION SUCCESSFUL\n"}},
		{name: "an input error is worse than a failure", args: []string{"check", "testdata/assert.bp", "testdata/bad.bp"}, code: exitInput,
			stdout: []string{"VERIFICATION FAILED\n"}, stderr: []string{"testdata/bad.bp:5:8: undeclared variable h"}},
		{name: "an unknown is better than a failure", args: []string{"check", "--engine", "summary", "testdata/threads.bp", "testdata/assert.bp"}, code: exitFailed,
			stdout: []string{"VERIFICATION UNKNOWN", "VERIFICATION FAILED\n"}},
		{name: "gen -h is not a generator", args: []string{"gen", "-h"}, code: exitOK, notStdout: []string{"unknown generator"}},
	}...)
	runCases(t, cases)

	t.Run("warnings and errors are capped", func(t *testing.T) {
		var src strings.Builder
		src.WriteString("decl ")
		for i := range 100 {
			fmt.Fprintf(&src, "v%d, ", i)
		}
		src.WriteString("w;\nvoid main() begin\n")
		unused := src.String() + "end\n"
		for i := range 60 {
			fmt.Fprintf(&src, "  x%d := T;\n", i)
		}
		src.WriteString("end\n")
		for _, tc := range []struct {
			src, want string
			code      int
		}{
			{unused, "<stdin>: ... and 81 more warnings (-q silences warnings)\n<stdin>: warning: nothing to check: no assertions and label SLIC_ERROR occurs nowhere\n", exitOK},
			{src.String(), "<stdin>: ... and 10 more errors\n", exitInput},
		} {
			var stdout, stderr bytes.Buffer
			code := runContext(context.Background(), []string{"check", "-"}, &streams{stdin: strings.NewReader(tc.src), stdout: &stdout, stderr: &stderr})
			if code != tc.code || !strings.HasSuffix(stderr.String(), tc.want) || strings.Count(stderr.String(), "\n") > 51 {
				t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
			}
		}
	})
	t.Run("stdin without end is not read without limit", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		code := runContext(context.Background(), []string{"check", "--max-input", "100KB", "-"}, &streams{stdin: zeros{}, stdout: &stdout, stderr: &stderr})
		checkOutput(t, cliCase{code: exitInput, stderr: []string{"<stdin>: input larger than 100000, the limit"}}, code, stdout.String(), stderr.String())
	})
}

// Finding 8, JSON: no HTML escaping, input and usage errors as JSON.
func TestFinding8JSON(t *testing.T) {
	decode := func(t *testing.T, out string) map[string]any {
		t.Helper()
		var v map[string]any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatalf("not one JSON object: %v\n%s", err, out)
		}
		return v
	}
	t.Run("no HTML escaping", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		src := "decl a, b;\nvoid main() begin\n  a, b := T, T;\n  assert(!(a & b));\nend\n"
		code := runContext(context.Background(), []string{"check", "--format", "json", "-"}, &streams{stdin: strings.NewReader(src), stdout: &stdout, stderr: &stderr})
		if code != exitFailed {
			t.Fatalf("exit %d, stderr %s", code, stderr.String())
		}
		out := stdout.String()
		if strings.Contains(out, `\u0026`) || !strings.Contains(out, `assert(!(a & b))`) {
			t.Errorf("JSON escapes &:\n%s", out)
		}
	})
	t.Run("several files: one object each", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"check", "--format", "json", "testdata/safe.bp", "testdata/bad.bp", "testdata/assert.bp"}, &stdout, &stderr); code != exitInput {
			t.Fatalf("exit %d", code)
		}
		dec := json.NewDecoder(&stdout)
		var got []string
		for dec.More() {
			var v struct {
				File    string
				Verdict string
				Errors  []result.Message
			}
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			got = append(got, fmt.Sprintf("%s %s %d", v.File, v.Verdict, len(v.Errors)))
		}
		want := "testdata/safe.bp safe 0,testdata/bad.bp  2,testdata/assert.bp unsafe 0"
		if strings.Join(got, ",") != want {
			t.Errorf("got %q, want %q", strings.Join(got, ","), want)
		}
	})
	t.Run("report names file and target", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"check", "--format", "json", "-l", "R", fig1}, &stdout, &stderr); code != exitFailed {
			t.Fatalf("exit %d", code)
		}
		v := decode(t, stdout.String())
		if v["file"] != fig1 || v["target"] != "R" || v["verdict"] != "unsafe" {
			t.Errorf("file %v target %v verdict %v", v["file"], v["target"], v["verdict"])
		}
	})
	tests := []struct {
		name string
		args []string
		code int
		want result.Message
	}{
		{"syntax error", []string{"check", "--format", "json", "testdata/syntax.bp"}, exitInput,
			result.Message{File: "testdata/syntax.bp", Line: 4, Col: 1, Message: "expected 'fi', found keyword end"}},
		{"semantic error", []string{"check", "--format=json", "testdata/bad.bp"}, exitInput,
			result.Message{File: "testdata/bad.bp", Line: 5, Col: 8, Message: "undeclared variable h"}},
		{"unknown label", []string{"check", "--format", "json", "-l", "NOPE", fig1}, exitInput,
			result.Message{File: fig1, Message: "target label NOPE occurs nowhere; the program's labels, closest first: R"}},
		{"usage error", []string{"check", "--format", "json", "--frobnicate", fig1}, exitUsage,
			result.Message{Message: "flag provided but not defined: -frobnicate"}},
		{"missing file", []string{"check", "--format", "json", "testdata/nonexistent.bp"}, exitInput,
			result.Message{File: "testdata/nonexistent.bp", Message: "open: no such file or directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tt.args, &stdout, &stderr)
			if code != tt.code || stderr.Len() > 0 {
				t.Errorf("exit %d (want %d), stderr %q", code, tt.code, stderr.String())
			}
			var out struct{ Errors []result.Message }
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, stdout.String())
			}
			if len(out.Errors) == 0 || out.Errors[0] != tt.want {
				t.Errorf("errors %+v, want first %+v", out.Errors, tt.want)
			}
		})
	}
}

// TestReportSchema validates the JSON of every verdict kind, of input
// errors and of usage errors against the report's published schema.
func TestReportSchema(t *testing.T) {
	schema, err := jsonschema.Parse(result.ReportSchema)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"safe", []string{"check", "--format", "json", "testdata/safe.bp"}, exitOK},
		{"unsafe, label", []string{"check", "--format", "json", "-l", "R", fig1}, exitFailed},
		{"unsafe, assertion", []string{"check", "--format", "json", "testdata/assert.bp"}, exitFailed},
		{"unsafe, trace cut", []string{"check", "--format", "json", "--engine", "test-cut", "-l", "R", fig1}, exitFailed},
		{"unknown", []string{"check", "--format", "json", "--engine", "summary", "testdata/threads.bp"}, exitUnknown},
		{"unknown, interrupted", []string{"check", "--format", "json", "-l", "R", fig1}, 130},
		{"warnings", []string{"check", "--engine", "summary", "--format", "json", "testdata/getafix.bp"}, exitUnknown},
		{"input error", []string{"check", "--format", "json", "testdata/bad.bp"}, exitInput},
		{"usage error", []string{"check", "--format", "json", "--engine", "magic", fig1}, exitUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.code == 130 {
				c, cancel := context.WithCancelCause(ctx)
				cancel(&interrupt.Signal{Sig: syscall.SIGINT})
				ctx = c
			}
			var stdout, stderr bytes.Buffer
			code := runContext(ctx, tt.args, &streams{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr})
			if code != tt.code {
				t.Errorf("exit %d, want %d; stderr %s", code, tt.code, stderr.String())
			}
			if err := schema.Validate(stdout.Bytes()); err != nil {
				t.Errorf("report does not satisfy the schema: %v\n%s", err, stdout.String())
			}
		})
	}
}

// Finding 4: SIGINT/SIGTERM end the run with a verdict line; a limit that
// expires during replay leaves FAILED with a note.
func TestFinding4Interrupt(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String()+" during the search", func(t *testing.T) {
			// The test engine reports when it has started, then waits for
			// the signal: the interruption comes mid-search, without timing.
			waitStarted = make(chan struct{})
			ctx, cancel := context.WithCancelCause(context.Background())
			go func() {
				<-waitStarted
				cancel(&interrupt.Signal{Sig: sig})
			}()
			var stdout, stderr bytes.Buffer
			code := runContext(ctx, []string{"check", "--engine", "test-wait", "-l", "R", fig1, "testdata/safe.bp"}, &streams{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr})
			checkOutput(t, cliCase{code: 128 + int(sig), stdout: []string{"engine: test-wait\n", "states: 42\n", "checked: no assertions, label R (line 12)\n"},
				last: "VERIFICATION UNKNOWN: interrupted"}, code, stdout.String(), stderr.String())
			if n := strings.Count(stdout.String(), "VERIFICATION"); n != 1 {
				t.Errorf("%d verdicts after an interruption: the run must stop at the first file", n)
			}
		})
		t.Run(sig.String()+" before the program is read", func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			cancel(&interrupt.Signal{Sig: sig})
			var stdout, stderr bytes.Buffer
			code := runContext(ctx, []string{"check", "-l", "R", fig1, "testdata/safe.bp"}, &streams{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr})
			checkOutput(t, cliCase{code: 128 + int(sig), last: "VERIFICATION UNKNOWN: interrupted"}, code, stdout.String(), stderr.String())
			if n := strings.Count(stdout.String(), "VERIFICATION"); n != 1 {
				t.Errorf("%d verdicts after an interruption: the run must stop at the first file", n)
			}
		})
	}
}

// waitStarted is closed by the test-wait engine when its search starts.
var waitStarted chan struct{}

// waitEngine searches until its context ends, having explored 42 states.
type waitEngine struct{}

func (waitEngine) Name() string { return "test-wait" }

func (waitEngine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	close(waitStarted)
	<-ctx.Done()
	return &result.Result{Verdict: result.Unknown, Stats: result.Stats{States: 42}}, nil
}

// Finding 4: the time limit reaches every phase. (Where inside the engine
// and the replay it is polled is tested by their packages; here, a limit
// that has passed when the engine starts gives UNKNOWN with the limit.)
func TestFinding4Timeout(t *testing.T) {
	runCases(t, []cliCase{
		{name: "T(100) -l reach --timeout 1ns", args: []string{"check", "--timeout", "1ns", "-l", "reach", "-"}, stdin: gen.BebopTemplate(100), code: exitUnknown,
			last: "VERIFICATION UNKNOWN: timeout (1ns)"},
		{name: "explicit engine", args: []string{"check", "--engine", "explicit", "--timeout", "1ns", "-l", "R", fig1}, code: exitUnknown,
			last: "VERIFICATION UNKNOWN: timeout (1ns)"},
	})
}

func TestFinding4ReplayCut(t *testing.T) {
	// A trace long enough for the interpreter to look at its context.
	p, err := benchset.TemplateProgram(100, gen.NoError, "reach")
	if err != nil {
		t.Fatal(err)
	}
	info, _ := engine.Lookup(defaultEngine)
	eng, err := info.New()
	if err != nil {
		t.Fatal(err)
	}
	res := engine.Run(context.Background(), eng, p, engine.Query{})
	if res.Verdict != result.Unsafe {
		t.Fatalf("verdict %v", res.Verdict)
	}
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	tests := []struct {
		name    string
		ctx     context.Context
		res     *result.Result
		verdict result.Verdict
		note    string
	}{
		{"replayed", context.Background(), res, result.Unsafe, ""},
		{"limit during replay", expired, res, result.Unsafe, "the time limit cut the replay: the interpreter did not check this trace (replay: stopped at step"},
		{"a trace that does not replay", context.Background(), &result.Result{Verdict: result.Unsafe, Trace: &result.Trace{Steps: res.Trace.Steps[1:]}}, result.Unknown, ""},
	}
	for _, tt := range tests {
		got, note := replay.Judge(tt.ctx, p, tt.res)
		if got.Verdict != tt.verdict || !strings.HasPrefix(note, tt.note) || (tt.note == "") != (note == "") {
			t.Errorf("%s: verdict %v note %q, want %v %q", tt.name, got.Verdict, note, tt.verdict, tt.note)
		}
	}
}

// Finding 4, with a real signal: a child process blocked reading standard
// input gets SIGINT once its progress line shows that it is running, and
// must end with the UNKNOWN verdict and exit code 130.
func TestFinding4Signal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	bin := buildCommand(t)
	cmd := execCommand(bin, "check", "-v", "-")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// The progress line (after a second) says the run is in its parse
	// phase: the signal handler is installed.
	var seen bytes.Buffer
	buf := make([]byte, 256)
	for !strings.Contains(seen.String(), "boolprog: parse: <stdin>") {
		n, err := stderr.Read(buf)
		seen.Write(buf[:n])
		if err != nil {
			t.Fatalf("stderr ended before the progress line: %v\n%s", err, seen.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	rest, _ := io.ReadAll(stderr)
	seen.Write(rest)
	err = cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	if code != 130 || !strings.HasSuffix(stdout.String(), "VERIFICATION UNKNOWN: interrupted\n") {
		t.Errorf("exit %d (%v), stdout:\n%s\nstderr:\n%s", code, err, stdout.String(), seen.String())
	}
}

// Finding 7: the trace can be switched off or sent to a file; --stats
// includes the replay.
func TestFinding7Trace(t *testing.T) {
	traceFile := filepath.Join(t.TempDir(), "trace.txt")
	runCases(t, []cliCase{
		{name: "--trace none", args: []string{"check", "--trace", "none", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{fig1 + ":12:8: error: label R reached\n"}, notStdout: []string{"Line "}, last: "VERIFICATION FAILED"},
		{name: "--trace-file", args: []string{"check", "--trace-file", traceFile, "-l", "R", fig1}, code: exitFailed,
			stdout: []string{"trace: 17 steps written to " + traceFile + "\n", fig1 + ":12:8: error: label R reached\n"}, notStdout: []string{"Line "}, last: "VERIFICATION FAILED"},
		{name: "--stats has every phase", args: []string{"check", "--stats", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{"time: ", "parse ", "lower ", "replay "}},
		{name: "bad --trace", args: []string{"check", "--trace", "some", fig1}, code: exitUsage, stderr: []string{"unknown trace detail"}},
		{name: "--trace-file with several files", args: []string{"check", "--trace-file", traceFile, fig1, fig1}, code: exitUsage, stderr: []string{"one FILE"}},
		{name: "--trace none with --trace-style", args: []string{"check", "--trace", "none", "--trace-style", "bebop", fig1}, code: exitUsage, stderr: []string{"no effect"}},
		{name: "numbered steps, marked choices", args: []string{"check", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{" 1. Line 6 main: h := !g  State g=1 h=0\n", "17. Line 12 main: skip  State g=1 h=0\n"}},
		{name: "choices marked", args: []string{"check", "testdata/assert.bp"}, code: exitFailed,
			stdout: []string{"1. Line 5 main: * g := *  State g=0\n2. Line 6 main: assert(g)  State g=0\n"}},
		{name: "--trace-choices=false", args: []string{"check", "--trace-choices=false", "testdata/assert.bp"}, code: exitFailed,
			stdout: []string{"1. Line 5 main: g := *  State g=0\n"}},
		{name: "--trace-numbers=false", args: []string{"check", "--trace-numbers=false", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{"\nLine 7 main: A(g, h)  State g=1 h=0\n"}, notStdout: []string{" 1. "}},
		{name: "--trace changes", args: []string{"check", "--trace", "changes", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{" 1. Line 6 main: h := !g  State g=1 h=0\n 2. Line 7 main: A(g, h)\n 3.   Line 20 A: if (a1)  State g=1 a1=1 a2=0\n"}},
		{name: "indentation capped", args: []string{"check", "--trace-indent", "1", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{" 5.   [depth 2] Line 20 A: if (a1)"}},
		{name: "bebop style is the paper's", args: []string{"check", "--trace-style", "bebop", "--trace-numbers", "-l", "R", fig1}, code: exitUsage, stderr: []string{"paper's format"}},
		{name: "trace flags do not shape JSON", args: []string{"check", "--format", "json", "--trace-indent", "3", fig1}, code: exitUsage, stdout: []string{`"message": "--trace-indent is for the text trace`}},
		{name: "--trace-file with JSON", args: []string{"check", "--format", "json", "--trace-file", traceFile, fig1}, code: exitUsage, stdout: []string{`"message": "--trace-file is for the text trace`}},
		{name: "-q and -v", args: []string{"check", "-q", "-v", fig1}, code: exitUsage, stderr: []string{"contradict"}},
	})
	got := readFile(t, traceFile)
	if !strings.HasPrefix(got, " 1. Line 6 main: h := !g  State g=1 h=0\n") || strings.Count(got, "\n") != 17 {
		t.Errorf("trace file:\n%s", got)
	}
}

// built is the command built once for the tests that run it as a process
// (each build links the whole tool: seconds of the package's test time).
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// buildCommand builds the command into a temporary directory, once per
// test binary (TestMain removes it).
func buildCommand(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "boolprog-cmd-test-")
		if built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "boolprog")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

func execCommand(bin string, args ...string) *exec.Cmd { return exec.Command(bin, args...) }

// Finding 6: `assert(a & b = c)` with a, b, c false was SUCCESSFUL by
// default and FAILED with --dialect getafix, without a warning; nothing
// said which dialect a Getafix file needs.
func TestFinding6Dialect(t *testing.T) {
	src := "decl a, b, c;\nvoid main() begin a, b, c := F, F, F; assert(a & b = c); end\n"
	getafix := "decl g;\nvoid main() begin g := T; end\nvoid thread1() begin assert(a & b = c); end\n"
	getafix = strings.Replace(getafix, "decl g;", "decl g, a, b, c;", 1)
	runCases(t, []cliCase{
		{name: "default: cprover, with a warning", args: []string{"check", "-"}, stdin: src, code: exitOK,
			stderr: []string{"<stdin>:2:46: warning: a & b = c means (a & b) = c here (cprover precedence) but a & (b = c) with getafix precedence; add parentheses to say which\n"},
			last:   "VERIFICATION SUCCESSFUL"},
		{name: "getafix, with a warning", args: []string{"check", "--dialect", "getafix", "-"}, stdin: src, code: exitFailed,
			stderr: []string{"<stdin>:2:46: warning: a & b = c means a & (b = c) here (getafix precedence) but (a & b) = c with cprover precedence"},
			last:   "VERIFICATION FAILED"},
		{name: "-q silences the warning", args: []string{"check", "-q", "-"}, stdin: src, code: exitOK, last: "VERIFICATION SUCCESSFUL"},
		{name: "a Getafix file is detected, with a note", args: []string{"check", "--engine", "summary", "-"}, stdin: getafix, code: exitUnknown,
			stderr: []string{"<stdin>: note: reading with the getafix operator precedence: procedure thread1", "<stdin>:3:29: warning: a & b = c means a & (b = c) here (getafix precedence)"}},
		{name: "--dialect cprover overrides the detection", args: []string{"check", "--engine", "summary", "--dialect", "cprover", "-"}, stdin: getafix, code: exitUnknown,
			stderr: []string{"<stdin>:3:29: warning: a & b = c means (a & b) = c here (cprover precedence)"}},
	})
}

// Finding 9: a concurrent program's UNKNOWN points at the line that made
// it concurrent.
func TestFinding9Concurrent(t *testing.T) {
	runCases(t, []cliCase{
		{name: "start_thread", args: []string{"check", "--engine", "summary", "testdata/threads.bp"}, code: exitUnknown,
			stdout: []string{"testdata/threads.bp:7:3: note: the program is concurrent: start_thread\n"}, last: "VERIFICATION UNKNOWN: concurrent program: not supported by the summary engine"},
		{name: "plain check runs the concurrent portfolio", args: []string{"check", "-q", "--trace", "none", "testdata/threads.bp"}, code: exitFailed, last: "VERIFICATION FAILED"},
		{name: "Getafix convention", args: []string{"check", "-q", "--engine", "summary", "testdata/getafix.bp"}, code: exitUnknown,
			stdout: []string{"testdata/getafix.bp:", ": note: the program is concurrent: procedure thread"}},
	})
}

// Finding 3: long flat chains of operators and of elsif, and CR-only line
// ends. The stack is capped far below Go's default (1 GB) so that a
// recursion over a chain's length fails here at a size a test can afford
// (the 2M-term chain overflowed the default stack).
func TestFinding3Chains(t *testing.T) {
	chain := func(n int, op string) string {
		return "decl g;\nvoid main() begin g := g" + strings.Repeat(" "+op+" g", n-1) + "; assert(g); end\n"
	}
	var elsif strings.Builder
	elsif.WriteString("decl g;\nvoid main() begin\n  if (g) then skip;\n")
	for range 1000 {
		elsif.WriteString("  elsif (g) then skip;\n")
	}
	elsif.WriteString("  fi\nend\n")
	runCases(t, []cliCase{
		{name: "32k-term & chain", args: []string{"check", "-"}, stdin: chain(32_000, "&"), code: exitFailed, last: "VERIFICATION FAILED"},
		{name: "1,001-branch elsif chain", args: []string{"check", "-q", "-"}, stdin: elsif.String(), code: exitOK, last: "VERIFICATION SUCCESSFUL"},
		{name: "CR-only line ends", args: []string{"check", "-"}, stdin: "decl g;\rvoid main() begin\r  g := T;\r  h := F;\rend\r", code: exitInput,
			stderr: []string{"<stdin>:4:3: undeclared variable h\n"}},
		{name: "CRLF line ends", args: []string{"check", "-"}, stdin: "decl g;\r\nvoid main() begin\r\n  g := T;\r\n  h := F;\r\nend\r\n", code: exitInput,
			stderr: []string{"<stdin>:4:3: undeclared variable h\n"}},
	})
	if testing.Short() {
		t.Skip("long chains take seconds")
	}
	defer debug.SetMaxStack(debug.SetMaxStack(16 << 20))
	long := chain(200_000, "|")
	runCases(t, []cliCase{
		{name: "200k-term | chain: check", args: []string{"check", "-"}, stdin: long, code: exitFailed, last: "VERIFICATION FAILED"},
		{name: "200k-term | chain: fmt", args: []string{"fmt", "-"}, stdin: long, code: exitOK, stdout: []string{"g := g | g | g"}},
		{name: "200k-term | chain: graph", args: []string{"graph", "-"}, stdin: long, code: exitOK, stdout: []string{"digraph"}},
	})
}

// Finding 1: a procedure returning 64 values (a shift 1<<64 is 0) made the
// explicit engine answer SUCCESSFUL, and replay enumerate 2^64 values.
func TestFinding1WideReturn(t *testing.T) {
	src := "void main() begin f(); assert(F); end  bool<64> f() begin skip; end"
	runCases(t, []cliCase{
		{name: "explicit: UNKNOWN with the reason", args: []string{"check", "--engine", "explicit", "-"}, stdin: src, code: exitUnknown,
			last: "VERIFICATION UNKNOWN: f returns 64 values: more than the explicit engine enumerates (limit 20)"},
		{name: "summary: FAILED, replayed", args: []string{"check", "--timeout", "5s", "-"}, stdin: src, code: exitFailed,
			stdout: []string{"<stdin>:1:24: error: assertion assert(F) fails\n"}, last: "VERIFICATION FAILED"},
	})
}

// Finding 2: --max-vars 64 made the explicit engine answer SUCCESSFUL for
// 64 globals and assert(F); larger values were clamped; 27 to 63 ran out
// of memory.
func TestFinding2MaxVars(t *testing.T) {
	globals := func(n int) string {
		var b strings.Builder
		b.WriteString("decl g0")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, ", g%d", i)
		}
		b.WriteString(";\nvoid main() begin assert(F); end\n")
		return b.String()
	}
	var cases []cliCase
	for _, n := range []int{27, 40, 63, 64} {
		cases = append(cases, cliCase{name: fmt.Sprintf("%d globals, --max-vars %d", n, n),
			args: []string{"check", "-q", "--engine", "explicit", "--max-vars", fmt.Sprint(n), "-"}, stdin: globals(n), code: exitUnknown,
			last: "VERIFICATION UNKNOWN: state budget exhausted (2097152 states)", notStdout: []string{"goroutine", "SUCCESSFUL"}})
	}
	cases = append(cases,
		cliCase{name: "--max-vars 65 is a usage error", args: []string{"check", "--engine", "explicit", "--max-vars", "65", "-"}, stdin: globals(64), code: exitUsage,
			stderr: []string{"max-vars 65: the explicit engine enumerates between 1 and 64 variables"}},
		cliCase{name: "--max-nodes with the explicit engine is a usage error", args: []string{"check", "--engine", "explicit", "--max-nodes", "100", fig1}, code: exitUsage,
			stderr: []string{"--max-nodes bounds BDD nodes, which the explicit engine does not use"}},
		cliCase{name: "--max-vars with another engine is a usage error", args: []string{"check", "--max-vars", "10", fig1}, code: exitUsage,
			stderr: []string{"flag --max-vars is an option of the explicit engine, not of summary"}},
	)
	runCases(t, cases)
}

// cutEngine answers FAILED with a trace cut short, as an engine does when
// its time runs out after the error is established.
type cutEngine struct{}

func (cutEngine) Name() string { return "test-cut" }

func (cutEngine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	for _, pr := range p.Procs {
		for _, l := range pr.Locations {
			if l.Error {
				return &result.Result{Verdict: result.Unsafe, TraceCut: true, Reason: engine.ReasonTimeout,
					Property: result.PropertyAt(p, pr, l.ID)}, nil
			}
		}
	}
	return &result.Result{Verdict: result.Safe}, nil
}

func init() {
	engine.Register(engine.Info{Names: []string{"test-cut"}, Doc: "a test engine whose traces are cut (tests only)",
		Flags: engine.NoFlags(func() engine.Engine { return cutEngine{} })})
	engine.Register(engine.Info{Names: []string{"test-wait"}, Doc: "a test engine that searches until interrupted (tests only)",
		Flags: engine.NoFlags(func() engine.Engine { return waitEngine{} })})
}

// Finding 4: expiry after the error is established is FAILED with a note
// that the trace was cut, in text and JSON.
func TestFinding4TraceCut(t *testing.T) {
	runCases(t, []cliCase{
		{name: "text", args: []string{"check", "--engine", "test-cut", "--timeout", "1h", "-l", "R", fig1}, code: exitFailed,
			stdout:    []string{fig1 + ":12:8: error: label R reached\nnote: the error is reachable, but the trace was cut: timeout (1h0m0s)\n"},
			notStdout: []string{"Line "}, last: "VERIFICATION FAILED"},
		{name: "json", args: []string{"check", "--format", "json", "--engine", "test-cut", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{`"verdict": "unsafe"`, `"reason": "timeout"`, `"property": {`, `"trace_cut": true`}},
	})
}

// Issue 9 item 3: a bounded query goes through the registry to the engine;
// today's engines cannot bound their search and say so.
func TestBound(t *testing.T) {
	runCases(t, []cliCase{
		{name: "summary refuses a bound", args: []string{"check", "--bound", "cs:2", "testdata/safe.bp"}, code: exitUnknown, last: "VERIFICATION UNKNOWN: the summary engine explores every execution: a bound (2 context switches) applies only to concurrent programs"},
		{name: "bad bound", args: []string{"check", "--bound", "cs", "testdata/safe.bp"}, code: exitUsage, stderr: []string{"want none, cs:K or rounds:K"}},
		{name: "negative bound", args: []string{"check", "--bound", "rounds:-1", "testdata/safe.bp"}, code: exitUsage, stderr: []string{"want none, cs:K or rounds:K"}},
		{name: "no bound", args: []string{"check", "--bound", "none", "testdata/safe.bp"}, code: exitOK, last: "VERIFICATION SUCCESSFUL"},
	})
}
