package program_test

import (
	"strings"
	"testing"

	"boolprog/fix/program"
	"boolprog/internal/testsuite"
)

// TestWriteModel writes the model of small programs for every built-in
// algorithm and solves it with package fix alone: the answer is whether an
// error location is reachable.
func TestWriteModel(t *testing.T) {
	tests := []struct {
		name, src string
		unsafe    bool
	}{
		{"assert fails", "decl g;\nvoid main() begin g := T; assert(!g); end\n", true},
		{"assert holds", "decl g;\nvoid main() begin g := T; assert(g); end\n", false},
		{"through a call", "decl g;\nbool id(x) begin return x; end\nvoid main() begin decl a; a := id(*); if (a) then g := T; fi; assert(!g); end\n", true},
		{"nondeterminism", "decl g;\nvoid main() begin g := * & F; assert(!g); end\n", false},
		{"schoose", "decl g;\nvoid main() begin g := schoose[F, F]; assert(!g); end\n", true},
	}
	for _, tt := range tests {
		p := testsuite.Lower(t, "p.bp", tt.src, "")
		for _, alg := range program.Algorithms {
			t.Run(tt.name+"/"+alg, func(t *testing.T) {
				if got, model := testsuite.SolveModel(t, p, alg); got != tt.unsafe {
					t.Errorf("the model answers %v, want %v\n%s", got, tt.unsafe, model)
				}
			})
		}
	}
	if _, err := program.Algorithm("nosuch"); err == nil || !strings.Contains(err.Error(), "ef, efopt, summary") {
		t.Errorf("Algorithm(nosuch): %v", err)
	}
}
