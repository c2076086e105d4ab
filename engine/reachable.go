package engine

import (
	"context"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
)

// PathEdges is the complete set of path edges of a sequential program, as
// BDDs: per location, the pairs (values of the procedure's globals and
// parameters at its entry, values now) that some execution from the start
// of main reaches. A correctness witness (package witness) writes them as
// invariants and contracts.
type PathEdges interface {
	// Layout is the variable layout of the BDDs (its manager is theirs).
	Layout() *symbolic.Layout
	// At returns the path edges at location loc of procedure proc (False
	// if it is not reached).
	At(proc, loc int) bdd.Node
	// Release frees the BDDs.
	Release()
}

// ReachableSetter is implemented by an engine that can compute the
// complete path edges of a sequential program (an optional interface,
// found through the registry by Implementing, so that a package that
// needs them imports no engine).
type ReachableSetter interface {
	// ReachableSets computes every path edge of p with q's BDD node
	// limit (q.MaxNodes, 0: the default), taking p's analyses from the
	// check's cache (q.AnalysesFor). It fails if an error location is
	// reachable, for a concurrent program, when ctx ends (wrapping its
	// cause) and at the limit.
	ReachableSets(ctx context.Context, p *ir.Program, q Query) (PathEdges, error)
}

// Implementing returns the first registered engine, in the order of
// Engines, that implements T when built with its defaults: how a package
// finds an engine's optional capability (such as ReachableSetter) without
// importing an engine package. It reports false when no registered engine
// does.
func Implementing[T any]() (T, bool) {
	for _, info := range Engines() {
		e, err := info.New()
		if err != nil {
			continue
		}
		if t, ok := e.(T); ok {
			return t, true
		}
	}
	var zero T
	return zero, false
}
