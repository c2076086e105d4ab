package engine_test

import (
	"flag"
	"io"
	"strings"
	"testing"

	"boolprog/engine"
	_ "boolprog/engine/explicit" // registers the explicit engine
	_ "boolprog/engine/summary"  // registers the summary engine
)

// TestCommandFlags: an engine's flag is defined once on the command's
// flag set with its engines in its usage, a value is checked as it is
// given, and a flag of another engine than the chosen one is refused.
func TestCommandFlags(t *testing.T) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cf := engine.DefineCommandFlags(fs)
	f := fs.Lookup("max-vars")
	if f == nil || !strings.HasPrefix(f.Usage, "[explicit] ") {
		t.Fatalf("--max-vars: %+v", f)
	}
	if err := fs.Parse([]string{"--max-vars", "x"}); err == nil {
		t.Error("--max-vars x accepted")
	}
	if err := fs.Parse([]string{"--max-vars", "30"}); err != nil {
		t.Fatal(err)
	}
	if cf.Values["max-vars"] != "30" {
		t.Errorf("Values = %v", cf.Values)
	}
	if err := cf.Owned("explicit"); err != nil {
		t.Errorf("explicit: %v", err)
	}
	if err := cf.Owned("bebop"); err == nil || !strings.Contains(err.Error(), "flag --max-vars is an option of the explicit engine, not of summary") {
		t.Errorf("summary (as bebop): %v", err)
	}
	if err := cf.Owned("magic"); err != nil {
		t.Errorf("an unknown engine is not Owned's error: %v", err)
	}
}

// TestListText: the default engine first, marked, every engine listed.
func TestListText(t *testing.T) {
	lines := strings.Split(strings.TrimSpace(engine.ListText("summary")), "\n")
	if len(lines) != len(engine.Engines()) || !strings.HasPrefix(strings.TrimSpace(lines[0]), "summary") || !strings.HasSuffix(lines[0], "(default)") {
		t.Errorf("list:\n%s", strings.Join(lines, "\n"))
	}
}
