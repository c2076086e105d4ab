package testsuite

import (
	"testing"

	"boolprog/result"
)

func TestTraceBounds(t *testing.T) {
	tr := func(threads ...int) *result.Trace {
		var ss []result.Step
		for i, th := range threads {
			ss = append(ss, result.Step{Thread: th, Switch: i > 0 && threads[i-1] != th})
		}
		return &result.Trace{Steps: ss}
	}
	for _, c := range []struct {
		tr               *result.Trace
		switches, rounds int
	}{
		{tr(), 0, 0},
		{tr(0, 0, 0), 0, 1},
		{tr(0, 1, 2), 2, 1},
		{tr(0, 2, 1), 2, 2},
		{tr(1, 0, 1, 0), 3, 3},
		{tr(0, 1, 0, 1, 2), 4, 2},
	} {
		if s, r := c.tr.Switches(), TraceRounds(c.tr); s != c.switches || r != c.rounds {
			t.Errorf("%v: %d switches, %d rounds; want %d, %d", c.tr.Steps, s, r, c.switches, c.rounds)
		}
		cs := result.Bound{Kind: result.ContextSwitches, K: c.switches}
		if TraceFits(c.tr, cs) != nil || c.switches > 0 && TraceFits(c.tr, result.Bound{Kind: result.ContextSwitches, K: c.switches - 1}) == nil {
			t.Errorf("%v: TraceFits disagrees with %d switches", c.tr.Steps, c.switches)
		}
	}
}
