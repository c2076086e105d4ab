package cpa

import (
	"bufio"
	"embed"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"boolprog/cpa"
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
	if data, err := configFS.ReadFile(path.Join("configs", nameOrFile+".cfg")); err == nil {
		return ParseConfig(nameOrFile, string(data))
	}
	data, err := os.ReadFile(nameOrFile)
	if err != nil {
		return nil, fmt.Errorf("%v (named configurations: %s)", err, strings.Join(NamedConfigs(), ", "))
	}
	c, err := ParseConfig(nameOrFile, string(data))
	if err != nil {
		// A malformed file is bad input (exit 2), not a bad flag.
		return nil, &engine.InputError{Err: err}
	}
	if c.Observer != "" && !filepath.IsAbs(c.Observer) {
		c.Observer = filepath.Join(filepath.Dir(nameOrFile), c.Observer)
	}
	return c, nil
}

// ParseConfig parses a configuration file's text. Errors are
// "file:line:col: message" and list the valid names.
func ParseConfig(file, text string) (*Config, error) {
	c := &Config{Name: file, Interproc: "summary", PerEntry: true, TrackAll: true, MaxRefine: 100,
		Analyses: []string{"explicitval"}, Order: cpa.BFS}
	sc := bufio.NewScanner(strings.NewReader(text))
	seenAnalyses := false
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
