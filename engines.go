package boolprog

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"boolprog/engine"
	"boolprog/internal/engines"
	"boolprog/ir"
	"boolprog/result" // registers the engines, the command's list
)

// DefaultEngine is the engine Check runs on a sequential program when
// Options.Engine is empty, as `boolprog check` does. On a concurrent
// program with neither Options.Engine nor Options.EngineFlags, Check runs
// the command's choice instead: a portfolio of the explicit interleaving
// search and a symbolic engine at once (package internal/engines says
// which and why).
const DefaultEngine = engines.Default

// EngineInfo describes an engine that Options.Engine can name.
type EngineInfo struct {
	Name    string   // canonical name
	Aliases []string // other names Options.Engine accepts
	Doc     string   // one line
	// Default marks DefaultEngine.
	Default bool
	// NodeLimited says that the engine uses BDDs and honours
	// Options.MaxNodes (for other engines MaxNodes is an OptionError).
	NodeLimited bool
	// Flags are the engine's own options, set with Options.EngineFlags.
	Flags []EngineFlag
}

// EngineFlag is one of an engine's own options.
type EngineFlag struct {
	Name    string // as in Options.EngineFlags, and `--name` on the command line
	Default string
	Usage   string
	Bool    bool // a switch: "true" or "false"
}

// Engines returns every engine, sorted by name.
func Engines() []EngineInfo {
	var out []EngineInfo
	for _, info := range engine.Engines() {
		e := EngineInfo{
			Name:        info.Name(),
			Aliases:     slices.Clone(info.Names[1:]),
			Doc:         info.Doc,
			Default:     info.Name() == DefaultEngine,
			NodeLimited: info.NodeLimited,
		}
		fs, _ := info.FlagSet()
		fs.VisitAll(func(f *flag.Flag) {
			bf, ok := f.Value.(interface{ IsBoolFlag() bool })
			e.Flags = append(e.Flags, EngineFlag{Name: f.Name, Default: f.DefValue, Usage: f.Usage, Bool: ok && bf.IsBoolFlag()})
		})
		out = append(out, e)
	}
	return out
}

// newEngine builds the engine opts name (DefaultEngine if none) with the
// engine flags opts set. A malformed file named by a flag is an
// *InputError; everything else that goes wrong is an *OptionError.
func newEngine(opts *Options) (engine.Engine, engine.Info, error) {
	name := opts.Engine
	if name == "" {
		name = DefaultEngine
	}
	info, ok := engine.Lookup(name)
	if !ok {
		return nil, engine.Info{}, optionErrorf("Engine", "unknown engine %q (have %s)", name, engine.NamesText())
	}
	// Sorted, so that the first bad flag reported does not depend on map order.
	names := make([]string, 0, len(opts.EngineFlags))
	for n := range opts.EngineFlags {
		names = append(names, n)
	}
	sort.Strings(names)
	settings := make([]engine.Setting, len(names))
	for i, n := range names {
		settings[i] = engine.Setting{Name: n, Value: opts.EngineFlags[n]}
	}
	eng, err := info.Configure(settings)
	var unknown *engine.UnknownFlagError
	var refused *engine.SettingError
	var in *engine.InputError
	switch {
	case errors.As(err, &unknown), errors.As(err, &refused):
		return nil, info, optionErrorf("EngineFlags", "%v", err)
	case errors.As(err, &in):
		return nil, info, &InputError{Diagnostics: diagnostics(asList("", in.Err))}
	case err != nil:
		return nil, info, optionErrorf("EngineFlags", "engine %s: %v", info.Name(), err)
	}
	return eng, info, nil
}

// Projection is Lal's error projection of a program: the locations on some
// run from the start of main to an error, with the states there.
type Projection = result.Projection

// ErrorProjection returns the error projection of the sequential program p
// (the command's --error-projection), as computed by the first registered
// engine that offers it (engine.Projector). maxNodes bounds its BDD nodes
// (0: the default). When there is none (a concurrent program, the end of
// ctx, the node limit) the error is a *NoProjectionError that says why.
func ErrorProjection(ctx context.Context, p *ir.Program, maxNodes int) (*Projection, error) {
	if p.Concurrent || p.Main < 0 {
		return nil, &NoProjectionError{Reason: "the program is concurrent"}
	}
	for _, info := range engine.Engines() {
		e, err := info.New()
		if err != nil {
			continue
		}
		pr, ok := e.(engine.Projector)
		if !ok {
			continue
		}
		proj, err := pr.ErrorProjection(ctx, p, maxNodes, 0)
		if err == nil {
			return proj, nil
		}
		why := err.Error()
		switch {
		case ctx.Err() != nil:
			why = engine.StopReason(ctx)
		case strings.Contains(why, "node limit"):
			why = "BDD node limit reached"
		}
		return nil, &NoProjectionError{Reason: why, Err: err}
	}
	return nil, &NoProjectionError{Reason: "no engine computes error projections"}
}

// NoProjectionError is ErrorProjection's error: why there is no error
// projection.
type NoProjectionError struct {
	// Reason is worded for a note: "the program is concurrent",
	// "BDD node limit reached", "timeout", "interrupted", ...
	Reason string
	Err    error // the engine's error, if it gave one
}

// Error returns "no error projection: " and the reason.
func (e *NoProjectionError) Error() string { return "no error projection: " + e.Reason }

// Unwrap returns the engine's error.
func (e *NoProjectionError) Unwrap() error { return e.Err }

// WriteModel writes the model in the fixed-point calculus of package fix
// that the engine named solves for p within bound b (the engine's default
// bound if b is zero), for `boolprog mucke` (engine.ModelWriter).
func WriteModel(w io.Writer, engineName string, p *ir.Program, b Bound) error {
	info, ok := engine.Lookup(engineName)
	if !ok {
		return fmt.Errorf("unknown engine %q", engineName)
	}
	e, err := info.New()
	if err != nil {
		return err
	}
	mw, ok := e.(engine.ModelWriter)
	if !ok {
		return fmt.Errorf("the %s engine writes no model", info.Name())
	}
	return mw.WriteModel(w, p, engine.Query{Bound: b})
}
