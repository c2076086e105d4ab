// Package program turns a sequential Boolean program into the relations
// of the fixed-point calculus of package fix, the Getafix paper's
// interface (La Torre, Madhusudan, Parlato, 2009, §4) between a program
// and the algorithms written as formulas over it.
//
// The program never appears in a formula's text. Its states are values
// of the type State (Encoding: a program counter and one bit per slot of
// package symbolic), and the program is a handful of relations between
// states:
//
//	Entry(u) Exit(u) Target(u) Init(u)   u at an entry, an exit, an error; an initial state
//	Across(x, v)                         x.pc is a call and v.pc its return point
//	ProgramInt(x, v)                     one step along an edge that is not a call
//	IntoCall(x, y)                       x is a call and y the callee's entry state
//	Return(x, z, v)                      x a call, z the callee's exit, v the return point
//	ReturnA(x, zs, v) ReturnB(xs, z, v)  Return split in the caller's and the callee's half
//
// The relations are built once, over an algebra of formulas, in two
// forms that cannot disagree: as BDDs over any BDD variables (Relations,
// handed to a solver by fix.Solver.Provide), and as formulas in Mucke's
// language (WriteModel, the text of `boolprog mucke --emit`). The
// built-in algorithms (Algorithm) are the paper's simple summary
// algorithm (§4.1), entry-forward with the split return clause (§4.2) and
// optimised entry-forward with the frontier bit (§4.3).
//
// The fixed-point engines (engine/fixpoint, engine/concfix) share this
// package; it imports no engine.
package program
