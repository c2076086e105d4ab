// Package testsuite reads the golden verdicts of the shared regression
// suites, so that every engine's tests judge it against the same table.
package testsuite

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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

// readDesc reads a test.desc: line 1 the level, line 2 the file, line 3 the
// options (of which only -l/--target changes the question; --por, --tvs
// and --compact-trace do not change verdicts), then the expected lines.
func readDesc(path string) (Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return Case{}, err
	}
	defer f.Close()
	var lines []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		lines = append(lines, sc.Text())
	}
	if len(lines) < 3 {
		return Case{}, fmt.Errorf("%s: too short for a test.desc", path)
	}
	dir := filepath.Dir(path)
	c := Case{Name: filepath.Base(dir), File: filepath.Join(dir, lines[1])}
	fields := strings.Fields(lines[2])
	for i, f := range fields {
		if (f == "-l" || f == "--target") && i+1 < len(fields) {
			c.Target = fields[i+1]
		}
	}
	verdict := false
	for _, l := range lines[3:] {
		switch l {
		case "^VERIFICATION FAILED$":
			c.Failed, verdict = true, true
		case "^VERIFICATION SUCCESSFUL$":
			c.Failed, verdict = false, true
		}
	}
	if !verdict {
		return Case{}, fmt.Errorf("%s: no expected verdict", path)
	}
	return c, nil
}
