package wpds

import (
	"fmt"
	"slices"
	"strings"
)

// State is a control state of a pushdown system, or a state of a
// P-automaton. The control states of a PDS with n control states are
// 0, …, n-1; the automata over it number their other states from n on.
type State int

// Symbol is a stack symbol. Any non-negative int is a symbol; Epsilon is
// reserved for the ε-transitions that post* creates.
type Symbol int

// Epsilon labels the ε-transitions of a post* automaton.
const Epsilon Symbol = -1

// RuleID names a rule of a PDS: its index in PDS.Rules.
type RuleID int

// Merge is the merge function of a push rule in an extended WPDS (Lal's
// thesis, Defn. 3.1.2): Merge(caller, callee) is the weight of the caller
// from its entry to the return site, given its weight up to the call and
// the callee's weight from its entry to after the pop rule that returns.
// It must be strict (Zero in either argument gives Zero), distribute over
// Combine in each argument and, for pre* to be correct, satisfy path
// extension: Merge(a ⊗ b, c) = a ⊗ Merge(b, c).
type Merge[W any] func(caller, callee W) W

// Rule is a weighted pushdown rule ⟨From, Sym⟩ ↪ ⟨To, Out⟩, where Out has
// zero (pop), one (step) or two (push; Out[0] is the new top) symbols.
type Rule[W any] struct {
	From   State
	Sym    Symbol
	To     State
	Out    []Symbol
	Weight W
	// Merge is the merge function of a push rule; nil means the WPDS
	// default Merge(a, b) = a ⊗ Weight ⊗ b.
	Merge Merge[W]
}

// String prints the rule as <p,g> -> <p',w>.
func (r Rule[W]) String() string {
	out := make([]string, len(r.Out))
	for i, s := range r.Out {
		out[i] = fmt.Sprint(int(s))
	}
	return fmt.Sprintf("<%d,%d> -> <%d,%s>", r.From, r.Sym, r.To, strings.Join(out, " "))
}

// PDS is a weighted pushdown system, optionally extended with merge
// functions on its push rules (an EWPDS), over the semiring SR.
type PDS[W any] struct {
	sr       Semiring[W]
	controls int
	rules    []Rule[W]
}

// New returns an empty weighted pushdown system over sr with the control
// states 0, …, controls-1.
func New[W any](sr Semiring[W], controls int) *PDS[W] {
	return &PDS[W]{sr: sr, controls: controls}
}

// Semiring returns the weight domain of p.
func (p *PDS[W]) Semiring() Semiring[W] { return p.sr }

// Controls returns the number of control states.
func (p *PDS[W]) Controls() int { return p.controls }

// Rules returns the rules, indexed by RuleID. The caller must not modify it.
func (p *PDS[W]) Rules() []Rule[W] { return p.rules }

// Symbols returns the stack symbols that occur in the rules, in
// increasing order.
func (p *PDS[W]) Symbols() []Symbol {
	seen := map[Symbol]bool{}
	var out []Symbol
	add := func(g Symbol) {
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	for _, r := range p.rules {
		add(r.Sym)
		for _, g := range r.Out {
			add(g)
		}
	}
	slices.Sort(out)
	return out
}

// Rule returns the rule named id.
func (p *PDS[W]) Rule(id RuleID) Rule[W] { return p.rules[id] }

// Add adds a rule after checking it, and returns its name.
func (p *PDS[W]) Add(r Rule[W]) (RuleID, error) {
	if !p.isControl(r.From) || !p.isControl(r.To) {
		return 0, fmt.Errorf("wpds: rule %v: control states must be in [0,%d)", r, p.controls)
	}
	if len(r.Out) > 2 {
		return 0, fmt.Errorf("wpds: rule %v: at most two symbols on the right", r)
	}
	if r.Sym < 0 {
		return 0, fmt.Errorf("wpds: rule %v: negative stack symbol", r)
	}
	for _, s := range r.Out {
		if s < 0 {
			return 0, fmt.Errorf("wpds: rule %v: negative stack symbol", r)
		}
	}
	if r.Merge != nil && len(r.Out) != 2 {
		return 0, fmt.Errorf("wpds: rule %v: only push rules have merge functions", r)
	}
	r.Out = append([]Symbol(nil), r.Out...)
	p.rules = append(p.rules, r)
	return RuleID(len(p.rules) - 1), nil
}

func (p *PDS[W]) mustAdd(r Rule[W]) RuleID {
	id, err := p.Add(r)
	if err != nil {
		panic(err)
	}
	return id
}

// Pop adds the rule ⟨from, sym⟩ ↪ ⟨to, ε⟩ with weight w. It panics on
// states out of range or negative symbols (use Add to get an error).
func (p *PDS[W]) Pop(from State, sym Symbol, to State, w W) RuleID {
	return p.mustAdd(Rule[W]{From: from, Sym: sym, To: to, Weight: w})
}

// Step adds the rule ⟨from, sym⟩ ↪ ⟨to, out⟩ with weight w.
func (p *PDS[W]) Step(from State, sym Symbol, to State, out Symbol, w W) RuleID {
	return p.mustAdd(Rule[W]{From: from, Sym: sym, To: to, Out: []Symbol{out}, Weight: w})
}

// Push adds the rule ⟨from, sym⟩ ↪ ⟨to, top below⟩ with weight w and merge
// function m (nil for a plain WPDS rule).
func (p *PDS[W]) Push(from State, sym Symbol, to State, top, below Symbol, w W, m Merge[W]) RuleID {
	return p.mustAdd(Rule[W]{From: from, Sym: sym, To: to, Out: []Symbol{top, below}, Weight: w, Merge: m})
}

func (p *PDS[W]) isControl(s State) bool { return s >= 0 && int(s) < p.controls }

// merge applies the merge function of the push rule r.
func (p *PDS[W]) merge(r *Rule[W], caller, callee W) W {
	if r.Merge != nil {
		return r.Merge(caller, callee)
	}
	return p.sr.Extend(p.sr.Extend(caller, r.Weight), callee)
}

// Config is a configuration ⟨State, Stack⟩; Stack[0] is the top.
type Config struct {
	State State
	Stack []Symbol
}

// String prints the configuration as <p,g1 g2 ...>.
func (c Config) String() string {
	out := make([]string, len(c.Stack))
	for i, s := range c.Stack {
		out[i] = fmt.Sprint(int(s))
	}
	return fmt.Sprintf("<%d,%s>", c.State, strings.Join(out, " "))
}

// Apply runs the rules from c forward and returns the configuration
// reached, or an error naming the first rule that does not apply.
func (p *PDS[W]) Apply(c Config, rules []RuleID) (Config, error) {
	st := append([]Symbol(nil), c.Stack...)
	q := c.State
	for i, id := range rules {
		r := &p.rules[id]
		if q != r.From || len(st) == 0 || st[0] != r.Sym {
			return Config{}, fmt.Errorf("wpds: step %d: rule %v does not apply to %v", i, *r, Config{q, st})
		}
		st = append(append([]Symbol(nil), r.Out...), st[1:]...)
		q = r.To
	}
	return Config{q, st}, nil
}

// Unapply runs the rules backward from c (the last rule first) and returns
// the configuration from which they lead to c, or an error.
func (p *PDS[W]) Unapply(c Config, rules []RuleID) (Config, error) {
	st := append([]Symbol(nil), c.Stack...)
	q := c.State
	for i := len(rules) - 1; i >= 0; i-- {
		r := &p.rules[rules[i]]
		if q != r.To || len(st) < len(r.Out) {
			return Config{}, fmt.Errorf("wpds: step %d: rule %v does not lead to %v", i, *r, Config{q, st})
		}
		for j, s := range r.Out {
			if st[j] != s {
				return Config{}, fmt.Errorf("wpds: step %d: rule %v does not lead to %v", i, *r, Config{q, st})
			}
		}
		st = append([]Symbol{r.Sym}, st[len(r.Out):]...)
		q = r.From
	}
	return Config{q, st}, nil
}

// Value returns the value of a rule sequence (Defn. 2.4.2; for an EWPDS,
// the operational definition of §3.2.2): the extend of the rule weights,
// except that a pop rule matching an earlier push rule r merges with r's
// merge function the weight before the push and the weight since it.
func (p *PDS[W]) Value(rules []RuleID) W {
	type frame struct {
		caller W
		push   *Rule[W]
	}
	sr := p.sr
	top := sr.One()
	var stack []frame
	for _, id := range rules {
		r := &p.rules[id]
		switch len(r.Out) {
		case 1:
			top = sr.Extend(top, r.Weight)
		case 2:
			stack = append(stack, frame{top, r})
			top = sr.One()
		default:
			top = sr.Extend(top, r.Weight)
			if n := len(stack); n > 0 {
				f := stack[n-1]
				stack = stack[:n-1]
				top = p.merge(f.push, f.caller, top)
			}
		}
	}
	w := sr.One()
	for _, f := range stack {
		w = sr.Extend(sr.Extend(w, f.caller), f.push.Weight)
	}
	return sr.Extend(w, top)
}
