package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReplace: the contents change, the permissions stay, no temporary
// file is left, and a missing file is an error rather than created.
func TestReplace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.bp")
	if err := os.WriteFile(path, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Replace(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "new" {
		t.Fatalf("contents %q, %v; want new", data, err)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, %v; want 0640", info.Mode(), err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory; want 1", len(entries))
	}
	if err := Replace(filepath.Join(dir, "missing.bp"), []byte("x")); err == nil {
		t.Error("replacing a missing file: no error")
	}
	if _, err := os.Stat(filepath.Join(dir, "missing.bp")); err == nil {
		t.Error("replacing a missing file created it")
	}
}
