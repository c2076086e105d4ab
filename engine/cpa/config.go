package cpa

import (
	"bufio"
	"embed"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"boolprog/cpa"
	"boolprog/cpa/observer"
	"boolprog/engine"
)

// Config is a parsed configuration (see the package doc for the file
// format and configs/ for the named ones).
type Config struct {
	Name      string   // the file or the named configuration it came from
	Analyses  []string // the composite's components after location, in order
	Interproc string   // "summary" or "callstack"
	Merge     cpa.MergeOp
	Stop      cpa.StopOp
	Order     cpa.Order
	Depth     int    // callstack.depth: 0 = no bound
	PerEntry  bool   // summary.contexts = entry (else procedure)
	TrackAll  bool   // explicitval.track = all (else none)
	CEGAR     bool   // cegar = on
	MaxRefine int    // cegar.refinements
	Observer  string // observer.spec: the specification file
	MaxStates int    // limit.states: 0 = none
	// Spec is the observer specification, read with a configuration file
	// (LoadConfig); nil from ParseConfig, which reads no file.
	Spec *observer.Spec
}

// Analysis names a configuration accepts in `analyses`.
var analysisNames = []string{"location", "callstack", "summary", "explicitval", "bdd", "reachdef", "observer"}

// Option names a configuration accepts, with what they take.
var optionNames = map[string]string{
	"analyses":          "a comma-separated list of " + strings.Join(analysisNames, ", "),
	"merge":             "sep, join or agree",
	"stop":              "sep or join",
	"waitlist":          strings.Join(cpa.OrderNames(), ", "),
	"callstack.depth":   "the largest call depth explored (0: no bound)",
	"summary.contexts":  "entry or procedure",
	"explicitval.track": "all or none",
	"cegar":             "on or off",
	"cegar.refinements": "the most refinements before giving up",
	"observer.spec":     "an observer specification file",
	"limit.states":      "the most abstract states (0: no limit)",
}

func optionList() string {
	var names []string
	for n := range optionNames {
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

//go:embed configs/*.cfg
var configFS embed.FS

// NamedConfigs lists the named configurations (the files of configs/).
func NamedConfigs() []string {
	ents, _ := configFS.ReadDir("configs")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".cfg"))
	}
	return out
}

// DefaultConfig is the configuration `--engine cpa` runs without
// --cpa-config: sound and complete model checking.
const DefaultConfig = "model-checking"

// LoadConfig reads a named configuration or, if there is none by that
// name, a configuration file.
func LoadConfig(nameOrFile string) (*Config, error) {
	f := configFlag(nameOrFile)
	return configOf(f)
}

// configFlag returns the value of --cpa-config set to nameOrFile: a file
// is read now, once.
func configFlag(nameOrFile string) *engine.FileFlag {
	f := &engine.FileFlag{Builtin: isNamed}
	f.Set(nameOrFile)
	return f
}

// configValue is the value of --cpa-config. The engine's constructor runs
// more than once (the CLI builds an engine to validate its flags and one
// per file checked), and a file given as a pipe (/dev/stdin, <(cmd))
// reads empty the second time: the configuration file is read when the
// flag is set and parsed, with its observer specification, at the first
// build; later builds share the parsed configuration.
type configValue struct {
	engine.FileFlag
	mu     sync.Mutex // the constructors of a portfolio may run at once
	cfg    *Config
	err    error
	parsed bool
}

// Set reads the file that value names (unless it is a named
// configuration).
func (v *configValue) Set(value string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.cfg, v.err, v.parsed = nil, nil, false
	return v.FileFlag.Set(value)
}

// config returns the parsed configuration, parsing it the first time.
func (v *configValue) config() (*Config, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.parsed {
		v.cfg, v.err = configOf(&v.FileFlag)
		v.parsed = true
	}
	return v.cfg, v.err
}

func isNamed(name string) bool {
	_, err := configFS.ReadFile(path.Join("configs", name+".cfg"))
	return err == nil
}

// configOf parses the configuration that f names. A file that cannot be
// read is a bad flag; a malformed one, an empty one or one whose observer
// specification is malformed or unreadable is bad input
// (*engine.InputError). The observer specification is read here, once.
func configOf(f *engine.FileFlag) (*Config, error) {
	if !f.IsFile() {
		data, err := configFS.ReadFile(path.Join("configs", f.Value+".cfg"))
		if err != nil {
			return nil, err
		}
		return ParseConfig(f.Value, string(data))
	}
	if f.Err != nil {
		return nil, fmt.Errorf("%v (named configurations: %s)", f.Err, strings.Join(NamedConfigs(), ", "))
	}
	c, err := ParseConfig(f.Value, string(f.Data))
	if err != nil {
		// A malformed file is bad input (exit 2), not a bad flag.
		return nil, &engine.InputError{Err: err}
	}
	if c.Observer != "" {
		if !filepath.IsAbs(c.Observer) {
			c.Observer = filepath.Join(filepath.Dir(f.Value), c.Observer)
		}
		if c.Spec, err = observer.Load(c.Observer); err != nil {
			return nil, &engine.InputError{Err: err}
		}
	}
	return c, nil
}

// spec returns the configuration's observer specification: the one read
// with the configuration, or for a Config from ParseConfig, observer.spec
// read now.
func (c *Config) spec() (*observer.Spec, error) {
	if c.Spec != nil {
		return c.Spec, nil
	}
	return observer.Load(c.Observer)
}

// ParseConfig parses a configuration file's text. Errors are
// "file:line:col: message" and list the valid names.
func ParseConfig(file, text string) (*Config, error) {
	c := &Config{Name: file, Interproc: "summary", PerEntry: true, TrackAll: true, MaxRefine: 100,
		Analyses: []string{"explicitval"}, Order: cpa.BFS}
	sc := bufio.NewScanner(strings.NewReader(text))
	seenAnalyses := false
	options := 0
	for line := 1; sc.Scan(); line++ {
		raw := sc.Text()
		if i := strings.IndexByte(raw, '#'); i >= 0 {
			raw = raw[:i]
		}
		if strings.TrimSpace(raw) == "" {
			continue
		}
		col := len(raw) - len(strings.TrimLeft(raw, " \t")) + 1
		errf := func(col int, format string, args ...any) error {
			return fmt.Errorf("%s:%d:%d: %s", file, line, col, fmt.Sprintf(format, args...))
		}
		eq := strings.IndexByte(raw, '=')
		if eq < 0 {
			return nil, errf(col, "want `option = value`")
		}
		options++
		key := strings.TrimSpace(raw[:eq])
		val := strings.TrimSpace(raw[eq+1:])
		vcol := eq + 2 + len(raw[eq+1:]) - len(strings.TrimLeft(raw[eq+1:], " \t"))
		if _, ok := optionNames[key]; !ok {
			return nil, errf(col, "unknown option %q (valid options: %s)", key, optionList())
		}
		bad := func() error { return errf(vcol, "%s: bad value %q (want %s)", key, val, optionNames[key]) }
		switch key {
		case "analyses":
			seenAnalyses = true
			c.Analyses = nil
			c.Interproc = ""
			off := vcol
			for _, part := range strings.Split(val, ",") {
				name := strings.TrimSpace(part)
				pcol := off + len(part) - len(strings.TrimLeft(part, " \t"))
				off += len(part) + 1
				if !slices.Contains(analysisNames, name) {
					return nil, errf(pcol, "unknown analysis %q (valid analyses: %s)", name, strings.Join(analysisNames, ", "))
				}
				switch name {
				case "location":
				case "callstack", "summary":
					if c.Interproc != "" && c.Interproc != name {
						return nil, errf(pcol, "analyses: callstack and summary both handle calls; choose one")
					}
					c.Interproc = name
				default:
					if slices.Contains(c.Analyses, name) {
						return nil, errf(pcol, "analysis %s listed twice", name)
					}
					c.Analyses = append(c.Analyses, name)
				}
			}
		case "merge":
			switch val {
			case "sep":
				c.Merge = cpa.MergeSep
			case "join":
				c.Merge = cpa.MergeJoin
			case "agree":
				c.Merge = cpa.MergeAgree
			default:
				return nil, bad()
			}
		case "stop":
			switch val {
			case "sep":
				c.Stop = cpa.StopSep
			case "join":
				c.Stop = cpa.StopJoin
			default:
				return nil, bad()
			}
		case "waitlist":
			o, ok := cpa.ParseOrder(val)
			if !ok {
				return nil, bad()
			}
			c.Order = o
		case "callstack.depth", "cegar.refinements", "limit.states":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return nil, bad()
			}
			switch key {
			case "callstack.depth":
				c.Depth = n
			case "cegar.refinements":
				c.MaxRefine = n
			default:
				c.MaxStates = n
			}
		case "summary.contexts":
			switch val {
			case "entry":
				c.PerEntry = true
			case "procedure":
				c.PerEntry = false
			default:
				return nil, bad()
			}
		case "explicitval.track":
			switch val {
			case "all":
				c.TrackAll = true
			case "none":
				c.TrackAll = false
			default:
				return nil, bad()
			}
		case "cegar":
			switch val {
			case "on":
				c.CEGAR = true
			case "off":
				c.CEGAR = false
			default:
				return nil, bad()
			}
		case "observer.spec":
			if val == "" {
				return nil, bad()
			}
			c.Observer = val
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if options == 0 {
		// Never the default in its place: an empty file is most often a
		// pipe read twice or a path that is not the configuration.
		return nil, fmt.Errorf("%s: empty configuration: no `option = value` line (named configurations: %s)", file, strings.Join(NamedConfigs(), ", "))
	}
	errf := func(format string, args ...any) error {
		return fmt.Errorf("%s:1:1: %s", file, fmt.Sprintf(format, args...))
	}
	if seenAnalyses && c.Interproc == "" {
		return nil, errf("analyses: calls need callstack or summary")
	}
	has := func(n string) bool { return slices.Contains(c.Analyses, n) }
	if !has("explicitval") && !has("bdd") && !has("reachdef") {
		return nil, errf("analyses: no data analysis (explicitval, bdd or reachdef)")
	}
	if c.CEGAR && !has("explicitval") {
		return nil, errf("cegar = on refines the explicitval analysis's precision: add explicitval to analyses")
	}
	if (c.Observer != "") != has("observer") {
		return nil, errf("the observer analysis and observer.spec go together")
	}
	if c.Stop == cpa.StopJoin && c.Merge != cpa.MergeJoin && (has("explicitval") || has("reachdef") || has("observer")) {
		// The join of the reached states is explored only if merge
		// builds it; with other merges only an exact join (BDDs) makes
		// coverage by it sound.
		return nil, errf("stop = join needs merge = join, or bdd as the only data analysis: a state covered by the join of states that no one explores would be lost")
	}
	if c.Depth > 0 && c.Interproc != "callstack" {
		return nil, errf("callstack.depth needs the callstack analysis")
	}
	return c, nil
}
