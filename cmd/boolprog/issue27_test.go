package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

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
