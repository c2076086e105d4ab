package conc

import (
	"boolprog/ir"
	"boolprog/syntax"
)

// Small constructors of ir expressions for the sequentialisations.

func vr(r ir.VarRef) ir.Expr { return &ir.Var{VarRef: r} }

func primed(r ir.VarRef) ir.Expr { return &ir.Var{VarRef: r, Primed: true} }

func not(x ir.Expr) ir.Expr {
	if c, ok := x.(*ir.Const); ok {
		return constant(!c.Value)
	}
	return &ir.Not{X: x}
}

func constant(v bool) ir.Expr {
	if v {
		return ir.True
	}
	return ir.False
}

func isConst(x ir.Expr, v bool) bool {
	c, ok := x.(*ir.Const)
	return ok && c.Value == v
}

// and conjoins xs, leaving out T (T if none is left).
func and(xs ...ir.Expr) ir.Expr {
	var out ir.Expr
	for _, x := range xs {
		if x == nil || isConst(x, true) {
			continue
		}
		if isConst(x, false) {
			return ir.False
		}
		if out == nil {
			out = x
		} else {
			out = &ir.Bin{Op: syntax.And, X: out, Y: x}
		}
	}
	if out == nil {
		return ir.True
	}
	return out
}

// or disjoins xs, leaving out F (F if none is left).
func or(xs ...ir.Expr) ir.Expr {
	var out ir.Expr
	for _, x := range xs {
		if x == nil || isConst(x, false) {
			continue
		}
		if isConst(x, true) {
			return ir.True
		}
		if out == nil {
			out = x
		} else {
			out = &ir.Bin{Op: syntax.Or, X: out, Y: x}
		}
	}
	if out == nil {
		return ir.False
	}
	return out
}

// xor returns x ^ y, simplified for a constant y.
func xor(x, y ir.Expr) ir.Expr {
	switch {
	case isConst(y, false):
		return x
	case isConst(y, true):
		return not(x)
	}
	return &ir.Bin{Op: syntax.Xor, X: x, Y: y}
}

func eq(x, y ir.Expr) ir.Expr { return &ir.Bin{Op: syntax.Eq, X: x, Y: y} }

func implies(x, y ir.Expr) ir.Expr {
	switch {
	case isConst(x, false), isConst(y, true):
		return ir.True
	case isConst(x, true):
		return y
	}
	return &ir.Bin{Op: syntax.Implies, X: x, Y: y}
}

// bitsFor returns the number of bits that encode the values 0..n-1 (at
// least one).
func bitsFor(n int) int {
	b := 1
	for 1<<b < n {
		b++
	}
	return b
}

// eqBits says that the bits (least significant first) encode v.
func eqBits(bits []ir.VarRef, v int) ir.Expr {
	var xs []ir.Expr
	for i, b := range bits {
		if v&(1<<i) != 0 {
			xs = append(xs, vr(b))
		} else {
			xs = append(xs, not(vr(b)))
		}
	}
	return and(xs...)
}

// constBits returns the constants that encode v in n bits.
func constBits(n, v int) []ir.Expr {
	out := make([]ir.Expr, n)
	for i := range out {
		out[i] = constant(v&(1<<i) != 0)
	}
	return out
}

// subst returns e with every global g replaced by globals[g] (primes
// kept); locals are unchanged.
func subst(e ir.Expr, globals []ir.VarRef) ir.Expr {
	switch x := e.(type) {
	case *ir.Var:
		if x.Global {
			return &ir.Var{VarRef: globals[x.Index], Primed: x.Primed}
		}
		return x
	case *ir.Not:
		return &ir.Not{X: subst(x.X, globals)}
	case *ir.Bin:
		return &ir.Bin{Op: x.Op, X: subst(x.X, globals), Y: subst(x.Y, globals)}
	case *ir.Schoose:
		return &ir.Schoose{Pos: subst(x.Pos, globals), Neg: subst(x.Neg, globals)}
	}
	return e // constants, Nondet
}

// primeAll returns e with every variable primed (its value after an
// assignment).
func primeAll(e ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Var:
		return &ir.Var{VarRef: x.VarRef, Primed: true}
	case *ir.Not:
		return &ir.Not{X: primeAll(x.X)}
	case *ir.Bin:
		return &ir.Bin{Op: x.Op, X: primeAll(x.X), Y: primeAll(x.Y)}
	case *ir.Schoose:
		return &ir.Schoose{Pos: primeAll(x.Pos), Neg: primeAll(x.Neg)}
	}
	return e
}

// mentionsGlobal reports whether e reads a global.
func mentionsGlobal(e ir.Expr) bool {
	switch x := e.(type) {
	case *ir.Var:
		return x.Global
	case *ir.Not:
		return mentionsGlobal(x.X)
	case *ir.Bin:
		return mentionsGlobal(x.X) || mentionsGlobal(x.Y)
	case *ir.Schoose:
		return mentionsGlobal(x.Pos) || mentionsGlobal(x.Neg)
	}
	return false
}
