package cpa_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/engine"
	cpaengine "boolprog/engine/cpa"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestParseConfigErrors checks that bad configurations are errors at
// file:line:col that name the valid choices.
func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"unknown option", "merge = sep\n  mrege = join\n", []string{"c.cfg:2:3: unknown option \"mrege\"", "valid options:", "merge", "waitlist"}},
		{"unknown analysis", "analyses = location, summary, explicit\n", []string{"c.cfg:1:31: unknown analysis \"explicit\"", "valid analyses: location, callstack, summary, explicitval, bdd, reachdef, observer"}},
		{"bad merge", "merge = union\n", []string{"c.cfg:1:9: merge: bad value \"union\" (want sep, join or agree)"}},
		{"bad waitlist", "waitlist = random\n", []string{"c.cfg:1:12:", "bfs, dfs, rpo, callstack"}},
		{"no equals", "merge sep\n", []string{"c.cfg:1:1: want `option = value`"}},
		{"both wrappers", "analyses = location, callstack, summary, explicitval\n", []string{"c.cfg:1:33: analyses: callstack and summary both handle calls"}},
		{"no wrapper", "analyses = location, explicitval\n", []string{"calls need callstack or summary"}},
		{"no data", "analyses = location, summary\n", []string{"no data analysis"}},
		{"cegar without explicitval", "analyses = location, summary, bdd\ncegar = on\n", []string{"cegar = on refines the explicitval analysis"}},
		{"depth without callstack", "callstack.depth = 3\n", []string{"callstack.depth needs the callstack analysis"}},
		{"observer without spec", "analyses = location, summary, explicitval, observer\n", []string{"observer analysis and observer.spec go together"}},
		{"negative", "limit.states = -1\n", []string{"c.cfg:1:16: limit.states: bad value"}},
		{"stop-join unsound", "stop = join\n", []string{"stop = join needs merge = join"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := cpaengine.ParseConfig("c.cfg", tc.text)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

// TestNamedConfigs checks that every named configuration parses and that
// an unknown name or file says which names exist.
func TestNamedConfigs(t *testing.T) {
	names := cpaengine.NamedConfigs()
	for _, want := range []string{"model-checking", "data-flow", "cegar", "bdd", "callstack"} {
		c, err := cpaengine.LoadConfig(want)
		if err != nil {
			t.Errorf("%s: %v", want, err)
			continue
		}
		if c.Name != want {
			t.Errorf("%s: name %q", want, c.Name)
		}
	}
	if len(names) != 5 {
		t.Errorf("named configurations %v", names)
	}
	_, err := cpaengine.LoadConfig("no-such-config")
	if err == nil || !strings.Contains(err.Error(), "named configurations: bdd, callstack, cegar, data-flow, model-checking") {
		t.Errorf("error %v", err)
	}
}

const recursive = `
decl g;
void f()
begin
  if (*) then
    g := !g;
    f();
  fi
end
void main()
begin
  g := F;
  f();
  assert(!g | g);
end
`

// TestRefusals checks what the engine refuses before it runs: concurrent
// programs, a call stack without bound on a recursive program, a node
// limit without BDDs; and that a bounded call stack reports its bound
// instead of claiming a proof.
func TestRefusals(t *testing.T) {
	unbounded, err := cpaengine.ParseConfig("cs.cfg", "analyses = location, callstack, explicitval\n")
	if err != nil {
		t.Fatal(err)
	}
	p := testsuite.Lower(t, "rec.bp", recursive, "")
	res := testsuite.Check(t, cpaengine.New(unbounded), p, engine.Query{})
	if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "recursive procedure f (line 3)") || res.Stats.States != 0 {
		t.Errorf("unbounded call stack on recursion: %s (%s), %d states", res.Verdict, res.Reason, res.Stats.States)
	}
	res = testsuite.Check(t, cpaengine.NewNamed("callstack"), p, engine.Query{})
	if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "callstack.depth = 4") || res.Stats.Counters["callstack_depth_bound"] != 4 {
		t.Errorf("bounded call stack: %s (%s) %v", res.Verdict, res.Reason, res.Stats.Counters)
	}
	res = testsuite.Check(t, cpaengine.NewNamed("model-checking"), p, engine.Query{})
	if res.Verdict != result.Safe {
		t.Errorf("summaries on recursion: %s (%s)", res.Verdict, res.Reason)
	}
	res = testsuite.Check(t, cpaengine.NewNamed("model-checking"), p, engine.Query{MaxNodes: 1000})
	if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "--max-nodes does not apply") {
		t.Errorf("node limit without BDDs: %s (%s)", res.Verdict, res.Reason)
	}
	res = testsuite.Check(t, cpaengine.NewNamed("bdd"), p, engine.Query{MaxNodes: 1 << 16})
	if res.Verdict != result.Safe {
		t.Errorf("node limit with BDDs: %s (%s)", res.Verdict, res.Reason)
	}
	conc := testsuite.Lower(t, "conc.bp", "decl g;\nvoid t() begin g := T; end\nvoid main() begin start_thread t(); assert(!g); end\n", "")
	res = testsuite.Check(t, cpaengine.NewNamed("model-checking"), conc, engine.Query{})
	if res.Verdict != result.Unknown || !strings.Contains(res.Reason, "concurrent program") {
		t.Errorf("concurrent: %s (%s)", res.Verdict, res.Reason)
	}
}

// TestOrdersAndOperators runs the model-checking analyses under every
// waitlist order, with explicit values (stop-sep) and with BDDs (merge-sep
// or merge-join, stop-join: exact for sets), on the golden suite's
// sequential programs: the verdict must not depend on them.
func TestOrdersAndOperators(t *testing.T) {
	cases := testsuite.SatabsBoppoOrSkip(t)
	for _, order := range []string{"bfs", "dfs", "rpo", "callstack"} {
		for _, ops := range []string{"explicitval\nstop = sep", "bdd\nmerge = sep\nstop = join", "bdd\nmerge = join\nstop = join"} {
			text := "waitlist = " + order + "\nanalyses = location, summary, " + ops + "\n"
			stop := strings.ReplaceAll(ops, "\n", ",")
			c, err := cpaengine.ParseConfig(order+"-"+stop, text)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range cases {
				p := testsuite.LowerFile(t, d.File, d.Target)
				if p.Concurrent {
					continue
				}
				res := testsuite.Check(t, cpaengine.New(c), p, engine.Query{})
				if want := map[bool]result.Verdict{true: result.Unsafe, false: result.Safe}[d.Failed]; res.Verdict != want {
					t.Errorf("%s/%s %s: %s (%s), want %s", order, stop, d.Name, res.Verdict, res.Reason, want)
				}
			}
		}
	}
}

// TestConfigReadOnce checks that --cpa-config's file and its observer
// specification are read once, when the flag is parsed and at the first
// build: the CLI builds the engine more than once, and a pipe
// (/dev/stdin) reads empty the second time, which replaced the user's
// configuration by the default (a lock taken twice answered SUCCESSFUL).
func TestConfigReadOnce(t *testing.T) {
	dir := t.TempDir()
	spec, err := os.ReadFile("../../examples/locking.spec")
	if err != nil {
		t.Fatal(err)
	}
	specFile := filepath.Join(dir, "locking.spec")
	cfgFile := filepath.Join(dir, "obs.cfg")
	if err := os.WriteFile(specFile, spec, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgFile, []byte("analyses = location, summary, explicitval, observer\nobserver.spec = locking.spec\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	info, ok := engine.Lookup(cpaengine.Name)
	if !ok {
		t.Fatal("cpa not registered")
	}
	fs, build := info.FlagSet()
	if err := fs.Parse([]string{"--cpa-config", cfgFile}); err != nil {
		t.Fatal(err)
	}
	first, err := build()
	if err != nil {
		t.Fatal(err)
	}
	// What a pipe does: the second read finds nothing.
	if err := os.WriteFile(cfgFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(specFile); err != nil {
		t.Fatal(err)
	}
	second, err := build()
	if err != nil {
		t.Fatalf("second build: %v", err)
	}
	for i, e := range []engine.Engine{first, second} {
		c := e.(*cpaengine.Engine)
		if c.ObserverAutomaton() == nil || c.Config().Name != cfgFile {
			t.Errorf("build %d: configuration %q with observer %v, want %s with the locking automaton", i+1, c.Config().Name, c.ObserverAutomaton(), cfgFile)
		}
	}
	p := testsuite.LowerFile(t, "../../examples/locking.bp", "")
	res := testsuite.Check(t, second, p, engine.Query{})
	if !strings.Contains(res.Reason, "property locking violated") {
		t.Errorf("second engine: %s (%s), want the locking violation", res.Verdict, res.Reason)
	}
}

// TestEmptyConfig checks that an empty configuration file (or one with
// only comments) is bad input naming the file, never the default.
func TestEmptyConfig(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# nothing here\n   \n"} {
		f := filepath.Join(t.TempDir(), "empty.cfg")
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := cpaengine.LoadConfig(f)
		var in *engine.InputError
		if !errors.As(err, &in) || !strings.HasPrefix(err.Error(), f+": empty configuration") {
			t.Errorf("%q: config %v, error %v; want an input error %s: empty configuration", text, c, err, f)
		}
	}
}

// TestConfigObserverSpecErrors checks that a configuration's observer
// specification is read with it: a missing or malformed one is bad input
// at the specification's file (and line and column).
func TestConfigObserverSpecErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.spec")
	if err := os.WriteFile(bad, []byte("states a b\non call : a -> b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ spec, want string }{
		{"missing.spec", filepath.Join(dir, "missing.spec") + ": open: "},
		{"bad.spec", bad + ":2:"},
	} {
		f := filepath.Join(dir, "c.cfg")
		if err := os.WriteFile(f, []byte("analyses = location, summary, explicitval, observer\nobserver.spec = "+tc.spec+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := cpaengine.LoadConfig(f)
		var in *engine.InputError
		if !errors.As(err, &in) || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want an input error starting %q", tc.spec, err, tc.want)
		}
	}
}
