// Package cpa is configurable program analysis (Beyer, Gulwani & Schmidt)
// for Boolean programs: one reachability algorithm that becomes data-flow
// analysis or model checking by the choice of its merge and stop
// operators, over an interprocedural edge view of package ir (CFA: intra,
// call, return and call-to-return edges).
//
// # The pieces
//
//   - A Component is one abstract domain with its transfer relation (Post
//     along intraprocedural edges, and the frame operations Split, Enter and
//     Combine for calls), ⊑ (LessOrEqual) and join. Optional interfaces add
//     strengthening (Strengthener), targets (Targeter) and precision
//     adjustment (Adjuster). The location analysis (Location) is one;
//     others live in subpackages: explicitval ({⊥,0,1,⊤} per variable),
//     bddcpa (sets of valuations as BDDs), reachdef (reaching definitions),
//     observer (automata read from a specification).
//   - A Composite combines components: its state is the tuple of their
//     states, its transfer the product of theirs followed by strengthening,
//     its merge sep, join or agree, its stop sep or join.
//   - An Analysis is what the algorithm runs (the CPA of the paper, with the
//     transfer relation over all edges). Two interprocedural wrappers turn a
//     Composite into one: Callstack (call strings, bounded by a depth that
//     is reported when reached) and Summaries (block summaries per
//     procedure entry, which handle unbounded recursion).
//   - Run is the CPA algorithm: a reached set partitioned by location, a
//     waitlist in BFS, DFS, reverse-postorder or call-stack order, and an
//     abstract reachability graph (ARG) whose parent links give the
//     counterexample path (Path).
//
// Merge and stop are parameters: merge-sep with stop-sep is model checking
// (every abstract state kept apart), merge-join with stop-sep (or
// stop-join) is data-flow analysis (one joined state per location and
// context). The algorithm is the same.
package cpa

// State is an abstract state of a component or an analysis. The states an
// Analysis returns must be comparable (pointers), since the ARG maps them
// to their nodes.
type State any

// Precision is the precision of an analysis (for instance the variables an
// explicit-value analysis tracks); nil when the analysis has none.
type Precision any

// Domain is an abstract domain: the partial order ⊑ and the join of two
// elements.
type Domain interface {
	LessOrEqual(a, b State) bool
	Join(a, b State) State
}

// Component is one analysis of a Composite: an abstract domain and its
// transfer relation. States describe one procedure frame: the variables in
// scope in the current procedure (a frame-less analysis such as an
// automaton keeps its state across calls). Every method must be exact or
// over-approximate: the set of concrete states a result stands for
// includes every concrete successor.
type Component interface {
	// Name is the analysis's configuration name.
	Name() string
	// Initial returns the state at the entry of main.
	Initial(c *CFA) State
	// InitialPrecision returns the precision the analysis starts with.
	InitialPrecision(c *CFA) Precision
	Domain
	// Post returns the successors of s along an Intra edge; none if the
	// edge cannot be taken.
	Post(s State, e *Edge, prec Precision) ([]State, error)
	// Split returns states that together stand for s, before a Call edge,
	// such that Combine of each with the callee's exit states is as
	// precise as the analysis wants to be (the explicit analysis splits
	// on the variables the arguments read; most return s).
	Split(s State, call *Edge, prec Precision) []State
	// Enter returns the states at the callee's entry after the Call edge
	// from a state returned by Split.
	Enter(s State, call *Edge, prec Precision) ([]State, error)
	// Combine returns the states at the return point of the Return edge
	// ret, from the caller's state at the call (returned by Split) and the
	// callee's state at its exit.
	Combine(caller, exit State, ret *Edge, prec Precision) ([]State, error)
	// Key returns a string that is equal for equal states (summary
	// contexts are keyed by it).
	Key(s State) string
}

// Strengthener is implemented by components that refine their state with
// the states of the other components of a composite (the strengthening
// operator ↓ of the paper, applied after every transfer). It returns the
// refined state, or false if the other states show that the successor is
// impossible.
type Strengthener interface {
	Strengthen(s State, others []State, e *Edge) (State, bool)
}

// Targeter is implemented by components whose states can be errors (the
// location of an error, an automaton's error state).
type Targeter interface {
	IsTarget(s State) bool
}

// Adjuster is implemented by components with a precision adjustment: the
// state is abstracted to the precision (the explicit analysis forgets the
// values of variables it does not track).
type Adjuster interface {
	Adjust(s State, prec Precision) State
}

// MergeOp is a merge operator: it returns r, or a state that replaces r in
// the reached set (it must be above r).
type MergeOp int

// The merge operators.
const (
	MergeSep   MergeOp = iota // never merge: model checking
	MergeJoin                 // join: data-flow analysis
	MergeAgree                // join the data components only where the non-data ones (location, automata) agree
)

// StopOp is a stop operator: it decides whether a new state is covered by
// the reached states of its partition.
type StopOp int

// The stop operators.
const (
	StopSep  StopOp = iota // covered by one reached state
	StopJoin               // covered by the join of the reached states
)

// MergeSepOp is the merge-sep operator: r unchanged.
func MergeSepOp(_ Domain, _, r State) State { return r }

// MergeJoinOp is the merge-join operator: s ⊔ r.
func MergeJoinOp(d Domain, s, r State) State { return d.Join(s, r) }

// StopSepOp is the stop-sep operator: s ⊑ r for some reached r.
func StopSepOp(d Domain, s State, reached []State) bool {
	for _, r := range reached {
		if d.LessOrEqual(s, r) {
			return true
		}
	}
	return false
}

// StopJoinOp is the stop-join operator: s ⊑ ⊔ reached.
func StopJoinOp(d Domain, s State, reached []State) bool {
	if len(reached) == 0 {
		return false
	}
	j := reached[0]
	for _, r := range reached[1:] {
		j = d.Join(j, r)
	}
	return d.LessOrEqual(s, j)
}

// Successor is a successor of an Analysis state.
type Successor struct {
	State State
	Edge  *Edge
	// Parent is the ARG predecessor, if not the state being expanded (a
	// return through a summary found when a new caller arrives has the
	// callee's exit state as its parent).
	Parent State
	// Caller, for a return through a block summary, is the caller's state
	// at the call: the counterexample goes from it into the callee and
	// back (see Path).
	Caller State
}

// Analysis is a CPA as the algorithm runs it: states with their domain,
// the transfer relation over all edges, merge, stop, precision
// adjustment, and what the reached set and the waitlist need to know of a
// state.
type Analysis interface {
	Domain
	// Initial returns the initial state and precision.
	Initial() (State, Precision)
	// Successors returns the abstract successors of s.
	Successors(s State, prec Precision) ([]Successor, error)
	// Merge is the merge operator: r, or a state above r to replace it.
	Merge(s, r State, prec Precision) State
	// Stop is the stop operator.
	Stop(s State, reached []State, prec Precision) bool
	// Adjust is the precision adjustment, applied to every new state.
	Adjust(s State, prec Precision) (State, Precision)
	// Location returns the program location of s.
	Location(s State) Node
	// Partition returns the part of the reached-set key besides the
	// location (a call stack, a summary context), comparable.
	Partition(s State) any
	// Depth returns the call depth of s (for the call-stack waitlist).
	Depth(s State) int
	// IsTarget reports whether s is an error.
	IsTarget(s State) bool
}

// Literal is a value of a global variable: an assumption one component's
// state makes that others may use to strengthen theirs.
type Literal struct {
	Global int
	Value  bool
}

// Assuming is implemented by states that carry assumptions about globals
// (an observer's guarded transition) for strengthening: a component that
// tracks values refines its state with them, and the state that made them
// drops them once checked.
type Assuming interface {
	Assumed() []Literal
}
