package concfix

import (
	"io"

	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
)

// WriteModel is the engine's engine.ModelWriter: the model it solves for
// p at q's bound, DefaultBound's without one (WriteModel).
func (e *Engine) WriteModel(w io.Writer, p *ir.Program, q engine.Query) error {
	b := q.Bound
	if b.Kind == result.Unbounded {
		b = DefaultBound
	}
	return WriteModel(w, p, b)
}
