package main

import (
	"flag"
	"fmt"
)

// htmlFlags are check's flags for --format html.
type htmlFlags struct {
	out string // -o: the page's file ("": standard output)
}

func (h *htmlFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&h.out, "o", "", "with --format html: write the page to this file instead of standard output (--trace-file does the same)")
}

// htmlUsage returns the usage error of flags that do not go with the
// format, or "". The HTML page is one document: it takes one FILE; it
// shows every step with every value, so the text trace's flags would have
// no effect; and -o is the page's file, so it needs --format html.
func htmlUsage(cf *checkFlags, set map[string]bool, files int) string {
	if cf.format != "html" {
		if set["o"] {
			return "-o writes the HTML page of --format html; the text trace goes to a file with --trace-file"
		}
		return ""
	}
	for _, f := range []string{"trace-style", "trace-numbers", "trace-choices", "trace-indent"} {
		if set[f] {
			return fmt.Sprintf("--%s is for the text trace; the HTML page shows every step in full", f)
		}
	}
	if cf.trace == "changes" {
		return "--trace changes is for the text trace; the HTML page shows every value and marks the changed ones"
	}
	if set["o"] && set["trace-file"] && cf.html.out != cf.traceFile {
		return "-o and --trace-file both name the HTML page's file: give one"
	}
	if cf.projection.on {
		return "--error-projection is printed as text, not in the HTML page"
	}
	if files > 1 {
		return fmt.Sprintf("--format html writes one page for one FILE, not %d: run check once per file", files)
	}
	return ""
}
