// Package testdesc reads the test.desc files of the SATABS/Boppo
// regression suite (CBMC's test format), for the test harness, batch runs
// and the playground's examples:
//
//	CORE                      the level
//	main.bp                   the program, relative to the directory
//	-l MY_LABEL --por         the options
//	^EXIT=10$                 the expected lines, as regular expressions
//	^VERIFICATION FAILED$
//
// Of the options only -l LABEL (or --target LABEL), the error label, changes
// the question; --por, --tvs and --compact-trace do not change verdicts.
// Lines may end in \r\n.
package testdesc

import (
	"fmt"
	"os"
	"strings"
)

// Verdict is the verdict a test expects.
type Verdict int

// The expected verdicts.
const (
	None       Verdict = iota // no ^VERIFICATION ...$ line
	Successful                // ^VERIFICATION SUCCESSFUL$
	Failed                    // ^VERIFICATION FAILED$
)

// Desc is one test.desc.
type Desc struct {
	Level   string
	File    string   // the program, relative to the test's directory
	Options []string // the options' fields
	Target  string   // the error label of -l or --target (the last one given), or ""
	Expect  Verdict  // the last verdict line
	Lines   []string // the expected lines
}

// Parse reads the text of a test.desc; path is for messages. A text of
// fewer than three lines is an error.
func Parse(path string, text []byte) (*Desc, error) {
	lines := strings.Split(string(text), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1] // the end of the last line
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	if len(lines) < 3 {
		return nil, fmt.Errorf("%s: too short for a test.desc", path)
	}
	d := &Desc{Level: strings.TrimSpace(lines[0]), File: strings.TrimSpace(lines[1]), Options: strings.Fields(lines[2]), Lines: lines[3:]}
	for i, o := range d.Options {
		if (o == "-l" || o == "--target") && i+1 < len(d.Options) {
			d.Target = d.Options[i+1]
		}
	}
	for _, l := range d.Lines {
		switch l {
		case "^VERIFICATION SUCCESSFUL$":
			d.Expect = Successful
		case "^VERIFICATION FAILED$":
			d.Expect = Failed
		}
	}
	return d, nil
}

// Read reads the test.desc at path.
func Read(path string) (*Desc, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}
