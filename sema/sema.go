// Package sema checks the static semantics of a parsed Boolean program:
// names, scopes, procedure arity, returned values, labels. It reports fatal
// errors and harmless-but-suspicious warnings in two separate lists, and
// returns an Info that records how every name resolved, for the `ir`
// lowering and the other later stages.
//
// # Scopes
//
// There are three separate namespaces: variables, procedures and labels. A
// variable use inside a procedure resolves to the procedure's own variable of
// that name if there is one, else to the global of that name. A procedure's
// own variables are its parameters, its `decl` lines at the top of the body,
// and the names of every `decl` statement (DeclStmt) anywhere in its body;
// all of them are visible in the whole procedure, whatever the position of
// the declaration, because the language has no blocks. A parameter or local
// may shadow a global of the same name (c2bp output relies on that); two
// variables of the same procedure, or two globals, may not share a name.
// Labels are per procedure: a goto may jump anywhere in its own procedure,
// into or out of if/while bodies, but not into another procedure.
// T, F, 0 and 1 are constants, not names.
//
// # Errors (each reported once, at the offending token)
//
//   - duplicate global variable x (first declared at L:C)
//   - duplicate variable x in procedure f (first declared at L:C)
//   - duplicate procedure f (first defined at L:C)
//   - goto to label L, which is repeated in procedure f (at L:C, L:C, ...):
//     a label on several statements of one procedure (see Warnings) cannot
//     be a jump target, which would be ambiguous; `start_thread goto` too
//   - undeclared variable x; undefined procedure f; undefined label L in
//     procedure f; each reported at its first occurrence in a procedure only,
//     since one declaration fixes them all
//   - no procedure main (at 1:1), unless the file follows the Getafix
//     convention of thread procedures (a procedure named thread0, thread1,
//     ...), where `main` is optional
//   - call of f with 1 argument; f has 2 parameters
//   - f returns 2 values, 1 assigned; f returns no value, 1 assigned (a plain
//     call with no targets is always fine, whatever f returns)
//   - return of 1 value in procedure f, which returns 2 values; return of 1
//     value in void procedure f (a bare `return;` is always fine: the results
//     are then nondeterministic)
//   - assignment mismatch: 2 targets but 1 value
//   - x assigned twice in one statement (among the targets of a call; in a
//     parallel assignment it is a warning)
//   - initialiser of global g may use only constants and *, not the
//     variable x; initialiser of l reads the local m, which has no value on
//     entry (only parameters and globals may be read); declaration mismatch:
//     2 variables but 1 initialiser (only in a hand-built tree)
//   - call of main in a program with global initialisers (first at L:C):
//     they run once, at the entry of main (of init under the Getafix
//     convention), so that procedure may not be called
//   - cannot use _ as a value; cannot declare _ as a variable
//   - primed variable 'x outside a constrain clause
//   - start_thread cannot assign the results of f
//
// # Warnings
//
//   - label L repeated in procedure f (first at L:C); no goto names it, so
//     it marks every occurrence. Getafix's SafeStack experiments write
//     `SLIC_ERROR: skip;` once per branch, and Getafix's translator reads a
//     target label as every statement carrying it. The same label written
//     twice on the same statement is no repetition, as in SATABS (c2bp
//     output contains `zS_1: zS_1: goto L7;`).
//   - x assigned twice in one statement: the step is blocked where the
//     values differ. Getafix's generated files contain `a, a := e1, e2;`,
//     which its translator turns into "the next value of a is e1 and is
//     e2": the step exists only where some choice makes e1 and e2 equal.
//   - global variable x declared and not used; local variable x declared and
//     not used; parameter x declared and not used. Any mention counts as a use
//     (read, assignment target, dead). Globals named `atomic` and
//     `super_atomic` are exempt: under the Getafix convention the
//     concurrent engines read `atomic`, and Getafix's experiment programs
//     declare `super_atomic` first for its translator, whose atomic flag
//     is the first global.
//   - primed variable 'x is not assigned by this assignment (it equals x):
//     in `a := e constrain 'x` with x not among the targets, 'x is the new
//     value of x, which is the old one. SATABS accepts this and c2bp emits it
//     (the Constrain4 benchmark verifies only with that reading), so it is
//     legal; the lowering must read such an 'x as x.
//   - unreachable statement labelled L: the statement cannot be reached from
//     the procedure's entry along control flow, treating every condition
//     (including assume and abortif) as possibly true or false and every call
//     as returning. Only labelled statements are reported, since an
//     unlabelled statement after a goto or return is a normal product of
//     generators, and only once per run of consecutive unreachable statements
//     (inner statements of an unreachable if or while belong to its run).
//
// # Decisions
//
//   - main may have parameters (their values are nondeterministic) and may
//     return values (they are discarded); SATABS's Return2 test has
//     `bool<2> main()`.
//   - A procedure returning values may be called as a plain statement; the
//     values are discarded. Recursion, direct or mutual, is fine.
//   - `_` may be a target of a call (discarding that value) and, as SATABS's
//     type checker accepts, of a plain assignment, where it discards the
//     value of the expression in its place. It may not be read, primed,
//     declared or named in `dead`.
//   - Initialisers (`decl x := e;`): a global's initialiser constrains the
//     initial state, so it may use only constants and `*` (its value then
//     cannot depend on the order of declarations); it runs once, at the
//     start of the program, which is main's entry (init's under the Getafix
//     convention), so that procedure may not also be called. A local of the
//     `decl` lines at the top of a body is assigned its initialiser on every
//     entry to the procedure, after the parameters are bound; all of them
//     at once, so an initialiser may read the parameters and the globals but
//     not the procedure's other locals. A `decl x := e;` among the
//     statements assigns e each time it is executed (instead of forgetting
//     x's value) and may read any variable in scope. No initialiser may
//     contain a primed variable.
//   - Threads: `start_thread f(e)` is checked like a call (existence, arity)
//     but may not assign results, which have nowhere to go; `start_thread
//     goto L` needs L in the procedure. `ASYNC_n:` labels are ordinary labels
//     here; turning them into thread starts is the lowering's business.
package sema
