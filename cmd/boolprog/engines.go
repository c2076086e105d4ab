package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"boolprog"
	"boolprog/engine"
)

// defaultEngine is the engine `check` and `bench` use without --engine.
const defaultEngine = boolprog.DefaultEngine

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

// engineFlags defines every registered engine's own flags on a command's
// flag set before the engine is known (--engine may come after them), and
// collects the values given, which boolprog.Options.EngineFlags passes to
// the engine's own flag set (the registry's, the one place an engine is
// configured). A value is checked when it is given, against every engine
// that declares the flag; owned rejects a flag the chosen engine does not
// declare, so that a flag the user set is never silently ignored.
type engineFlags struct {
	owners map[string][]string // flag name -> engines that declare it
	flags  map[string][]*flag.Flag
	values map[string]string // flags given on the command line
}

// defineEngineFlags defines the flags of every registered engine on fs.
// Their usage starts with the engines they belong to, e.g.
// "[explicit] variables in scope ...".
func defineEngineFlags(fs *flag.FlagSet) *engineFlags {
	ef := &engineFlags{owners: make(map[string][]string), flags: make(map[string][]*flag.Flag), values: make(map[string]string)}
	var order []string
	for _, info := range engine.Engines() {
		efs, _ := info.FlagSet()
		efs.VisitAll(func(f *flag.Flag) {
			if _, ok := ef.flags[f.Name]; !ok {
				order = append(order, f.Name)
			}
			ef.owners[f.Name] = append(ef.owners[f.Name], info.Name())
			ef.flags[f.Name] = append(ef.flags[f.Name], f)
		})
	}
	for _, name := range order {
		first := ef.flags[name][0]
		bf, isBool := first.Value.(interface{ IsBoolFlag() bool })
		usage := fmt.Sprintf("[%s] %s", strings.Join(ef.owners[name], ", "), first.Usage)
		fs.Var(&forwardFlag{ef: ef, name: name, def: first.DefValue, isBool: isBool && bf.IsBoolFlag()}, name, usage)
	}
	return ef
}

// owned returns the usage error of an engine flag given that the engine
// named name (canonical or alias) does not declare, or nil. An unknown
// engine is the pipeline's error.
func (ef *engineFlags) owned(name string) error {
	info, ok := engine.Lookup(name)
	if !ok {
		return nil
	}
	for flagName := range ef.values {
		if owners := ef.owners[flagName]; !slices.Contains(owners, info.Name()) {
			return fmt.Errorf("flag --%s is an option of the %s engine, not of %s", flagName, strings.Join(owners, " and "), info.Name())
		}
	}
	return nil
}

// forwardFlag checks a value given on the command line against every
// engine that declares the flag, and records it.
type forwardFlag struct {
	ef     *engineFlags
	name   string
	def    string
	isBool bool
}

func (f *forwardFlag) String() string { return f.def }

func (f *forwardFlag) IsBoolFlag() bool { return f.isBool }

func (f *forwardFlag) Set(s string) error {
	for _, fl := range f.ef.flags[f.name] {
		if err := fl.Value.Set(s); err != nil {
			return err
		}
	}
	f.ef.values[f.name] = s
	return nil
}
