package sema

import "boolprog/syntax"

// Info is what Check learns about a file and what later stages (ir, interp,
// the engines' trace printers) need without redoing name resolution. Check
// always returns a non-nil Info, even when it reports errors; it is only
// complete and consistent when there are no errors, so a caller should not
// lower a program whose errs list is non-empty.
type Info struct {
	// Globals are the global variables in declaration order;
	// Globals[i].Index == i. A name declared twice appears once (the
	// first declaration).
	Globals []*Var

	// Procs are the procedures in source order; Procs[i].Index == i. A
	// procedure defined twice appears once (the first definition); the
	// duplicate is still checked but not recorded here.
	Procs []*ProcInfo

	// Main is the procedure named main, or nil if there is none (an
	// error unless the file follows the Getafix thread convention; see
	// the package comment).
	Main *ProcInfo

	// Uses maps every identifier that refers to a variable and resolved
	// to one: VarRef names (primed or not, in every expression, including
	// `enforce` and `constrain`), assignment and call targets, and `dead`
	// operands. The discard `_` and undeclared names have no entry.
	Uses map[*syntax.Ident]*Var

	// Defs maps every declaring identifier (global and local `decl`
	// names, DeclStmt names, parameters) to its variable. A duplicate
	// declaration has no entry.
	Defs map[*syntax.Ident]*Var

	// Calls maps every call statement (including the one inside a
	// `start_thread f(...)`) whose procedure exists to that procedure.
	Calls map[*syntax.CallStmt]*ProcInfo

	// Jumps maps every label named by a `goto` or `start_thread goto` to
	// the statement that carries the label. A label that is undefined, or
	// repeated in its procedure (an error for a jump), has no entry.
	Jumps map[*syntax.Ident]syntax.Stmt

	// Errors is the number of errors Check reported; Info is complete
	// and consistent only when it is 0 (ir.Lower refuses it otherwise).
	Errors int

	globalByName map[string]*Var
	procByName   map[string]*ProcInfo
}

// Global returns the global variable called name, or nil.
func (info *Info) Global(name string) *Var { return info.globalByName[name] }

// Proc returns the procedure called name, or nil.
func (info *Info) Proc(name string) *ProcInfo { return info.procByName[name] }

// Lookup resolves name as a use inside procedure p would: p's parameters
// and locals first, then the globals. It returns nil if name is not a
// variable there. p may be nil, meaning global scope.
func (info *Info) Lookup(p *ProcInfo, name string) *Var {
	if p != nil {
		if v := p.byName[name]; v != nil {
			return v
		}
	}
	return info.globalByName[name]
}

// ProcInfo describes one procedure.
type ProcInfo struct {
	Proc    *syntax.Proc
	Name    string
	Index   int // position in Info.Procs
	Returns int // number of returned values (0 for void), as Proc.Returns

	// Vars are the procedure's own variables: its parameters in order,
	// then its locals in source order (first the `decl` lines at the top
	// of the body, then the names of DeclStmts in the body, in the order
	// they appear in the text). Vars[i].Index == i, so Vars is a ready
	// frame layout. Params and Locals are the two parts of Vars.
	Vars   []*Var
	Params []*Var
	Locals []*Var

	// Labels maps every label of the procedure (on statements at any
	// nesting depth) to the statements it labels, in source order. A
	// label has several statements only if it is repeated in the
	// procedure, which is accepted (with a warning) when no goto names it;
	// it then marks every one of them (a target label means each).
	Labels map[string][]syntax.Stmt

	byName map[string]*Var
}

// Var returns the parameter or local of p called name, or nil; it does not
// look at globals (see Info.Lookup).
func (p *ProcInfo) Var(name string) *Var { return p.byName[name] }

// A Var is a declared variable: a global, a parameter or a local.
type Var struct {
	Name   string
	Global bool
	Param  bool // a parameter of Proc (never set for globals)
	// Index is the position in Info.Globals for a global, in the owning
	// ProcInfo.Vars for a parameter or local.
	Index int
	Decl  *syntax.Ident // the declaring identifier
	Proc  *syntax.Proc  // the owning procedure; nil for globals
}

// String returns the name as written in source: braced names get their
// braces back.
func (v *Var) String() string { return show(v.Decl) }

func show(id *syntax.Ident) string {
	if id.Braced {
		return "{" + id.Name + "}"
	}
	return id.Name
}
