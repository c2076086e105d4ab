package cpa_test

import (
	"strings"
	"testing"

	"boolprog/engine"
	cpaengine "boolprog/engine/cpa"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestDataFlowPrecision checks the chapter's point on a program modelled
// on its examples: the data-flow configuration (merge-join) reaches the
// error along a path that no execution follows and answers Unknown (a
// false alarm, replayed and refuted), while model checking (merge-sep)
// proves the program, as does CEGAR after refining.
func TestDataFlowPrecision(t *testing.T) {
	p := testsuite.LowerFile(t, "testdata/dataflow_alarm.bp", "")
	tests := []struct {
		config string
		want   result.Verdict
		reason string
	}{
		{"data-flow", result.Unknown, "possible false alarm"},
		{"model-checking", result.Safe, ""},
		{"cegar", result.Safe, ""},
		{"bdd", result.Safe, ""},
		{"callstack", result.Safe, ""},
	}
	for _, tc := range tests {
		t.Run(tc.config, func(t *testing.T) {
			res := testsuite.Check(t, cpaengine.NewNamed(tc.config), p, engine.Query{})
			if res.Verdict != tc.want || !strings.Contains(res.Reason, tc.reason) {
				t.Errorf("%s (%s), want %s (%q)", res.Verdict, res.Reason, tc.want, tc.reason)
			}
			t.Logf("%s: %s %s; stats %v", tc.config, res.Verdict, res.Reason, res.Stats.Counters)
		})
	}
}
