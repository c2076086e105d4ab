// Package witness writes and validates verification witnesses for Boolean
// programs: a violation witness (the error trace as a sequence of
// waypoints) for an unsafe answer, and a correctness witness (an invariant
// per location and a contract per procedure, or invariants of a concurrent
// program's configurations) for a safe one.
//
// # The format
//
// The witnesses are boolprog's own format, "boolprog-witness" version
// boolprog-1, modelled on SV-COMP's witness formats but not one of them:
// Boolean programs are not C, and SV-COMP's formats cannot say much of
// what ours say (columns in Boolean programs, \old in location
// invariants, contracts, configuration and thread invariants, thread ids
// on waypoints, our expression syntax). A file therefore claims only our
// format: YAML witnesses say format_version "boolprog-1" (WriteYAML), and
// their structure is the JSON schema schema/boolprog-witness-1.json (in
// this package's directory; the tests validate every witness they write
// against it). GraphML witnesses (WriteGraphML) are witness automata whose
// keys all carry the prefix "boolprog." (boolprog.witness-type, ...) and
// whose graph says boolprog.format-version boolprog-1, so that no tool
// takes them for SV-COMP's GraphML format 1.0; only violation witnesses
// have a GraphML form (a path automaton from the entry node to the
// violation node): a correctness witness's invariants are found by
// location, not by a run of an automaton, so it is written as YAML only.
//
// Parse reads both formats, and also the form earlier versions of
// boolprog wrote (YAML saying format_version "2.0", GraphML with
// unprefixed keys and correctness witnesses as automata without edges);
// Metadata.FormatVersion then says "2.0" (see Legacy).
//
// # Locations
//
// A location is a statement of the program: its file, function, and the
// line and column where the statement starts (after its labels), as in
// the program's traces. The exit of a function is the position of its
// `end`; an assertion's failure is at the assertion.
//
// # Formulas
//
// Constraints, invariants and contracts are Boolean-program expressions
// (format "boolprog_expression"), parsed by package syntax (ParseExpr): T,
// F (also true, false, 1, 0), variable names (braced if need be, {p==q}),
// !, &, |, ^, =, !=, => with the precedence of the cprover dialect (! then
// & then | then ^ then =, != and =>, which share one level and group to
// the right), parentheses, and three keywords: \old(x),
// the value of the global or parameter x when the function was entered;
// \result (or \result0) and \result1, ..., the values the function
// returns, in a contract's ensures clause and in the invariant at a
// function's exit. A name is a local of the location's function, else a
// global.
//
// # Violation witnesses
//
// A violation witness is a sequence of segments, each with one waypoint
// that the execution must pass, in order (action "follow"): an assumption
// (the values just before the statement at its location, as the trace
// shows them), a branching (which way a nondeterministic if, while, assert
// or goto went: "true"/"false", or the label of the goto's target), a
// function_enter (the call at its location enters the named function) and,
// last, the target (the failing assertion, or the statement with the
// target label). A waypoint with a thread_id speaks of that thread's steps
// only. Violation turns a trace into one; ValidateViolation searches the
// program's executions (package interp) for one that follows the
// waypoints to the error: a step of the waypoint's thread at the next
// waypoint's location must satisfy it (else that execution is cut); steps
// elsewhere pass freely.
//
// # Correctness witnesses
//
// A correctness witness of a sequential program holds, for every location, an invariant over the
// variables in scope and the entry values of the function's globals and
// parameters (\old), which holds whenever the location is reached; and for
// every function a contract: requires, over the globals and parameters at
// entry, and ensures, relating them (\old) to the globals and returned
// values at the exit. Correctness computes them from the reachable path
// edges of the summary engine (Bebop's), as irredundant sums of products.
// ValidateCorrectness checks, with BDDs built by package symbolic alone,
// that they are inductive: main's initial states are in its entry
// invariant, a function's requires leads into its entry invariant, every
// intraprocedural edge keeps the invariants, every call satisfies the
// callee's requires and returns into the return point's invariant through
// the callee's ensures, every exit invariant implies the ensures, and no
// error location's invariant holds anywhere.
//
// # Concurrent programs
//
// The correctness witness of a concurrent program speaks of whole
// configurations. A configuration invariant (ConfigInvariant, YAML type
// configuration_invariant) is at a tuple of thread stacks, one per thread
// by number: a stack lists its frames from the bottom, each "function
// line:col" (the callers at their pending calls), joined by " > ", or is
// "ended"; the tuple also says which thread owns the atomic section
// (atomic_owner), which thread ran last (running) where that matters, and
// whether Getafix's init runs (init). Its formula names
// the globals and the threads' locals: t1.x is local x of thread 1's top
// frame, t1.0.x local x of its frame at depth 0 (the bottom) when that is
// not the top; a name that is more than letters, digits, '_' and '.' is
// braced. A tuple without an invariant is never reached. FromConcurrent
// computes them from the configurations that package interp reaches,
// whatever engine proved the program: grouped by tuple, each group's set
// of valuations written as an irredundant sum of products (or with the
// equalities factored out, the shorter).
//
// The configurations forget which thread ran last (any live thread may
// take the next step, subject to the atomic section), except in programs
// of the Getafix convention with a global named atomic, where it decides
// which thread may step (see package interp). Forgetting it only adds
// steps, so the invariant still covers every reachable configuration.
//
// When the configurations are too many (threads started without end), a
// thread-modular witness may prove the program instead: thread invariants
// (ThreadInvariant, thread_invariant), each at one stack, over the globals
// and that thread's locals (t.x, t.0.x), holding for every thread at that
// stack (with init: true, for Getafix's init, which runs alone before the
// threads). FromConcurrent computes them as the least set of thread
// states closed under a thread's own steps and the other threads' changes
// of the globals.
//
// ValidateCorrectness checks a concurrent witness by enumeration, within
// Options.MaxConfigs (past it: Rejected, with the count; the invariants
// of finite-state programs are finite sets): the admitted configurations
// are built and stepped with interp.SuccessorsContext. Every initial
// configuration must be admitted, none at an error, and every successor
// admitted. For thread invariants: every thread of every initial
// configuration admitted, no admitted thread state at an error, every
// step of an admitted state (alone, atomic sections ignored, which only
// adds steps) leading to admitted states, its own and those of the
// threads it starts, and, when such a step changes the globals, every
// admitted state with the same globals admitted with the new ones. A
// rejection names the tuple (or the stack) and the configuration.
package witness

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"boolprog/syntax"
)

// FormatVersion is the version of the witness format that WriteYAML and
// WriteGraphML write.
const FormatVersion = "boolprog-1"

// legacyVersion is the version earlier versions of boolprog declared
// (wrongly, as SV-COMP's witness format 2.0).
const legacyVersion = "2.0"

// Legacy says whether w was read from a witness in the form of an
// earlier version of boolprog (which declared SV-COMP's format_version
// 2.0, or GraphML keys without the boolprog. prefix).
func (w *Witness) Legacy() bool { return w.Metadata.FormatVersion != FormatVersion }

// Kind is the kind of a witness.
type Kind int

// The kinds of witnesses.
const (
	Violation   Kind = iota // an error path (entry_type violation_sequence)
	Correctness             // invariants and contracts (entry_type invariant_set)
)

// String returns "violation" or "correctness".
func (k Kind) String() string {
	if k == Correctness {
		return "correctness"
	}
	return "violation"
}

// Witness is a violation or a correctness witness.
type Witness struct {
	Kind     Kind
	Metadata Metadata
	// Segments is the violation sequence (Violation only).
	Segments []Segment
	// Invariants and Contracts (Correctness of a sequential program).
	Invariants []Invariant
	Contracts  []Contract
	// Configurations or ThreadInvariants (Correctness of a concurrent
	// program; one kind or the other).
	Configurations   []ConfigInvariant
	ThreadInvariants []ThreadInvariant
}

// Metadata describes who produced a witness for which program.
type Metadata struct {
	FormatVersion string // FormatVersion (or "2.0" for the legacy form)
	UUID          string
	CreationTime  string // RFC 3339
	Producer      Producer
	Task          Task
}

// Producer is the tool that produced a witness.
type Producer struct {
	Name          string // "boolprog"
	Version       string
	Configuration string // e.g. "engine summary"
}

// Task is the verification task a witness speaks about.
type Task struct {
	InputFile     string // the program's file name
	InputFileHash string // SHA-256 of its bytes, in hex
	Specification string // e.g. "assertions, label SLIC_ERROR"
	Language      string // "boolean_program"
}

// Location is a statement of the program.
type Location struct {
	File     string
	Line     int
	Col      int
	Function string
}

// String returns "function line:col".
func (l Location) String() string { return fmt.Sprintf("%s %d:%d", l.Function, l.Line, l.Col) }

// Waypoint types.
const (
	Assumption    = "assumption"
	Branching     = "branching"
	FunctionEnter = "function_enter"
	Target        = "target"
)

// Waypoint is one point of a violation sequence.
type Waypoint struct {
	Type     string // Assumption, Branching, FunctionEnter or Target
	Action   string // "follow"
	Location Location
	// Constraint is the assumption's formula, the branch taken ("true",
	// "false", or a goto's target label), the entered function's name; ""
	// for a target.
	Constraint string
	Thread     int        // the thread the waypoint speaks of, or -1 for any
	Pos        syntax.Pos // where the waypoint is in the witness file
	ValuePos   syntax.Pos // where its constraint is
}

// Segment is one segment of a violation sequence: the waypoints it follows
// (one, the last; the formats allow more).
type Segment struct {
	Waypoints []Waypoint
}

// Invariant is a location invariant.
type Invariant struct {
	Location Location
	Value    string
	Pos      syntax.Pos // where the invariant is in the witness file
	ValuePos syntax.Pos
}

// Contract is a function's contract.
type Contract struct {
	Function    string
	Location    Location // the function's definition
	Requires    string
	Ensures     string
	Pos         syntax.Pos
	RequiresPos syntax.Pos
	EnsuresPos  syntax.Pos
}

// Hash returns the program hash a witness records: SHA-256 of the bytes,
// in hex.
func Hash(src []byte) string {
	h := sha256.Sum256(src)
	return hex.EncodeToString(h[:])
}

// uuidFor derives a UUID (version 5 layout) from the witness's identity,
// so that the same witness of the same program gets the same UUID.
func uuidFor(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	b := h.Sum(nil)[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	x := hex.EncodeToString(b)
	return x[0:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:32]
}
