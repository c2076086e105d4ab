package engine

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Info describes a registered engine.
type Info struct {
	// Names are the names `--engine` accepts: the canonical name (the
	// engine's Name) first, then aliases.
	Names []string
	// Doc is a one-line description for the CLI's engine list.
	Doc string
	// Flags defines the engine's own flags in fs (with their defaults and
	// usage) and returns the constructor that builds the engine from their
	// values once fs is parsed. The constructor's error is a usage error:
	// a flag value the engine cannot honour ("--max-vars 65: the explicit
	// engine enumerates at most 64 variables"). An engine without flags
	// ignores fs.
	Flags func(fs *flag.FlagSet) func() (Engine, error)
	// NodeLimited says that the engine uses BDDs and honours
	// Query.MaxNodes; the CLI refuses --max-nodes for an engine that would
	// ignore it.
	NodeLimited bool
	// AllReachable says that the engine honours Query.AllReachable
	// (computes the whole reachable state space instead of stopping at
	// the first error); the CLI refuses --all for an engine that would
	// ignore it.
	AllReachable bool
}

// Name returns the canonical name.
func (i Info) Name() string { return i.Names[0] }

// New builds the engine with the default values of its flags.
func (i Info) New() (Engine, error) {
	fs := flag.NewFlagSet(i.Name(), flag.ContinueOnError)
	return i.Flags(fs)()
}

// FlagSet returns a new flag set holding only the engine's own flags, and
// the engine's constructor bound to them: parse (or Set) the flags, then
// call the constructor.
func (i Info) FlagSet() (*flag.FlagSet, func() (Engine, error)) {
	fs := flag.NewFlagSet(i.Name(), flag.ContinueOnError)
	return fs, i.Flags(fs)
}

var registry struct {
	sync.Mutex
	infos []Info
}

// Register adds an engine to the registry. It panics if the Info has no
// names or no Flags, or a name is already registered: registration happens
// in init functions, where such a mistake must stop the program at once.
func Register(info Info) {
	if len(info.Names) == 0 || info.Flags == nil {
		panic("engine: Register needs Names and Flags")
	}
	registry.Lock()
	defer registry.Unlock()
	for _, name := range info.Names {
		for _, other := range registry.infos {
			if slices.Contains(other.Names, name) {
				panic(fmt.Sprintf("engine: engine name %q registered twice", name))
			}
		}
	}
	info.Names = slices.Clone(info.Names)
	registry.infos = append(registry.infos, info)
}

// Engines returns the registered engines sorted by canonical name.
func Engines() []Info {
	registry.Lock()
	defer registry.Unlock()
	out := slices.Clone(registry.infos)
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out
}

// Lookup returns the engine registered under name (canonical or alias).
func Lookup(name string) (Info, bool) {
	registry.Lock()
	defer registry.Unlock()
	for _, info := range registry.infos {
		if slices.Contains(info.Names, name) {
			return info, true
		}
	}
	return Info{}, false
}

// NamesText lists the registered engines for usage messages:
// "explicit, summary|bebop".
func NamesText() string {
	var names []string
	for _, info := range Engines() {
		names = append(names, strings.Join(info.Names, "|"))
	}
	return strings.Join(names, ", ")
}

// NoFlags is the Info.Flags of an engine without flags of its own: it
// returns a constructor that calls newEngine.
func NoFlags(newEngine func() Engine) func(*flag.FlagSet) func() (Engine, error) {
	return func(*flag.FlagSet) func() (Engine, error) {
		return func() (Engine, error) { return newEngine(), nil }
	}
}

// InputError is the error an engine's constructor (Info.Flags) returns when
// a file named by one of its flags (a formula, a configuration) is
// malformed: bad input, which the CLI reports like a malformed program
// (exit 2), not a usage error. Err's text starts with file:line:col where
// the engine knows the position.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// Setting is one of an engine's own flags set to a value, as a command
// line sets it ("max-vars", "8").
type Setting struct{ Name, Value string }

// UnknownFlagError is the error of Configure for a setting whose flag the
// engine does not declare; Known lists the flags it does.
type UnknownFlagError struct {
	Engine, Flag string
	Known        []string
}

func (e *UnknownFlagError) Error() string {
	known := "it has none"
	if len(e.Known) > 0 {
		known = "its options: " + strings.Join(e.Known, ", ")
	}
	return fmt.Sprintf("%q is not an option of the %s engine (%s)", e.Flag, e.Engine, known)
}

// SettingError is the error of Configure for a value that the flag
// refuses.
type SettingError struct {
	Setting Setting
	Err     error
}

// Error returns "name: why".
func (e *SettingError) Error() string { return e.Setting.Name + ": " + e.Err.Error() }

// Unwrap returns the flag's error.
func (e *SettingError) Unwrap() error { return e.Err }

// Configure builds the engine with its own flags set, in order, as
// settings say: the one way every tool configures an engine from strings
// (the command's flags, the Go API's Options.EngineFlags, a sequential
// engine named inside another engine's flag). A flag the engine does not
// declare is an *UnknownFlagError, a value the flag refuses a
// *SettingError; the constructor's own error (a usage error, or an
// *InputError) is returned as is.
func (i Info) Configure(settings []Setting) (Engine, error) {
	fs, build := i.FlagSet()
	for _, s := range settings {
		if fs.Lookup(s.Name) == nil {
			var known []string
			fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
			return nil, &UnknownFlagError{Engine: i.Name(), Flag: s.Name, Known: known}
		}
		if err := fs.Set(s.Name, s.Value); err != nil {
			return nil, &SettingError{Setting: s, Err: err}
		}
	}
	return build()
}

// ParseSettings reads the engine's own flags written as on a command line
// ("--order force --worklist=callees"), with the flag package's syntax and
// errors, and returns them as settings for Configure. Anything but flags is
// an error.
func (i Info) ParseSettings(args []string) ([]Setting, error) {
	fs, _ := i.FlagSet()
	fs.SetOutput(io.Discard)
	var settings []Setting
	for _, name := range flagNames(fs) {
		// Record each flag as the parse sets it, in order.
		f := fs.Lookup(name)
		f.Value = &recorder{Value: f.Value, name: name, to: &settings}
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected %q (only flags follow the name)", fs.Arg(0))
	}
	return settings, nil
}

func flagNames(fs *flag.FlagSet) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	return names
}

// recorder is a flag.Value that checks a value with the flag's own and
// records it as a Setting.
type recorder struct {
	flag.Value
	name string
	to   *[]Setting
}

func (r *recorder) Set(s string) error {
	if err := r.Value.Set(s); err != nil {
		return err
	}
	*r.to = append(*r.to, Setting{Name: r.name, Value: s})
	return nil
}

// IsBoolFlag keeps a switch a switch ("--deepen" without a value).
func (r *recorder) IsBoolFlag() bool {
	bf, ok := r.Value.(interface{ IsBoolFlag() bool })
	return ok && bf.IsBoolFlag()
}
