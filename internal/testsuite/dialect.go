package testsuite

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/engine"
	"boolprog/result"
	"boolprog/syntax"
)

// DialectDir holds one program per dialect construct that real public files
// use and that boolprog accepts since issue 9 (numeric labels, initial values
// on declarations, a repeated label, a variable assigned twice in one
// parallel assignment), relative to the module root. Each file names its
// verdict in its first line: `// verdict: safe` or `// verdict: unsafe`.
const DialectDir = "internal/testsuite/testdata/dialect"

// dialect runs the engine on every program of DialectDir, and again on the
// program as `boolprog fmt` prints it: both must get the file's verdict, and
// printing must be idempotent.
func dialect(t *testing.T, c Config) {
	files, err := filepath.Glob(filepath.Join(c.Root, DialectDir, "*.bp"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no programs in %s", filepath.Join(c.Root, DialectDir))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			first, _, _ := strings.Cut(string(src), "\n")
			want, ok := result.ParseVerdict(strings.TrimSpace(strings.TrimPrefix(first, "// verdict:")))
			if !ok || want == result.Unknown {
				t.Fatalf("first line %q does not name the verdict (// verdict: safe|unsafe)", first)
			}
			printed, err := syntax.Format(path, src, syntax.CProver)
			if err != nil {
				t.Fatal(err)
			}
			again, err := syntax.Format(path, printed, syntax.CProver)
			if err != nil {
				t.Fatalf("the printed program does not parse: %v\n%s", err, printed)
			}
			if !bytes.Equal(printed, again) {
				t.Errorf("printing is not idempotent:\n%s\n---\n%s", printed, again)
			}
			for _, text := range []string{string(src), string(printed)} {
				p := Lower(t, path, text, "")
				if got := Check(t, c.New(), p, engine.Query{}).Verdict; got != want {
					t.Errorf("%s, want %s", got, want)
				}
			}
		})
	}
}
