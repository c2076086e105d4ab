package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"boolprog/cpa/observer"
	"boolprog/internal/testsuite"
	"boolprog/interp"
	"boolprog/result"
)

const (
	lockingBP   = "../../examples/locking.bp"
	lockingOK   = "../../examples/locking-ok.bp"
	lockingSpec = "../../examples/locking.spec"
	lockingCfg  = "../../examples/locking.cfg"
)

// lockingProduct is examples/locking.bp instrumented with locking.spec:
// the program whose traces check --spec prints.
func lockingProduct(t *testing.T) *observer.Instrumented {
	t.Helper()
	spec, err := observer.Load(lockingSpec)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := observer.Instrument(spec, testsuite.LowerFile(t, lockingBP, ""))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestCheckSpec checks the locking rule on the examples with engines of
// both kinds: the cpa engine with its default configuration (on the
// product), with examples/locking.cfg (the observer as a component of its
// composite, no --spec needed) and with cegar, and the summary and
// explicit engines. The violation is FAILED at the second lock() with a
// JSON trace that replays on the product; the text trace marks the
// instrumentation's steps with the automaton's state, hides its bits, and
// replays too; locking-ok.bp is SUCCESSFUL, and says which property it
// proved.
func TestCheckSpec(t *testing.T) {
	inst := lockingProduct(t)
	tests := []struct {
		name string
		args []string
	}{
		{"cpa", []string{"--engine", "cpa", "--spec", lockingSpec}},
		{"cpa observer config", []string{"--engine", "cpa", "--cpa-config", lockingCfg}},
		{"cpa observer config and the same spec", []string{"--engine", "cpa", "--cpa-config", lockingCfg, "--spec", lockingSpec}},
		{"cpa cegar", []string{"--engine", "cpa", "--cpa-config", "cegar", "--spec", lockingSpec}},
		{"summary", []string{"--engine", "summary", "--spec", lockingSpec}},
		{"explicit", []string{"--engine", "explicit", "--spec", lockingSpec}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append(append([]string{"check", "-q", "--format", "json"}, tc.args...), lockingBP)
			if code := run(args, &stdout, &stderr); code != exitFailed {
				t.Fatalf("exit %d, want %d\n%s%s", code, exitFailed, stdout.String(), stderr.String())
			}
			rep, err := result.ReadReport(&stdout)
			if err != nil {
				t.Fatal(err)
			}
			pr := rep.Property
			if pr == nil || pr.Kind != result.PropertyObserver || pr.Line != 36 || pr.Proc != "main" || pr.Text != "lock()" ||
				pr.Observer == nil || pr.Observer.State != "locked" || pr.Observer.SpecLine != 6 || pr.Observer.Property != "locking" {
				t.Errorf("property %+v (observer %+v)", pr, pr.Observer)
			}
			if rep.Spec == nil || rep.Spec.Property != "locking" || !slices.Equal(rep.Spec.States, []string{"unlocked", "locked"}) {
				t.Errorf("spec %+v", rep.Spec)
			}
			if err := interp.Replay(inst.Prog, rep.Trace); err != nil {
				t.Errorf("the JSON trace does not replay on the product: %v", err)
			}
			if _, ok := rep.Trace.Steps[0].Lookup("locking_q0"); !ok {
				t.Errorf("the JSON trace does not show the automaton's state")
			}

			stdout.Reset()
			args = append(append([]string{"check", "-q"}, tc.args...), lockingBP)
			if code := run(args, &stdout, &stderr); code != exitFailed {
				t.Fatalf("text: exit %d", code)
			}
			out := stdout.String()
			for _, want := range []string{
				"lock: [observer locking] on call lock  State irq=0  (locking: unlocked -> locked)\n",
				"examples/locking.bp:36:5: error: property locking violated: lock acquired twice without an unlock (observer locking in state locked, at lock(); ../../examples/locking.spec:6)\n",
				"property locking of ../../examples/locking.spec (observer automaton, states unlocked, locked)\n",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("text output lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "locking_q0") {
				t.Errorf("the text trace shows the automaton's bits:\n%s", out)
			}

			stdout.Reset()
			args = append(append([]string{"check", "-q"}, tc.args...), lockingOK)
			if code := run(args, &stdout, &stderr); code != exitOK || !strings.Contains(stdout.String(), "property locking of") {
				t.Errorf("locking-ok.bp: exit %d\n%s%s", code, stdout.String(), stderr.String())
			}
		})
	}
}

// TestSpecTraceTampered checks that the judge is not fooled: the trace of
// the violation replays on the product, with or without the automaton's
// bits shown, but not after a value, the automaton's state or its steps
// are changed, nor as a trace of the original program.
func TestSpecTraceTampered(t *testing.T) {
	inst := lockingProduct(t)
	var stdout, stderr bytes.Buffer
	if code := run([]string{"check", "-q", "--format", "json", "--spec", lockingSpec, lockingBP}, &stdout, &stderr); code != exitFailed {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
	rep, err := result.ReadReport(&stdout)
	if err != nil {
		t.Fatal(err)
	}
	tr := rep.Trace
	if err := interp.Replay(inst.Prog, tr); err != nil {
		t.Fatalf("the trace does not replay: %v", err)
	}
	if err := interp.Replay(inst.Prog, inst.Explain(tr, false)); err != nil {
		t.Errorf("the trace without the automaton's bits does not replay: %v", err)
	}
	clone := func() *result.Trace {
		c := &result.Trace{Steps: slices.Clone(tr.Steps)}
		for i := range c.Steps {
			c.Steps[i].Values = slices.Clone(c.Steps[i].Values)
		}
		return c
	}
	flip := func(name string) func(*result.Trace) {
		return func(c *result.Trace) {
			// The last step that shows the variable.
			for i := len(c.Steps) - 1; i >= 0; i-- {
				for j := range c.Steps[i].Values {
					if c.Steps[i].Values[j].Name == name {
						c.Steps[i].Values[j].Value = !c.Steps[i].Values[j].Value
						return
					}
				}
			}
			t.Fatalf("no step shows %s", name)
		}
	}
	isObserver := func(s result.Step) bool { return strings.HasPrefix(s.Text, "[observer ") }
	tests := []struct {
		name   string
		tamper func(*result.Trace)
	}{
		{"a program variable flipped", flip("again")},
		{"the automaton's state flipped", flip("locking_q0")},
		{"the first update left out", func(c *result.Trace) {
			i := slices.IndexFunc(c.Steps[1:], isObserver) + 1
			c.Steps = slices.Delete(c.Steps, i, i+1)
		}},
		{"the first unlock-free path made to unlock", func(c *result.Trace) {
			// Claim fast was true at the branch: the lock would be
			// released, and the second lock would not fail.
			for i := range c.Steps {
				for j := range c.Steps[i].Values {
					if c.Steps[i].Values[j].Name == "fast" {
						c.Steps[i].Values[j].Value = true
					}
				}
			}
		}},
	}
	for _, tc := range tests {
		c := clone()
		tc.tamper(c)
		if err := interp.Replay(inst.Prog, c); err == nil {
			t.Errorf("%s: the tampered trace replays", tc.name)
		}
	}
	// Without the instrumentation's steps the trace is one of the
	// original program, which it does not replay: it ends at no error.
	orig := &result.Trace{Steps: slices.DeleteFunc(slices.Clone(inst.Explain(tr, false).Steps), isObserver)}
	if err := interp.Replay(inst.Orig, orig); err == nil || !strings.Contains(err.Error(), "not the error") {
		t.Errorf("the original program's steps replay as an error trace: %v", err)
	}
}

// TestSpecErrors pins the bad inputs of --spec: a malformed specification
// or one naming what the program lacks is an input error at its
// file:line:col (exit 2, in the JSON report too), a configuration naming
// another specification is a usage error, and a concurrent program is
// UNKNOWN with the reason.
func TestSpecErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return path
	}
	badState := write("state.spec", "states a b\non call lock: a -> c\n")
	badProc := write("proc.spec", "states a\non call acquire: a -> error\n")
	tests := []struct {
		name      string
		args      []string
		code      int
		stderrHas string
		stdoutHas string
	}{
		{"unknown state", []string{"--spec", badState, lockingBP}, exitInput, badState + ":2:20: unknown state \"c\" (states: a, b, error)", ""},
		{"unknown state, json", []string{"--format", "json", "--spec", badState, lockingBP}, exitInput, "", "\"line\": 2,\n      \"col\": 20,"},
		{"unknown procedure", []string{"--spec", badProc, lockingBP}, exitInput, badProc + ":2:9: no procedure \"acquire\" in ../../examples/locking.bp", ""},
		{"missing file", []string{"--spec", filepath.Join(dir, "none.spec"), lockingBP}, exitInput, "none.spec", ""},
		{"another spec than the configuration's", []string{"--engine", "cpa", "--cpa-config", lockingCfg, "--spec", badProc, lockingBP}, exitUsage, "name different specifications", ""},
		{"error projection", []string{"--spec", lockingSpec, "--error-projection", lockingBP}, exitUsage, "--error-projection", ""},
		{"witness", []string{"--spec", lockingSpec, "--witness", filepath.Join(dir, "w.yaml"), lockingBP}, exitUsage, "observer automaton (--spec)", ""},
		{"witness, observer configuration", []string{"--engine", "cpa", "--cpa-config", lockingCfg, "--witness", filepath.Join(dir, "w.yaml"), lockingBP}, exitUsage, "not an observer automaton", ""},
		{"threads", []string{"--engine", "explicit", "--spec", lockingSpec, "testdata/threads.bp"}, exitUnknown, "", "VERIFICATION UNKNOWN: --spec ../../examples/locking.spec: observer automata watch sequential programs"},
	}
	for _, tc := range tests {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"check", "-q"}, tc.args...), &stdout, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.stderrHas) || !strings.Contains(stdout.String(), tc.stdoutHas) {
			t.Errorf("%s: exit %d (want %d)\nstdout: %s\nstderr: %s", tc.name, code, tc.code, stdout.String(), stderr.String())
		}
	}
}
