package boolprog

import (
	"fmt"
	"runtime/debug"
)

// Version describes the build, as `boolprog version` prints it after the
// name and witnesses record it as the producer's version: the module
// version (or "(devel)"), the VCS revision and time when the binary was
// built from a checkout, and the Go version.
func Version() string {
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
