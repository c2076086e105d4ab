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
// value may not be determined by the state. It takes time linear in the
// size of e (iteratively, whatever its depth); to ask about every node of
// an expression, use a NondetCache, which answers all of them in linear
// time in total.
func IsNondet(e Expr) bool {
	stack := []Expr{e}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case *Nondet, *Schoose:
			return true
		case *Not:
			stack = append(stack, e.X)
		case *Bin:
			stack = append(stack, e.Y, e.X)
		}
	}
	return false
}

// A NondetCache answers IsNondet for the nodes of expressions, remembering
// the answer for every node it visits: asking about each node of an
// expression of n nodes (bottom-up, top-down or in any order) costs O(n) in
// total, where calling IsNondet on each would cost O(n²) on a long chain.
// The zero value is ready to use. A cache holds on to the nodes it has
// seen; use one per expression or per program, not for ever.
type NondetCache struct {
	m map[Expr]bool
}

// IsNondet reports whether e contains Nondet or Schoose, as the function
// IsNondet does.
func (c *NondetCache) IsNondet(e Expr) bool {
	if c.m == nil {
		c.m = make(map[Expr]bool)
	}
	switch e.(type) {
	case *Nondet, *Schoose:
		return true
	case *Not, *Bin:
	default:
		return false // constants and variables
	}
	if v, ok := c.m[e]; ok {
		return v
	}
	// Postorder over the nodes not yet known, with an explicit stack: a
	// node is decided when its children are.
	type frame struct {
		e    Expr
		done bool // the children have been pushed
	}
	stack := []frame{{e: e}}
	known := func(x Expr) (bool, bool) {
		switch x.(type) {
		case *Nondet, *Schoose:
			return true, true
		case *Not, *Bin:
			v, ok := c.m[x]
			return v, ok
		}
		return false, true
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if _, ok := known(f.e); ok {
			stack = stack[:len(stack)-1]
			continue
		}
		switch x := f.e.(type) {
		case *Not:
			if v, ok := known(x.X); ok {
				c.m[x] = v
				stack = stack[:len(stack)-1]
			} else if !f.done {
				f.done = true
				stack = append(stack, frame{e: x.X})
			}
		case *Bin:
			vx, okx := known(x.X)
			vy, oky := known(x.Y)
			switch {
			case okx && vx, oky && vy:
				c.m[x] = true
				stack = stack[:len(stack)-1]
			case okx && oky:
				c.m[x] = false
				stack = stack[:len(stack)-1]
			case !f.done:
				f.done = true
				if !oky {
					stack = append(stack, frame{e: x.Y})
				}
				if !okx {
					stack = append(stack, frame{e: x.X})
				}
			}
		}
	}
	return c.m[e]
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

// Vars calls f for every variable occurrence in e, left to right. It works
// iteratively, in time linear in the size of e whatever its depth.
func Vars(e Expr, f func(*Var)) {
	stack := []Expr{e}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch e := e.(type) {
		case *Var:
			f(e)
		case *Not:
			stack = append(stack, e.X)
		case *Bin:
			stack = append(stack, e.Y, e.X)
		case *Schoose:
			stack = append(stack, e.Neg, e.Pos)
		}
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

// IdentText returns a name as Boolean-program source text: braced
// (`{p==q}`, `{if}`) if it is not a plain C-style identifier or is a
// reserved word (syntax.Reserved). Printers of programs
// built by transformations use it too, so names read back the same.
func IdentText(name string) string { return identText(name) }

func identText(name string) string {
	plain := name != "" && !syntax.Reserved(name) // `{T}` is a variable, `T` the constant
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
