package fix

// File is a parsed input: its declarations in source order.
type File struct {
	Name  string
	Decls []Decl

	// Filled by Check.
	checked bool
	info    *info
}

// Decl is a top-level declaration: *EnumDecl, *ClassDecl, *RelDecl,
// *Directive or *Query.
type Decl interface{ declPos() Pos }

// EnumDecl declares a finite type: a range of integers (enum CS {0..3};)
// or a list of named values (enum Color {red, green};).
type EnumDecl struct {
	Pos    Pos
	Name   string
	Lo, Hi int      // the range, when Names is nil
	Names  []string // the named values, in order (value i is Names[i])
}

// ClassDecl declares a record type with typed fields and optional order
// constraints among the fields.
type ClassDecl struct {
	Pos    Pos
	Name   string
	Fields []*Field
	Order  []*Constraint
}

// Field is one field of a class.
type Field struct {
	Pos  Pos
	Type *TypeName
	Name string
}

// TypeName names a type: bool or a declared enum or class.
type TypeName struct {
	Pos  Pos
	Name string // "bool" for the built-in type
	// Len is n for an array variable, declared T x[n] (its elements are
	// x[0] ... x[n-1]); 0 otherwise.
	Len int
}

// RelKind says how a relation is defined.
type RelKind int

// The kinds of relation definitions.
const (
	Plain    RelKind = iota // bool R(...) (...): defined once, not recursive
	Least                   // mu bool R(...): least fixed point
	Greatest                // nu bool R(...): greatest fixed point
)

// String is the keyword that introduces the kind: bool, mu or nu.
func (k RelKind) String() string {
	switch k {
	case Least:
		return "mu"
	case Greatest:
		return "nu"
	}
	return "bool"
}

// RelDecl defines a relation: kind, name, typed parameters, order
// constraints among the parameters, and the body formula.
type RelDecl struct {
	Pos    Pos
	Kind   RelKind
	Name   string
	Params []*Param
	Order  []*Constraint
	Body   Expr // nil for a declaration without a body (see Solver.Provide)
}

// Param is a typed variable: a relation parameter or a quantified variable.
type Param struct {
	Pos  Pos
	Type *TypeName
	Name string
}

// Constraint is an order constraint between two variables (or fields):
// A < B puts every bit of A before every bit of B; A ~+ B interleaves them.
type Constraint struct {
	Pos        Pos
	A, B       string
	Interleave bool
}

// Directive is #name args; (#size R, #timer, #reset R). Directives are
// accepted; #size asks for the node and assignment counts of a relation.
type Directive struct {
	Pos  Pos
	Name string
	Args []string
}

// Query is an unnamed formula at top level; the last one is the query
// whose value Solve reports.
type Query struct {
	Pos  Pos
	Body Expr
}

func (d *EnumDecl) declPos() Pos  { return d.Pos }
func (d *ClassDecl) declPos() Pos { return d.Pos }
func (d *RelDecl) declPos() Pos   { return d.Pos }
func (d *Directive) declPos() Pos { return d.Pos }
func (d *Query) declPos() Pos     { return d.Pos }

// Expr is a formula or a term: *Const, *Path, *Int, *Not, *Binary,
// *Compare, *Apply or *Quant.
type Expr interface{ exprPos() Pos }

// Const is true or false.
type Const struct {
	Pos   Pos
	Value bool
}

// Int is an integer constant (an enum value, or 0/1 for a bool).
type Int struct {
	Pos   Pos
	Value int
}

// Path is a variable, an enum value name, or a field selection x.f.g;
// an array element x[2] is the name "[2]".
type Path struct {
	Pos   Pos
	Names []string
}

// Not is !X.
type Not struct {
	Pos Pos
	X   Expr
}

// BinOp is a binary Boolean connective.
type BinOp int

// The binary connectives, loosest first.
const (
	OpIff BinOp = iota // <->
	OpImp              // ->
	OpOr               // |
	OpAnd              // &
)

// String is the operator as written.
func (o BinOp) String() string { return [...]string{"<->", "->", "|", "&"}[o] }

// Binary is X op Y.
type Binary struct {
	Pos  Pos
	Op   BinOp
	X, Y Expr
}

// Compare is X = Y or X != Y between terms.
type Compare struct {
	Pos  Pos
	Neg  bool
	X, Y Expr
}

// Apply is R(args): relation R applied to terms.
type Apply struct {
	Pos  Pos
	Name string
	Args []Expr
}

// Quant is exists/forall T x, U y. Body.
type Quant struct {
	Pos    Pos
	Forall bool
	Vars   []*Param
	Body   Expr
}

func (e *Const) exprPos() Pos   { return e.Pos }
func (e *Int) exprPos() Pos     { return e.Pos }
func (e *Path) exprPos() Pos    { return e.Pos }
func (e *Not) exprPos() Pos     { return e.Pos }
func (e *Binary) exprPos() Pos  { return e.Pos }
func (e *Compare) exprPos() Pos { return e.Pos }
func (e *Apply) exprPos() Pos   { return e.Pos }
func (e *Quant) exprPos() Pos   { return e.Pos }

// applications calls f on each application in the formula e, left to
// right (not inside an application's arguments, which are terms).
func applications(e Expr, f func(*Apply)) {
	switch e := e.(type) {
	case *Not:
		applications(e.X, f)
	case *Binary:
		applications(e.X, f)
		applications(e.Y, f)
	case *Quant:
		applications(e.Body, f)
	case *Apply:
		f(e)
	}
}
