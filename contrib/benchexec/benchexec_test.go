// Package benchexec holds the BenchExec tool-info module of boolprog
// (boolprog.py) and its test; it has no Go code of its own.
package benchexec

import (
	"encoding/json"
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boolprog"
	"boolprog/gen"
)

// TestToolInfo runs boolprog.py, as BenchExec would, against the stand-in
// of BenchExec's API in testdata/standin (BenchExec itself cannot be
// installed here), on real outputs of the boolprog binary.
func TestToolInfo(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: python3 is not installed, so the BenchExec tool-info module contrib/benchexec/boolprog.py is NOT tested")
	}
	if testing.Short() {
		t.Skip("builds the command and runs it on several programs")
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "boolprog"), "boolprog/cmd/boolprog").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	fig1, err := filepath.Abs("../../examples/bebop-fig1.bp")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"safe.bp": "decl g;\nvoid main() begin g := F; assert(!g); end\n",
		"bad.bp":  "void main() begin\n  if (\nend\n",
		// Unsafe only with 2 context switches: SUCCESSFUL up to 1.
		"conc.bp":   "decl g;\nvoid t() begin g := T; end\nvoid main() begin g := F; start_thread t(); skip; assert(!g); end\n",
		"hard.bp":   gen.Random(3, gen.Options{Globals: 60, MaxLocals: 8, Procs: 4, Stmts: 12}),
		"label.prp": "CHECK( init(main()), LTL(G ! label(R)) )\n",
		"slic.prp":  "CHECK( init(main()), LTL(G ! label(SLIC_ERROR)) )\n",
		"call.prp":  "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
		"free.prp":  "CHECK( init(main()), LTL(G valid-free) )\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	in := func(name string) string { return filepath.Join(dir, name) }
	type tcase struct {
		Name           string         `json:"name"`
		File           string         `json:"file"`
		Options        []string       `json:"options,omitempty"`
		PropertyFile   string         `json:"property_file,omitempty"`
		TaskOptions    map[string]any `json:"task_options,omitempty"`
		TerminateAfter float64        `json:"terminate_after,omitempty"`
		want           string
		wantArgs       []string // must occur in the command line, in order
	}
	cases := []tcase{
		{Name: "failed, label in options", File: fig1, Options: []string{"-l", "R"}, want: "false(unreach-label)"},
		{Name: "failed, label from the property file", File: fig1, PropertyFile: in("label.prp"), want: "false(unreach-label)", wantArgs: []string{"--target", "R", "--", fig1}},
		{Name: "failed, label from the task's options", File: fig1, TaskOptions: map[string]any{"target": "R"}, want: "false(unreach-label)", wantArgs: []string{"--target", "R"}},
		{Name: "successful", File: in("safe.bp"), want: "true", wantArgs: []string{"check", "--trace", "none", "--stats"}},
		// Named with --target, SLIC_ERROR would have to occur (exit 2).
		{Name: "the default label is not named", File: in("safe.bp"), PropertyFile: in("slic.prp"), want: "true"},
		{Name: "bounded successful is no proof", File: in("conc.bp"), Options: []string{"--bound", "cs:1"}, want: "unknown"},
		{Name: "bounded failed is a real error", File: in("conc.bp"), Options: []string{"--bound", "cs:2"}, want: "false(unreach-label)"},
		{Name: "engine and flags from the task's options", File: fig1, TaskOptions: map[string]any{"target": "R", "engine": "explicit", "flags": []string{"--max-vars", "1"}},
			want: "unknown", wantArgs: []string{"--engine", "explicit", "--max-vars", "1", "--target", "R"}},
		{Name: "engine's limit", File: fig1, Options: []string{"-l", "R", "--engine", "explicit", "--max-vars", "1"}, want: "unknown"},
		{Name: "input error", File: in("bad.bp"), want: "ERROR (input)"},
		{Name: "missing file", File: in("none.bp"), want: "ERROR (input)"},
		{Name: "usage error", File: fig1, Options: []string{"--no-such-flag"}, want: "ERROR (usage)"},
		{Name: "own time limit", File: in("hard.bp"), Options: []string{"--timeout", "1s"}, want: "TIMEOUT"},
		{Name: "stopped by BenchExec's time limit", File: in("hard.bp"), TerminateAfter: 1, want: "TIMEOUT"},
		{Name: "unreach-call is not boolprog's property", File: fig1, PropertyFile: in("call.prp"), want: "UNSUPPORTED"},
		{Name: "memory safety is not boolprog's property", File: fig1, PropertyFile: in("free.prp"), want: "UNSUPPORTED"},
		{Name: "an unreadable property file", File: fig1, PropertyFile: in("none.prp"), want: "UNSUPPORTED"},
	}
	req, err := json.Marshal(map[string]any{"bindir": dir, "cases": cases})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(python, "testdata/drive.py")
	cmd.Stdin = strings.NewReader(string(req))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 testdata/drive.py: %v\n%s", err, stderr.String())
	}
	var got struct {
		Name       string  `json:"name"`
		Version    string  `json:"version"`
		ProjectURL *string `json:"project_url"`
		Results    []struct {
			Name    string   `json:"name"`
			Cmdline []string `json:"cmdline"`
			Result  string   `json:"result"`
			Engine  *string  `json:"engine"`
			States  *string  `json:"states"`
			Last    string   `json:"last"`
		} `json:"results"`
	}
	if err := json.Unmarshal(stdout, &got); err != nil {
		t.Fatalf("%v:\n%s", err, stdout)
	}
	// BenchExec warns about a version that does not start with a digit.
	if got.Name != "boolprog" || !strings.HasPrefix(got.Version, boolprog.Release+" (") || !strings.Contains(got.Version, "go1.") {
		t.Errorf("name %q, version %q", got.Name, got.Version)
	}
	// No public address exists: none rather than a placeholder.
	if got.ProjectURL != nil {
		t.Errorf("project_url %q", *got.ProjectURL)
	}
	if len(got.Results) != len(cases) {
		t.Fatalf("%d results for %d cases", len(got.Results), len(cases))
	}
	for i, c := range cases {
		r := got.Results[i]
		if r.Result != c.want {
			t.Errorf("%s: result %q, want %q (last line %q, command %q)", c.Name, r.Result, c.want, r.Last, r.Cmdline)
		}
		if c.wantArgs != nil && !containsInOrder(r.Cmdline, c.wantArgs) {
			t.Errorf("%s: command %q lacks %q", c.Name, r.Cmdline, c.wantArgs)
		}
	}
	if r := got.Results[0]; r.Engine == nil || *r.Engine != "summary" || r.States == nil || *r.States == "" {
		t.Errorf("values from --stats: engine %v, states %v", r.Engine, r.States)
	}
}

// containsInOrder reports whether want occurs in args as a subsequence.
func containsInOrder(args, want []string) bool {
	i := 0
	for _, a := range args {
		if i < len(want) && a == want[i] {
			i++
		}
	}
	return i == len(want)
}

// TestBenchmarkDefinition checks that the example benchmark definition is
// well-formed XML whose task patterns find the shared benchmarks.
func TestBenchmarkDefinition(t *testing.T) {
	data, err := os.ReadFile("boolprog-shared.xml")
	if err != nil {
		t.Fatal(err)
	}
	var def struct {
		Tool  string `xml:"tool,attr"`
		Tasks []struct {
			Name     string   `xml:"name,attr"`
			Includes []string `xml:"include"`
		} `xml:"tasks"`
		Runs []struct {
			Name string `xml:"name,attr"`
		} `xml:"rundefinition"`
	}
	if err := xml.Unmarshal(data, &def); err != nil {
		t.Fatal(err)
	}
	if def.Tool != "boolprog" || len(def.Runs) == 0 || len(def.Tasks) == 0 {
		t.Fatalf("definition: %+v", def)
	}
	if _, err := os.Stat("../../../shared/benchmarks"); err != nil {
		t.Skip("../shared/benchmarks is not beside the repository")
	}
	for _, ts := range def.Tasks {
		for _, pattern := range ts.Includes {
			if m, err := filepath.Glob(pattern); err != nil || len(m) == 0 {
				t.Errorf("tasks %s: %s matches nothing (%v)", ts.Name, pattern, err)
			}
		}
	}
}
