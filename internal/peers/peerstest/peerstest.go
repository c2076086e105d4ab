// Package peerstest is the differential test against Mucke that the
// packages writing mu-calculus models share: each model goes to both
// Mucke (package peers) and boolprog's solver (package fix), which must
// agree. It is for tests only (it reports through testing.TB), and lives
// apart from peers so that the commands that use peers do not import
// testing.
package peerstest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"boolprog/fix"
	"boolprog/internal/peers"
)

// A Model is a mu-calculus model in Mucke's syntax, named for messages.
type Model struct {
	Name string
	Text []byte
}

// Timeout bounds each of Mucke's runs.
const Timeout = 2 * time.Minute

// CompareMucke has Mucke (../shared/peers/bin/mucke beside the repository
// that holds the test's directory; the test is skipped where it is
// missing) evaluate each model: it must read the model without complaint
// and give the value fix.Solve gives. Both values must occur among the
// models, so that a comparison cannot pass by answering one value always.
func CompareMucke(t testing.TB, models []Model) {
	t.Helper()
	bin := peers.Find(".", "mucke")
	if bin == "" {
		t.Skip("no ../shared/peers/bin/mucke beside the repository")
	}
	dir := t.TempDir()
	seen := map[bool]int{}
	for i, m := range models {
		f, err := fix.ParseFile(m.Name, m.Text)
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		ours, err := fix.Solve(context.Background(), f, fix.Options{})
		if err != nil {
			t.Fatalf("%s: %v", m.Name, err)
		}
		file := filepath.Join(dir, fmt.Sprintf("model%d.mu", i))
		if err := os.WriteFile(file, m.Text, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), Timeout)
		theirs, err := peers.Mucke(ctx, bin, file, 0)
		cancel()
		if err != nil {
			t.Errorf("%s: Mucke: %v", m.Name, err)
			continue
		}
		if theirs.Complaint != "" {
			t.Errorf("%s: Mucke complains: %s", m.Name, theirs.Complaint)
		}
		if theirs.Value != ours.Value {
			t.Errorf("%s: Mucke %v, ours %v", m.Name, theirs.Value, ours.Value)
		}
		seen[ours.Value]++
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("values seen: %v; want both", seen)
	}
}
