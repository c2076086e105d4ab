package syntax

import (
	"fmt"
	"strings"
)

// Dialect selects the operator precedence of expressions; everything else
// is the same in both dialects. In both, a chain of one associative
// operator (`a & b & c`, `a = b = c`) gives the same tree (balanced; see
// MaxNesting), so only chains that mix operators can differ; File's
// Ambiguities lists those.
type Dialect int

const (
	// CProver is the SATABS/c2bp precedence (the default): `!` and `'`
	// bind tightest, then `&`, `|`, `^`, and last `=`, `!=` and `=>`, which
	// share one level and group to the right.
	CProver Dialect = iota
	// Getafix is the Getafix/Moped precedence: `!`, then `=` and `!=`, then
	// `&`, `^`, `|`, and last `=>`; all binary operators group to the left.
	Getafix
	// Auto lets ParseFile choose: Getafix for a file that follows the
	// Getafix convention (see DetectDialect), CProver otherwise.
	Auto
)

// String returns the dialect's command-line name.
func (d Dialect) String() string {
	switch d {
	case Getafix:
		return "getafix"
	case Auto:
		return "auto"
	}
	return "cprover"
}

// ParseDialect maps a command-line name to a Dialect.
func ParseDialect(name string) (Dialect, bool) {
	switch name {
	case "cprover", "satabs", "bebop", "":
		return CProver, true
	case "getafix", "moped":
		return Getafix, true
	case "auto":
		return Auto, true
	}
	return CProver, false
}

// DetectDialect reports which precedence f's conventions call for: Getafix
// if a procedure follows the Getafix thread convention (its name is
// thread<N>, see IsThreadName; Getafix's own examples are written so), with
// a reason naming that procedure and its position for a note to the user;
// CProver and "" otherwise. The tree itself may have been parsed with
// either dialect: procedure names do not depend on precedence.
func DetectDialect(f *File) (Dialect, string) {
	for _, p := range f.Procs {
		if p.Name != nil && IsThreadName(p.Name.Name) {
			return Getafix, fmt.Sprintf("procedure %s at %s follows the Getafix convention (threads named thread<N>)", p.Name.Name, p.Name.Pos())
		}
	}
	return CProver, ""
}

// IsThreadName reports whether name follows the Getafix convention for
// thread procedures: "thread" followed by one or more digits. A program
// with such procedures runs init first, then main and the thread<N>
// procedures as threads.
func IsThreadName(name string) bool {
	rest, ok := strings.CutPrefix(name, "thread")
	if !ok || rest == "" {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
