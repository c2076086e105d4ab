package cpa

import (
	"fmt"

	"boolprog/cpa"
	"boolprog/cpa/explicitval"
	"boolprog/engine"
	"boolprog/ir"
)

// newComponent builds the named analysis; done, if not nil, releases its
// resources.
func newComponent(name string, cfg *Config, p *ir.Program, q engine.Query, prec *explicitval.Precision) (cpa.Component, func(), error) {
	switch name {
	case "explicitval":
		return &explicitval.Analysis{P: p, Prec: prec}, nil, nil
	}
	return nil, nil, fmt.Errorf("analysis %s is not available", name)
}
