package wpds

import "fmt"

// WitnessKind says what a witness node stands for.
type WitnessKind int

const (
	// WitnessInitial is a transition of the input Set: no rules.
	WitnessInitial WitnessKind = iota
	// WitnessRule is the application of one rule, Rule.
	WitnessRule
	// WitnessSeq is the concatenation of the rule sequences of Parts.
	WitnessSeq
	// WitnessCombine is a choice between Parts: the combine of their weights.
	WitnessCombine
)

// Witness is a node of a derivation DAG (Lal's thesis, Defn. 2.4.3 and the
// witness tracing of Reps et al.). Each node stands for a set of rule
// sequences: the empty sequence (Initial), one rule (Rule), the
// concatenation of its parts' sequences (Seq) or the union of its parts'
// sets (Combine). Weight is the weight the saturation computed for the node
// when it was created; it is the combine of the values of the node's
// sequences (for a Seq in an EWPDS, a merge may stand between the parts).
// Nodes are immutable and only refer to older nodes, so the DAG is acyclic
// and the sets of sequences are finite.
type Witness[W any] struct {
	Kind   WitnessKind
	Weight W
	Rule   RuleID // the rule of a WitnessRule node, -1 otherwise
	// From, Sym, To name the input transition of a WitnessInitial node.
	From  State
	Sym   Symbol
	To    State
	Parts []*Witness[W]
}

func ruleWitness[W any](id RuleID, w W) *Witness[W] {
	return &Witness[W]{Kind: WitnessRule, Weight: w, Rule: id}
}

// ErrTooLong is returned by Expand when a rule sequence exceeds the limit.
var ErrTooLong = fmt.Errorf("wpds: witness longer than the limit")

// Expand returns one rule sequence of w, of at most limit rules. At a
// Combine node it takes the first part whose weight equals the node's
// (in min-path, an optimal sequence), else the first part whose weight is
// not Zero.
func (w *Witness[W]) Expand(sr Semiring[W], limit int) ([]RuleID, error) {
	var out []RuleID
	var walk func(n *Witness[W]) error
	walk = func(n *Witness[W]) error {
		switch n.Kind {
		case WitnessInitial:
		case WitnessRule:
			if len(out) >= limit {
				return ErrTooLong
			}
			out = append(out, n.Rule)
		case WitnessSeq:
			for _, p := range n.Parts {
				if err := walk(p); err != nil {
					return err
				}
			}
		case WitnessCombine:
			var pick *Witness[W]
			for _, p := range n.Parts {
				if sr.Equal(p.Weight, n.Weight) {
					pick = p
					break
				}
			}
			if pick == nil {
				for _, p := range n.Parts {
					if !sr.Equal(p.Weight, sr.Zero()) {
						pick = p
						break
					}
				}
			}
			if pick == nil {
				return fmt.Errorf("wpds: witness combine with no non-zero part")
			}
			return walk(pick)
		}
		return nil
	}
	if err := walk(w); err != nil {
		return nil, err
	}
	return out, nil
}

// All returns every rule sequence of w, up to limit sequences; the combine
// of their values is the weight of w.
func (w *Witness[W]) All(limit int) ([][]RuleID, error) {
	memo := map[*Witness[W]][][]RuleID{}
	var walk func(n *Witness[W]) ([][]RuleID, error)
	walk = func(n *Witness[W]) ([][]RuleID, error) {
		if s, ok := memo[n]; ok {
			return s, nil
		}
		var res [][]RuleID
		switch n.Kind {
		case WitnessInitial:
			res = [][]RuleID{nil}
		case WitnessRule:
			res = [][]RuleID{{n.Rule}}
		case WitnessSeq:
			res = [][]RuleID{nil}
			for _, p := range n.Parts {
				ps, err := walk(p)
				if err != nil {
					return nil, err
				}
				var next [][]RuleID
				for _, a := range res {
					for _, b := range ps {
						if len(next) >= limit {
							return nil, ErrTooLong
						}
						next = append(next, append(append([]RuleID(nil), a...), b...))
					}
				}
				res = next
			}
		case WitnessCombine:
			for _, p := range n.Parts {
				ps, err := walk(p)
				if err != nil {
					return nil, err
				}
				if len(res)+len(ps) > limit {
					return nil, ErrTooLong
				}
				res = append(res, ps...)
			}
		}
		memo[n] = res
		return res, nil
	}
	return walk(w)
}

// Path is a witness rule sequence for one configuration, with the
// configurations it leads from and to.
type Path[W any] struct {
	From, To Config
	Rules    []RuleID
	// Value is the value of Rules (PDS.Value); for min-path it equals the
	// configuration's weight.
	Value W
}

// Trace returns a rule sequence that justifies the weight of c: for a
// pre* automaton it leads from c to a configuration of the target set, for
// a post* automaton from a configuration of the initial set to c. It needs
// Options.Witnesses; ok is false if c is rejected.
func (a *Automaton[W]) Trace(c Config, limit int) (p Path[W], ok bool, err error) {
	_, wit := a.Witness(c)
	if wit == nil {
		return p, false, nil
	}
	rules, err := wit.Expand(a.sr, limit)
	if err != nil {
		return p, false, err
	}
	p.Rules = rules
	p.Value = a.pds.Value(rules)
	if a.backward {
		p.To = c
		p.From, err = a.pds.Unapply(c, rules)
	} else {
		p.From = c
		p.To, err = a.pds.Apply(c, rules)
	}
	return p, err == nil, err
}
