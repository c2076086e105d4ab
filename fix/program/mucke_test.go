package program_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"boolprog/fix"
	"boolprog/fix/program"
	"boolprog/gen"
	"boolprog/internal/peers"
	"boolprog/internal/testsuite"
	"boolprog/ir"
)

// TestModelMucke writes the model of programs for every built-in
// algorithm and for a user's formula (examples/formulas), as boolprog
// mucke --emit does, and has Mucke (../shared/peers/bin/mucke, skipped
// where missing) evaluate it: Mucke must read every model and give our
// solver's value.
func TestModelMucke(t *testing.T) {
	bin := peers.Find(".", "mucke")
	if bin == "" {
		t.Skip("no ../shared/peers/bin/mucke beside the repository")
	}
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
	dir := t.TempDir()
	seen := map[bool]int{}
	for _, pr := range progs {
		for name, text := range algs {
			var buf bytes.Buffer
			if err := program.WriteModel(&buf, program.NewEncoding(pr.p), text); err != nil {
				t.Fatal(err)
			}
			f, err := fix.ParseFile("model.mu", buf.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			ours, err := fix.Solve(context.Background(), f, fix.Options{})
			if err != nil {
				t.Fatal(err)
			}
			model := filepath.Join(dir, pr.name+"."+name+".mu")
			if err := os.WriteFile(model, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			theirs, err := peers.Mucke(ctx, bin, model, 0)
			cancel()
			if err != nil {
				t.Errorf("%s with %s: Mucke: %v", pr.name, name, err)
				continue
			}
			if theirs.Complaint != "" {
				t.Errorf("%s with %s: Mucke complains: %s", pr.name, name, theirs.Complaint)
			}
			if theirs.Value != ours.Value {
				t.Errorf("%s with %s: Mucke %v, ours %v", pr.name, name, theirs.Value, ours.Value)
			}
			seen[ours.Value]++
		}
	}
	if seen[true] == 0 || seen[false] == 0 {
		t.Errorf("values seen: %v; want both", seen)
	}
}
