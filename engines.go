package boolprog

import (
	"context"
	"errors"
	"flag"
	"slices"
	"sort"
	"strings"

	"boolprog/engine"
	_ "boolprog/engine/conc"     // registers conc-eager and conc-lazy
	_ "boolprog/engine/concfix"  // registers conc-fix
	_ "boolprog/engine/cpa"      // registers the cpa engine
	_ "boolprog/engine/explicit" // registers the explicit engine
	_ "boolprog/engine/fixpoint" // registers the ef and efopt engines
	_ "boolprog/engine/pushdown" // registers the post* and pre* engines
	_ "boolprog/engine/summary"  // registers the summary engine
	"boolprog/ir"
	"boolprog/result"
)

// DefaultEngine is the engine Check runs on a sequential program when
// Options.Engine is empty, as `boolprog check` does.
const DefaultEngine = "summary"

// concEngines are the engines Check runs, one after the other until one
// decides, on a concurrent program when Options.Engine is empty and no
// engine flag is set: the command's choice (cmd/boolprog/conc.go says why
// this order).
var concEngines = []string{"explicit", "conc-eager"}

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
	fs, build := info.FlagSet()
	fs.SetOutput(discard{})
	// Sorted, so that the first bad flag reported does not depend on map order.
	names := make([]string, 0, len(opts.EngineFlags))
	for n := range opts.EngineFlags {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if fs.Lookup(n) == nil {
			return nil, info, optionErrorf("EngineFlags", "%q is not an option of the %s engine (%s)", n, info.Name(), flagNames(fs))
		}
		if err := fs.Set(n, opts.EngineFlags[n]); err != nil {
			return nil, info, optionErrorf("EngineFlags", "%s: %v", n, err)
		}
	}
	eng, err := build()
	if err != nil {
		var in *engine.InputError
		if errors.As(err, &in) {
			return nil, info, &InputError{Diagnostics: diagnostics(asList("", in.Err))}
		}
		return nil, info, optionErrorf("EngineFlags", "engine %s: %v", info.Name(), err)
	}
	return eng, info, nil
}

// flagNames lists the flags of fs for an error message.
func flagNames(fs *flag.FlagSet) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if len(names) == 0 {
		return "it has none"
	}
	return "its options: " + strings.Join(names, ", ")
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// concDefault returns the engines of concEngines with their default flags,
// run one after the other.
func concDefault() (engine.Engine, error) {
	var seq fallback
	for _, name := range concEngines {
		info, ok := engine.Lookup(name)
		if !ok {
			return nil, optionErrorf("Engine", "no engine %s", name)
		}
		e, err := info.New()
		if err != nil {
			return nil, err
		}
		seq = append(seq, e)
	}
	return seq, nil
}

// fallback runs its engines in turn until one decides (Safe or Unsafe) or
// the context ends. When every engine answers Unknown, all their reasons
// are given, so that none is hidden.
type fallback []engine.Engine

func (f fallback) Name() string { return f[0].Name() }

func (f fallback) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	var why []string
	var res *result.Result
	for _, e := range f {
		res = engine.Run(ctx, e, p, q)
		if res.Verdict != result.Unknown || ctx.Err() != nil {
			return res, nil
		}
		why = append(why, e.Name()+": "+res.Reason)
	}
	res.Reason = strings.Join(why, "; ")
	return res, nil
}
