package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"boolprog/engine"
	"boolprog/internal/engines" // registers the engines, shared with the Go API
)

// defaultEngine is the engine `check` and `bench` use without --engine.
const defaultEngine = engines.Default

func engineNames() string { return engine.NamesText() }

// engineList describes the engines for `boolprog check -h`: the default
// first, then the others by name.
func engineList() string {
	infos := engine.Engines()
	slices.SortStableFunc(infos, func(a, b engine.Info) int {
		switch {
		case a.Name() == defaultEngine:
			return -1
		case b.Name() == defaultEngine:
			return 1
		}
		return 0
	})
	var b strings.Builder
	for _, info := range infos {
		doc := info.Doc
		if info.Name() == defaultEngine {
			doc += " (default)"
		}
		fmt.Fprintf(&b, "  %-18s %s\n", strings.Join(info.Names, ", "), doc)
	}
	return b.String()
}

// engineFlags holds every registered engine's own flags, defined on a
// command's flag set before the engine is known (--engine may come after
// them). Each engine keeps its flags in a flag set of its own; the command's
// flag set forwards a value to every engine that declares the flag, and
// build rejects a flag the chosen engine does not declare, so that a flag
// the user set is never silently ignored.
type engineFlags struct {
	engines map[string]*engineFlagSet // by canonical name
	owners  map[string][]string       // flag name -> engines that declare it
	set     map[string]bool           // flags given on the command line
}

type engineFlagSet struct {
	fs    *flag.FlagSet
	build func() (engine.Engine, error)
}

// defineEngineFlags defines the flags of every registered engine on fs.
// Their usage starts with the engines they belong to, e.g.
// "[explicit] variables in scope ...".
func defineEngineFlags(fs *flag.FlagSet) *engineFlags {
	ef := &engineFlags{engines: make(map[string]*engineFlagSet), owners: make(map[string][]string), set: make(map[string]bool)}
	type first struct {
		f      *flag.Flag
		isBool bool
	}
	firsts := make(map[string]first)
	var order []string
	for _, info := range engine.Engines() {
		efs, build := info.FlagSet()
		ef.engines[info.Name()] = &engineFlagSet{fs: efs, build: build}
		efs.VisitAll(func(f *flag.Flag) {
			if _, ok := firsts[f.Name]; !ok {
				bf, isBool := f.Value.(interface{ IsBoolFlag() bool })
				firsts[f.Name] = first{f: f, isBool: isBool && bf.IsBoolFlag()}
				order = append(order, f.Name)
			}
			ef.owners[f.Name] = append(ef.owners[f.Name], info.Name())
		})
	}
	for _, name := range order {
		fi := firsts[name]
		usage := fmt.Sprintf("[%s] %s", strings.Join(ef.owners[name], ", "), fi.f.Usage)
		fs.Var(&forwardFlag{ef: ef, name: name, def: fi.f.DefValue, isBool: fi.isBool}, name, usage)
	}
	return ef
}

// build returns the engine named name (canonical or alias) configured by
// the engine flags given, or a usage error: an unknown engine, a flag of
// another engine, or a value the engine cannot honour.
func (ef *engineFlags) build(name string) (engine.Engine, error) {
	info, ok := engine.Lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown engine %q (have %s)", name, engineNames())
	}
	for flagName := range ef.set {
		if owners := ef.owners[flagName]; !slices.Contains(owners, info.Name()) {
			return nil, fmt.Errorf("flag --%s is an option of the %s engine, not of %s", flagName, strings.Join(owners, " and "), info.Name())
		}
	}
	eng, err := ef.engines[info.Name()].build()
	if err != nil {
		return nil, fmt.Errorf("engine %s: %w", info.Name(), err)
	}
	return eng, nil
}

// forwardFlag passes a value given on the command line to every engine
// that declares the flag.
type forwardFlag struct {
	ef     *engineFlags
	name   string
	def    string
	isBool bool
}

func (f *forwardFlag) String() string { return f.def }

func (f *forwardFlag) IsBoolFlag() bool { return f.isBool }

func (f *forwardFlag) Set(s string) error {
	for _, owner := range f.ef.owners[f.name] {
		if err := f.ef.engines[owner].fs.Lookup(f.name).Value.Set(s); err != nil {
			return err
		}
	}
	f.ef.set[f.name] = true
	return nil
}
