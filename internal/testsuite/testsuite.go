// Package testsuite reads the golden verdicts of the shared regression
// suites, so that every engine's tests judge it against the same table.
package testsuite

import (
	"fmt"
	"os"
	"path/filepath"

	"boolprog/internal/testdesc"
)

// SatabsBoppoDir is the SATABS/Boppo suite relative to a package directory
// of this module (../shared sits beside the repository).
const SatabsBoppoDir = "shared/benchmarks/satabs-boppo"

// Case is one test of the suite, as its test.desc describes it.
type Case struct {
	Name   string // the test's folder name, e.g. "Deep1"
	File   string // path of the program
	Target string // error label given with -l/--target, or ""
	Failed bool   // VERIFICATION FAILED is expected (else SUCCESSFUL)
}

// SatabsBoppo returns the cases of the suite found by walking up from the
// current directory to the folder that holds shared/, or nil if there is
// none (tests then skip).
func SatabsBoppo() ([]Case, error) {
	root, ok := findShared()
	if !ok {
		return nil, nil
	}
	descs, err := filepath.Glob(filepath.Join(root, SatabsBoppoDir, "*", "test.desc"))
	if err != nil {
		return nil, err
	}
	var cases []Case
	for _, path := range descs {
		c, err := readDesc(path)
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
	return cases, nil
}

// findShared looks for the directory that contains shared/benchmarks,
// starting at the working directory and going up.
func findShared() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if info, err := os.Stat(filepath.Join(dir, SatabsBoppoDir)); err == nil && info.IsDir() {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// readDesc reads a test.desc (package testdesc), which must expect a
// verdict.
func readDesc(path string) (Case, error) {
	d, err := testdesc.Read(path)
	if err != nil {
		return Case{}, err
	}
	if d.Expect == testdesc.None {
		return Case{}, fmt.Errorf("%s: no expected verdict", path)
	}
	dir := filepath.Dir(path)
	return Case{Name: filepath.Base(dir), File: filepath.Join(dir, d.File), Target: d.Target, Failed: d.Expect == testdesc.Failed}, nil
}
