package boolprog_test

import (
	"errors"
	"testing"
	"time"

	"boolprog"
)

// TestValidateWords: Options.Validate refuses the combinations the command
// refuses, by the Options field for the API and, with CommandLine, in the
// command's words (cmd/boolprog prints these messages as they are).
func TestValidateWords(t *testing.T) {
	const spec = "examples/locking.spec"
	for _, tc := range []struct {
		name   string
		opts   boolprog.Options
		option string
		api    string
		cmd    string
	}{
		{"negative timeout", boolprog.Options{Timeout: -time.Second}, "Timeout",
			"negative time limit -1s", "limits must not be negative"},
		{"negative node limit", boolprog.Options{MaxNodes: -1}, "MaxNodes",
			"negative node limit -1", "limits must not be negative"},
		{"node limit without BDDs", boolprog.Options{Engine: "explicit", MaxNodes: 5}, "MaxNodes",
			"the explicit engine uses no BDDs: a node limit would have no effect",
			"--max-nodes bounds BDD nodes, which the explicit engine does not use"},
		{"all states, first error", boolprog.Options{Engine: "explicit", AllReachable: true}, "AllReachable",
			"the explicit engine stops at the first error: it would have no effect",
			"--all: the explicit engine stops at the first error (summary and cpa compute every reachable state)"},
		{"witness format alone", boolprog.Options{WitnessFormat: "pdf"}, "WitnessFormat",
			"a witness format without a witness file (Witness)", "--witness-format needs --witness FILE"},
		{"unknown witness format", boolprog.Options{Witness: "w", WitnessFormat: "pdf"}, "WitnessFormat",
			`unknown witness format "pdf" (want yaml or graphml)`, `unknown witness format "pdf" (want yaml or graphml)`},
		{"witness of an observer", boolprog.Options{Witness: "w", Spec: spec}, "Witness",
			"a witness describes the program's own errors, not an observer automaton's",
			"--witness speaks of the program's own errors, not of an observer automaton (--spec)"},
		{"witness of a configured observer", boolprog.Options{Witness: "w", Engine: "cpa", EngineFlags: map[string]string{"cpa-config": "examples/locking.cfg"}}, "Witness",
			"a witness describes the program's own errors, not an observer automaton's",
			"--witness describes the program's own errors, not an observer automaton's (--spec or the configuration's observer.spec)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, cmd := range []bool{false, true} {
				opts := tc.opts
				opts.CommandLine = cmd
				want := tc.api
				if cmd {
					want = tc.cmd
				}
				_, err := opts.Validate()
				var oe *boolprog.OptionError
				if !errors.As(err, &oe) || oe.Option != tc.option || oe.Msg != want {
					t.Errorf("CommandLine %v: %v; want an *OptionError on %s: %q", cmd, err, tc.option, want)
				}
			}
		})
	}
	for _, ok := range []boolprog.Options{
		{Engine: "summary", MaxNodes: 5, AllReachable: true},
		{Witness: "w.graphml"},
		{Spec: spec},
	} {
		if _, err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v; want no error", ok, err)
		}
	}
}
