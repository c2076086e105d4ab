package main

import "testing"

// TestTraceNoneEveryFormat checks that --trace none holds in every format:
// the JSON report wrote the whole trace anyway.
func TestTraceNoneEveryFormat(t *testing.T) {
	runCases(t, []cliCase{
		{name: "text", args: []string{"check", "--trace", "none", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{fig1 + ":12:8: error: label R reached\n"}, notStdout: []string{"Line "}, last: "VERIFICATION FAILED"},
		{name: "json", args: []string{"check", "--format", "json", "--trace", "none", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{`"verdict": "unsafe"`, `"trace_omitted": true`}, notStdout: []string{`"trace": [`, `"values":`}},
		{name: "json, full", args: []string{"check", "--format", "json", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{`"verdict": "unsafe"`, `"trace": [`}, notStdout: []string{`"trace_omitted"`}},
		{name: "html", args: []string{"check", "--format", "html", "--trace", "none", "-l", "R", fig1}, code: exitFailed,
			stdout: []string{"The trace was left out (--trace none)."}, notStdout: []string{`id="next"`}},
		// The JSON report has every step in full or none: --trace changes
		// would be ignored.
		{name: "json, changes", args: []string{"check", "--format", "json", "--trace", "changes", "-l", "R", fig1}, code: exitUsage,
			stdout: []string{`"message": "--trace changes is for the text trace`}},
		{name: "html, changes", args: []string{"check", "--format", "html", "--trace", "changes", "-l", "R", fig1}, code: exitUsage,
			stderr: []string{"--trace changes is for the text trace"}},
	})
}

// TestHTMLObserver checks that the HTML page of an observer's violation
// names the property (it said "assertion lock() fails") and, as the text
// output's checked line, the specification checked.
func TestHTMLObserver(t *testing.T) {
	const spec, prog = "../../examples/locking.spec", "../../examples/locking.bp"
	runCases(t, []cliCase{
		{name: "text", args: []string{"check", "--trace", "none", "--spec", spec, prog}, code: exitFailed,
			stdout: []string{"error: property locking violated: lock acquired twice without an unlock (observer locking in state locked, at lock(); " + spec + ":6)",
				"; property locking of " + spec}},
		{name: "html", args: []string{"check", "--format", "html", "--spec", spec, prog}, code: exitFailed,
			stdout: []string{"property locking violated: lock acquired twice without an unlock (observer locking in state locked, at lock(); " + spec + ":6) at line 36, column 5 (main)",
				"checked: no assertions (label SLIC_ERROR occurs nowhere); property locking of " + spec},
			notStdout: []string{"assertion lock() fails"}},
	})
}
