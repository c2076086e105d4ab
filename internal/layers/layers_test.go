package layers

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestCheck: each rule on a made-up graph, and the imports the rules allow.
func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		pkg  Package
		want []Rule
	}{
		{"engine to engine", Package{ImportPath: "boolprog/engine/concfix", Imports: []string{"boolprog/engine/fixpoint"}}, []Rule{EngineToEngine}},
		{"engine to its own subpackage", Package{ImportPath: "boolprog/engine/cpa", Imports: []string{"boolprog/engine/cpa/x"}}, nil},
		{"engine to libraries", Package{ImportPath: "boolprog/engine/summary", Imports: []string{"boolprog/engine", "boolprog/symbolic", "fmt"}}, nil},
		{"library to engine", Package{ImportPath: "boolprog/witness", Imports: []string{"boolprog/engine/summary"}}, []Rule{LibraryToEngine}},
		{"library to the engine interface", Package{ImportPath: "boolprog/witness", Imports: []string{"boolprog/engine"}}, nil},
		{"library to the list of engines", Package{ImportPath: "boolprog/batch", Imports: []string{"boolprog/internal/engines"}}, []Rule{EngineList}},
		{"the list of engines", Package{ImportPath: "boolprog/internal/engines", Imports: []string{"boolprog/engine/summary", "boolprog/engine/explicit"}}, nil},
		{"the pipeline", Package{ImportPath: "boolprog", Imports: []string{"boolprog/engine/summary", "boolprog/internal/engines"}}, nil},
		{"cmd to engine", Package{ImportPath: "boolprog/cmd/boolprog", Imports: []string{"boolprog/engine/summary"}}, []Rule{CmdToEngine}},
		{"cmd to the pipeline", Package{ImportPath: "boolprog/cmd/boolprog", Imports: []string{"boolprog", "boolprog/internal/engines", "boolprog/engine"}}, nil},
		{"to cmd", Package{ImportPath: "boolprog/playground", Imports: []string{"boolprog/cmd/boolprog"}}, []Rule{ToCmd}},
		{"a test to cmd", Package{ImportPath: "boolprog/batch", TestImports: []string{"boolprog/cmd/boolprog"}}, []Rule{ToCmd}},
		{"engine test to engine", Package{ImportPath: "boolprog/engine/fixpoint", TestImports: []string{"boolprog/engine/explicit"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []Rule
			for _, v := range Check([]Package{tt.pkg}) {
				got = append(got, v.Rule)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Check = %v, want %v", got, tt.want)
			}
		})
	}
}

// modulePackages lists the module's packages with `go list -json`.
func modulePackages(t *testing.T) []Package {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command, to list the packages: %v", err)
	}
	cmd := exec.Command(goTool, "list", "-json", Module+"/...")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []Package
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath                         string
			Imports, TestImports, XTestImports []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, Package{ImportPath: p.ImportPath, Imports: p.Imports, TestImports: append(p.TestImports, p.XTestImports...)})
	}
	if len(pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	return pkgs
}

// TestModule checks the module's own import graph.
func TestModule(t *testing.T) {
	for _, v := range Check(modulePackages(t)) {
		t.Error(v)
	}
}
