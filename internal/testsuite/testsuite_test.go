package testsuite

import "testing"

func TestSatabsBoppo(t *testing.T) {
	cases := SatabsBoppoOrSkip(t)
	byName := make(map[string]Case)
	for _, c := range cases {
		byName[c.Name] = c
	}
	// A few cases with known contents, including the one that names its
	// own target label.
	for _, want := range []Case{
		{Name: "Deep1", Failed: true},
		{Name: "Enforce1", Failed: false},
		{Name: "Reachability1", Target: "MY_ERROR_LABEL", Failed: true},
	} {
		got, ok := byName[want.Name]
		if !ok || got.Target != want.Target || got.Failed != want.Failed {
			t.Errorf("%s: got %+v, want target %q failed %v", want.Name, got, want.Target, want.Failed)
		}
	}
	if len(cases) != 37 {
		t.Errorf("%d cases, want the suite's 37", len(cases))
	}
}
