package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"boolprog"
	"boolprog/wpds/pdsfile"
)

const pdsHead = `usage: boolprog pds [flags] FILE

Solves a reachability query on a weighted pushdown system written in the
text format or the JSON form of package wpds/pdsfile (domains bool, minpath
and bitvector; rules <p, a> -> <q, b c> with weights; "from" and "to"
configurations). It runs post* from the "from" set (or, with --pre, pre*
of the "to" set), prints the saturated automaton with the weight of each
transition, and the query's weight: the combine over all rule sequences
from "from" to "to" of their values. --witness prints, for each
configuration of the query written without "...", a rule sequence that
justifies its weight. A malformed file is reported as file:line:col:
message (exit 2); a bad flag exits 1.
`

func runPDS(ctx context.Context, args []string, s *streams) int {
	c := newCommand("pds", pdsHead)
	var lf loadFlags
	lf.register(c.fs)
	var (
		pre, witness, fwpds bool
		format              string
		limit               int
	)
	c.fs.BoolVar(&pre, "pre", false, "run pre* of the 'to' set instead of post* of the 'from' set")
	c.fs.BoolVar(&witness, "witness", false, "print a rule sequence for each configuration of the query")
	c.fs.IntVar(&limit, "witness-limit", 10000, "longest witness printed (rules)")
	c.fs.BoolVar(&fwpds, "fwpds", false, "solve with FWPDS (path expressions, Lal's thesis ch. 4)")
	c.fs.StringVar(&format, "format", "text", "output format: text or json")
	files, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	switch {
	case len(files) != 1:
		return c.usageError(s, "want exactly one FILE, not %d", len(files))
	case format != "text" && format != "json":
		return c.usageError(s, "--format must be text or json, not %q", format)
	case limit <= 0:
		return c.usageError(s, "--witness-limit must be positive")
	}
	src, ok := lf.readFile(ctx, files[0], s)
	if !ok {
		return exitInput
	}
	f, err := pdsfile.Parse(boolprog.DisplayName(files[0]), src)
	if err != nil {
		fmt.Fprintln(s.stderr, err)
		return exitInput
	}
	res, err := pdsfile.Solve(f, pdsfile.Options{Pre: pre, Witness: witness, WitnessLimit: limit, FWPDS: fwpds})
	if err != nil {
		var e *pdsfile.Error
		if errors.As(err, &e) {
			fmt.Fprintln(s.stderr, err)
			return exitInput
		}
		fmt.Fprintf(s.stderr, "boolprog pds: internal error: %v\n", err)
		return exitUsage
	}
	if format == "json" {
		enc := json.NewEncoder(s.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(res); err != nil {
			fmt.Fprintf(s.stderr, "boolprog pds: %v\n", err)
			return exitUsage
		}
		return exitOK
	}
	res.WriteText(s.stdout)
	return exitOK
}
