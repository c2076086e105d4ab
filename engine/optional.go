package engine

import (
	"context"
	"io"

	"boolprog/ir"
	"boolprog/result"
)

// The interfaces below are implemented by engines that can do more than
// Check; a tool finds them through the registry (Lookup, then a type
// assertion on the engine built), so that it imports no engine.

// Projector is implemented by an engine that computes Lal's error
// projection (the command's --error-projection): the locations on some run
// from the start of main to an error, with at most maxStates states listed
// per location (0: none listed, only counted and summed up). maxNodes
// bounds the BDD nodes (0: the default); the end of ctx or the node limit
// is an error.
type Projector interface {
	ErrorProjection(ctx context.Context, p *ir.Program, maxNodes, maxStates int) (*result.Projection, error)
}

// ModelWriter is implemented by an engine that solves a model in the
// fixed-point calculus of package fix and writes it out (the command's
// `mucke --emit`): the model the engine would solve for p and q, whose
// query is true iff an error is reachable (within q's bound, or the
// engine's default bound).
type ModelWriter interface {
	WriteModel(w io.Writer, p *ir.Program, q Query) error
}
