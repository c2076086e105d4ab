package boolprog_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog"
	"boolprog/witness"
)

// TestValidateWitness: the witnesses Check writes are confirmed against
// their program and rejected against another; the target label comes
// from the witness's specification; a program that does not load is an
// *InputError.
func TestValidateWitness(t *testing.T) {
	const unsafe = "decl g;\nvoid main() begin g := F; assert(g); end\n"
	const safe = "decl g;\nvoid main() begin g := T; assert(g); end\n"
	const label = "decl g;\nvoid main() begin g := F; if (!g) then L: skip; fi end\n"
	dir := t.TempDir()
	write := func(name, src string, opts boolprog.Options) *witness.Witness {
		t.Helper()
		opts.Witness = filepath.Join(dir, name)
		if res, err := boolprog.Check(context.Background(), []byte(src), opts); err != nil || res.Witness == nil || !res.Witness.Written {
			t.Fatalf("%s: no witness: %v %+v", name, err, res)
		}
		data, err := os.ReadFile(opts.Witness)
		if err != nil {
			t.Fatal(err)
		}
		w, err := witness.Parse(name, data)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	violation := write("v.yml", unsafe, boolprog.Options{})
	correctness := write("c.yml", safe, boolprog.Options{})
	labelled := write("l.yml", label, boolprog.Options{Target: "L"})
	read := func(src string) func(context.Context) ([]byte, error) {
		return func(context.Context) ([]byte, error) { return []byte(src), nil }
	}
	for _, tc := range []struct {
		name, src string
		w         *witness.Witness
		verdict   witness.Verdict
		last      string // the last line of WriteText
		code      int
	}{
		{"violation", unsafe, violation, witness.Confirmed, "WITNESS CONFIRMED", 0},
		{"correctness", safe, correctness, witness.Confirmed, "WITNESS CONFIRMED", 0},
		{"violation of another program", safe, violation, witness.Rejected, "WITNESS REJECTED: ", 10},
		{"the specification's label", label, labelled, witness.Confirmed, "WITNESS CONFIRMED", 0},
		{"a label the program lacks", unsafe, labelled, witness.Rejected, "WITNESS REJECTED: the witness is for another program", 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := boolprog.ValidateWitness(context.Background(), read(tc.src), tc.w, boolprog.Options{Filename: "p.bp"}, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			if err := v.WriteText(&out, "w.yml"); err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(out.String()), "\n")
			if v.Verdict != tc.verdict || v.ExitCode() != tc.code || !strings.HasPrefix(lines[len(lines)-1], tc.last) || !strings.Contains(lines[0], " witness of p.bp: ") {
				t.Errorf("verdict %v (exit %d), reason %q:\n%s", v.Verdict, v.ExitCode(), v.Reason, out.String())
			}
		})
	}
	_, err := boolprog.ValidateWitness(context.Background(), read("void main() begin x := T; end\n"), violation, boolprog.Options{Filename: "bad.bp"}, 0)
	var in *boolprog.InputError
	if !errors.As(err, &in) || !strings.HasPrefix(err.Error(), "bad.bp:1:") {
		t.Errorf("a program that does not check: %v, want an *InputError", err)
	}
}
