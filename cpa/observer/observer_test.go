package observer_test

import (
	"strings"
	"testing"

	"boolprog/cpa/observer"
	"boolprog/internal/testsuite"
)

const lockSpec = `
# the locking rule
property locking
states unlocked locked
on call lock: unlocked -> locked
on call lock: locked -> error "twice"
on call unlock when held: locked -> unlocked
`

func TestParse(t *testing.T) {
	s, err := observer.Parse("l.spec", lockSpec)
	if err != nil {
		t.Fatal(err)
	}
	if s.Property != "locking" || len(s.States) != 2 || s.Initial != 0 || len(s.Trans) != 3 {
		t.Fatalf("%+v", s)
	}
	if tr := s.Trans[1]; tr.To != observer.Error || tr.Msg != "twice" || tr.Line != 6 {
		t.Errorf("%+v", tr)
	}
	if tr := s.Trans[2]; tr.Guard != "held" || tr.GuardNeg {
		t.Errorf("%+v", tr)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"states a b\non call f: a -> c\n", "s.spec:2:17: unknown state \"c\" (states: a, b, error)"},
		{"states a b\non call f: x -> b\n", "s.spec:2:12: unknown state \"x\" (states: a, b)"},
		{"states a\n  oops a\n", "s.spec:2:3: unknown declaration \"oops\" (valid: property, states, initial, on)"},
		{"on call f: a -> b\n", "s.spec:1:1: no `states` declaration"},
		{"states a b\ninitial c\n", "s.spec:2:9: unknown state \"c\""},
		{"states a error\n", "s.spec:1:10: state \"error\" declared twice or reserved"},
		{"states a\non call f: a -> a \"msg\"\n", "only a transition to error has a message"},
		// An empty procedure name panicked (index out of range).
		{"property p\nstates a b\non call : a -> b\n", "s.spec:3:9: want a procedure's name before `:`"},
		{"states a b\non call: a -> b\n", "s.spec:2:1: want `on call PROC [when G]: FROM -> TO`"},
		{"states a b\non call f when !: a -> b\n", "s.spec:2:16: want a global's name after `when !`"},
	}
	for _, tc := range tests {
		_, err := observer.Parse("s.spec", tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// TestInstrument checks the instrumented program: new globals, new
// entries with the update and failure edges, every old id kept; and the
// names the specification uses are resolved against the program.
func TestInstrument(t *testing.T) {
	src := "decl held;\nvoid lock() begin skip; end\nvoid unlock() begin skip; end\nvoid main() begin lock(); unlock(); end\n"
	p := testsuite.Lower(t, "l.bp", src, "")
	s, err := observer.Parse("l.spec", lockSpec)
	if err != nil {
		t.Fatal(err)
	}
	in, err := observer.Instrument(s, p)
	if err != nil {
		t.Fatal(err)
	}
	ip := in.Prog
	if len(ip.Globals) != 2 || ip.Globals[1] != "locking_q0" {
		t.Errorf("globals %v", ip.Globals)
	}
	lock := ip.Proc("lock")
	if lock.Entry != len(p.Proc("lock").Locations) || len(lock.Locations) != len(p.Proc("lock").Locations)+2 {
		t.Errorf("lock: entry %d, %d locations", lock.Entry, len(lock.Locations))
	}
	if n := len(lock.ErrorLocations()); n != 1 {
		t.Errorf("lock has %d error locations", n)
	}
	if len(p.Globals) != 1 || p.Proc("lock").Entry != 0 {
		t.Errorf("the original program changed")
	}
	if _, err := observer.New(s, testsuite.Lower(t, "m.bp", "void main() begin skip; end\n", "")); err == nil || !strings.Contains(err.Error(), "l.spec:5:9: no procedure \"lock\"") {
		t.Errorf("unresolved procedure: %v", err)
	}
}

// TestNameErrors checks the positions of names the program lacks.
func TestNameErrors(t *testing.T) {
	p := testsuite.Lower(t, "l.bp", "decl held;\nvoid lock() begin skip; end\nvoid main() begin lock(); end\n", "")
	tests := []struct{ text, want string }{
		{"states a\non call  c: a -> error\n", "s.spec:2:10: no procedure \"c\" in l.bp"},
		{"states a\non call main: a -> error\n", "s.spec:2:9: the entry of main is not an event"},
		{"states a\non call lock when !irq: a -> error\n", "s.spec:2:19: no global \"irq\" in l.bp"},
	}
	for _, tc := range tests {
		s, err := observer.Parse("s.spec", tc.text)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := observer.New(s, p); err == nil || err.Error() != tc.want {
			t.Errorf("%q: %v, want %s", tc.text, err, tc.want)
		}
	}
}
