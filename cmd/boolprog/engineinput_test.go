package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEngineInputFiles: a malformed file named by an engine's flag (a
// formula, a configuration) is bad input, reported at file:line:col with
// exit 2 like a malformed program; a flag value naming nothing is a usage
// error (exit 1).
func TestEngineInputFiles(t *testing.T) {
	dir := t.TempDir()
	badMu := filepath.Join(dir, "bad.mu")
	badCfg := filepath.Join(dir, "bad.cfg")
	if err := os.WriteFile(badMu, []byte("bool R(;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(badCfg, []byte("analyses = nosuch\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runCases(t, []cliCase{
		{name: "formula", args: []string{"check", "--engine", "ef", "--formula", badMu, fig1}, code: exitInput, stderr: []string{badMu + ":1:8: "}},
		{name: "cpa config", args: []string{"check", "--engine", "cpa", "--cpa-config", badCfg, fig1}, code: exitInput, stderr: []string{badCfg + ":1:12: ", "valid analyses"}},
		{name: "missing formula", args: []string{"check", "--engine", "ef", "--formula", filepath.Join(dir, "none.mu"), fig1}, code: exitUsage, stderr: []string{"no such file"}},
		{name: "unknown cpa config", args: []string{"check", "--engine", "cpa", "--cpa-config", "nosuchname", fig1}, code: exitUsage, stderr: []string{"named configurations"}},
	})
}
