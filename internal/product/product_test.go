package product

import (
	"context"
	"strings"
	"testing"

	"boolprog/engine"
	_ "boolprog/engine/explicit"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

const lockingSpec = "../../examples/locking.spec"

// TestLoadSpec: a file named by the option, none, and the errors of a
// malformed or missing file, which name the file.
func TestLoadSpec(t *testing.T) {
	info, _ := engine.Lookup("explicit")
	eng, err := info.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		spec       bool
		err        string
	}{
		{"none", "", false, ""},
		{"a file", lockingSpec, true, ""},
		{"missing", "nowhere.spec", false, "nowhere.spec"},
	} {
		spec, err := LoadSpec("--spec", tc.file, eng)
		if (spec != nil) != tc.spec || (tc.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: spec %v, error %v; want spec %v, error with %q", tc.name, spec != nil, err, tc.spec, tc.err)
		}
	}
	if _, err := ParseSpec("x.spec", "no such thing\n"); err == nil || !strings.HasPrefix(err.Error(), "x.spec:") {
		t.Errorf("malformed text: %v, want an error of x.spec", err)
	}
}

// TestObserve: the product of locking.bp and its rule fails, the trace
// carried back names the property, and the lines say so.
func TestObserve(t *testing.T) {
	spec, err := LoadSpec("--spec", lockingSpec, nil)
	if err != nil {
		t.Fatal(err)
	}
	p := testsuite.LowerFile(t, "../../examples/locking.bp", "")
	info, _ := engine.Lookup("explicit")
	eng, err := info.New()
	if err != nil {
		t.Fatal(err)
	}
	obs, prodEng, errs, unsupported := Observe(spec, p, eng)
	if len(errs) > 0 || unsupported != nil {
		t.Fatal(errs, unsupported)
	}
	res := engine.Run(context.Background(), prodEng, obs.Inst.Prog, engine.Query{})
	if res.Verdict != result.Unsafe {
		t.Fatalf("product: %s", res.Banner())
	}
	shown := obs.Explain(res, false)
	if shown.Property == nil || shown.Property.Observer == nil {
		t.Fatalf("property %+v, want the observer's violation", shown.Property)
	}
	if line := ErrorLine("locking.bp", shown.Property); !strings.Contains(line, "error: property locking violated") {
		t.Errorf("error line %q", line)
	}
	if got := CheckedText(spec.Describe()); !strings.HasPrefix(got, "; property locking of ") {
		t.Errorf("checked text %q", got)
	}
	if CheckedText(nil) != "" {
		t.Errorf("checked text without a spec is not empty")
	}
}
