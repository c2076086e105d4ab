package pdsfile

import (
	"fmt"
	"io"
	"strings"

	"boolprog/wpds"
)

// Options choose how Solve answers a file's query.
type Options struct {
	// Pre runs pre* of the "to" set instead of post* of the "from" set.
	Pre bool
	// Witness adds, for each configuration written without "..." on the
	// query's side ("to" for post*, "from" for pre*), a rule sequence
	// that justifies its weight.
	Witness bool
	// WitnessLimit bounds the length of a witness (default 10000).
	WitnessLimit int
	// FWPDS solves with wpds.Options.FWPDS.
	FWPDS bool
}

// Result is the answer to a file's query.
type Result struct {
	Direction string `json:"direction"` // "post*" or "pre*"
	Domain    Domain `json:"domain"`
	// Weight is the combine over the rule sequences from a configuration
	// of "from" to one of "to" of their values; empty if the file has no
	// set on the other side.
	Weight      string       `json:"weight,omitempty"`
	States      []string     `json:"states"` // the control states first
	Final       []string     `json:"final"`
	Transitions []Transition `json:"transitions"`
	Witnesses   []Witness    `json:"witnesses,omitempty"`
	Stats       wpds.Stats   `json:"stats"`
}

// Transition is a weighted transition of the result's automaton; Sym is
// "eps" for the ε-transitions of post*.
type Transition struct {
	From   string `json:"from"`
	Sym    string `json:"sym"`
	To     string `json:"to"`
	Weight string `json:"weight"`
}

// Witness is a rule sequence for one configuration of the query.
type Witness struct {
	Config string `json:"config"`
	// Reachable is false if the configuration has weight Zero (no rule
	// sequence); then Rules is empty.
	Reachable bool          `json:"reachable"`
	From      string        `json:"from,omitempty"`
	To        string        `json:"to,omitempty"`
	Value     string        `json:"value,omitempty"`
	Rules     []WitnessRule `json:"rules,omitempty"`
	// Note says why there is no witness (a pattern with "...").
	Note string `json:"note,omitempty"`
}

// WitnessRule is one rule of a witness, with the line that defines it.
type WitnessRule struct {
	Line int    `json:"line"`
	Rule string `json:"rule"`
}

// Solve answers the file's query.
func Solve(f *File, opt Options) (*Result, error) {
	switch f.Domain {
	case MinPath:
		return solve(f, opt, wpds.MinPath{}, func(w Weight) wpds.Dist { return w.Dist }, wpds.Dist.String)
	case BitVector:
		return solve(f, opt, wpds.BitVector{}, func(w Weight) wpds.GenKill { return w.GenKill },
			func(g wpds.GenKill) string { return formatGenKill(f.Bits, g) })
	}
	return solve(f, opt, wpds.Bool{}, func(w Weight) bool { return w.Bool }, func(b bool) string { return fmt.Sprint(b) })
}

func solve[W any](f *File, opt Options, sr wpds.Semiring[W], conv func(Weight) W, format func(W) string) (*Result, error) {
	states := map[string]wpds.State{}
	for i, s := range f.States {
		states[s] = wpds.State(i)
	}
	symbols := map[string]wpds.Symbol{}
	for i, s := range f.Symbols {
		symbols[s] = wpds.Symbol(i)
	}
	p := wpds.New(sr, len(f.States))
	for _, r := range f.Rules {
		out := make([]wpds.Symbol, len(r.Out))
		for i, g := range r.Out {
			out[i] = symbols[g]
		}
		if _, err := p.Add(wpds.Rule[W]{From: states[r.From], Sym: symbols[r.Sym], To: states[r.To], Out: out, Weight: conv(r.Weight)}); err != nil {
			return nil, err
		}
	}
	alphabet := make([]wpds.Symbol, len(f.Symbols))
	for i := range alphabet {
		alphabet[i] = wpds.Symbol(i)
	}
	set := func(ps []Pattern) *wpds.Set {
		s := wpds.NewSet(len(f.States))
		for _, c := range ps {
			q := states[c.State]
			for _, g := range c.Stack {
				n := s.AddState()
				s.Add(q, symbols[g], n)
				q = n
			}
			s.SetFinal(q)
			if c.Any {
				n := q
				if int(q) < len(f.States) {
					n = s.AddState() // no loops on a control state
					s.SetFinal(n)
					for _, g := range alphabet {
						s.Add(q, g, n)
					}
				}
				for _, g := range alphabet {
					s.Add(n, g, n)
				}
			}
		}
		return s
	}
	from, to := set(f.From), set(f.To)
	res := &Result{Direction: "post*", Domain: f.Domain}
	wopt := wpds.Options{Witnesses: opt.Witness, FWPDS: opt.FWPDS}
	var a *wpds.Automaton[W]
	var err error
	query := f.To
	if opt.Pre {
		res.Direction = "pre*"
		if len(f.To) == 0 {
			return nil, &Error{File: f.Name, Pos: Pos{1, 1}, Msg: "pre* needs a 'to' line: the target configurations"}
		}
		a, err = wpds.Prestar(p, to, wopt)
		query = f.From
	} else {
		if len(f.From) == 0 {
			return nil, &Error{File: f.Name, Pos: Pos{1, 1}, Msg: "post* needs a 'from' line: the initial configurations"}
		}
		a, err = wpds.Poststar(p, from, wopt)
	}
	if err != nil {
		return nil, err
	}
	if len(query) > 0 {
		if opt.Pre {
			res.Weight = format(a.Summary(from))
		} else {
			res.Weight = format(a.Summary(to))
		}
	}
	stateName := func(q wpds.State) string {
		if int(q) < len(f.States) {
			return f.States[q]
		}
		return fmt.Sprintf("s%d", q)
	}
	symName := func(g wpds.Symbol) string {
		if g == wpds.Epsilon {
			return "eps"
		}
		return f.Symbols[g]
	}
	for q := 0; q < a.States(); q++ {
		res.States = append(res.States, stateName(wpds.State(q)))
		if a.Final(wpds.State(q)) {
			res.Final = append(res.Final, stateName(wpds.State(q)))
		}
	}
	for _, t := range a.Transitions() {
		res.Transitions = append(res.Transitions, Transition{stateName(t.From), symName(t.Sym), stateName(t.To), format(t.Weight)})
	}
	res.Stats = a.Stats()
	if !opt.Witness {
		return res, nil
	}
	limit := opt.WitnessLimit
	if limit <= 0 {
		limit = 10000
	}
	config := func(c wpds.Config) string {
		names := make([]string, len(c.Stack))
		for i, g := range c.Stack {
			names[i] = f.Symbols[g]
		}
		return Pattern{State: f.States[c.State], Stack: names}.String()
	}
	for _, c := range query {
		w := Witness{Config: c.String()}
		if c.Any {
			w.Note = "no witness for a set of configurations ('...'): write the configuration in full"
			res.Witnesses = append(res.Witnesses, w)
			continue
		}
		cf := wpds.Config{State: states[c.State]}
		for _, g := range c.Stack {
			cf.Stack = append(cf.Stack, symbols[g])
		}
		path, ok, err := a.Trace(cf, limit)
		if err != nil {
			w.Note = err.Error()
		}
		if ok {
			w.Reachable = true
			w.From, w.To, w.Value = config(path.From), config(path.To), format(path.Value)
			for _, id := range path.Rules {
				r := f.Rules[id]
				w.Rules = append(w.Rules, WitnessRule{Line: r.Pos.Line, Rule: r.Text})
			}
		}
		res.Witnesses = append(res.Witnesses, w)
	}
	return res, nil
}

// WriteText prints the result for people: the automaton, the weight and
// the witnesses.
func (r *Result) WriteText(w io.Writer) {
	fmt.Fprintf(w, "%s automaton: %d states, %d transitions\n", r.Direction, len(r.States), len(r.Transitions))
	fmt.Fprintf(w, "final: %s\n", strings.Join(r.Final, " "))
	for _, t := range r.Transitions {
		fmt.Fprintf(w, "  %s --%s--> %s  %s\n", t.From, t.Sym, t.To, t.Weight)
	}
	if r.Weight != "" {
		fmt.Fprintf(w, "weight: %s\n", r.Weight)
	} else {
		side := "'to'"
		if r.Direction == "pre*" {
			side = "'from'"
		}
		fmt.Fprintf(w, "weight: none (the file has no %s set to query)\n", side)
	}
	for _, x := range r.Witnesses {
		switch {
		case x.Note != "" && !x.Reachable:
			fmt.Fprintf(w, "witness for %s: %s\n", x.Config, x.Note)
		case !x.Reachable:
			fmt.Fprintf(w, "witness for %s: none (weight zero)\n", x.Config)
		default:
			fmt.Fprintf(w, "witness for %s: %d rules from %s to %s, value %s\n", x.Config, len(x.Rules), x.From, x.To, x.Value)
			for _, rl := range x.Rules {
				fmt.Fprintf(w, "  line %d: %s\n", rl.Line, rl.Rule)
			}
		}
	}
}
