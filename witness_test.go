package boolprog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boolprog"
	"boolprog/internal/jsonschema"
	"boolprog/witness"
)

// TestWitness: the Go API writes witnesses as the command's --witness
// does, and says what it wrote or why it wrote none.
func TestWitness(t *testing.T) {
	const unsafe = "decl g;\nvoid main() begin g := F; assert(g); end\n"
	const safe = "decl g;\nvoid main() begin g := T; assert(g); end\n"
	const conc = "decl g;\nvoid t() begin g := g; end\nvoid main() begin g := T; start_thread t(); assert(g); end\n"
	dir := t.TempDir()
	for _, tc := range []struct {
		name, src string
		opts      boolprog.Options
		kind      string // the witness written, or "" for none
		why       string // substring of WitnessOutcome.Why
		note      string // substring of WitnessOutcome.Note
	}{
		{name: "violation", src: unsafe, kind: "violation"},
		{name: "correctness", src: safe, kind: "correctness"},
		{name: "correctness from another engine's answer", src: safe, opts: boolprog.Options{Engine: "explicit"}, kind: "correctness", note: "the invariants come from the summary engine"},
		{name: "concurrent correctness", src: conc, kind: "correctness"},
		{name: "graphml", src: unsafe, opts: boolprog.Options{WitnessFormat: "graphml"}, kind: "violation"},
		{name: "correctness as graphml", src: safe, opts: boolprog.Options{WitnessFormat: "graphml"}, why: "a correctness witness has no GraphML form"},
		{name: "bounded", src: conc, opts: boolprog.Options{Engine: "explicit", Bound: boolprog.Bound{Kind: boolprog.ContextSwitches, K: 1}}, why: "a bounded answer (up to 1 context switch) is no proof"},
		{name: "unknown", src: safe, opts: boolprog.Options{Engine: "explicit", EngineFlags: map[string]string{"max-states": "1"}}, why: "the verdict is unknown"},
		{name: "timeout before the program is read", src: safe, opts: boolprog.Options{Timeout: time.Nanosecond}, why: "the verdict is unknown (timeout (1ns)): the program was not read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := tc.opts
			opts.Witness = filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".w")
			res, err := boolprog.Check(context.Background(), []byte(tc.src), opts)
			if err != nil {
				t.Fatal(err)
			}
			w := res.Witness
			if w == nil || w.Err != nil || w.File != opts.Witness {
				t.Fatalf("Witness = %+v", w)
			}
			if w.Written != (tc.kind != "") || w.Kind != tc.kind || !strings.Contains(w.Why, tc.why) || !strings.Contains(w.Note, tc.note) {
				t.Fatalf("Witness = %+v, want kind %q, why %q, note %q", w, tc.kind, tc.why, tc.note)
			}
			_, statErr := os.Stat(opts.Witness)
			if w.Written != (statErr == nil) {
				t.Fatalf("written %v, but the file: %v", w.Written, statErr)
			}
			if !w.Written {
				return
			}
			data, err := os.ReadFile(opts.Witness)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := witness.Parse(opts.Witness, data); err != nil {
				t.Errorf("the witness does not parse: %v", err)
			}
			if tc.opts.WitnessFormat == "" {
				// Every YAML witness conforms to the schema of its format.
				s, err := jsonschema.Parse(witness.SchemaJSON)
				if err != nil {
					t.Fatal(err)
				}
				j, err := witness.YAMLToJSON(data)
				if err != nil {
					t.Fatal(err)
				}
				if err := s.Validate(j); err != nil {
					t.Errorf("the witness does not conform to its schema: %v", err)
				}
			}
			if tc.opts.WitnessFormat == "graphml" && !strings.Contains(string(data), "<graphml") {
				t.Errorf("not GraphML:\n%.200s", data)
			}
		})
	}
	t.Run("options", func(t *testing.T) {
		for _, opts := range []boolprog.Options{
			{Witness: filepath.Join(dir, "x"), WitnessFormat: "pdf"},
			{WitnessFormat: "yaml"},
			{Witness: filepath.Join(dir, "x"), Spec: "examples/locking.spec"},
		} {
			_, err := boolprog.Check(context.Background(), []byte(safe), opts)
			var oe *boolprog.OptionError
			if !errors.As(err, &oe) {
				t.Errorf("%+v: %v, want an *OptionError", opts, err)
			}
		}
	})
	t.Run("unwritable", func(t *testing.T) {
		res, err := boolprog.Check(context.Background(), []byte(unsafe), boolprog.Options{Witness: filepath.Join(dir, "no", "such", "dir")})
		if err != nil || res.Witness == nil || res.Witness.Err == nil {
			t.Errorf("got %v, %+v; want Witness.Err", err, res.Witness)
		}
	})
}
