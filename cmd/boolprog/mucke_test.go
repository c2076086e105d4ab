package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMucke runs `boolprog mucke` on Getafix's generated models, which must
// give the values Mucke answered (shared/benchmarks/README.md), and on
// malformed input, limits and help.
func TestMucke(t *testing.T) {
	dir := "../../../shared/benchmarks/getafix/mucke"
	if _, err := os.Stat(dir); err != nil {
		msg := "Getafix's Mucke models not found (the repository must sit beside shared/, see README): " + err.Error()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	fib := func(name string) string { return filepath.Join(dir, name) }
	bad := filepath.Join(t.TempDir(), "bad.mu")
	if err := os.WriteFile(bad, []byte("bool R(bool x) ( y );\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{name: "fib_3_safe", args: []string{"mucke", fib("fib_3_safe.mu")}, code: exitOK, last: "false"},
		{name: "fib_3_unsafe", args: []string{"mucke", fib("fib_3_unsafe.mu")}, code: exitOK, last: "true"},
		{name: "fib_4_unsafe", args: []string{"mucke", fib("fib_4_unsafe.mu")}, code: exitOK, last: "false"},
		{name: "fib_5_unsafe", args: []string{"mucke", fib("fib_5_unsafe.mu")}, code: exitOK, last: "false"},
		{name: "stats", args: []string{"mucke", "--stats", fib("fib_3_unsafe.mu")}, code: exitOK,
			stdout: []string{"#size CopyGlobals:", "relation", "iterations"}, last: "true"},
		{name: "node limit", args: []string{"mucke", "--max-nodes", "1000", fib("fib_3_unsafe.mu")}, code: exitUnknown,
			last: "UNKNOWN: BDD node limit reached (1000 nodes)"},
		{name: "standard input", args: []string{"mucke", "-"}, stdin: "enum N {0..3};\nmu bool R(N x) ( x = 0 | exists N y. (R(y) & x = 1) );\nR(1);\n",
			code: exitOK, last: "true"},
		{name: "no query", args: []string{"mucke", "-"}, stdin: "bool R(bool x) ( x );\n", code: exitOK,
			last: "no query: the file defines relations but ends with no unnamed formula"},
		{name: "type error", args: []string{"mucke", bad}, code: exitInput, stderr: []string{bad + ":1:18: undefined: y\n"}},
		{name: "help", args: []string{"mucke", "-h"}, code: exitOK, stdout: []string{"usage: boolprog mucke", "(0: the BDD package's built-in limit)"}},
		{name: "two files", args: []string{"mucke", bad, bad}, code: exitUsage, stderr: []string{"want exactly one FILE"}},
	})
}

// TestMuckeEmit writes models with --emit and evaluates them with
// `boolprog mucke`: true exactly for the unsafe programs, for every
// algorithm; and refuses what cannot be modelled.
func TestMuckeEmit(t *testing.T) {
	dir := t.TempDir()
	unsafe := filepath.Join(dir, "unsafe.bp")
	src := "decl g;\nvoid main() begin g := *; f(g); end\nvoid f(a) begin if (a) then assert(!g); fi end\n"
	if err := os.WriteFile(unsafe, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file string
		want string
	}{{fig1, "false"}, {unsafe, "true"}} {
		for _, alg := range []string{"summary", "ef", "efopt"} {
			var stdout, stderr bytes.Buffer
			code := runContext(context.Background(), []string{"mucke", "--emit", alg, tc.file}, &streams{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr})
			if code != exitOK {
				t.Fatalf("--emit %s %s: exit %d\n%s", alg, tc.file, code, stderr.String())
			}
			model := filepath.Join(dir, alg+".mu")
			if err := os.WriteFile(model, stdout.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			cliCase{name: alg, args: []string{"mucke", model}, code: exitOK, last: tc.want}.run(t)
		}
	}
	runCases(t, []cliCase{
		{name: "unknown algorithm", args: []string{"mucke", "--emit", "nope", fig1}, code: exitUsage, stderr: []string{"no algorithm \"nope\""}},
		{name: "concurrent", args: []string{"mucke", "--emit", "ef", "testdata/getafix.bp"}, code: exitInput, stderr: []string{"--emit models sequential programs"}},
		{name: "limits are for evaluation", args: []string{"mucke", "--emit", "ef", "--timeout", "1s", fig1}, code: exitUsage, stderr: []string{"--emit writes a model"}},
		{name: "target without emit", args: []string{"mucke", "-l", "L", "x.mu"}, code: exitUsage, stderr: []string{"--target applies only with --emit"}},
	})
}

// TestFormulaExample runs the user-written algorithm of examples/formulas
// from the CLI, as its comment says.
func TestFormulaExample(t *testing.T) {
	const formula = "../../examples/formulas/ef-plain.mu"
	unsafe := "decl g;\nvoid main() begin g := *; f(g); end\nvoid f(a) begin if (a) then assert(!g); fi end\n"
	runCases(t, []cliCase{
		{name: "figure 1", args: []string{"check", "-q", "--engine", "ef", "--formula", formula, fig1}, code: exitOK, last: "VERIFICATION SUCCESSFUL"},
		{name: "unsafe", args: []string{"check", "--engine", "efopt", "--formula", formula, "-"}, stdin: unsafe, code: exitFailed,
			stdout: []string{"assert(!g)"}, last: "VERIFICATION FAILED"},
		{name: "bad formula", args: []string{"check", "--engine", "ef", "--formula", "testdata/safe.bp", fig1}, code: exitInput,
			stderr: []string{"testdata/safe.bp:1:"}},
		{name: "formula of another engine", args: []string{"check", "--formula", formula, fig1}, code: exitUsage,
			stderr: []string{"flag --formula is an option of the ef and efopt engine"}},
	})
}
