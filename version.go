package boolprog

import (
	"fmt"
	"runtime/debug"
)

// Release is boolprog's semantic version, the first word of Version:
// what tools that compare versions (BenchExec's tool-info module) read.
const Release = "0.9.0"

// Version describes the build, as `boolprog version` prints it after the
// name and witnesses record it as the producer's version: the semantic
// version (Release) first, then in parentheses the module version (or
// "(devel)"), the VCS revision and time when the binary was built from a
// checkout, and the Go version: "0.9.0 ((devel) (commit 022362e1a2b3
// 2026-11-28T00:30:00Z) go1.26.8)".
func Version() string { return Release + " (" + buildInfo() + ")" }

// buildInfo describes the build from the binary's build information.
func buildInfo() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, when, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	line := v
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		line += fmt.Sprintf(" (commit %s %s%s)", rev, when, modified)
	}
	return line + " " + bi.GoVersion
}
