package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBenchHardSet runs the quickest programs of the hard set with
// reordering off and auto, and checks the usage errors of the set flags.
func TestBenchHardSet(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := run([]string{"bench", "--set", "hard", "--only", "g32l4-s2", "--reorder", "off,sift,auto", "--cpu", "--order", "affinity"}, &stdout, &stderr)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"g32l4-s2", "reorder off: 1 of 1 decided", "reorder sift: 1 of 1", "reorder auto: 1 of 1", "peak BDD nodes"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// An engine without --reorder runs each program once.
	stdout.Reset()
	stderr.Reset()
	if code := run([]string{"bench", "--set", "hard", "--only", "g32l4-s2", "--engine", "ef"}, &stdout, &stderr); code != exitOK {
		t.Fatalf("ef: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if out := stdout.String(); !strings.Contains(out, "reorder -: 1 of 1 decided") {
		t.Errorf("ef: output lacks one run in mode -:\n%s", out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--reorder", "off"}, "--reorder is for --set hard"},
		{[]string{"bench", "--order", "force"}, "--order is for --set hard"},
		{[]string{"bench", "--cpu"}, "--cpu is for --set hard"},
		{[]string{"bench", "--set", "hard", "--order", "random"}, "want affinity, force or declaration"},
		{[]string{"bench", "--set", "hard", "--sizes", "10"}, "--sizes is for --set template"},
		{[]string{"bench", "--set", "hard", "--reorder", "fast"}, "want off, sift or auto"},
		{[]string{"bench", "--set", "other"}, "unknown set"},
		{[]string{"bench", "--set", "hard", "--engine", "explicit", "--reorder", "off"}, "no --reorder flag"},
	} {
		stdout.Reset()
		stderr.Reset()
		if code := run(tc.args, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want usage error with %q", tc.args, code, stderr.String(), tc.want)
		}
	}
}

// TestCheckReorderFlag: check takes --reorder for the summary engine, and
// refuses it for an engine without BDDs.
func TestCheckReorderFlag(t *testing.T) {
	fig1 := "../../examples/bebop-fig1.bp"
	for _, mode := range []string{"off", "sift", "auto"} {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"check", "-q", "--reorder", mode, "-l", "R", fig1}, &stdout, &stderr); code != exitFailed {
			t.Errorf("--reorder %s: exit %d\n%s%s", mode, code, stdout.String(), stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "--engine", "explicit", "--reorder", "off", fig1}, &stdout, &stderr); code != exitUsage || !strings.Contains(stderr.String(), "--reorder") {
		t.Errorf("explicit with --reorder: exit %d, %q", code, stderr.String())
	}
	stderr.Reset()
	if code := run([]string{"check", "--reorder", "maybe", fig1}, &stdout, &stderr); code != exitUsage {
		t.Errorf("--reorder maybe: exit %d, %q", code, stderr.String())
	}
}
