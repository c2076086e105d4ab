package cpa

import (
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
// resources.
func newComponent(name string, cfg *Config, p *ir.Program, q engine.Query, prec *explicitval.Precision) (cpa.Component, func(), error) {
	switch name {
	case "explicitval":
		return &explicitval.Analysis{P: p, Prec: prec}, nil, nil
	case "observer":
		spec, err := observer.Load(cfg.Observer)
		if err != nil {
			return nil, nil, err
		}
		o, err := observer.New(spec, p)
		return o, nil, err
	case "reachdef":
		return reachdef.New(p), nil, nil
	case "bdd":
		b := bddcpa.New(p, q.MaxNodes)
		return b, b.Release, nil
	}
	return nil, nil, fmt.Errorf("analysis %s is not available", name)
}
