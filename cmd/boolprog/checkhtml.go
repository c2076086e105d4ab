package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"

	"boolprog/htmlreport"
	"boolprog/internal/labels"
	"boolprog/internal/product"
	"boolprog/result"
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

// writeHTML writes the page of one file: to standard output, or to the
// file of -o (or --trace-file), saying so on standard output with the
// verdict line.
func (r *checkRun) writeHTML(o *outcome) error {
	cf := r.cf
	res := o.res
	pg := &htmlreport.Page{
		File:         o.path,
		Source:       o.src,
		Program:      o.prog,
		Result:       res,
		Replayed:     !cf.noReplay && res.Verdict == result.Unsafe && !res.TraceCut && o.note == "",
		TraceOmitted: cf.trace == "none",
		Note:         o.note,
		Total:        o.total,
	}
	if o.prog != nil {
		pg.Checked = labels.Checked(o.prog) + product.CheckedText(o.spec) // as the text output's line
	}
	if !cf.quiet {
		if o.dialectNote != "" {
			pg.Warnings = append(pg.Warnings, result.Message{File: o.path, Message: strings.TrimPrefix(o.dialectNote, o.path+": ")})
		}
		pg.Warnings = append(pg.Warnings, messages(o.warns)...)
	}
	if p := o.prog; p != nil && p.Concurrent && res.Verdict == result.Unknown && p.ConcurrentWhy != "" {
		pg.Warnings = append(pg.Warnings, result.Message{File: o.path, Line: p.ConcurrentPos.Line, Col: p.ConcurrentPos.Col,
			Message: "note: the program is concurrent: " + p.ConcurrentWhy})
	}
	out := cf.html.out
	if out == "" {
		out = cf.traceFile
	}
	if out == "" {
		w := bufio.NewWriter(r.s.stdout)
		if err := htmlreport.Write(w, pg); err != nil {
			return err
		}
		return w.Flush()
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	err = htmlreport.Write(w, pg)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(r.s.stdout, "report: %s\n", out)
	_, err = fmt.Fprintln(r.s.stdout, res.Banner())
	return err
}
