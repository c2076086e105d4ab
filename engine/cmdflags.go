package engine

import (
	"flag"
	"fmt"
	"slices"
	"strings"
)

// CommandFlags are every registered engine's own flags defined on a
// command's flag set before the engine is known (--engine may come after
// them). They collect the values given, which the pipeline passes on to
// the chosen engine's own flag set (Info.FlagSet, the one place an engine
// is configured). A value is checked as it is given, against every engine
// that declares the flag; Owned rejects a flag that the chosen engine
// does not declare, so that a flag the user set is never silently
// ignored.
type CommandFlags struct {
	owners map[string][]string // flag name -> engines that declare it
	flags  map[string][]*flag.Flag
	// Values are the flags given on the command line, by name.
	Values map[string]string
}

// DefineCommandFlags defines the flags of every registered engine on fs.
// Their usage starts with the engines they belong to, e.g.
// "[explicit] variables in scope ...".
func DefineCommandFlags(fs *flag.FlagSet) *CommandFlags {
	cf := &CommandFlags{owners: make(map[string][]string), flags: make(map[string][]*flag.Flag), Values: make(map[string]string)}
	var order []string
	for _, info := range Engines() {
		efs, _ := info.FlagSet()
		efs.VisitAll(func(f *flag.Flag) {
			if _, ok := cf.flags[f.Name]; !ok {
				order = append(order, f.Name)
			}
			cf.owners[f.Name] = append(cf.owners[f.Name], info.Name())
			cf.flags[f.Name] = append(cf.flags[f.Name], f)
		})
	}
	for _, name := range order {
		first := cf.flags[name][0]
		bf, isBool := first.Value.(interface{ IsBoolFlag() bool })
		usage := fmt.Sprintf("[%s] %s", strings.Join(cf.owners[name], ", "), first.Usage)
		fs.Var(&forwardFlag{cf: cf, name: name, def: first.DefValue, isBool: isBool && bf.IsBoolFlag()}, name, usage)
	}
	return cf
}

// Owned returns the error of an engine flag given that the engine named
// name (canonical or alias) does not declare, or nil. An unknown engine
// is the pipeline's error, not Owned's.
func (cf *CommandFlags) Owned(name string) error {
	info, ok := Lookup(name)
	if !ok {
		return nil
	}
	for flagName := range cf.Values {
		if owners := cf.owners[flagName]; !slices.Contains(owners, info.Name()) {
			return fmt.Errorf("flag --%s is an option of the %s engine, not of %s", flagName, strings.Join(owners, " and "), info.Name())
		}
	}
	return nil
}

// forwardFlag checks a value given on the command line against every
// engine that declares the flag, and records it.
type forwardFlag struct {
	cf     *CommandFlags
	name   string
	def    string
	isBool bool
}

func (f *forwardFlag) String() string { return f.def }

func (f *forwardFlag) IsBoolFlag() bool { return f.isBool }

func (f *forwardFlag) Set(s string) error {
	for _, fl := range f.cf.flags[f.name] {
		if err := fl.Value.Set(s); err != nil {
			return err
		}
	}
	f.cf.Values[f.name] = s
	return nil
}

// ListText describes the engines for a command's help, one per line with
// its names and doc: the default engine def first, marked "(default)",
// then the others in the registry's order.
func ListText(def string) string {
	infos := Engines()
	slices.SortStableFunc(infos, func(a, b Info) int {
		switch {
		case a.Name() == def:
			return -1
		case b.Name() == def:
			return 1
		}
		return 0
	})
	var b strings.Builder
	for _, info := range infos {
		doc := info.Doc
		if info.Name() == def {
			doc += " (default)"
		}
		fmt.Fprintf(&b, "  %-18s %s\n", strings.Join(info.Names, ", "), doc)
	}
	return b.String()
}
