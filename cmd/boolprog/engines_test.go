package main

import (
	"flag"
	"io"
	"strings"
	"testing"

	"boolprog"
	"boolprog/engine"
)

// TestEngineFlags checks that an engine's own flags reach it, that a flag
// of another engine is a usage error rather than silently ignored, and that
// values the engine cannot honour are refused.
func TestEngineFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		engine  string
		parse   string // substring of the parse error, or ""
		build   string // substring of the build error, or ""
		success bool
	}{
		{nil, "explicit", "", "", true},
		{nil, "summary", "", "", true},
		{nil, "bebop", "", "", true},
		{[]string{"-max-vars", "30", "-max-states", "1000"}, "explicit", "", "", true},
		{[]string{"-max-vars", "64"}, "explicit", "", "", true},
		{[]string{"-max-vars", "65"}, "explicit", "", "max-vars 65: the explicit engine enumerates between 1 and 64 variables", false},
		{[]string{"-max-vars", "-1"}, "explicit", "", "max-vars -1", false},
		{[]string{"-max-states", "-5"}, "explicit", "", "max-states -5", false},
		{[]string{"-max-vars", "x"}, "explicit", "invalid value", "", false},
		{[]string{"-max-vars", "30"}, "summary", "", "flag --max-vars is an option of the explicit engine, not of summary", false},
		{nil, "magic", "", `unknown engine "magic"`, false},
	} {
		fs := flag.NewFlagSet("check", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		ef := engine.DefineCommandFlags(fs)
		err := fs.Parse(c.args)
		if c.parse != "" {
			if err == nil || !strings.Contains(err.Error(), c.parse) {
				t.Errorf("%v: parse error %v, want %q", c.args, err, c.parse)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		err = ef.Owned(c.engine)
		if err == nil {
			_, err = boolprog.Options{Engine: c.engine, EngineFlags: ef.Values}.Validate()
		}
		switch {
		case c.success && err != nil:
			t.Errorf("%v %s: %v", c.args, c.engine, err)
		case !c.success && (err == nil || !strings.Contains(err.Error(), c.build)):
			t.Errorf("%v %s: error %v, want %q", c.args, c.engine, err, c.build)
		}
	}
}

func TestEngineList(t *testing.T) {
	list := engineList()
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) < 2 || !strings.HasPrefix(strings.TrimSpace(lines[0]), defaultEngine) || !strings.HasSuffix(lines[0], "(default)") {
		t.Errorf("the default engine is not listed first:\n%s", list)
	}
	for _, name := range []string{"summary, bebop", "explicit"} {
		if !strings.Contains(list, name) {
			t.Errorf("%q not listed:\n%s", name, list)
		}
	}
}
