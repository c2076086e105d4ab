package ir

import (
	"strings"

	"boolprog/syntax"
)

// Expr is a resolved Boolean expression: one of *Const, *Nondet, *Var,
// *Not, *Bin, *Schoose.
type Expr interface{ isExpr() }

// Const is T (true) or F (false).
type Const struct{ Value bool }

// Nondet is `*`: either value, chosen independently at each occurrence and
// each evaluation.
type Nondet struct{}

// Var is a variable. Primed (only inside Assign.Constrain) means the value
// after the assignment.
type Var struct {
	VarRef
	Primed bool
}

// Not is !X.
type Not struct{ X Expr }

// Bin is X Op Y with Op one of syntax.And, Or, Xor, Eq, Neq, Implies.
type Bin struct {
	Op   syntax.Op
	X, Y Expr
}

// Schoose is schoose[Pos, Neg]: T if Pos holds, else F if Neg holds, else
// either value.
type Schoose struct{ Pos, Neg Expr }

func (*Const) isExpr()   {}
func (*Nondet) isExpr()  {}
func (*Var) isExpr()     {}
func (*Not) isExpr()     {}
func (*Bin) isExpr()     {}
func (*Schoose) isExpr() {}

// True and False are the constant expressions.
var (
	True  Expr = &Const{Value: true}
	False Expr = &Const{Value: false}
)

// ApplyOp applies a binary operator to two Boolean values.
func ApplyOp(op syntax.Op, x, y bool) bool {
	switch op {
	case syntax.And:
		return x && y
	case syntax.Or:
		return x || y
	case syntax.Xor, syntax.Neq:
		return x != y
	case syntax.Eq:
		return x == y
	case syntax.Implies:
		return !x || y
	}
	panic("ir: bad binary operator " + op.String())
}

// IsNondet reports whether e contains Nondet or Schoose, i.e. whether its
// value may not be determined by the state.
func IsNondet(e Expr) bool {
	switch e := e.(type) {
	case *Nondet, *Schoose:
		return true
	case *Not:
		return IsNondet(e.X)
	case *Bin:
		return IsNondet(e.X) || IsNondet(e.Y)
	}
	return false
}

// Prime returns e with every variable primed (the post-state reading used
// to fold enforce into a constrain).
func Prime(e Expr) Expr {
	switch e := e.(type) {
	case *Var:
		return &Var{VarRef: e.VarRef, Primed: true}
	case *Not:
		return &Not{X: Prime(e.X)}
	case *Bin:
		return &Bin{Op: e.Op, X: Prime(e.X), Y: Prime(e.Y)}
	case *Schoose:
		return &Schoose{Pos: Prime(e.Pos), Neg: Prime(e.Neg)}
	}
	return e
}

// Vars calls f for every variable occurrence in e.
func Vars(e Expr, f func(*Var)) {
	switch e := e.(type) {
	case *Var:
		f(e)
	case *Not:
		Vars(e.X, f)
	case *Bin:
		Vars(e.X, f)
		Vars(e.Y, f)
	case *Schoose:
		Vars(e.Pos, f)
		Vars(e.Neg, f)
	}
}

// ExprString formats e with the variable names of procedure proc. Nested
// binary operations are parenthesised, so the text means the same under
// every precedence dialect.
func (p *Program) ExprString(proc *Proc, e Expr) string {
	var b strings.Builder
	p.writeExpr(&b, proc, e, false)
	return b.String()
}

func (p *Program) writeExpr(b *strings.Builder, proc *Proc, e Expr, nested bool) {
	switch e := e.(type) {
	case nil:
		b.WriteString("<nil>")
	case *Const:
		if e.Value {
			b.WriteString("T")
		} else {
			b.WriteString("F")
		}
	case *Nondet:
		b.WriteString("*")
	case *Var:
		if e.Primed {
			b.WriteByte('\'')
		}
		b.WriteString(identText(p.VarName(proc, e.VarRef)))
	case *Not:
		b.WriteByte('!')
		p.writeExpr(b, proc, e.X, true)
	case *Bin:
		if nested {
			b.WriteByte('(')
		}
		p.writeExpr(b, proc, e.X, true)
		b.WriteString(" " + e.Op.String() + " ")
		p.writeExpr(b, proc, e.Y, true)
		if nested {
			b.WriteByte(')')
		}
	case *Schoose:
		b.WriteString("schoose[")
		p.writeExpr(b, proc, e.Pos, false)
		b.WriteString(", ")
		p.writeExpr(b, proc, e.Neg, false)
		b.WriteByte(']')
	}
}

// identText writes a name as source text: braced if it is not a plain
// C-style identifier.
func identText(name string) string {
	plain := name != ""
	for i, c := range name {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || i > 0 && '0' <= c && c <= '9') {
			plain = false
			break
		}
	}
	if plain {
		return name
	}
	return "{" + name + "}"
}
