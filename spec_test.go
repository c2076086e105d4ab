package boolprog_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog"
)

// TestSpec checks Options.Spec as the command's --spec: a violation of the
// observer automaton with any engine, its proof on a program that keeps
// the rule, the JSON report the command writes, and the errors.
func TestSpec(t *testing.T) {
	const spec = "examples/locking.spec"
	lockingText, err := os.ReadFile(spec)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.spec")
	if err := os.WriteFile(bad, []byte("property p\ninitial nowhere\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		file    string
		opts    boolprog.Options
		verdict boolprog.Verdict
		err     string // substring of the error, or ""
	}{
		{"violated (summary)", "examples/locking.bp", boolprog.Options{Spec: spec}, boolprog.Unsafe, ""},
		{"violated (explicit)", "examples/locking.bp", boolprog.Options{Spec: spec, Engine: "explicit"}, boolprog.Unsafe, ""},
		{"violated (cpa, from its configuration)", "examples/locking.bp", boolprog.Options{Engine: "cpa", EngineFlags: map[string]string{"cpa-config": "examples/locking.cfg"}}, boolprog.Unsafe, ""},
		{"kept", "examples/locking-ok.bp", boolprog.Options{Spec: spec}, boolprog.Safe, ""},
		{"malformed spec", "examples/locking.bp", boolprog.Options{Spec: bad}, 0, bad + ":"},
		{"missing spec", "examples/locking.bp", boolprog.Options{Spec: filepath.Join(dir, "none.spec")}, 0, "none.spec"},
		{"violated (text)", "examples/locking.bp", boolprog.Options{SpecText: string(lockingText)}, boolprog.Unsafe, ""},
		{"malformed text", "examples/locking.bp", boolprog.Options{SpecText: "property p\ninitial nowhere\n"}, 0, boolprog.DefaultSpecName + ":"},
		{"text and a configuration", "examples/locking.bp", boolprog.Options{SpecText: string(lockingText), Engine: "cpa", EngineFlags: map[string]string{"cpa-config": "examples/locking.cfg"}}, 0, "names a specification too"},
		{"two specs", "examples/locking.bp", boolprog.Options{Spec: bad, Engine: "cpa", EngineFlags: map[string]string{"cpa-config": "examples/locking.cfg"}}, 0, "name different specifications"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := boolprog.CheckFile(context.Background(), tc.file, tc.opts)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tc.verdict || res.Observer == nil || res.Observer.Property != "locking" {
				t.Fatalf("%s, observer %+v; want %s of property locking", res.Banner(), res.Observer, tc.verdict)
			}
			if tc.verdict == boolprog.Unsafe {
				if res.Property == nil || res.Property.Observer == nil || !res.Replayed {
					t.Errorf("property %+v, replayed %v: want the observer's violation, replayed", res.Property, res.Replayed)
				}
				if !strings.Contains(res.String(), "error: property locking violated") {
					t.Errorf("text without the violation:\n%s", res)
				}
			}
		})
	}

	var in *boolprog.InputError
	if _, err := boolprog.CheckFile(context.Background(), "examples/locking.bp", boolprog.Options{Spec: bad}); !errors.As(err, &in) {
		t.Errorf("malformed spec: %T %v, want an *InputError", err, err)
	}
	res, err := boolprog.CheckFile(context.Background(), "examples/locking.bp", boolprog.Options{Spec: spec, Threads: []string{"main", "main"}})
	if err != nil || res.Verdict != boolprog.Unknown || !strings.Contains(res.Reason, "Options.Spec "+spec) {
		t.Errorf("concurrent program: %v %v, want Unknown naming Options.Spec", res, err)
	}
}

// TestSpecJSON checks that the report with an observer is the command's
// (statistics aside): boolprog check --format json --spec
// examples/locking.spec examples/locking.bp > testdata/locking-spec.json.
func TestSpecJSON(t *testing.T) {
	res, err := boolprog.CheckFile(context.Background(), "examples/locking.bp", boolprog.Options{Spec: "examples/locking.spec"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/locking-spec.json")
	if err != nil {
		t.Fatal(err)
	}
	if g, w := withoutStats(t, buf.Bytes()), withoutStats(t, want); g != w {
		t.Errorf("report differs from the command's:\n--- got\n%s\n--- want\n%s", g, w)
	}
}
