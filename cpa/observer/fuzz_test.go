package observer_test

import (
	"os"
	"testing"

	"boolprog/cpa/observer"
	"boolprog/internal/testsuite"
	"boolprog/ir"
)

// FuzzSpec feeds arbitrary text to the specification parser: it must never
// panic, and a specification it accepts must resolve against a program
// (observer.New, Instrument) and describe itself without panicking, every
// transition naming declared states.
func FuzzSpec(f *testing.F) {
	for _, seed := range []string{
		lockSpec,
		"states a\non call  c: a -> error\n",
		"states a b\ninitial b\non call lock when !held: b -> a\non call unlock: a -> error \"x # y\"\n",
		"property p\nstates a b\non call : a -> b\n",
		"states a\non call f when: a -> a\n",
		"states a b # c\non call lock: a -> b # d\n",
	} {
		f.Add(seed)
	}
	if b, err := os.ReadFile("../../examples/locking.spec"); err == nil {
		f.Add(string(b))
	}
	p := testsuite.Lower(f, "l.bp", "decl held, g;\nvoid lock() begin held := T; end\nvoid unlock() begin held := F; end\nvoid main() begin lock(); if (*) then unlock(); fi lock(); end\n", "")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := observer.Parse("f.spec", text)
		if err != nil {
			return
		}
		if len(s.States) == 0 || s.Initial < 0 || s.Initial >= len(s.States) {
			t.Fatalf("accepted with states %v, initial %d", s.States, s.Initial)
		}
		for _, tr := range s.Trans {
			if tr.Proc == "" || tr.From < 0 || tr.From >= len(s.States) || tr.To < observer.Error || tr.To >= len(s.States) {
				t.Fatalf("accepted transition %+v (states %v)", tr, s.States)
			}
		}
		s.Describe()
		if _, err := observer.New(s, p); err != nil {
			return
		}
		in, err := observer.Instrument(s, p)
		if err != nil {
			return
		}
		if err := ir.Verify(in.Prog); err != nil {
			t.Fatalf("instrumented program: %v", err)
		}
		in.BitNames()
	})
}
