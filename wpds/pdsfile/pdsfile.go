// Package pdsfile reads weighted pushdown systems from files, in a small
// text format or in JSON, and answers their reachability queries with
// package wpds, so that the library serves users who do not write Boolean
// programs. `boolprog pds FILE` is its command.
//
// # Text format
//
// A file is a sequence of lines; '#' starts a comment. Names are made of
// letters, digits and the characters _ $ . and the apostrophe, and do not
// start with a dot. The directives, in this order:
//
//	domain minpath             # bool, minpath or bitvector (default bool)
//	bits x y z                 # bitvector only: the names of the bits (at most 64)
//	states p q                 # the control states (at least one)
//	<p, main0> -> <p, f0 main1>   1      # a push rule with weight 1
//	<p, f0> -> <q, f1>            2      # a step rule
//	<q, f1> -> <p>                0      # a pop rule (also written <p,>)
//	from <p, main0>            # initial configurations (for post*)
//	to <p, main1 ...>          # target configurations (for pre*)
//
// A rule's weight may be left out: it is then the domain's One (true, 0,
// or the identity). Weights are written
//
//	bool:      true | false
//	minpath:   a number | inf
//	bitvector: one | zero | gen(x y) kill(z)   (either part may be left out)
//
// where gen(x) kill(y) is the transformer S ↦ (S \ {y}) ∪ {x}. A
// configuration <p, a b c> has a on top of the stack; a configuration that
// ends in "..." stands for every stack with that prefix (over the symbols
// of the file). There may be several from and to lines: each set is their
// union. Stack symbols need no declaration.
//
// # JSON
//
// The same content as one object:
//
//	{"domain": "minpath", "bits": [], "states": ["p", "q"],
//	 "rules": [{"from": "p", "sym": "main0", "to": "p", "out": ["f0", "main1"], "weight": "1"}],
//	 "from": [{"state": "p", "stack": ["main0"]}],
//	 "to": [{"state": "p", "stack": ["main1"], "any": true}]}
//
// with weights written as in the text format (a JSON string, or a number
// or boolean). Errors in either format are reported as file:line:col.
//
// # Queries
//
// Solve runs post* from the "from" set (or pre* of the "to" set) and
// returns the saturated automaton and the weight of the query: the combine
// over all rule sequences from a configuration of "from" to one of "to"
// of their values (in min-path, the length of a shortest one; in the
// bit-vector domain, the join of the transformers along the paths).
package pdsfile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"boolprog/wpds"
)

// Domain names a weight domain of a file.
type Domain string

// The weight domains.
const (
	Bool      Domain = "bool"
	MinPath   Domain = "minpath"
	BitVector Domain = "bitvector"
)

// Pos is a position in a file.
type Pos struct {
	Line, Col int
}

// Error is an input error at a position of a file.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Weight is a parsed weight; the field of the file's domain is the one set.
type Weight struct {
	Bool    bool
	Dist    wpds.Dist
	GenKill wpds.GenKill
}

// Rule is a rule of a file: ⟨From, Sym⟩ ↪ ⟨To, Out⟩ (Out has 0, 1 or 2
// symbols, its first on top) with its weight.
type Rule struct {
	Pos    Pos
	From   string
	Sym    string
	To     string
	Out    []string
	Weight Weight
	// Text is the rule as written in the canonical text form.
	Text string
}

// Pattern is a configuration of the from or to set; Any says that it
// stands for every stack that starts with Stack.
type Pattern struct {
	Pos   Pos
	State string
	Stack []string
	Any   bool
}

// String prints the pattern as in the text format.
func (p Pattern) String() string {
	s := "<" + p.State + ","
	for _, g := range p.Stack {
		s += " " + g
	}
	if p.Any {
		s += " ..."
	}
	return s + ">"
}

// File is a weighted pushdown system with its query.
type File struct {
	Name    string
	Domain  Domain
	Bits    []string
	States  []string
	Symbols []string // in order of first use
	Rules   []Rule
	From    []Pattern
	To      []Pattern
}

// builder collects a file's content and checks it as it comes.
type builder struct {
	f       *File
	states  map[string]int
	symbols map[string]int
	bits    map[string]int
}

func newBuilder(name string) *builder {
	return &builder{f: &File{Name: name, Domain: Bool}, states: map[string]int{}, symbols: map[string]int{}, bits: map[string]int{}}
}

func (b *builder) errf(pos Pos, format string, args ...any) error {
	return &Error{File: b.f.Name, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

func (b *builder) setDomain(pos Pos, d string) error {
	switch Domain(d) {
	case Bool, MinPath, BitVector:
		b.f.Domain = Domain(d)
		return nil
	}
	return b.errf(pos, "unknown domain %q (want bool, minpath or bitvector)", d)
}

func (b *builder) addBit(pos Pos, name string) error {
	if b.f.Domain != BitVector {
		return b.errf(pos, "bits are for the bitvector domain")
	}
	if _, ok := b.bits[name]; ok {
		return b.errf(pos, "bit %s declared twice", name)
	}
	if len(b.f.Bits) == 64 {
		return b.errf(pos, "more than 64 bits")
	}
	b.bits[name] = len(b.f.Bits)
	b.f.Bits = append(b.f.Bits, name)
	return nil
}

func (b *builder) addState(pos Pos, name string) error {
	if _, ok := b.states[name]; ok {
		return b.errf(pos, "state %s declared twice", name)
	}
	b.states[name] = len(b.f.States)
	b.f.States = append(b.f.States, name)
	return nil
}

func (b *builder) state(pos Pos, name string) error {
	if _, ok := b.states[name]; !ok {
		if len(b.f.States) == 0 {
			return b.errf(pos, "control state %s used before a 'states' line", name)
		}
		return b.errf(pos, "undeclared control state %s", name)
	}
	return nil
}

func (b *builder) symbol(name string) {
	if _, ok := b.symbols[name]; !ok {
		b.symbols[name] = len(b.f.Symbols)
		b.f.Symbols = append(b.f.Symbols, name)
	}
}

func (b *builder) addRule(r Rule, outPos Pos) error {
	if err := b.state(r.Pos, r.From); err != nil {
		return err
	}
	if err := b.state(outPos, r.To); err != nil {
		return err
	}
	if len(r.Out) > 2 {
		return b.errf(outPos, "a rule's right side has at most two stack symbols, not %d", len(r.Out))
	}
	b.symbol(r.Sym)
	for _, g := range r.Out {
		b.symbol(g)
	}
	r.Text = Pattern{State: r.From, Stack: []string{r.Sym}}.String() + " -> " + Pattern{State: r.To, Stack: r.Out}.String()
	b.f.Rules = append(b.f.Rules, r)
	return nil
}

func (b *builder) addPattern(to bool, p Pattern) error {
	if err := b.state(p.Pos, p.State); err != nil {
		return err
	}
	for _, g := range p.Stack {
		b.symbol(g)
	}
	if to {
		b.f.To = append(b.f.To, p)
	} else {
		b.f.From = append(b.f.From, p)
	}
	return nil
}

func (b *builder) finish() (*File, error) {
	if len(b.f.States) == 0 {
		return nil, b.errf(Pos{1, 1}, "no control states: a file needs a 'states' line")
	}
	return b.f, nil
}

// parseWeight parses the weight text s of the file's domain.
func (b *builder) parseWeight(pos Pos, s string) (Weight, error) {
	var w Weight
	s = strings.TrimSpace(s)
	switch b.f.Domain {
	case Bool:
		switch s {
		case "", "true":
			w.Bool = true
		case "false":
		default:
			return w, b.errf(pos, "bad bool weight %q (want true or false)", s)
		}
	case MinPath:
		switch s {
		case "":
		case "inf":
			w.Dist = wpds.Infinity
		default:
			n, err := strconv.ParseUint(s, 10, 64)
			if err != nil || n == math.MaxUint64 {
				return w, b.errf(pos, "bad minpath weight %q (want a number below 2^64-1 or inf)", s)
			}
			w.Dist = wpds.Dist(n)
		}
	case BitVector:
		bv := wpds.BitVector{}
		switch s {
		case "", "one":
			w.GenKill = bv.One()
			return w, nil
		case "zero":
			w.GenKill = bv.Zero()
			return w, nil
		}
		var gen, kill uint64
		seen := map[string]bool{}
		rest := s
		for rest != "" {
			open := strings.IndexByte(rest, '(')
			cl := strings.IndexByte(rest, ')')
			if open < 0 || cl < open {
				return w, b.errf(pos, "bad bitvector weight %q (want gen(bits) kill(bits), one or zero)", s)
			}
			kw := strings.TrimSpace(rest[:open])
			if (kw != "gen" && kw != "kill") || seen[kw] {
				return w, b.errf(pos, "bad bitvector weight %q (want gen(bits) kill(bits), each at most once)", s)
			}
			seen[kw] = true
			var set uint64
			for _, name := range strings.Fields(strings.ReplaceAll(rest[open+1:cl], ",", " ")) {
				i, ok := b.bits[name]
				if !ok {
					return w, b.errf(pos, "undeclared bit %s", name)
				}
				set |= 1 << uint(i)
			}
			if kw == "gen" {
				gen = set
			} else {
				kill = set
			}
			rest = strings.TrimSpace(rest[cl+1:])
		}
		w.GenKill = bv.Fn(kill, gen)
	}
	return w, nil
}

// FormatWeight prints a weight of the file's domain as the text format
// writes it.
func (f *File) FormatWeight(w Weight) string {
	switch f.Domain {
	case MinPath:
		return w.Dist.String()
	case BitVector:
		return formatGenKill(f.Bits, w.GenKill)
	}
	return strconv.FormatBool(w.Bool)
}

func formatGenKill(bits []string, g wpds.GenKill) string {
	if g.Bottom {
		return "zero"
	}
	if g.Gen == 0 && g.Kill == 0 {
		return "one"
	}
	set := func(x uint64) string {
		var names []string
		for i, n := range bits {
			if x&(1<<uint(i)) != 0 {
				names = append(names, n)
			}
		}
		return strings.Join(names, " ")
	}
	var parts []string
	if g.Gen != 0 {
		parts = append(parts, "gen("+set(g.Gen)+")")
	}
	// Canonical transformers kill what they generate; print only the rest.
	if k := g.Kill &^ g.Gen; k != 0 {
		parts = append(parts, "kill("+set(k)+")")
	}
	return strings.Join(parts, " ")
}
