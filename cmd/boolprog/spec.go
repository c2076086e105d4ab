package main

import (
	"boolprog/cpa/observer"
	"boolprog/engine"
	"boolprog/internal/product"
	"boolprog/ir"
	"boolprog/syntax"
)

// An observer automaton (a specification file of package cpa/observer,
// e.g. "no lock twice without an unlock") is checked with any engine by
// checking the program instrumented with it, SLIC's product: globals hold
// the automaton's state, every procedure it watches gets a new entry that
// takes its transitions, and a transition into the error is an edge into
// an assertion-failure location. The engine checks that program like any
// other, the interpreter replays its trace on it, and only the printing
// changes: the instrumentation's steps are marked with the automaton's
// state ("[observer locking] on call lock  (locking: unlocked -> locked)"),
// the state's globals are left out of the values (the JSON report keeps
// them, so that its trace states everything), every other step is a step
// of the original program at its own line, and the verdict line names the
// property, the state it left and the call that violated it. This needs
// nothing new of the engines, interp or the trace format, and the proof
// of SUCCESSFUL is the engine's own proof on the product. The cpa engine
// with a configuration that has the observer analysis checks the original
// program with the automaton as a component of its composite (so that
// strengthening decides guarded transitions) and carries its
// counterexample over to the product (engine/cpa CheckProduct).

const specDoc = "also check the observer automaton of this specification file (package cpa/observer: e.g. no lock twice without an unlock); FAILED then shows a trace of the program instrumented with it, SUCCESSFUL proves it. The cpa engine takes it from its configuration's observer.spec too"

// loadSpec returns the specification --spec or the engine's configuration
// names (nil if neither does). A malformed or unreadable file is an input
// error, a *syntax.Error (file:line:col); --spec and a configuration that
// name different files are a usage error.
func loadSpec(flagFile string, newEngine func() (engine.Engine, error)) (*observer.Spec, error) {
	eng, err := newEngine()
	if err != nil {
		return nil, err
	}
	return product.LoadSpec("--spec", flagFile, eng)
}

// observe instruments p with spec and returns the engine that checks the
// product. A name in spec that p lacks is an input error of the
// specification (errs); a concurrent program is refused with a reason
// (why) for an UNKNOWN verdict.
func observe(spec *observer.Spec, p *ir.Program, eng engine.Engine) (obs *product.Observed, prodEng engine.Engine, errs syntax.ErrorList, why string) {
	obs, prodEng, errs, unsupported := product.Observe(spec, p, eng)
	if unsupported != nil {
		return nil, nil, nil, "--spec " + spec.File + ": " + unsupported.Error()
	}
	return obs, prodEng, errs, ""
}
