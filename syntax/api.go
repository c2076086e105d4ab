package syntax

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
