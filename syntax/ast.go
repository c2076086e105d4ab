package syntax

import "fmt"

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes, as the Go compiler does. The zero Pos is "no position".
type Pos struct {
	Offset int // byte offset, 0-based
	Line   int // line number, 1-based
	Col    int // column (byte) number, 1-based
}

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as "line:col", or "-" for no position.
func (p Pos) String() string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%d:%d", p.Line, p.Col)
}

// Node is implemented by every node of the syntax tree.
type Node interface {
	Pos() Pos // position of the first character belonging to the node
}

// A File is one parsed source file: global declarations followed by
// procedures.
type File struct {
	Name     string     // file name used in diagnostics
	Globals  []*Decl    // global `decl` lines, in source order
	Procs    []*Proc    // procedures, in source order
	Comments []*Comment // all comments, in source order (kept for the printer)

	// Dialect is the precedence the file was parsed with (never Auto).
	Dialect Dialect

	ambiguities ErrorList
}

// Ambiguities returns a diagnostic for every expression of f that the
// other dialect's precedence would read as a different tree (for example
// `a & b = c`), at the position of the expression's first operand, saying
// how f's dialect reads it and how the other would. Parenthesised parts
// are judged on their own, and a chain of one associative operator
// (`a = b = c`) is not ambiguous: both dialects build the same tree. The
// list is sorted by position; it is empty for a File not made by
// ParseFile.
func (f *File) Ambiguities() ErrorList { return f.ambiguities }

// A Comment is a `// ...` or `/* ... */` comment, text included; the line
// ends inside a block comment are LF whatever the file used.
type Comment struct {
	Slash Pos
	Text  string
}

// Pos returns the position of the comment's first slash.
func (c *Comment) Pos() Pos { return c.Slash }

// An Ident is a name: a variable, procedure or label. Braced names such as
// `{p==q}` keep their text without the braces in Name and set Braced; the
// discard target `_` is an Ident named "_". A numeric label (`0: skip;`,
// `goto 3, 7;`) is an Ident whose Name is the digits as written.
type Ident struct {
	NamePos Pos
	Name    string
	Braced  bool
}

// Pos returns the position of the name (of its opening brace if braced).
func (x *Ident) Pos() Pos { return x.NamePos }

// A Decl is `decl a, b, {p==q};`, possibly with initial values, as in the
// iJIT examples: `decl a, b := T, *;`.
type Decl struct {
	DeclPos Pos
	Names   []*Ident
	Assign  Pos    // position of `:=`; invalid if there are no initial values
	Inits   []Expr // nil without `:=`; else one per name (ParseFile reports a mismatch)
	// Each says the initialisers were written after each name, `decl a
	// := e1, b := e2;`, not as a list after the names, `decl a, b := e1,
	// e2;`: the same declaration, which the printer writes as it came.
	Each bool
}

// Pos returns the position of the `decl` keyword.
func (d *Decl) Pos() Pos { return d.DeclPos }

// A Proc is a procedure definition
//
//	void f(a, b) begin decl x; enforce e; ... end
//
// Returns is the number of returned values: 0 for `void` (or no type, as in
// the Bebop paper), 1 for `bool`, n for `bool<n>`.
type Proc struct {
	TypePos Pos // position of the return type, or of the name if none
	Returns int
	Name    *Ident
	Params  []*Ident
	Begin   Pos     // position of `begin`
	Locals  []*Decl // `decl` lines at the top of the body
	Enforce Expr    // the `enforce e;` after the declarations, or nil
	Body    []Stmt
	End     Pos // position of `end`
}

// Pos returns the position where the procedure starts.
func (p *Proc) Pos() Pos { return p.TypePos }

// ---------------------------------------------------------------------------
// Expressions

// Expr is implemented by every expression node.
type Expr interface {
	Node
	exprNode()
}

// Const is a Boolean constant: T, F, 1 or 0.
type Const struct {
	ValuePos Pos
	Value    bool
}

// Nondet is the nondeterministic choice `*` (or `?`).
type Nondet struct {
	StarPos Pos
}

// VarRef is a use of a variable. Primed marks `'x`, the new value of x,
// which is only meaningful inside `constrain`.
type VarRef struct {
	TickPos Pos // position of `'`, or of the name if not primed
	Primed  bool
	Name    *Ident
}

// Unary is `!X` (also written `~X`).
type Unary struct {
	OpPos Pos
	Op    Op // always Not
	X     Expr
}

// Binary is `X op Y`. In a parsed tree, each maximal run of one
// associative operator (all but `=>`: Binary nodes of that operator below
// one another) is the balanced tree of its operands in order, the first
// ⌈n/2⌉ on the left, however the source grouped them.
type Binary struct {
	X     Expr
	OpPos Pos
	Op    Op
	Y     Expr
}

// Schoose is `schoose[Pos, Neg]`: T if Pos holds, else F if Neg holds, else
// either value.
type Schoose struct {
	Keyword Pos
	PosCond Expr
	NegCond Expr
}

// Old is `\old(x)`, the value x had when the function was entered. Only
// ParseExpr with AllowOld makes one (witness formulas).
type Old struct {
	Keyword Pos // position of `\old`
	Lparen  Pos
	Name    *Ident
	Rparen  Pos
}

// Result is `\result` (Index 0, also written `\result0`) or `\resultN`,
// a value the function returns. Only ParseExpr with AllowResult makes one
// (witness formulas).
type Result struct {
	ResultPos Pos
	Index     int
}

func (*Const) exprNode()   {}
func (*Nondet) exprNode()  {}
func (*VarRef) exprNode()  {}
func (*Unary) exprNode()   {}
func (*Binary) exprNode()  {}
func (*Schoose) exprNode() {}
func (*Old) exprNode()     {}
func (*Result) exprNode()  {}

// Pos returns the position of `\old`.
func (x *Old) Pos() Pos { return x.Keyword }

// Pos returns the position of `\result`.
func (x *Result) Pos() Pos { return x.ResultPos }

// Pos returns the constant's position.
func (x *Const) Pos() Pos { return x.ValuePos }

// Pos returns the position of `*`.
func (x *Nondet) Pos() Pos { return x.StarPos }

// Pos returns the position of the reference (of `'` if primed).
func (x *VarRef) Pos() Pos { return x.TickPos }

// Pos returns the operator's position.
func (x *Unary) Pos() Pos { return x.OpPos }

// Pos returns the position of the left operand.
func (x *Binary) Pos() Pos { return x.X.Pos() }

// Pos returns the position of the `schoose` keyword.
func (x *Schoose) Pos() Pos { return x.Keyword }

// Op is an operator of an expression.
type Op int

// The operators. Their binding strength depends on the Dialect.
const (
	Not     Op = iota + 1 // !
	And                   // &
	Or                    // |
	Xor                   // ^
	Eq                    // =
	Neq                   // !=
	Implies               // =>
)

var opText = [...]string{Not: "!", And: "&", Or: "|", Xor: "^", Eq: "=", Neq: "!=", Implies: "=>"}

// String returns the operator's canonical spelling.
func (op Op) String() string {
	if op > 0 && int(op) < len(opText) {
		return opText[op]
	}
	return fmt.Sprintf("Op(%d)", int(op))
}

// ---------------------------------------------------------------------------
// Statements

// Stmt is implemented by every statement node. Every statement may carry
// several labels (`L1: L2: skip;`).
type Stmt interface {
	Node
	StmtLabels() []*Ident
	stmtNode()
}

// Labels is embedded in every statement and holds its labels, outermost
// first.
type Labels struct {
	Labels []*Ident
}

// StmtLabels returns the statement's labels.
func (l *Labels) StmtLabels() []*Ident { return l.Labels }

// SkipStmt is `skip;`.
type SkipStmt struct {
	Labels
	Keyword Pos
}

// PrintStmt is `print(e, ...);`.
type PrintStmt struct {
	Labels
	Keyword Pos
	Args    []Expr
}

// GotoStmt is `goto L;` or the nondeterministic `goto L1, L2;`.
type GotoStmt struct {
	Labels
	Keyword Pos
	Targets []*Ident
}

// ReturnStmt is `return;` or `return e1, e2;`.
type ReturnStmt struct {
	Labels
	Keyword Pos
	Results []Expr
}

// AssignStmt is the parallel assignment `x, y := e1, e2 [constrain c];`.
type AssignStmt struct {
	Labels
	Lhs       []*Ident
	Assign    Pos // position of `:=`
	Rhs       []Expr
	Constrain Expr // nil if absent
}

// CallStmt is a procedure call `f(e);` (also `call f(e);`), possibly
// assigning the returned values: `x, _ := f(e);`. Lhs is nil for a plain
// call; an Ident named "_" discards the value in its place.
type CallStmt struct {
	Labels
	Lhs    []*Ident
	Proc   *Ident
	Lparen Pos
	Args   []Expr
}

// IfStmt is `if (c) then ... [elsif ... ] [else ...] fi`. An `elsif` branch
// is represented as an Else holding exactly one IfStmt with Elsif set.
type IfStmt struct {
	Labels
	Keyword Pos // `if` or `elsif`
	Elsif   bool
	Cond    Expr
	Then    []Stmt
	ElsePos Pos    // position of `else`, if any
	Else    []Stmt // nil if there is no else branch
	Fi      Pos    // position of `fi` (of the enclosing if's `fi` for elsif)
}

// WhileStmt is `while (c) do ... od`.
type WhileStmt struct {
	Labels
	Keyword Pos
	Cond    Expr
	Body    []Stmt
	Od      Pos
}

// AssertStmt is `assert(e);`.
type AssertStmt struct {
	Labels
	Keyword Pos
	Cond    Expr
}

// AssumeStmt is `assume(e);`: executions where e is false are cut.
type AssumeStmt struct {
	Labels
	Keyword Pos
	Cond    Expr
}

// AbortifStmt is `abortif e;`: executions where e holds stop here (silently,
// as with a failed assumption).
type AbortifStmt struct {
	Labels
	Keyword Pos
	Cond    Expr
}

// EnforceStmt is an `enforce e;` among the statements of a block (SATABS
// accepts those): from there to the end of the enclosing block, states
// violating e are cut. The `enforce` right after a procedure's declarations
// is Proc.Enforce instead.
type EnforceStmt struct {
	Labels
	Keyword Pos
	Cond    Expr
}

// ConstrainStmt is Getafix's `constrain(e);`: a step to any new state that
// satisfies e, where `'x` is the new value of x and x the old one. Every
// variable in scope may change (as in Getafix's own translation, which does
// not copy unmentioned variables), so `constrain(T);` forgets everything.
type ConstrainStmt struct {
	Labels
	Keyword Pos
	Cond    Expr
}

// SyncStmt is SATABS's `sync ev;`, which SATABS and WALi treat as `skip`.
type SyncStmt struct {
	Labels
	Keyword Pos
	Event   *Ident
}

// DeadStmt is `dead x, y;`: the values of the variables are forgotten.
type DeadStmt struct {
	Labels
	Keyword Pos
	Vars    []*Ident
}

// DeclStmt is a `decl x;` that appears among the statements of a body
// (SATABS accepts those); the variables are locals of the procedure whose
// values become nondeterministic each time the declaration is executed.
type DeclStmt struct {
	Labels
	Decl *Decl
}

// StartThreadStmt is `start_thread f(e);` or `start_thread goto L;`: Target
// is a *CallStmt or a *GotoStmt.
type StartThreadStmt struct {
	Labels
	Keyword Pos
	Target  Stmt
}

// EndThreadStmt is `end_thread;`.
type EndThreadStmt struct {
	Labels
	Keyword Pos
}

// AtomicBeginStmt is `atomic_begin;`.
type AtomicBeginStmt struct {
	Labels
	Keyword Pos
}

// AtomicEndStmt is `atomic_end;`.
type AtomicEndStmt struct {
	Labels
	Keyword Pos
}

func (*SkipStmt) stmtNode()        {}
func (*PrintStmt) stmtNode()       {}
func (*GotoStmt) stmtNode()        {}
func (*ReturnStmt) stmtNode()      {}
func (*AssignStmt) stmtNode()      {}
func (*CallStmt) stmtNode()        {}
func (*IfStmt) stmtNode()          {}
func (*WhileStmt) stmtNode()       {}
func (*AssertStmt) stmtNode()      {}
func (*AssumeStmt) stmtNode()      {}
func (*AbortifStmt) stmtNode()     {}
func (*DeadStmt) stmtNode()        {}
func (*EnforceStmt) stmtNode()     {}
func (*ConstrainStmt) stmtNode()   {}
func (*SyncStmt) stmtNode()        {}
func (*DeclStmt) stmtNode()        {}
func (*StartThreadStmt) stmtNode() {}
func (*EndThreadStmt) stmtNode()   {}
func (*AtomicBeginStmt) stmtNode() {}
func (*AtomicEndStmt) stmtNode()   {}

// Pos returns the position of the first label, or of the keyword.
func (s *SkipStmt) Pos() Pos        { return labelPos(s.Labels, s.Keyword) }
func (s *PrintStmt) Pos() Pos       { return labelPos(s.Labels, s.Keyword) }
func (s *GotoStmt) Pos() Pos        { return labelPos(s.Labels, s.Keyword) }
func (s *ReturnStmt) Pos() Pos      { return labelPos(s.Labels, s.Keyword) }
func (s *AssignStmt) Pos() Pos      { return labelPos(s.Labels, s.Lhs[0].NamePos) }
func (s *IfStmt) Pos() Pos          { return labelPos(s.Labels, s.Keyword) }
func (s *WhileStmt) Pos() Pos       { return labelPos(s.Labels, s.Keyword) }
func (s *AssertStmt) Pos() Pos      { return labelPos(s.Labels, s.Keyword) }
func (s *AssumeStmt) Pos() Pos      { return labelPos(s.Labels, s.Keyword) }
func (s *AbortifStmt) Pos() Pos     { return labelPos(s.Labels, s.Keyword) }
func (s *DeadStmt) Pos() Pos        { return labelPos(s.Labels, s.Keyword) }
func (s *EnforceStmt) Pos() Pos     { return labelPos(s.Labels, s.Keyword) }
func (s *ConstrainStmt) Pos() Pos   { return labelPos(s.Labels, s.Keyword) }
func (s *SyncStmt) Pos() Pos        { return labelPos(s.Labels, s.Keyword) }
func (s *DeclStmt) Pos() Pos        { return labelPos(s.Labels, s.Decl.DeclPos) }
func (s *StartThreadStmt) Pos() Pos { return labelPos(s.Labels, s.Keyword) }
func (s *EndThreadStmt) Pos() Pos   { return labelPos(s.Labels, s.Keyword) }
func (s *AtomicBeginStmt) Pos() Pos { return labelPos(s.Labels, s.Keyword) }
func (s *AtomicEndStmt) Pos() Pos   { return labelPos(s.Labels, s.Keyword) }

// Pos returns the position of the first label, of the first assigned
// variable, or of the procedure name.
func (s *CallStmt) Pos() Pos {
	if len(s.Lhs) > 0 {
		return labelPos(s.Labels, s.Lhs[0].NamePos)
	}
	return labelPos(s.Labels, s.Proc.NamePos)
}

// StmtPos returns the position of the statement itself, after its labels:
// where a trace step for it points.
func StmtPos(s Stmt) Pos {
	switch s := s.(type) {
	case *AssignStmt:
		return s.Lhs[0].NamePos
	case *CallStmt:
		if len(s.Lhs) > 0 {
			return s.Lhs[0].NamePos
		}
		return s.Proc.NamePos
	case *DeclStmt:
		return s.Decl.DeclPos
	}
	type keyworded interface{ keywordPos() Pos }
	if k, ok := s.(keyworded); ok {
		return k.keywordPos()
	}
	return s.Pos()
}

func (s *SkipStmt) keywordPos() Pos        { return s.Keyword }
func (s *PrintStmt) keywordPos() Pos       { return s.Keyword }
func (s *GotoStmt) keywordPos() Pos        { return s.Keyword }
func (s *ReturnStmt) keywordPos() Pos      { return s.Keyword }
func (s *IfStmt) keywordPos() Pos          { return s.Keyword }
func (s *WhileStmt) keywordPos() Pos       { return s.Keyword }
func (s *AssertStmt) keywordPos() Pos      { return s.Keyword }
func (s *AssumeStmt) keywordPos() Pos      { return s.Keyword }
func (s *AbortifStmt) keywordPos() Pos     { return s.Keyword }
func (s *DeadStmt) keywordPos() Pos        { return s.Keyword }
func (s *EnforceStmt) keywordPos() Pos     { return s.Keyword }
func (s *ConstrainStmt) keywordPos() Pos   { return s.Keyword }
func (s *SyncStmt) keywordPos() Pos        { return s.Keyword }
func (s *StartThreadStmt) keywordPos() Pos { return s.Keyword }
func (s *EndThreadStmt) keywordPos() Pos   { return s.Keyword }
func (s *AtomicBeginStmt) keywordPos() Pos { return s.Keyword }
func (s *AtomicEndStmt) keywordPos() Pos   { return s.Keyword }

func labelPos(l Labels, p Pos) Pos {
	if len(l.Labels) > 0 {
		return l.Labels[0].NamePos
	}
	return p
}

// Pos returns the position of the first declaration or procedure.
func (f *File) Pos() Pos {
	switch {
	case len(f.Globals) > 0:
		return f.Globals[0].Pos()
	case len(f.Procs) > 0:
		return f.Procs[0].Pos()
	}
	return Pos{}
}
