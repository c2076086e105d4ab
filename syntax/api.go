package syntax

import "strings"

// Dialect selects the operator precedence of expressions; everything else
// is the same in both dialects.
type Dialect int

const (
	// CProver is the SATABS/c2bp precedence (the default): `!` and `'`
	// bind tightest, then `&`, `|`, `^`, and last `=`, `!=` and `=>`, which
	// share one level and group to the right.
	CProver Dialect = iota
	// Getafix is the Getafix/Moped precedence: `!`, then `=` and `!=`, then
	// `&`, `^`, `|`, and last `=>`; all binary operators group to the left.
	Getafix
)

// String returns the dialect's command-line name.
func (d Dialect) String() string {
	if d == Getafix {
		return "getafix"
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
	}
	return CProver, false
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
