package main

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
