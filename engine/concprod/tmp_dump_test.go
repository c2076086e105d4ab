package concprod_test

import (
	"fmt"
	"os"
	"testing"

	"boolprog/gen"
)

func TestTmpDump(t *testing.T) {
	os.MkdirAll("/tmp/gxcases", 0o755)
	for seed := int64(1); seed <= 70; seed++ {
		o := gen.Options{
			Globals: 20 + int(seed*37%81),
			Procs:   1,
			Stmts:   30 + int(seed*13%120),
			Omit:    gen.Recursion | gen.Nondet | gen.Goto | gen.NondetGoto | gen.Dead | gen.Constrain | gen.Enforce | gen.Schoose | gen.Assert,
		}
		src := forGetafix(gen.RandomConcurrent(seed, gen.ConcOptions{Threads: 3, Style: gen.Getafix, Thread: o}))
		os.WriteFile(fmt.Sprintf("/tmp/gxcases/r%d.bp", seed), []byte(src), 0o644)
	}
}
