package witness

import (
	"fmt"
	"slices"
	"strconv"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
	"boolprog/syntax"
)

// FormatExpression is the constraint format of every formula in a witness:
// a Boolean-program expression (see the package doc, "Formulas").
const FormatExpression = "boolprog_expression"

// formula is a parsed witness formula: an expression of package ir whose
// variables are its atoms, Var.Index i standing for atoms[i] (one atom per
// occurrence, in the order written), so that the one expression algebra of
// package ir evaluates it (ir.Eval) and builds its BDD (symbolic).
type formula struct {
	e     ir.Expr
	atoms []atom
}

// atomKind says which value of a variable an atom names.
type atomKind int

const (
	atomCur    atomKind = iota // the value now
	atomOld                    // the value at the entry of the function: \old(x)
	atomResult                 // returned value i of the function: \result, \resultN
	atomSlot                   // slot of a concurrent invariant's variables (see vars)
)

// atom is one variable occurrence of a formula, resolved against a scope.
type atom struct {
	kind atomKind
	ref  ir.VarRef // atomCur, atomOld
	ret  int       // atomResult; the slot for atomSlot
	name string    // as written, for messages
}

// scope says which names a formula may use: the globals and the locals of
// a function; with old, \old(x) of globals and parameters; with results,
// \result0..\result(results-1).
type scope struct {
	p       *ir.Program
	proc    *ir.Proc // nil: globals only
	old     bool
	results int
	// slots, if not nil, names the variables of a concurrent invariant
	// instead of proc and p's globals.
	slots *vars
}

// formulaError is an error at a byte offset of a formula.
type formulaError struct {
	offset  int
	msg     string
	unknown bool // a name the program does not have (not a syntax error)
}

func (e *formulaError) Error() string { return e.msg }

// parseFormula parses a formula with package syntax (the cprover
// precedence, with \old, \result, true and false, and for a concurrent
// invariant thread-qualified names) and resolves its names in sc.
func parseFormula(src string, sc scope) (*formula, error) {
	mode := syntax.AllowOld | syntax.AllowResult | syntax.AllowTrueFalse
	if sc.slots != nil {
		mode |= syntax.AllowDotted
	}
	x, err := syntax.ParseExpr("", []byte(src), syntax.CProver, mode)
	if err != nil {
		e := err.(syntax.ErrorList)[0]
		return nil, &formulaError{offset: e.Pos.Offset, msg: e.Msg}
	}
	f := &formula{}
	e, fe := f.resolve(x, sc)
	if fe != nil {
		return nil, fe
	}
	f.e = e
	return f, nil
}

// resolve turns x into an ir expression over new atoms of f. Its depth is
// that of the syntax tree, which the parser bounds (syntax.MaxNesting).
func (f *formula) resolve(x syntax.Expr, sc scope) (ir.Expr, *formulaError) {
	switch x := x.(type) {
	case *syntax.Const:
		return &ir.Const{Value: x.Value}, nil
	case *syntax.Unary:
		y, err := f.resolve(x.X, sc)
		if err != nil {
			return nil, err
		}
		return &ir.Not{X: y}, nil
	case *syntax.Binary:
		l, err := f.resolve(x.X, sc)
		if err != nil {
			return nil, err
		}
		r, err := f.resolve(x.Y, sc)
		if err != nil {
			return nil, err
		}
		return &ir.Bin{Op: x.Op, X: l, Y: r}, nil
	case *syntax.VarRef:
		if !x.Primed {
			return f.variable(x.Name, sc, false)
		}
	case *syntax.Old:
		return f.variable(x.Name, sc, true)
	case *syntax.Result:
		name := syntax.ExprString(x)
		if x.Index >= sc.results {
			return nil, unknownAt(x.Pos(), "%s: no such returned value here", name)
		}
		return f.add(atom{kind: atomResult, ret: x.Index, name: name}), nil
	}
	return nil, &formulaError{offset: x.Pos().Offset, msg: fmt.Sprintf("%s: a formula is a condition on one state (no *, schoose or primed variable)", syntax.ExprString(x))}
}

// unknownAt is the error of a name the scope does not have.
func unknownAt(pos syntax.Pos, format string, args ...any) *formulaError {
	return &formulaError{offset: pos.Offset, msg: fmt.Sprintf(format, args...), unknown: true}
}

// add appends atom a and returns the variable that stands for it.
func (f *formula) add(a atom) ir.Expr {
	f.atoms = append(f.atoms, a)
	return &ir.Var{VarRef: ir.VarRef{Index: len(f.atoms) - 1}}
}

// variable resolves a name in the scope: a local of the function first,
// then a global.
func (f *formula) variable(id *syntax.Ident, sc scope, old bool) (ir.Expr, *formulaError) {
	name, tok, at := id.Name, syntax.ExprString(&syntax.VarRef{Name: id}), id.Pos()
	if sc.slots != nil {
		i, ok := sc.slots.byName[name]
		switch {
		case old:
			return nil, unknownAt(at, `\old(%s) is not allowed here`, tok)
		case !ok:
			return nil, unknownAt(at, "unknown variable %s", tok)
		}
		return f.add(atom{kind: atomSlot, ret: i, name: tok}), nil
	}
	ref, ok := ir.VarRef{}, false
	if sc.proc != nil {
		if i := slices.Index(sc.proc.Locals, name); i >= 0 {
			ref, ok = ir.VarRef{Index: i}, true
		}
	}
	if !ok {
		if i := slices.Index(sc.p.Globals, name); i >= 0 {
			ref, ok = ir.VarRef{Global: true, Index: i}, true
		}
	}
	switch {
	case !ok && sc.proc != nil:
		return nil, unknownAt(at, "unknown variable %s in %s", tok, sc.proc.Name)
	case !ok:
		return nil, unknownAt(at, "unknown global variable %s", tok)
	case old && !sc.old:
		return nil, unknownAt(at, `\old(%s) is not allowed here`, tok)
	case old && !ref.Global && ref.Index >= sc.proc.Params:
		return nil, unknownAt(at, `\old(%s): only globals and parameters have entry values`, tok)
	}
	kind := atomCur
	if old {
		kind = atomOld
	}
	return f.add(atom{kind: kind, ref: ref, name: tok}), nil
}

// eval evaluates a formula with the atoms' values given by val.
// (A formula is deterministic: it can be true exactly where it is true.)
func (f *formula) eval(val func(atom) bool) bool {
	t, _ := ir.Eval(f.e, func(v *ir.Var) bool { return val(f.atoms[v.Index]) })
	return t
}

// varText is how a formula names variable v of proc (nil: a global): its
// name, braced if needed; \old(name) for its entry value.
func varText(p *ir.Program, proc *ir.Proc, v ir.VarRef, old bool) string {
	var name string
	if v.Global {
		name = p.Globals[v.Index]
	} else {
		name = proc.Locals[v.Index]
	}
	s := ir.IdentText(name)
	if old {
		return `\old(` + s + `)`
	}
	return s
}

// resultText names returned value i.
func resultText(i int) string {
	if i == 0 {
		return `\result`
	}
	return `\result` + strconv.Itoa(i)
}

// shadowed reports whether global g is hidden by a local of proc with the
// same name (a formula then cannot name the global).
func shadowed(p *ir.Program, proc *ir.Proc, g int) bool {
	if proc == nil {
		return false
	}
	for _, l := range proc.Locals {
		if l == p.Globals[g] {
			return true
		}
	}
	return false
}

// bdd builds the BDD of f in m, the BDD variable of an atom given by leaf
// (which copy of which variable it names is the caller's encoding).
func (f *formula) bdd(m *bdd.Manager, leaf func(atom) int) bdd.Node {
	return symbolic.Evaluator(m).CanBeTrue(f.e, func(v *ir.Var) int { return leaf(f.atoms[v.Index]) })
}
