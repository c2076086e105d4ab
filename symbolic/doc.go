// Package symbolic lays out the variables of a Boolean program as BDD
// variables and builds the BDDs of its edge relations, for the symbolic
// engines (package bdd underneath).
//
// # Slots: scoping keeps the manager small
//
// A BDD of a symbolic engine only ever talks about the variables in scope at
// one location: the globals and the locals of one procedure. So variables
// are not given BDD variables of their own; they are given slots (see
// Slots): slot i < G is global i, slot G+j is local j of whichever procedure
// is executing (locals of different procedures share slots), and slot
// G+L+i (L = the largest number of locals of any procedure) holds returned
// value i of the procedure that is returning. The number of BDD variables
// therefore depends on the widest scope, never on the number of procedures:
// the Bebop template T(N) has 3N+1 variables but needs 4 slots.
//
// # Copies, interleaved
//
// Every slot has at least three BDD variables, adjacent in the order: its
// Entry copy (the value when the current procedure was entered: the context
// of a path edge), its Cur copy (the value now) and its Next copy (the value
// after a transition). A path edge of the RHS/Bebop algorithm is a BDD over
// Entry and Cur copies, a transition relation a BDD over Cur and Next
// copies, and the image of one by the other a relational product over Cur
// followed by a Next→Cur renaming (bdd.Pairs built once).
//
// A layout may have more copies (LayoutOptions): Mid, the intermediate
// state of a composition of relations (Compose), and more copies of the
// globals only (for instance the k+1 valuations at the context switches of
// a context-bounded analysis), and program-counter bits (PC, PCBitsFor),
// each with its copies. The variables are taken after those the manager
// already has, and each slot and each pc bit is a reordering block.
//
// # Order
//
// The order of the slots (each slot's three copies staying together) is
// either the declaration order or, by default, an affinity order computed
// from the program: slots that are assigned together, read by the same
// assignment or bound to each other by a call sit close together (see
// Order).
//
// # Relations and frames
//
// Edge relations (Rel) constrain only the Next copies of the slots the edge
// may change; every other slot keeps its value. The frame is left implicit,
// so that an image costs time in the size of the changed part only: the
// caller quantifies the Cur copies of the changed slots and renames their
// Next copies (an Image, see Layout.NewImage, does exactly that). Layout.Full adds the explicit
// frame where a complete relation is needed (trace generation).
//
// Nondeterminism follows package ir: every `*` and every undecided schoose
// is an independent choice, so an expression denotes a set of possible
// values, encoded by two BDDs (can be true, can be false); see Layout.Poss.
//
// # Analyses
//
// The program analyses the symbolic engines use (MOD/REF, live variables,
// the call graph's components) are in package analysis, over the same slot
// numbering (Slots and Set are package analysis's).
//
// All BDDs returned by this package are ordinary bdd temporaries: a caller
// that keeps them across a bdd Safepoint must hold them in a Root.
package symbolic
