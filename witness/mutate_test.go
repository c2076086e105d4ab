package witness

import (
	"context"
	"math/rand"
	"os"
	"testing"
	"time"

	"boolprog/internal/testsuite"
)

// TestMutations: witnesses with random bytes changed parse or not, and
// validate or not, but never crash or hang.
func TestMutations(t *testing.T) {
	src, err := os.ReadFile("testdata/fig1.bp")
	if err != nil {
		t.Fatal(err)
	}
	p := testsuite.LowerFile(t, "testdata/fig1.bp", "R")
	var seeds [][]byte
	for _, g := range []string{"fig1.violation.yaml", "fig1.violation.graphml", "safe.correctness.yaml", "legacy/safe.correctness.graphml"} {
		d, err := os.ReadFile("testdata/" + g)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, d)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 1000; i++ {
		d := append([]byte(nil), seeds[r.Intn(3)]...)
		for k := 0; k < 1+r.Intn(3); k++ {
			j := r.Intn(len(d))
			d[j] = "aT!&|()x01 \n-:\"\\<>g"[r.Intn(19)]
		}
		w, err := Parse("f", d)
		if err != nil {
			continue
		}
		w.Metadata.Task.InputFileHash = ""
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		if o := Validate(ctx, p, src, w, Options{MaxConfigs: 1000, MaxNodes: 1 << 16}); o.Verdict == Unknown && ctx.Err() != nil {
			t.Errorf("validation did not end:\n%s", d)
		}
		cancel()
	}
}

// TestConcurrentMutations: concurrent correctness witnesses (configuration
// and thread invariants, both formats) with random bytes changed parse or
// not, and validate or not, but never crash or hang.
func TestConcurrentMutations(t *testing.T) {
	progs := map[string]string{
		"conc.correctness.yaml":            "testdata/conc.bp",
		"legacy/conc.correctness.graphml":  "testdata/conc.bp",
		"spawn.correctness.yaml":           "testdata/spawn.bp",
		"legacy/spawn.correctness.graphml": "testdata/spawn.bp",
	}
	type seed struct {
		data []byte
		prog string
	}
	var seeds []seed
	for g, prog := range progs {
		d, err := os.ReadFile("testdata/" + g)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, seed{d, prog})
	}
	r := rand.New(rand.NewSource(2))
	for i := 0; i < 400; i++ {
		s := seeds[r.Intn(len(seeds))]
		d := append([]byte(nil), s.data...)
		for k := 0; k < 1+r.Intn(3); k++ {
			j := r.Intn(len(d))
			const alphabet = "aT!&|()x01 \n-:\"\\<>g.t>|"
			d[j] = alphabet[r.Intn(len(alphabet))]
		}
		w, err := Parse("f", d)
		if err != nil {
			continue
		}
		w.Metadata.Task.InputFileHash = ""
		src, err := os.ReadFile(s.prog)
		if err != nil {
			t.Fatal(err)
		}
		p := testsuite.LowerFile(t, s.prog, "")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		if o := Validate(ctx, p, src, w, Options{MaxConfigs: 5000}); o.Verdict == Unknown && ctx.Err() != nil {
			t.Errorf("validation did not end:\n%s", d)
		}
		cancel()
	}
}
