package main

import (
	"path/filepath"
	"testing"
)

func TestPDS(t *testing.T) {
	dir := "../../wpds/pdsfile/testdata"
	calls := filepath.Join(dir, "calls.pds")
	runCases(t, []cliCase{
		{name: "post*", args: []string{"pds", calls}, code: exitOK,
			stdout: []string{"post* automaton:", "final:", "  p --m0--> "}, last: "weight: 6"},
		{name: "pre*", args: []string{"pds", "--pre", calls}, code: exitOK, stdout: []string{"pre* automaton:"}, last: "weight: 6"},
		{name: "fwpds", args: []string{"pds", "--fwpds", calls}, code: exitOK, last: "weight: 6"},
		{name: "witness", args: []string{"pds", "--witness", calls}, code: exitOK,
			stdout: []string{"weight: 6", "witness for <p, m2 ...>: no witness", "witness for <p,>: 7 rules from <p, m0> to <p,>, value 7", "  line 4: <p, m0> -> <p, f0 m1>"}},
		{name: "json", args: []string{"pds", "--format", "json", filepath.Join(dir, "calls.json")}, code: exitOK,
			stdout: []string{`"direction": "post*"`, `"weight": "6"`, `"transitions": [`}},
		{name: "bitvector", args: []string{"pds", filepath.Join(dir, "uninit.pds")}, code: exitOK, last: "weight: gen(x)"},
		{name: "standard input", args: []string{"pds", "-"}, stdin: "states p\n<p, a> -> <p, b>\nfrom <p, a>\nto <p, b>\n", code: exitOK, last: "weight: true"},
		{name: "unreachable", args: []string{"pds", "-"}, stdin: "states p\n<p, a> -> <p, b>\nfrom <p, b>\nto <p, a>\n", code: exitOK, last: "weight: false"},
		{name: "syntax error", args: []string{"pds", "-"}, stdin: "states p\n<p, a> -> <q>\n", code: exitInput, stderr: []string{"<stdin>:2:12: undeclared control state q\n"}},
		{name: "missing from", args: []string{"pds", "-"}, stdin: "states p\n", code: exitInput, stderr: []string{":1:1: post* needs a 'from' line"}},
		{name: "no file", args: []string{"pds"}, code: exitUsage, stderr: []string{"want exactly one FILE"}},
		{name: "bad format", args: []string{"pds", "--format", "xml", calls}, code: exitUsage, stderr: []string{"--format must be text or json"}},
		{name: "fwpds and witness", args: []string{"pds", "--fwpds", "--witness", "--pre", calls}, code: exitOK,
			stdout: []string{"witness for <p, m0>: 6 rules from <p, m0> to <p, m2>, value 6"}},
		{name: "missing file", args: []string{"pds", filepath.Join(dir, "nope.pds")}, code: exitInput, stderr: []string{"nope.pds"}},
		{name: "help", args: []string{"pds", "-h"}, code: exitOK, stdout: []string{"usage: boolprog pds"}},
	})
}
