package program_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"boolprog/fix/program"
	"boolprog/gen"
	"boolprog/internal/peers/peerstest"
	"boolprog/internal/testsuite"
	"boolprog/ir"
)

// TestModelMucke writes the model of programs for every built-in
// algorithm and for a user's formula (examples/formulas), as boolprog
// mucke --emit does, and has Mucke (../shared/peers/bin/mucke, skipped
// where missing) evaluate it: Mucke must read every model and give our
// solver's value.
func TestModelMucke(t *testing.T) {
	algs := map[string]string{}
	for _, a := range program.Algorithms {
		text, err := program.Algorithm(a)
		if err != nil {
			t.Fatal(err)
		}
		algs[a] = text
	}
	user, err := os.ReadFile("../../examples/formulas/ef-plain.mu")
	if err != nil {
		t.Fatal(err)
	}
	algs["ef-plain.mu"] = string(user)
	type prog struct {
		name string
		p    *ir.Program
	}
	var progs []prog
	for _, name := range []string{"bebop-t3.bp", "locking.bp"} {
		file := filepath.Join("../../examples", name)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{name, testsuite.Lower(t, file, string(src), "")})
	}
	for seed := int64(1); seed <= 6; seed++ {
		src := gen.Random(seed, gen.Options{})
		progs = append(progs, prog{fmt.Sprintf("seed%d", seed), testsuite.Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")})
	}
	var models []peerstest.Model
	for _, pr := range progs {
		for name, text := range algs {
			var buf bytes.Buffer
			if err := program.WriteModel(&buf, program.NewEncoding(pr.p), text); err != nil {
				t.Fatal(err)
			}
			models = append(models, peerstest.Model{Name: pr.name + " with " + name, Text: buf.Bytes()})
		}
	}
	peerstest.CompareMucke(t, models)
}
