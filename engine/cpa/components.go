package cpa

import (
	"context"
	"fmt"

	"boolprog/cpa"
	"boolprog/cpa/bddcpa"
	"boolprog/cpa/explicitval"
	"boolprog/cpa/observer"
	"boolprog/cpa/reachdef"
	"boolprog/engine"
	"boolprog/ir"
)

// newComponent builds the named analysis; done, if not nil, releases its
// resources. The BDD analysis's manager polls ctx inside operations
// (bdd.SetInterrupt): near the node limit one image can take longer than
// the whole time limit, and the algorithm polls ctx only between states;
// an interrupted operation fails with bdd.ErrInterrupted, which Check
// returns as the context's end.
// The observer watches spec, or if it is nil the configuration's
// observer.spec.
func newComponent(ctx context.Context, name string, cfg *Config, p *ir.Program, q engine.Query, prec *explicitval.Precision, spec *observer.Spec) (cpa.Component, func(), error) {
	switch name {
	case "explicitval":
		return &explicitval.Analysis{P: p, Prec: prec}, nil, nil
	case "observer":
		if spec == nil {
			var err error
			if spec, err = cfg.spec(); err != nil {
				return nil, nil, err
			}
		}
		o, err := observer.New(spec, p)
		return o, nil, err
	case "reachdef":
		return reachdef.New(p), nil, nil
	case "bdd":
		b := bddcpa.New(p, q.MaxNodes)
		b.M.SetInterrupt(func() bool { return ctx.Err() != nil })
		return b, b.Release, nil
	}
	return nil, nil, fmt.Errorf("analysis %s is not available", name)
}
