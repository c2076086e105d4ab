package syntax

import (
	"fmt"
	"testing"
)

// TestReserved checks Reserved against the parser: a reserved name needs
// braces to be a variable, any other C-style name does not.
func TestReserved(t *testing.T) {
	for _, c := range []struct {
		name     string
		reserved bool
	}{
		{"x", false}, {"sync", false}, {"Tx", false}, {"_x", false},
		{"T", true}, {"F", true}, {"if", true}, {"decl", true}, {"schoose", true}, {"start_thread", true},
		{"int", false}, {"const", false}, // C words are refused only before a name (`int x;`)
	} {
		if got := Reserved(c.name); got != c.reserved {
			t.Errorf("Reserved(%q) = %v, want %v", c.name, got, c.reserved)
		}
		// The plain name, as a target and in an expression, is the
		// variable iff it is not reserved.
		src := fmt.Sprintf("void main() begin decl {%s}; %s := %s; end\n", c.name, c.name, c.name)
		f, err := ParseFile("r.bp", []byte(src), Getafix)
		plain := err == nil
		if plain {
			as, ok := f.Procs[0].Body[0].(*AssignStmt)
			plain = ok && len(as.Lhs) == 1 && as.Lhs[0].Name == c.name && !as.Lhs[0].Braced
			if plain {
				v, ok := as.Rhs[0].(*VarRef)
				plain = ok && v.Name.Name == c.name && !v.Name.Braced
			}
		}
		if plain == c.reserved {
			t.Errorf("%q written without braces: parsed as the variable %v (%v)", c.name, plain, err)
		}
	}
}
