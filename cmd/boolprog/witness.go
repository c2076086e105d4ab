package main

import "flag"

// witnessFlags are check's --witness and --witness-format; the pipeline
// (boolprog.Options.Witness) checks them against the others and writes the
// witness.
type witnessFlags struct {
	file   string
	format string
}

func (wf *witnessFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&wf.file, "witness", "", "write a witness to this file: a violation witness for a failed check, a correctness witness for a successful one (see 'boolprog validate')")
	fs.StringVar(&wf.format, "witness-format", "", "the witness's format (boolprog's witness format boolprog-1): yaml, or graphml (violation witnesses only); default: from the file's extension (.graphml, .xml: graphml), else yaml")
}
