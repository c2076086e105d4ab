// Package bdd is a pure-Go reduced ordered binary decision diagram (ROBDD)
// package for the symbolic algorithms of boolprog.
//
// # Nodes and equality
//
// A BDD is a [Node], a small integer handle into the flat node arrays of its
// [Manager]. BDDs are canonical: two Nodes of the same Manager denote the same
// Boolean function exactly when they are equal with ==, so equality tests and
// fixpoint checks are O(1). The constants [False] and [True] are the same in
// every Manager. The package does not use complement edges, so a Node is
// structurally the same diagram BuDDy would build under the same order (this
// keeps node counts comparable and makes cross-checking exact). Complement
// edges were left out after measuring what they could win: Not accounts
// for under 1% of the profiles of the benchmark workloads, and in the
// n-queens results only 2 of 25,945 nodes have their negation in the same
// BDD, so they would save neither time nor memory there.
//
// # Memory layout
//
// Nodes live in one flat array of 16-byte entries (level, else, then,
// hash-chain link); the unique table is an array of chain heads; there are
// three lossy, direct-mapped computed caches (connectives, quantifiers,
// others), each sized at 1/[Config.CacheRatio] of the node table and grown
// with it. Nothing per node is a Go heap object, so the Go collector never
// scans the BDD tables.
//
// # Variables and order
//
// Variables are numbered 0, 1, 2, ... in creation order and are created on
// demand: [Manager.NewVar], [Manager.ExtVarNum], or simply by naming a
// variable index in [Manager.Ithvar], [Manager.VarSet], [Manager.NewPairs]...
// A new variable is placed at the bottom of the current order, so the static
// order is the creation order unless the caller changes it with
// [Manager.SetVarOrder]. [Manager.AddBlock] groups variables (e.g. the current
// and next copy of one program variable) that dynamic reordering
// ([Manager.Reorder], or automatic group sifting selected by [Config.Reorder]
// or [Manager.SetReorder]: [ReorderSift] when the live nodes double,
// [ReorderAuto] while it pays) must keep adjacent and in their relative
// order. Reordering keeps every Node's identity and meaning: a Node denotes
// the same function before and after reordering, so reordering is safe for
// any client that reads levels only inside operations (the package's own
// operations do: an automatic reordering runs at the start of an operation,
// or abandons and restarts one that grows past the trigger). What changes
// is the order itself: Level, VarAtLevel, the answer SatOne and AllSat
// prefer, and node counts. [Stats] reports the reorderings and their time.
//
// # Roots and garbage collection: the rule
//
// Nodes are never freed during an operation. Garbage collection happens only
// at the start of an operation (when the node table is nearly full) or when
// [Manager.GC] is called. A collection keeps exactly:
//
//  1. the Nodes held by [Root] handles ([Manager.Keep]), and
//  2. every Node returned by an operation of the Manager since the last
//     [Manager.Safepoint] (or [Manager.GC]), plus the operands of the
//     operation that triggered the collection.
//
// So intermediate results held in Go local variables are always safe between
// operations, until the engine calls Safepoint. Calling Safepoint is the
// engine's explicit promise: "every Node I still need from now on is held by
// a Root (or is [True]/[False])". After Safepoint, unrooted Nodes may be
// freed at any later operation and their indices reused; using such a Node is
// a programming error (detected and reported by a panic when the node is
// still free, undetectable once reused). A typical fixpoint loop:
//
//	reach := m.Keep(init)
//	defer reach.Release()
//	for {
//		img := m.AndExists(reach.Node(), trans, cur)   // temporaries: safe
//		img = m.Replace(img, nextToCur)
//		next := m.Or(reach.Node(), img)
//		if err := m.Err(); err != nil {
//			return Unknown, err // node limit: answer UNKNOWN
//		}
//		if next == reach.Node() {
//			break
//		}
//		reach.Set(next)
//		m.Safepoint() // img and the old reach may now be collected
//	}
//
// An engine that never calls Safepoint is still correct; it just never frees
// anything it produced (memory grows until the node limit is reached, which
// is reported as an error, never as a crash). [VarSet] and [Pairs] hold no
// Nodes that need rooting; they may be kept for the whole life of the Manager.
//
// # Errors: the sticky-error rule
//
// The only run-time failure is running out of nodes: the table may grow up
// to [Config.MaxNodes]. When an operation needs more, the Manager first
// collects garbage and retries the operation once; if it still does not fit,
// the Manager records [ErrNodeLimit], the operation returns [Invalid], and
// from then on every operation returns Invalid (and counting functions
// return 0 / nil) until [Manager.ClearErr]. So engine code can be written as
// straight-line formulas and check [Manager.Err] once per iteration, like
// bufio.Scanner.Err. Invalid is never equal to True, False or any valid Node.
// The node table may also be bounded by a memory budget for the whole
// process ([SetMemoryLimit]): it grows in steps that keep the Go heap
// within the budget, and an operation that still needs more records an
// error that matches both [ErrMemoryLimit] and ErrNodeLimit ([LimitReason]
// words it for a user: "memory limit (...)"), where the process would
// otherwise die out of memory.
// No panic for the node limit ever escapes the package. Misuse (a Node of
// another Manager, a freed Node, a negative variable index) panics, as it
// indicates a bug in the caller.
//
// # Operations
//
// Boolean connectives: [Manager.Not], [Manager.And], [Manager.Or],
// [Manager.Xor], [Manager.Imp], [Manager.Equiv], [Manager.Ite], plus the
// n-ary [Manager.AndAll] and [Manager.OrAll]. Quantification over a [VarSet]:
// [Manager.Exists], [Manager.Forall] and the relational product
// [Manager.AndExists] (conjunction and quantification in one recursive pass).
// Renaming: [Manager.Replace] with [Pairs] ([Manager.NewPairs], re-set with
// [Pairs.Set]); its cost is proportional to the size of the BDD, never to
// the number of variables in the Manager nor to the number of pairs (beyond
// a binary search), and non-monotone renamings (that do not preserve the
// order) are handled by rebuilding with if-then-else. Quantification
// likewise jumps over the variables of a large [VarSet] by binary search. Substitution: [Manager.Compose] and
// [Manager.VecCompose]. Simplification: [Manager.Restrict] (Coudert–Madre
// restrict with a care set) and [Manager.Constrain] (generalised cofactor).
// Inspection: [Manager.Support], [Manager.SatCount], [Manager.SatOne]
// (deterministic, prefers false), [Manager.AllSat] (an iterator),
// [Manager.NodeCount] (shared count over several BDDs), [Manager.WriteDot].
// Saving: [Manager.Save] writes BDDs with their order and blocks in a
// small text format ([Saved]) that [ReadSaved] reads and [Manager.Load]
// rebuilds in another manager. Statistics: [Manager.Stats].
//
// A Manager is not safe for concurrent use.
package bdd
