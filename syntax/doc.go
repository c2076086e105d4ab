// Package syntax reads Boolean programs: it holds the positions, tokens,
// scanner, parser, syntax tree and printer of the language described in
// DESIGN.md ("The language"), which is the union of the public dialects
// (SLAM/Bebop, SATABS/c2bp, Getafix, WALi and the iJIT examples). This
// comment is the reference for the syntax; the meaning of each construct is
// given with its node type (Decl, AssignStmt, ...) and in package sema.
//
// The tree is deliberately free of spelling: `call f()` and `f()`, `T` and
// `1`, `*` and `?`, `&&` and `&`, `fi;` and `fi` all parse to the same nodes,
// and the printer writes one canonical spelling. Parentheses are not kept
// either, nor the grouping of a chain of one associative operator
// (`((a & b) & c) & d` and `a & (b & c) & d` are `a & b & c & d`); the
// printer puts back exactly the parentheses needed so that its output
// parses to the same tree under both precedence dialects. That makes
// "print(parse(x)) parses to the tree of x" a precise, testable promise.
// A tree built by hand in another shape prints as the text of its canonical
// form, which means the same (see ExprString).
//
// # Lexical structure
//
// A file is UTF-8 text (a leading byte order mark is skipped) whose lines
// end in LF, CRLF or CR alone; positions are line:column, the column
// counted in bytes. Comments are `// ...` (to the end of the line) and
// `/* ... */`. An identifier is a letter, `_` or `$` followed by letters,
// digits, `_`, `$`, `#` and `-` (c2bp writes `a-b` and `x#1`; there is no
// subtraction), or any text on one line between braces: `{p==q}` is the
// name `p==q`. Numbers are digit strings: `0` and `1` are the constants F
// and T, and any number may be a label. `T`, `F`, `_` and `sync` are not
// reserved; the parser gives them their meaning where they stand.
//
// # Declarations and procedures
//
//	decl a, b, {p==q};        // variables, Boolean, values nondeterministic
//	decl l := 1;              // with initial values (iJIT): one per name,
//	decl s, t := *, !l;       // any expressions
//	void f(a, b) begin ... end
//	bool g() begin ... end    // one result; bool<3> h() returns three
//	main() begin ... end      // no type, as in the Bebop paper: void
//	dfs void f() begin ... end // SATABS's search hint, ignored
//
// Global `decl`s come before or between procedures. A procedure body starts
// with its `decl`s, then optionally `enforce e;`, then its statements,
// among which further `decl`s may appear (DeclStmt).
//
// # Statements
//
// Every statement may carry labels, `L1: L2: skip;`; a label is a name or a
// number (`0: skip;`, as SATABS generates them). A `;` ends each simple
// statement; the last one before `end`, `fi`, `od`, `else` or `elsif` may go
// without, and stray `;`s are ignored.
//
//	skip;  print(e, ...);  assert(e);  assume(e);  abortif e;  enforce e;
//	x, y := e1, e2;  x, y := e1, e2 constrain c;  constrain(c);
//	f(e);  call f(e);  x, _ := f(e);
//	goto L;  goto L1, L2;  goto 3, 7;  return;  return e1, e2;
//	if (e) then ... elsif (e) then ... else ... fi   (elsif, else optional)
//	while (e) do ... od
//	dead x, y;  sync ev;  decl x;
//	start_thread f(e);  start_thread goto L;  end_thread;
//	atomic_begin;  atomic_end;
//
// Parentheses around conditions are optional. A chain of `elsif` branches
// is one level of nesting however long it is (see MaxNesting). A label
// repeated in a procedure and a variable named twice on the left of an
// assignment are accepted here; package sema judges them.
//
// # Expressions
//
// Operands are `T`, `F`, `1`, `0`, `*` (or `?`, nondeterministic), a
// variable `x`, its next value `'x` (inside constrain), `schoose[p, n]` and
// parenthesised expressions; `!` (or `~`) negates. The binary operators are
// `&` (`&&`), `|` (`||`), `^`, `=` (`==`), `!=` and `=>`, and their
// precedence depends on the Dialect, loosest first:
//
//	cprover: (= != =>, grouping right) < ^ < | < &
//	getafix: => < | < ^ < & < (= !=), all grouping left
//
// A chain of one associative operator (all but `=>`) means the same however
// it is grouped, and both dialects build it as the same balanced tree, so
// that a chain of a million terms is only about 20 levels deep for every
// later recursive walker; the printer writes such a chain without
// parentheses. The grouping is not recorded: a parenthesised operand whose
// own top operator is the chain's operator is part of the chain, so the
// fully parenthesised chains c2bp writes, `((a & b) & c) & d`, read (and
// print) as `a & b & c & d`. Only the same operator merges: `(a = b) != c`
// and `(a | b) & c` keep their parentheses. Only chains that mix operators can read differently in the
// two dialects (`a & b = c` is `(a & b) = c` in cprover and `a & (b = c)`
// in getafix): File.Ambiguities lists them, and DetectDialect (or ParseFile
// with Auto) chooses the getafix precedence for files that follow the
// Getafix convention.
//
// # Limits and foreign input
//
// Nesting is bounded by MaxNesting, which also says what counts. Input
// that is recognisably something else, most often C (`int x;`, `#include`,
// `x = 1;`, a `{` block), is reported as such ("this looks like C: ..."),
// saying why it is not a Boolean program.
//
// # Formulas
//
// ParseExpr reads one expression on its own, such as a formula of a
// witness (package witness). Its Mode admits what formulas have and
// programs do not: `\old(x)` (an Old node), `\result` and `\result1`, ...
// (Result nodes), thread-qualified names with dots (`t1.x`, `t1.0.x`), and
// `true` and `false` as constants. In a program, ParseFile rejects each of
// them as it rejects any stray character.
package syntax
