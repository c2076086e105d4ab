package fix

import (
	"context"
	"testing"
	"time"
)

// FuzzParse feeds arbitrary bytes to the parser, the checker and (for
// files that check, with a small node limit) the solver: none may panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		graphDecls + "Reach(2);",
		"enum M {0..4};\nclass G { bool v1; M m; } v1 < m;\nmu bool R(M m, G g) m ~+ g (m = g.m | R(m, g));\n#size R;\n(exists G g. R(1, g));",
		"exists bool x, y. (x <-> !y) -> x = 1;",
		"/* c */ // d\n#timer go;",
		"nu bool Q(bool b) (forall bool c. Q(c) & b);\nQ(0);",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, err := ParseFile("f.mu", src)
		if err != nil {
			return
		}
		if Check(file) != nil {
			return
		}
		// A non-monotone file may iterate for long: the deadline bounds it.
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		Solve(ctx, file, Options{MaxNodes: 1 << 12})
	})
}
