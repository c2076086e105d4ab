package gen

import (
	"fmt"
	"strings"
	"testing"

	"boolprog/internal/testflags"
	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// TestRandomConcurrent checks that concurrent random programs parse, check
// and lower to programs with the threads asked for, in each style, and that
// the seed determines the program.
func TestRandomConcurrent(t *testing.T) {
	n := testflags.N(60, 100, 300, 300)
	starts, copies, atomics := 0, 0, 0
	for seed := int64(0); seed < int64(n); seed++ {
		for _, style := range []Style{Getafix, Satabs} {
			threads := 1 + int(seed%3)
			opt := ConcOptions{Threads: threads, Style: style}
			src := RandomConcurrent(seed, opt)
			if again := RandomConcurrent(seed, opt); again != src {
				t.Fatalf("seed %d %s: two different programs", seed, style)
			}
			name := fmt.Sprintf("conc%d-%s.bp", seed, style)
			f, err := syntax.ParseFile(name, []byte(src), syntax.CProver)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			info, errs, _ := sema.Check(f)
			if len(errs) > 0 {
				t.Fatalf("%v\n%s", errs, src)
			}
			p, err := ir.Lower(f, info, ir.Options{})
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			sites, gotos := 0, 0
			for _, proc := range p.Procs {
				for _, e := range proc.Edges {
					switch op := e.Op.(type) {
					case *ir.StartThread:
						if op.Goto >= 0 {
							gotos++
							continue
						}
						sites++
					case *ir.AtomicBegin:
						atomics++
					}
				}
			}
			switch style {
			case Getafix:
				if !p.Concurrent || len(p.Threads) != threads || p.Init < 0 {
					t.Fatalf("%s: %d Getafix threads (init %d), want %d\n%s", name, len(p.Threads), p.Init, threads, src)
				}
				if strings.Contains(src, "atomic := T") {
					atomics++
				}
			case Satabs:
				if sites != threads-1 || (threads > 1 && !p.Concurrent) || len(p.Threads) != 0 || gotos > 1 || (threads == 1 && gotos > 0) {
					t.Fatalf("%s: %d thread-creation sites and %d start_thread goto, want %d and at most 1 (none with one thread)\n%s", name, sites, gotos, threads-1, src)
				}
				starts += sites
				copies += gotos
			}
		}
	}
	if starts == 0 || copies == 0 || atomics == 0 {
		t.Errorf("%d thread starts, %d start_thread goto and %d atomic stretches: the generator lost a feature", starts, copies, atomics)
	}
}
