package concfix_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"boolprog/engine/concfix"
	"boolprog/fix"
	"boolprog/internal/peers"
	"boolprog/result"
)

// TestModelMucke has Mucke (../shared/peers/bin/mucke, skipped where
// missing) evaluate the models boolprog mucke --emit conc writes: it must
// read them and give our solver's value.
func TestModelMucke(t *testing.T) {
	bin := peers.Find(".", "mucke")
	if bin == "" {
		t.Skip("no ../shared/peers/bin/mucke beside the repository")
	}
	dir := t.TempDir()
	seen := map[bool]int{}
	for i, c := range []struct {
		file string
		b    result.Bound
	}{
		{"../../cmd/boolprog/testdata/getafix.bp", cs(0)},
		{"../../cmd/boolprog/testdata/getafix.bp", cs(1)},
		{"../../cmd/boolprog/testdata/getafix.bp", rounds(1)},
		{"../../../shared/benchmarks/getafix/testFunctionCall.bp", cs(1)},
		{"../../../shared/benchmarks/getafix/testGetafix.bp", cs(2)},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			if os.IsNotExist(err) {
				continue
			}
			t.Fatal(err)
		}
		p := lowerGetafix(t, c.file, src)
		var b bytes.Buffer
		if err := concfix.WriteModel(&b, p, c.b); err != nil {
			t.Fatal(err)
		}
		f, err := fix.ParseFile("model.mu", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		ours, err := fix.Solve(context.Background(), f, fix.Options{})
		if err != nil {
			t.Fatal(err)
		}
		model := filepath.Join(dir, filepath.Base(c.file)+string(rune('a'+i))+".mu")
		if err := os.WriteFile(model, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		theirs, err := peers.Mucke(ctx, bin, model, 0)
		cancel()
		if err != nil {
			t.Errorf("%s at %s: Mucke: %v", c.file, c.b, err)
			continue
		}
		if theirs.Complaint != "" {
			t.Errorf("%s at %s: Mucke complains: %s", c.file, c.b, theirs.Complaint)
		}
		if theirs.Value != ours.Value {
			t.Errorf("%s at %s: Mucke %v, ours %v", c.file, c.b, theirs.Value, ours.Value)
		}
		seen[ours.Value]++
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("values seen: %v; want both", seen)
	}
}
