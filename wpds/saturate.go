package wpds

// Prestar saturates the target set with the rules of p (Lal's thesis
// §2.4.1, and Fig. 3.3 for merge functions) and returns a forward weighted
// automaton that accepts every configuration c from which some rule
// sequence leads into target, with weight IJOP({c}, target): the combine
// over those sequences of their values.
func Prestar[W any](p *PDS[W], target *Set, opt Options) (*Automaton[W], error) {
	if opt.FWPDS {
		return fprestar(p, target, opt)
	}
	a, err := newAutomaton(p, target, false, opt)
	if err != nil {
		return nil, err
	}
	// byTop indexes the step and push rules by the state and first symbol
	// of their right-hand side, bySecond the push rules by their second.
	byTop := map[fromSym][]RuleID{}
	bySecond := map[Symbol][]RuleID{}
	for i := range p.rules {
		r := &p.rules[i]
		id := RuleID(i)
		switch len(r.Out) {
		case 0:
			a.update(r.From, r.Sym, r.To, r.Weight, func() *Witness[W] {
				return &Witness[W]{Kind: WitnessSeq, Weight: r.Weight, Rule: -1, Parts: []*Witness[W]{ruleWitness(id, r.Weight)}}
			})
		case 1:
			byTop[fromSym{r.To, r.Out[0]}] = append(byTop[fromSym{r.To, r.Out[0]}], id)
		case 2:
			byTop[fromSym{r.To, r.Out[0]}] = append(byTop[fromSym{r.To, r.Out[0]}], id)
			bySecond[r.Out[1]] = append(bySecond[r.Out[1]], id)
		}
	}
	for len(a.queue) > 0 {
		t, tw := a.pop()
		for _, id := range byTop[fromSym{t.from, t.sym}] {
			r := &p.rules[id]
			if len(r.Out) == 1 {
				v := a.ext(r.Weight, tw)
				a.update(r.From, r.Sym, t.to, v, func() *Witness[W] {
					return &Witness[W]{Kind: WitnessSeq, Weight: v, Rule: -1, Parts: []*Witness[W]{ruleWitness(id, r.Weight), t.wit}}
				})
				continue
			}
			for _, t2 := range a.out[fromSym{t.to, r.Out[1]}] {
				a.prePush(id, t, tw, t2, t2.w)
			}
		}
		for _, id := range bySecond[t.sym] {
			r := &p.rules[id]
			if t1 := a.index[tkey{r.To, r.Out[0], t.from}]; t1 != nil {
				a.prePush(id, t1, t1.w, t, tw)
			}
		}
	}
	a.finish()
	return a, nil
}

// prePush applies the push rule id = ⟨p,γ⟩ ↪ ⟨p',γ'γ”⟩ to the path
// p' --γ'--> q1 --γ”--> q2 (t1, t2). When q1 is a control state, t1 is
// a balanced run of the callee and the merge function applies.
func (a *Automaton[W]) prePush(id RuleID, t1 *transition[W], w1 W, t2 *transition[W], w2 W) {
	r := &a.pds.rules[id]
	var v W
	if r.Merge != nil && a.pds.isControl(t1.to) {
		a.stats.Merges++
		v = a.ext(r.Merge(a.sr.One(), w1), w2)
	} else {
		v = a.ext(a.ext(r.Weight, w1), w2)
	}
	a.update(r.From, r.Sym, t2.to, v, func() *Witness[W] {
		return &Witness[W]{Kind: WitnessSeq, Weight: v, Rule: -1, Parts: []*Witness[W]{ruleWitness(id, r.Weight), t1.wit, t2.wit}}
	})
}

// Poststar saturates the initial set with the rules of p (Lal's thesis
// §2.4.1, and Fig. 3.4 for merge functions) and returns a backward weighted
// automaton that accepts every configuration c reachable from init, with
// weight IJOP(init, {c}).
//
// Phase I adds a state for each pair (p', γ') of a push rule
// ⟨p,γ⟩ ↪ ⟨p',γ'γ”⟩ without merge function, shared by those rules, and
// one state per push rule with a merge function (so that the rule, and
// its merge, is known from the state: the thesis' lookupPushRule).
// ε-transitions are closed on the fly: whenever (p,ε,q) and (q,γ,q')
// exist, (p,γ,q') gets their weight, merged when q belongs to a merge rule.
func Poststar[W any](p *PDS[W], init *Set, opt Options) (*Automaton[W], error) {
	if opt.FWPDS {
		return fpoststar(p, init, opt)
	}
	a, err := newAutomaton(p, init, true, opt)
	if err != nil {
		return nil, err
	}
	mid := postStates(a)
	byLHS := map[fromSym][]RuleID{}
	for i := range p.rules {
		r := &p.rules[i]
		byLHS[fromSym{r.From, r.Sym}] = append(byLHS[fromSym{r.From, r.Sym}], RuleID(i))
	}
	one := a.sr.One()
	for len(a.queue) > 0 {
		t, tw := a.pop()
		if t.sym == Epsilon {
			for _, t2 := range a.from[t.to] {
				if t2.sym != Epsilon {
					a.postEps(t, tw, t2, t2.w)
				}
			}
			continue
		}
		for _, e := range a.epsInto[t.from] {
			a.postEps(e, e.w, t, tw)
		}
		if !p.isControl(t.from) {
			continue
		}
		for _, id := range byLHS[fromSym{t.from, t.sym}] {
			r := &p.rules[id]
			wit := func(v W) func() *Witness[W] {
				return func() *Witness[W] {
					return &Witness[W]{Kind: WitnessSeq, Weight: v, Rule: -1, Parts: []*Witness[W]{t.wit, ruleWitness(id, r.Weight)}}
				}
			}
			switch len(r.Out) {
			case 0:
				v := a.ext(tw, r.Weight)
				a.update(r.To, Epsilon, t.to, v, wit(v))
			case 1:
				v := a.ext(tw, r.Weight)
				a.update(r.To, r.Out[0], t.to, v, wit(v))
			case 2:
				m := mid[id]
				a.update(r.To, r.Out[0], m, one, func() *Witness[W] {
					return &Witness[W]{Kind: WitnessSeq, Weight: one, Rule: -1}
				})
				v := tw // a merge rule's weight is added by the merge or the query
				if r.Merge == nil {
					v = a.ext(tw, r.Weight)
				}
				a.update(m, r.Out[1], t.to, v, wit(v))
			}
		}
	}
	a.finish()
	return a, nil
}

// postEps closes e = (p,ε,q) with t = (q,γ,q') into (p,γ,q'): the caller's
// part t, then the callee's e; merged if q is a merge rule's state.
func (a *Automaton[W]) postEps(e *transition[W], we W, t *transition[W], wt W) {
	var v W
	if r := a.mid(e.to); r >= 0 {
		a.stats.Merges++
		v = a.pds.rules[r].Merge(wt, we)
	} else {
		v = a.ext(wt, we)
	}
	a.update(e.from, t.sym, t.to, v, func() *Witness[W] {
		return &Witness[W]{Kind: WitnessSeq, Weight: v, Rule: -1, Parts: []*Witness[W]{t.wit, e.wit}}
	})
}
