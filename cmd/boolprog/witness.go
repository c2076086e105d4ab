package main

import (
	"flag"
	"fmt"

	"boolprog/witness"
)

// witnessFlags are check's --witness and --witness-format; the pipeline
// (boolprog.Options.Witness) writes the witness.
type witnessFlags struct {
	file   string
	format string
}

func (wf *witnessFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&wf.file, "witness", "", "write a witness to this file: a violation witness for a failed check, a correctness witness for a successful one (see 'boolprog validate')")
	fs.StringVar(&wf.format, "witness-format", "", "the witness's format (boolprog's witness format boolprog-1): yaml, or graphml (violation witnesses only); default: from the file's extension (.graphml, .xml: graphml), else yaml")
}

// check validates the witness flags against the others; "" if they are
// fine, else the usage error.
func (wf *witnessFlags) check(set map[string]bool, files int) string {
	if set["witness-format"] && wf.file == "" {
		return "--witness-format needs --witness FILE"
	}
	if wf.format != "" {
		if _, ok := witness.ParseFormat(wf.format); !ok {
			return fmt.Sprintf("unknown witness format %q (want yaml or graphml)", wf.format)
		}
	}
	if wf.file != "" && set["spec"] {
		// The error would be the observer's, which no witness location
		// can name, and the invariants would be the plain program's.
		return "--witness speaks of the program's own errors, not of an observer automaton (--spec)"
	}
	if wf.file != "" && files > 1 {
		return fmt.Sprintf("--witness takes the witness of one FILE, not %d", files)
	}
	return ""
}
