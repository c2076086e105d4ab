package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"boolprog/cpa/observer"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
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

// observed is the observer automaton of one checked file.
type observed struct {
	inst *observer.Instrumented
}

// loadSpec returns the specification --spec or the engine's configuration
// names (nil if neither does). A malformed or unreadable file is an input
// error, a *syntax.Error (file:line:col); --spec and a configuration that
// name different files are a usage error.
func loadSpec(flagFile string, newEngine func() (engine.Engine, error)) (*observer.Spec, error) {
	file := flagFile
	eng, err := newEngine()
	if err != nil {
		return nil, err
	}
	if o, ok := eng.(interface{ ObserverSpec() string }); ok && o.ObserverSpec() != "" {
		cfgFile := o.ObserverSpec()
		if file != "" && !sameFile(file, cfgFile) {
			return nil, fmt.Errorf("--spec %s and the engine configuration's observer.spec %s name different specifications", file, cfgFile)
		}
		file = cfgFile
	}
	if file == "" {
		return nil, nil
	}
	spec, err := observer.Load(file)
	if err != nil {
		if se := (*syntax.Error)(nil); errors.As(err, &se) {
			return nil, se
		}
		return nil, &syntax.Error{Filename: file, Msg: err.Error()}
	}
	return spec, nil
}

func sameFile(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// observe instruments p with spec and returns the engine that checks the
// product. A name in spec that p lacks is an input error of the
// specification (errs); a concurrent program is refused with a reason
// (why) for an UNKNOWN verdict.
func observe(spec *observer.Spec, p *ir.Program, eng engine.Engine) (obs *observed, prodEng engine.Engine, errs syntax.ErrorList, why string) {
	inst, err := observer.Instrument(spec, p)
	switch {
	case errors.Is(err, observer.ErrSequential):
		return nil, nil, nil, "--spec " + spec.File + ": " + err.Error()
	case err != nil:
		se := &syntax.Error{Filename: spec.File, Msg: err.Error()}
		errors.As(err, &se)
		return nil, nil, syntax.ErrorList{se}, ""
	}
	obs = &observed{inst: inst}
	if pc, ok := eng.(productChecker); ok {
		return obs, productEngine{pc, inst}, nil, ""
	}
	return obs, eng, nil, ""
}

// productChecker is an engine that checks a product itself (engine/cpa).
type productChecker interface {
	engine.Engine
	SupportsProduct(inst *observer.Instrumented, q engine.Query) error
	CheckProduct(ctx context.Context, inst *observer.Instrumented, q engine.Query) (*result.Result, error)
}

// productEngine runs a productChecker on the product inst.Prog.
type productEngine struct {
	pc   productChecker
	inst *observer.Instrumented
}

func (e productEngine) Name() string { return e.pc.Name() }

func (e productEngine) Supports(_ *ir.Program, q engine.Query) error {
	return e.pc.SupportsProduct(e.inst, q)
}

func (e productEngine) Check(ctx context.Context, _ *ir.Program, q engine.Query) (*result.Result, error) {
	return e.pc.CheckProduct(ctx, e.inst, q)
}

// explain turns the result of checking the product into the result shown
// for the original program: an observer's violation is the property, and
// the trace's instrumentation steps carry notes with the automaton's
// state; for text (keepBits false) the state's globals are left out of
// the values. Both traces replay on the product.
func (o *observed) explain(res *result.Result, keepBits bool) *result.Result {
	if res.Trace == nil {
		return res
	}
	out := *res
	if pr := o.inst.Violation(res.Trace); pr != nil {
		out.Property = pr
	}
	out.Trace = o.inst.Explain(res.Trace, keepBits)
	return &out
}

// observerLine is the verdict's error line for an observer's violation:
// "locking.bp:36:5: error: property locking violated: lock acquired twice
// without an unlock (observer locking in state locked, at lock();
// locking.spec:6)".
func observerLine(path string, pr *result.Property) string {
	v := pr.Observer
	msg := fmt.Sprintf("error: property %s violated: %s (observer %s in state %s, at %s; %s:%d)",
		v.Property, v.Message, v.Property, v.State, pr.Text, v.Spec, v.SpecLine)
	return (&syntax.Error{Filename: path, Pos: syntax.Pos{Line: pr.Line, Col: pr.Col}, Msg: msg}).Error()
}

// specText says which property besides the assertions was checked:
// "; property locking of examples/locking.spec (observer, states
// unlocked, locked)".
func specText(s *result.Spec) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("; property %s of %s (observer automaton, states %s)", s.Property, s.File, strings.Join(s.States, ", "))
}
