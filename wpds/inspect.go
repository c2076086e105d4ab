package wpds

// TransitionWitness returns the witness of the transition (from, sym, to)
// of a: the derivation of its weight, whose rule sequences are those the
// transition stands for (see Prestar and Poststar). It is nil if a has no
// such transition or was built without Options.Witnesses. Clients that
// need more than Automaton.Witness (for instance to choose, per
// transition, the sequences that fit a context of their own) read the
// DAG from here.
func (a *Automaton[W]) TransitionWitness(from State, sym Symbol, to State) *Witness[W] {
	if t := a.index[tkey{from, sym, to}]; t != nil {
		return t.wit
	}
	return nil
}

// PushRule returns, for a state that Poststar created for a push rule with
// a merge function, that rule; -1 for every other state. The weight of a
// transition leaving such a state is the caller's part only: a query
// extends it with the rule's weight (see Transitions).
func (a *Automaton[W]) PushRule(q State) RuleID { return a.mid(q) }
