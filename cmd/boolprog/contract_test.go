package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceNoneEveryFormat checks that --trace none holds in every format:
// the JSON report wrote the whole trace anyway.
func TestTraceNoneEveryFormat(t *testing.T) {
	runCases(t, []cliCase{
		{name: "text", args: []string{"check", "--trace", "none", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{fig1 + ":12:8: error: label R reached\n"}, notStdout: []string{"Line "}, last: "VERIFICATION FAILED"},
		{name: "json", args: []string{"check", "--format", "json", "--trace", "none", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{`"verdict": "unsafe"`, `"trace_omitted": true`}, notStdout: []string{`"trace": [`, `"values":`}},
		{name: "json, full", args: []string{"check", "--format", "json", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{`"verdict": "unsafe"`, `"trace": [`}, notStdout: []string{`"trace_omitted"`}},
		{name: "html", args: []string{"check", "--format", "html", "--trace", "none", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{"The trace was left out (--trace none)."}, notStdout: []string{`id="next"`}},
		// The JSON report has every step in full or none: --trace changes
		// would be ignored.
		{name: "json, changes", args: []string{"check", "--format", "json", "--trace", "changes", "-l", "R", fig1}, code: exitUsage,
			stdout: []string{`"message": "--trace changes is for the text trace`}},
		{name: "html, changes", args: []string{"check", "--format", "html", "--trace", "changes", "-l", "R", fig1}, code: exitUsage,
			stderr: []string{"--trace changes is for the text trace"}},
	})
}

// TestHTMLObserver checks that the HTML page of an observer's violation
// names the property (it said "assertion lock() fails") and, as the text
// output's checked line, the specification checked.
func TestHTMLObserver(t *testing.T) {
	const spec, prog = "../../examples/locking.spec", "../../examples/locking.bp"
	runCases(t, []cliCase{
		{name: "text", args: []string{"check", "--trace", "none", "--spec", spec, prog}, code: exitFailed,
			stdout: []string{"error: property locking violated: lock acquired twice without an unlock (observer locking in state locked, at lock(); " + spec + ":6)",
				"; property locking of " + spec}},
		{name: "html", args: []string{"check", "--format", "html", "--spec", spec, prog}, code: exitFailed,
			stdout: []string{"property locking violated: lock acquired twice without an unlock (observer locking in state locked, at lock(); " + spec + ":6) at line 36, column 5 (main)",
				"checked: no assertions (label SLIC_ERROR occurs nowhere); property locking of " + spec},
			notStdout: []string{"assertion lock() fails"}},
	})
}

// TestBadInput runs the commands with bad input: a missing file, a
// directory, an empty file, a binary file, syntax and semantic errors, and
// flags that are empty, contradictory or out of range. Input errors are
// `file[:line:col]: message` with exit 2, usage errors exit 1, and nothing
// panics.
func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	var bin []byte
	for i := range 3000 {
		bin = append(bin, byte(i*7+i/256))
	}
	missing := filepath.Join(dir, "none.bp")
	empty := write("empty.bp", "")
	binary := write("bin.bp", string(bin))
	sem := write("sem.bp", "void main() begin x := T; end\n")
	syn := write("syn.bp", "void main( begin\n")
	initFails := write("init.bp", "decl g;\nvoid init() begin g := T; assert(!g); end\nvoid thread1() begin g := F; end\nvoid thread2() begin g := F; end\n")
	var mu strings.Builder
	mu.WriteString("enum N {0..3};\n")
	for i := range 3000 {
		fmt.Fprintf(&mu, "bool R%d(N x) (x=%d | x=0);\n", i, i%4)
	}
	mu.WriteString("this is not a formula\n")
	bigMu := write("big.mu", mu.String())

	var cases []cliCase
	for _, cmd := range []string{"check", "fmt", "graph", "seq"} {
		cases = append(cases,
			cliCase{name: cmd + " missing", args: []string{cmd, missing}, code: exitInput, stderr: []string{missing + ": open: no such file or directory\n"}},
			cliCase{name: cmd + " directory", args: []string{cmd, dir}, code: exitInput, stderr: []string{dir + ": is a directory\n"}},
			cliCase{name: cmd + " empty", args: []string{cmd, empty}, code: exitInput, stderr: []string{empty + ":1:1: no procedure main\n"}},
			cliCase{name: cmd + " binary", args: []string{cmd, binary}, code: exitInput, stderr: []string{binary + ":1:"}},
			cliCase{name: cmd + " semantic", args: []string{cmd, sem}, code: exitInput, stderr: []string{sem + ":1:19: undeclared variable x\n"}},
			cliCase{name: cmd + " syntax", args: []string{cmd, syn}, code: exitInput, stderr: []string{syn + ":1:12: "}},
		)
	}
	for _, cmd := range []string{"mucke", "pds"} {
		cases = append(cases,
			// The path once, not "none.bp: open none.bp: ...".
			cliCase{name: cmd + " missing", args: []string{cmd, missing}, code: exitInput, stderr: []string{missing + ": open: no such file or directory\n"}},
			cliCase{name: cmd + " directory", args: []string{cmd, dir}, code: exitInput, stderr: []string{dir + ": is a directory\n"}},
			cliCase{name: cmd + " binary", args: []string{cmd, binary}, code: exitInput, stderr: []string{binary + ":1:"}},
		)
	}
	cases = append(cases,
		cliCase{name: "spec missing", args: []string{"check", "--spec", missing, fig1}, code: exitInput, stderr: []string{missing + ": open: no such file or directory\n"}},
		// An empty label or file is not "no flag": it was silently
		// ignored (SLIC_ERROR checked, the trace printed).
		cliCase{name: "empty label", args: []string{"check", "-l", "", fig1}, code: exitUsage, stderr: []string{"flag -l is given an empty value"}},
		cliCase{name: "empty target", args: []string{"graph", "--target", "", fig1}, code: exitUsage, stderr: []string{"flag --target is given an empty value"}},
		cliCase{name: "empty trace file", args: []string{"check", "--trace-file", "", fig1}, code: exitUsage, stderr: []string{"flag --trace-file is given an empty value"}},
		cliCase{name: "empty spec", args: []string{"check", "--spec", "", fig1}, code: exitUsage, stderr: []string{"flag --spec is given an empty value"}},
		// 0 rounds allow no step: explicit answered SUCCESSFUL, conc-fix
		// FAILED (init fails) and conc-eager UNKNOWN.
		cliCase{name: "0 rounds", args: []string{"check", "--engine", "explicit", "--bound", "rounds:0", initFails}, code: exitUsage, stderr: []string{`invalid value "rounds:0"`}},
		cliCase{name: "0 rounds, emit", args: []string{"mucke", "--emit", "conc", "--bound", "rounds:0", initFails}, code: exitUsage, stderr: []string{`invalid value "rounds:0"`}},
		cliCase{name: "1 round", args: []string{"check", "-q", "--trace", "none", "--engine", "explicit", "--bound", "rounds:1", initFails}, code: exitFailed, last: "VERIFICATION FAILED"},
		cliCase{name: "0 switches", args: []string{"check", "-q", "--trace", "none", "--engine", "explicit", "--bound", "cs:0", initFails}, code: exitFailed, last: "VERIFICATION FAILED"},
		cliCase{name: "gen negative procs", args: []string{"gen", "random", "--procs", "-3"}, code: exitUsage, stderr: []string{"--procs and --stmts must not be negative"}},
		cliCase{name: "gen negative stmts", args: []string{"gen", "random", "--stmts", "-1"}, code: exitUsage, stderr: []string{"--procs and --stmts must not be negative"}},
		cliCase{name: "gen huge globals", args: []string{"gen", "random", "--globals", "100000000"}, code: exitUsage, stderr: []string{"--globals 100000000: at most 4096"}},
		cliCase{name: "gen huge depth", args: []string{"gen", "random", "--depth", "17"}, code: exitUsage, stderr: []string{"--depth 17: at most 16"}},
		cliCase{name: "gen at the caps", args: []string{"gen", "random", "--globals", "4096", "--locals", "1024", "--procs", "2", "--stmts", "3", "--depth", "16"}, code: exitOK, stdout: []string{"void main()"}},
		cliCase{name: "gen no globals", args: []string{"gen", "random", "--globals", "-1"}, code: exitOK, stdout: []string{"void main()"}, notStdout: []string{"\ndecl "}},
		// --all was silently ignored by every engine but summary and cpa.
		cliCase{name: "--all, explicit", args: []string{"check", "--all", "--engine", "explicit", fig1}, code: exitUsage, stderr: []string{"--all: the explicit engine stops at the first error"}},
		cliCase{name: "--all, summary", args: []string{"check", "--all", "-q", "--trace", "none", "-l", "R", fig1}, code: exitFailed, last: "VERIFICATION FAILED"},
		cliCase{name: "version with an argument", args: []string{"version", "extra"}, code: exitUsage, stderr: []string{`unexpected argument "extra"`}},
		cliCase{name: "help of an unknown command", args: []string{"help", "nope"}, code: exitUsage, stderr: []string{`unknown command "nope"`}},
		cliCase{name: "help of a command", args: []string{"help", "check"}, code: exitOK, stdout: []string{"usage: boolprog check [flags] FILE..."}},
		// The time is up before the parse reaches the error at the end:
		// --timeout covers parsing and checking the formula too.
		cliCase{name: "mucke timeout while parsing", args: []string{"mucke", "--timeout", "1ns", bigMu}, code: exitUnknown, last: "UNKNOWN: timeout (1ns)"},
		cliCase{name: "mucke syntax error", args: []string{"mucke", bigMu}, code: exitInput, stderr: []string{bigMu + ":3002:"}},
	)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runContext(context.Background(), tc.args, &streams{stdin: strings.NewReader(tc.stdin), stdout: &stdout, stderr: &stderr})
			checkOutput(t, tc, code, stdout.String(), stderr.String())
			if s := stdout.String() + stderr.String(); strings.Contains(s, "panic") || strings.Contains(s, "goroutine ") {
				t.Errorf("a panic:\n%s", s)
			}
		})
	}
}
