// Package product checks a program against an observer automaton (a
// specification of package cpa/observer) with any engine, by checking the
// program instrumented with it (SLIC's product), and carries the answer
// back to the original program: for the command's --spec and the Go API's
// Options.Spec alike.
//
// The product is SLIC's: globals hold the automaton's state, every
// procedure it watches gets a new entry that takes its transitions, and a
// transition into the error is an edge into an assertion-failure
// location. The engine checks that program like any other, the
// interpreter replays its trace on it, and only the printing changes: the
// instrumentation's steps are marked with the automaton's state
// ("[observer locking] on call lock  (locking: unlocked -> locked)"), the
// state's globals are left out of the values (the JSON report keeps them,
// so that its trace states everything), every other step is a step of the
// original program at its own line, and the verdict line names the
// property, the state it left and the call that violated it. This needs
// nothing new of the engines, interp or the trace format, and the proof of
// SUCCESSFUL is the engine's own proof on the product. The cpa engine with
// a configuration that has the observer analysis checks the original
// program with the automaton as a component of its composite (so that
// strengthening decides guarded transitions) and carries its
// counterexample over to the product (engine/cpa CheckProduct).
package product

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"boolprog/cpa/observer"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// LoadSpec returns the specification in file (named by the user's option,
// called option in messages: "--spec", "Options.Spec"), or the one that
// eng's configuration names (the cpa engine's observer.spec), or nil if
// neither names one. A malformed or unreadable file is a *syntax.Error
// (file:line:col); option and the configuration naming different files is
// another error.
func LoadSpec(option, file string, eng engine.Engine) (*observer.Spec, error) {
	if cfgFile := ConfigSpec(eng); cfgFile != "" {
		if file != "" && !sameFile(file, cfgFile) {
			return nil, fmt.Errorf("%s %s and the engine configuration's observer.spec %s name different specifications", option, file, cfgFile)
		}
		if o, ok := eng.(interface{ ObserverAutomaton() *observer.Spec }); ok && o.ObserverAutomaton() != nil {
			return o.ObserverAutomaton(), nil // read with the configuration
		}
		file = cfgFile
	}
	if file == "" {
		return nil, nil
	}
	spec, err := observer.Load(file)
	if err != nil {
		return nil, specError(file, err)
	}
	return spec, nil
}

// ConfigSpec returns the specification file that eng's configuration
// names (the cpa engine's observer.spec), or "".
func ConfigSpec(eng engine.Engine) string {
	if o, ok := eng.(interface{ ObserverSpec() string }); ok {
		return o.ObserverSpec()
	}
	return ""
}

// ParseSpec returns the specification text, named file in diagnostics;
// a malformed one is a *syntax.Error.
func ParseSpec(file, text string) (*observer.Spec, error) {
	spec, err := observer.Parse(file, text)
	if err != nil {
		return nil, specError(file, err)
	}
	return spec, nil
}

// specError makes an error of loading a specification a *syntax.Error.
func specError(file string, err error) *syntax.Error {
	if se := (*syntax.Error)(nil); errors.As(err, &se) {
		return se
	}
	if pe := (*os.PathError)(nil); errors.As(err, &pe) {
		// "x.spec: open: no such file ...", not "x.spec: open x.spec: ...".
		return &syntax.Error{Filename: file, Msg: pe.Op + ": " + pe.Err.Error()}
	}
	return &syntax.Error{Filename: file, Msg: err.Error()}
}

func sameFile(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}

// Observed is a program instrumented with an observer automaton.
type Observed struct {
	Inst *observer.Instrumented
}

// Observe instruments p with spec and returns the engine that checks the
// product Inst.Prog (eng itself, or eng checking the product its own way
// if it can: engine/cpa). A name in spec that p lacks is an input error of
// the specification (errs); a program that observers cannot watch (a
// concurrent one) is refused with unsupported, for an Unknown verdict.
func Observe(spec *observer.Spec, p *ir.Program, eng engine.Engine) (obs *Observed, prodEng engine.Engine, errs syntax.ErrorList, unsupported error) {
	inst, err := observer.Instrument(spec, p)
	switch {
	case errors.Is(err, observer.ErrSequential):
		return nil, nil, nil, err
	case err != nil:
		se := &syntax.Error{Filename: spec.File, Msg: err.Error()}
		errors.As(err, &se)
		return nil, nil, syntax.ErrorList{se}, nil
	}
	obs = &Observed{Inst: inst}
	if pc, ok := eng.(productChecker); ok {
		return obs, productEngine{pc, inst}, nil, nil
	}
	return obs, eng, nil, nil
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

// Explain turns the result of checking the product into the result shown
// for the original program: an observer's violation is the property, and
// the trace's instrumentation steps carry notes with the automaton's
// state; for text (keepBits false) the state's globals are left out of
// the values. Both traces replay on the product.
func (o *Observed) Explain(res *result.Result, keepBits bool) *result.Result {
	if res.Trace == nil {
		return res
	}
	out := *res
	if pr := o.Inst.Violation(res.Trace); pr != nil {
		out.Property = pr
	}
	out.Trace = o.Inst.Explain(res.Trace, keepBits)
	return &out
}

// ErrorLine is the verdict's error line for an observer's violation:
// "locking.bp:36:5: error: property locking violated: lock acquired twice
// without an unlock (observer locking in state locked, at lock();
// locking.spec:6)".
func ErrorLine(path string, pr *result.Property) string {
	v := pr.Observer
	msg := fmt.Sprintf("error: property %s violated: %s (observer %s in state %s, at %s; %s:%d)",
		v.Property, v.Message, v.Property, v.State, pr.Text, v.Spec, v.SpecLine)
	return (&syntax.Error{Filename: path, Pos: syntax.Pos{Line: pr.Line, Col: pr.Col}, Msg: msg}).Error()
}

// CheckedText says which property besides the assertions was checked, to
// follow the "checked:" line: "; property locking of
// examples/locking.spec (observer automaton, states unlocked, locked)".
func CheckedText(s *result.Spec) string {
	if s == nil {
		return ""
	}
	return fmt.Sprintf("; property %s of %s (observer automaton, states %s)", s.Property, s.File, strings.Join(s.States, ", "))
}
