// Package fix reads and solves the fixed-point calculus over finite
// relations that the Getafix paper (La Torre, Madhusudan, Parlato, 2009)
// uses to write model checkers, in the input language of the solver
// Mucke, as Getafix's translator and formula files use it.
//
// A file is parsed by [ParseFile], checked by [Check] (names, fields,
// arities and types, before any BDD work) and evaluated by [Solve] over
// the boolprog/bdd engine. Errors are reported as an [ErrorList] of
// file:line:col: message lines.
//
// # Language reference
//
// Comments are // to the end of the line and /* ... */. Identifiers are
// letters, digits, _ and ' (so r' is a name), not starting with a digit.
// A file is a sequence of declarations, each ended by ';'.
//
// Types. bool is built in. An enum is a range of integers or a list of
// names; a class is a record whose fields are bool, enum or class values,
// optionally followed by order constraints on its fields:
//
//	enum Module {0..4};
//	enum Color {red, green, blue};
//	class Global { bool v1; bool v2; };
//	class Pair { Global g; Global h; } g ~+ h;
//
// Relations. A definition gives the kind, the name, typed parameters,
// optional order constraints among the parameters, and the body formula:
//
//	bool Edge(Node x, Node y) x ~+ y ( (x=0 & y=1) | (x=1 & y=2) );
//	mu bool Reach(Node x) ( x=0 | exists Node y. (Reach(y) & Edge(y, x)) );
//	nu bool Live(Node x) ( exists Node y. (Edge(x, y) & Live(y)) );
//
// A plain bool relation is defined once and may not be recursive. It may
// also be declared without a body, its value coming from a Go program (see
// [Solver.Provide]); package engine/fixpoint declares a program's
// relations so:
//
//	bool ProgramInt(State x, State v) x ~+ v;
//
// A relation may be declared before its definition (Mucke's prototypes,
// which Getafix's translator writes for mutually recursive summaries):
// the head alone, then the definition with the same kind and parameter
// types:
//
//	mu bool Level2(Module m, PrCount pc);
//
// A plain bool head that no definition follows is provided from Go.
//
// A mu relation is the least relation satisfying its equation, a nu
// relation the greatest. Relations may use relations defined later in the file, and
// mu and nu relations may depend on each other (see Evaluation for what
// such a system means).
//
// Order constraints fix the BDD variable order: a < b puts every bit of a
// before every bit of b; a ~+ b interleaves their bits (bit 0 of a, bit 0
// of b, bit 1 of a, ...). They never change the meaning of a formula.
//
// Formulas, from the loosest binding to the tightest: f <-> g, f -> g
// (right associative), f | g, f & g, !f, and the atoms: true, false, a
// bool variable or field (s.pc.b1), a comparison t = u or t != u, an
// application R(t1, ..., tn), a parenthesised formula, and the quantifiers
//
//	exists T x, U y. f
//	forall T x. f
//
// whose body extends as far right as possible; "T x, y" declares x and y
// both of type T. A comparison binds tighter than !, so !a = b means
// !(a = b). A comparison relates two values of the same type
// (variables, fields such as t_G.v1, or whole records, compared bit by
// bit) or a value with a constant: 0/1 or true/false for bool, an integer
// in the range or a value name for an enum. The arguments of an
// application are variables, fields or constants of the parameters' types:
//
//	programInt1(0, t_pc, s_pc, t_CL, s_CL, t_G, s_G)
//
// A quantified variable ranges over the values of its type only (an
// enum {0..4} has 3 bits but 5 values), and a relation holds only for
// tuples of legal values.
//
// Directives start with '#' and end at ';' or at the end of the line:
// #size R asks for the node count and the number of tuples of R (in
// [Answer.Sizes]); #frontier R asks for the frontier evaluation of R's
// group of relations (see Evaluation); #timer and #reset are accepted and
// have no effect.
//
// The query is a formula written at top level without a name, usually at
// the end of the file (its ';' may be left out there); it must have no
// free variables. Solve reports the value of the last one:
//
//	(exists Node x. Reach(x) & x=2);
//
// Mucke's other spellings and constructs are read too: Exists, EXISTS,
// Forall, FORALL; ':' after the quantified variables; struct for class;
// 0...3 for a range; f <- g (g -> f); f <+> g (not f <-> g);
// if (c) f else g, and if (c) f alone, which Mucke reads as c -> f;
// case c1 : f1; ...; cn : fn; esac (the first ci that holds selects fi,
// false when none holds); and the order constraints a > b (b < a),
// a ~- b (read as a ~+ b) and ~+ a, ~- a alone (no constraint here).
// Arrays too: a parameter, field or quantified variable declared T x[n]
// holds n values of T, x[0] ... x[n-1] (an index must be an integer
// constant here; Mucke allows any term). Not accepted: the attributes
// assume, cofactor and {...}, and the directives other than #size,
// #frontier, #timer and #reset (#print, #cex, #witness, #visualize,
// #onsetsize, #dump, #undump, #load, #verbose, #quit).
//
// # Evaluation
//
// Each relation's parameters and quantified variables get their own BDD
// variables, allocated definition by definition in the order the
// constraints ask; a quantified variable is interleaved with the
// parameter of its type whose name ends the same way (t_pc1 beside
// s_pc1), just before it or just after it as the applications that take
// both say (R(t_pc1, s_pc1) with R's cp ~+ dp puts t_pc1 first), or, if
// no parameter has its type (in a query), with an earlier quantified
// variable of its type that an application interleaves it with, and
// otherwise in the order the applications' relations give their
// parameters, so that the renamings an application needs keep the order.
// Applying a relation renames its parameters onto the arguments
// (constants are fixed and quantified away first); a closed formula
// exists x. (R(x) & f) in a relation that R's component iterates renames
// the unchanging f onto R's parameters once instead of R's new value onto
// x in every round. Existential
// quantification is pushed through disjunctions, and within a conjunction
// each variable is quantified with [bdd.Manager.AndExists] as soon as no
// later conjunct mentions it.
//
// A relation whose body is a disjunction guarded by one parameter, as
// Getafix's per-module relations are (R(m, ...) = (m=4 & ...) | (m=5 &
// ...) | ...), is kept as a list of parts, one per guard value, when its
// component is of one kind and uses itself only under &, | and exists:
// an application with a constant at that parameter (R(5, ...)) reads
// only its part, and the dependencies follow the parts, so that a
// component that held every summary of a program falls apart into one
// per summary (the value is the same: see split.go). --stats lists the
// parts as R[5].
//
// Relations are evaluated by strongly connected components of their
// dependencies, each after the components it uses, so a relation only ever
// sees final values of relations outside its own component. A
// non-recursive relation is computed once. A recursive relation R = B is
// computed as the Getafix paper's §3 defines it (its "algorithmic
// semantics"): start from false for mu, from the full domain for nu; in
// each round evaluate from scratch, with R fixed at its current value,
// every other relation of the component that B uses, then evaluate B; stop
// when R's value does not change. Inner relations are thus recomputed in
// every outer round, and a non-monotone body is iterated as written: when
// its values come back to an earlier one without stabilising, Solve fails
// with [ErrNoFixedPoint]. When the
// component is one relation, or relations of one kind whose bodies use the
// component only under an even number of negations, all members are
// iterated together instead (each round evaluates every member with the
// latest values): for such monotone systems the result is the same and the
// cost far lower. Parts of a recursive body that do not mention the
// component are computed once and reused in every round. In a nested
// evaluation, only the members that something outside the component reads
// are evaluated outermost, and an inner relation whose inputs (the fixed
// relations it depends on) have not changed since its last evaluation
// keeps its value instead of being computed again.
//
// # Relations from Go
//
// [Solve] evaluates a file on its own. A [Solver] lets a Go program take
// part: [NewSolver] checks the file and allocates the BDD variables,
// [Solver.Bits] says which variables hold a parameter (or a field of it),
// [Solver.Provide] gives the value of a declared relation (or replaces a
// plain definition) as a BDD of [Solver.Manager], [Solver.Start] starts a
// mu relation's iteration from a value the caller knows to lie below its
// least fixed point (the value of an earlier solve of a smaller model),
// [Solver.Track] keeps the tuples each round adds to a relation, and
// after [Solver.Solve] the values ([Solver.Value]) and rounds
// ([Solver.Layers]) can be read until [Solver.Release].
//
// The frontier optimisation (#frontier R): a group of mu relations whose
// members are applied, in their bodies, only under &, | and exists (Check
// refuses the directive otherwise) can be evaluated from the tuples each
// round adds rather than from the whole relations: after a first full
// round, each round evaluates, for every application of a member, the
// body with that application reading only the previous round's new
// tuples (the rest of the body reading the whole relations), and only the
// parts of the body on the way to it. The result is the same; a round
// costs time in the size of what is new, not of everything found, which
// pays off when many rounds each add little. (The paper's §4.3 reaches a
// similar effect inside a formula, with a frontier bit: see package
// engine/fixpoint.)
//
// Limits: the context is checked every few hundred evaluation steps, but
// one very large BDD operation is not interrupted; the node limit
// ([Options.MaxNodes]) stops any operation. Directives #timer and #reset
// have no effect.
package fix
