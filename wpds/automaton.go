package wpds

import "fmt"

// Set is an unweighted P-automaton: it accepts the configuration ⟨p, w⟩
// when it has a path from state p reading w to a final state. Its states
// 0, …, controls-1 are the control states of the PDS; no transition may
// lead into one (Defn. 2.3.2). Sets give the input of Prestar and Poststar
// and the regular sets of configurations that Automaton.Summary queries.
type Set struct {
	controls int
	states   int
	final    []bool
	trans    []setTrans
}

type setTrans struct {
	from State
	sym  Symbol
	to   State
}

// NewSet returns a set with the control states 0, …, controls-1 and no
// transitions: it accepts nothing.
func NewSet(controls int) *Set {
	return &Set{controls: controls, states: controls, final: make([]bool, controls)}
}

// AddState adds a non-control state and returns it.
func (s *Set) AddState() State {
	s.states++
	s.final = append(s.final, false)
	return State(s.states - 1)
}

// SetFinal makes q final. A final control state p accepts ⟨p, ε⟩.
func (s *Set) SetFinal(q State) error {
	if q < 0 || int(q) >= s.states {
		return fmt.Errorf("wpds: final state %d out of range", q)
	}
	s.final[q] = true
	return nil
}

// Add adds the transition from --sym--> to.
func (s *Set) Add(from State, sym Symbol, to State) error {
	switch {
	case from < 0 || int(from) >= s.states || to < 0 || int(to) >= s.states:
		return fmt.Errorf("wpds: transition (%d,%d,%d): state out of range", from, sym, to)
	case int(to) < s.controls:
		return fmt.Errorf("wpds: transition (%d,%d,%d): leads into control state %d", from, sym, to, to)
	case sym < 0:
		return fmt.Errorf("wpds: transition (%d,%d,%d): negative symbol", from, sym, to)
	}
	s.trans = append(s.trans, setTrans{from, sym, to})
	return nil
}

// AddConfig makes s accept c as well, with fresh states.
func (s *Set) AddConfig(c Config) error {
	if c.State < 0 || int(c.State) >= s.controls {
		return fmt.Errorf("wpds: configuration %v: control state out of range", c)
	}
	q := c.State
	for _, g := range c.Stack {
		n := s.AddState()
		if err := s.Add(q, g, n); err != nil {
			return err
		}
		q = n
	}
	return s.SetFinal(q)
}

// AddAnyStack makes s accept ⟨p, γ u⟩ for every stack u over alphabet
// (γ on top of anything), the usual query "control at p, γ on top".
// PDS.Symbols gives the alphabet of a PDS.
func (s *Set) AddAnyStack(p State, g Symbol, alphabet []Symbol) error {
	if p < 0 || int(p) >= s.controls {
		return fmt.Errorf("wpds: control state %d out of range", p)
	}
	n := s.AddState()
	if err := s.Add(p, g, n); err != nil {
		return err
	}
	s.final[n] = true
	for _, x := range alphabet {
		if err := s.Add(n, x, n); err != nil {
			return err
		}
	}
	return nil
}

// Accepts reports whether s accepts c.
func (s *Set) Accepts(c Config) bool {
	cur := map[State]bool{c.State: true}
	for _, g := range c.Stack {
		next := map[State]bool{}
		for _, t := range s.trans {
			if cur[t.from] && t.sym == g {
				next[t.to] = true
			}
		}
		cur = next
	}
	for q := range cur {
		if s.final[q] {
			return true
		}
	}
	return false
}

// Stats counts the work of a saturation, for comparing algorithms. The
// queries (Weight, Summary, Witness) are not counted.
type Stats struct {
	Extends     int // calls of Extend
	Combines    int // calls of Combine
	Merges      int // calls of a merge function (EWPDS push rules)
	Updates     int // times a transition's weight changed (FWPDS: an out-node's)
	Transitions int // transitions in the result
	States      int // states in the result
	Stars       int // Kleene stars computed (FWPDS)
	ExprNodes   int // nodes of the path-expression DAG (FWPDS)
	// Fallback says that FWPDS found the path expressions too large (a
	// dense strongly connected component) and saturated chaotically.
	Fallback bool
}

// Transition is a weighted transition of an Automaton.
type Transition[W any] struct {
	From   State
	Sym    Symbol // Epsilon for the ε-transitions of post*
	To     State
	Weight W
}

type tkey struct {
	from State
	sym  Symbol
	to   State
}

type fromSym struct {
	from State
	sym  Symbol
}

type transition[W any] struct {
	tkey
	w W
	// delta is, in differential mode, what the weight gained since the
	// transition was last taken from the queue.
	delta W
	wit   *Witness[W]
	inQ   bool
}

// Automaton is a weighted P-automaton, the result of Prestar (a forward
// automaton: the weight of a path is the extend of its transitions' weights
// in order) or Poststar (a backward automaton: read in reverse order). Its
// queries give the weights of configurations: for pre*(C) the combine over
// rule sequences from the configuration to C, for post*(C) the combine over
// rule sequences from C to the configuration.
type Automaton[W any] struct {
	pds      *PDS[W]
	sr       Semiring[W]
	backward bool
	states   int
	final    []bool
	// midRule[q-controls] is, for a post* state q created for a push rule
	// with a merge function, that rule; -1 otherwise.
	midRule []RuleID
	trans   []*transition[W]
	index   map[tkey]*transition[W]
	out     map[fromSym][]*transition[W]
	from    [][]*transition[W]
	into    [][]*transition[W]
	epsInto [][]*transition[W] // the ε-transitions among into
	queue   []*transition[W]
	witness bool
	diff    bool
	differ  Differ[W] // the semiring's Diff, if it has one
	stats   Stats
}

// Options tune a saturation.
type Options struct {
	// Witnesses records, for every weight change, how it was derived, so
	// that Automaton.Witness can explain answers. It costs memory.
	Witnesses bool
	// Differential propagates, when a transition is taken from the
	// worklist, only what its weight gained since it was last taken (the
	// semiring's Diff of the new and old weights if it is a Differ, else
	// the combine of the added weights) instead of its whole weight: the
	// same answers, from smaller operands (semi-naive evaluation). It
	// cannot be combined with Witnesses.
	Differential bool
	// FWPDS solves the saturation with path expressions (Lal's thesis,
	// ch. 4): the same automaton, usually with fewer extends and combines,
	// because loops are closed by a Kleene star (the semiring's Star if it
	// is a Starrer, else repeated squaring) and weights are propagated in
	// the order of their dependencies. Merge functions must satisfy path
	// extension, in post* as in pre*. With Witnesses it records the
	// derivation of each weight through the expressions (thesis §4.2.1;
	// stars are then computed by iteration, one round of the loop per
	// part). It cannot be combined with Differential. On dense systems, where the expressions
	// would grow cubically, it falls back to the chaotic saturation and
	// says so in Stats.Fallback.
	FWPDS bool
}

func newAutomaton[W any](p *PDS[W], in *Set, backward bool, opt Options) (*Automaton[W], error) {
	if in.controls != p.controls {
		return nil, fmt.Errorf("wpds: set has %d control states, the PDS %d", in.controls, p.controls)
	}
	if opt.Witnesses && opt.Differential {
		return nil, fmt.Errorf("wpds: witnesses are not recorded in differential mode")
	}
	a := &Automaton[W]{
		pds: p, sr: p.sr, backward: backward, witness: opt.Witnesses, diff: opt.Differential,
		index: map[tkey]*transition[W]{}, out: map[fromSym][]*transition[W]{},
	}
	a.differ, _ = p.sr.(Differ[W])
	for i := 0; i < in.states; i++ {
		a.addState(in.final[i], -1)
	}
	for _, t := range in.trans {
		a.update(t.from, t.sym, t.to, a.sr.One(), func() *Witness[W] {
			return &Witness[W]{Kind: WitnessInitial, Weight: a.sr.One(), Rule: -1, From: t.from, Sym: t.sym, To: t.to}
		})
	}
	return a, nil
}

func (a *Automaton[W]) addState(final bool, rule RuleID) State {
	a.states++
	a.final = append(a.final, final)
	a.from = append(a.from, nil)
	a.into = append(a.into, nil)
	a.epsInto = append(a.epsInto, nil)
	if a.states > a.pds.controls {
		a.midRule = append(a.midRule, rule)
	}
	return State(a.states - 1)
}

func (a *Automaton[W]) ext(x, y W) W {
	a.stats.Extends++
	return a.sr.Extend(x, y)
}

// update combines v into the weight of the transition (from, sym, to),
// creating it if need be, and queues it if its weight changed.
func (a *Automaton[W]) update(from State, sym Symbol, to State, v W, wit func() *Witness[W]) {
	if a.sr.Equal(v, a.sr.Zero()) {
		return
	}
	k := tkey{from, sym, to}
	t := a.index[k]
	if t == nil {
		t = &transition[W]{tkey: k, w: a.sr.Zero(), delta: a.sr.Zero()}
		a.index[k] = t
		a.trans = append(a.trans, t)
		fs := fromSym{from, sym}
		a.out[fs] = append(a.out[fs], t)
		a.from[from] = append(a.from[from], t)
		a.into[to] = append(a.into[to], t)
		if sym == Epsilon {
			a.epsInto[to] = append(a.epsInto[to], t)
		}
	}
	a.stats.Combines++
	nw := a.sr.Combine(t.w, v)
	if a.sr.Equal(nw, t.w) {
		return
	}
	a.stats.Updates++
	if a.diff {
		d := v
		if a.differ != nil {
			d = a.differ.Diff(v, t.w)
		}
		a.stats.Combines++
		t.delta = a.sr.Combine(t.delta, d)
	}
	if a.witness {
		c := wit()
		if t.wit != nil {
			c = &Witness[W]{Kind: WitnessCombine, Weight: nw, Rule: -1, Parts: []*Witness[W]{t.wit, c}}
		}
		t.wit = c
	}
	t.w = nw
	if !t.inQ {
		t.inQ = true
		a.queue = append(a.queue, t)
	}
}

// pop takes the next transition from the queue with the weight to
// propagate: its whole weight, or in differential mode its gain.
func (a *Automaton[W]) pop() (*transition[W], W) {
	t := a.queue[0]
	a.queue[0] = nil
	a.queue = a.queue[1:]
	t.inQ = false
	if a.diff {
		d := t.delta
		t.delta = a.sr.Zero()
		return t, d
	}
	return t, t.w
}

func (a *Automaton[W]) finish() {
	a.queue = nil
	a.stats.Transitions = len(a.trans)
	a.stats.States = a.states
}

// Stats returns the counts of the saturation that built a.
func (a *Automaton[W]) Stats() Stats { return a.stats }

// States returns the number of states (control states first).
func (a *Automaton[W]) States() int { return a.states }

// Final reports whether q is a final state.
func (a *Automaton[W]) Final(q State) bool { return int(q) < a.states && a.final[q] }

// Transitions returns the transitions with their weights. In a post*
// automaton the weight of a transition leaving a state created for a push
// rule with a merge function is the caller's part only; queries add the
// rule's weight.
func (a *Automaton[W]) Transitions() []Transition[W] {
	ts := make([]Transition[W], len(a.trans))
	for i, t := range a.trans {
		ts[i] = Transition[W]{t.from, t.sym, t.to, t.w}
	}
	return ts
}

// eff is the weight of t as a query reads it: a transition leaving a
// merge-rule state of post* carries the caller's weight, and the push
// rule's weight follows it (the flatten of §3.2.2).
func (a *Automaton[W]) eff(t *transition[W]) W {
	if r := a.mid(t.from); r >= 0 {
		return a.sr.Extend(t.w, a.pds.rules[r].Weight)
	}
	return t.w
}

func (a *Automaton[W]) mid(q State) RuleID {
	if i := int(q) - a.pds.controls; i >= 0 && i < len(a.midRule) {
		return a.midRule[i]
	}
	return -1
}

// then joins the weight x of a prefix of a path with the weight y of the
// next transition, in the automaton's reading direction.
func (a *Automaton[W]) then(x, y W) W {
	if a.backward {
		return a.sr.Extend(y, x)
	}
	return a.sr.Extend(x, y)
}

// Weight returns the weight with which a accepts c: the combine over its
// accepting paths (Defn. 2.4.5), Zero if it rejects c.
func (a *Automaton[W]) Weight(c Config) W {
	w, _ := a.query(c, false)
	return w
}

// Witness returns the weight of c as Weight does, and a witness for it:
// a node that combines, over the accepting paths, the sequence of the
// witnesses of their transitions. It needs Options.Witnesses; the witness
// is nil if c is rejected.
func (a *Automaton[W]) Witness(c Config) (W, *Witness[W]) {
	if !a.witness {
		return a.Weight(c), nil
	}
	return a.query(c, true)
}

// query reads c through the automaton. For each prefix of the stack it
// keeps, per state, the combine of the weights of the paths that reach the
// state and (with wit) a witness node combining their sequences, so that
// the work is polynomial even when the paths are exponentially many.
func (a *Automaton[W]) query(c Config, wit bool) (W, *Witness[W]) {
	sr := a.sr
	if int(c.State) >= a.pds.controls || c.State < 0 {
		return sr.Zero(), nil
	}
	type acc struct {
		w    W
		alts []*Witness[W]
	}
	// node returns the witness of the paths gathered in x.
	node := func(x *acc) *Witness[W] {
		if len(x.alts) == 1 {
			return x.alts[0]
		}
		return &Witness[W]{Kind: WitnessCombine, Weight: x.w, Rule: -1, Parts: x.alts}
	}
	if len(c.Stack) == 0 {
		x := &acc{w: sr.Zero()}
		if a.final[c.State] {
			x.w = sr.One()
			x.alts = append(x.alts, &Witness[W]{Kind: WitnessSeq, Weight: sr.One(), Rule: -1})
		}
		for _, t := range a.from[c.State] {
			if t.sym == Epsilon && a.final[t.to] {
				x.w = sr.Combine(x.w, t.w)
				x.alts = append(x.alts, t.wit)
			}
		}
		if !wit || len(x.alts) == 0 {
			return x.w, nil
		}
		return x.w, node(x)
	}
	cur := map[State]*acc{c.State: {w: sr.One(), alts: []*Witness[W]{{Kind: WitnessSeq, Weight: sr.One(), Rule: -1}}}}
	order := []State{c.State}
	for _, g := range c.Stack {
		next := map[State]*acc{}
		var norder []State
		for _, q := range order {
			x := cur[q]
			var xw *Witness[W]
			if wit {
				xw = node(x)
			}
			for _, t := range a.out[fromSym{q, g}] {
				w := a.then(x.w, a.eff(t))
				y := next[t.to]
				if y == nil {
					y = &acc{w: sr.Zero()}
					next[t.to] = y
					norder = append(norder, t.to)
				}
				y.w = sr.Combine(y.w, w)
				if wit {
					parts := []*Witness[W]{xw, t.wit}
					if a.backward {
						parts[0], parts[1] = t.wit, xw
					}
					y.alts = append(y.alts, &Witness[W]{Kind: WitnessSeq, Weight: w, Rule: -1, Parts: parts})
				}
			}
		}
		cur, order = next, norder
	}
	total := &acc{w: sr.Zero()}
	for _, q := range order {
		if a.final[q] {
			total.w = sr.Combine(total.w, cur[q].w)
			if wit {
				total.alts = append(total.alts, node(cur[q]))
			}
		}
	}
	if !wit || len(total.alts) == 0 {
		return total.w, nil
	}
	return total.w, node(total)
}

// Summary returns the combine of the weights of all configurations in the
// regular set s that a accepts (the path summary of a ∩ s, §2.4.1): for
// pre*(C) and s = S it is IJOP(S, C), for post*(S) and s = C the same.
func (a *Automaton[W]) Summary(s *Set) W {
	sr := a.sr
	total := sr.Zero()
	if s.controls != a.pds.controls {
		return total
	}
	// Empty stacks: ⟨p, ε⟩ in s.
	for p := 0; p < s.controls; p++ {
		if s.final[p] {
			total = sr.Combine(total, a.Weight(Config{State: State(p)}))
		}
	}
	// Non-empty stacks: l(x, y) is the combine of the weights of the paths
	// from the product state (x, y) to a pair of final states, read in a's
	// direction; a worklist iterates to the fixpoint.
	type pair struct{ x, y State }
	sOut := map[fromSym][]State{}
	sInto := map[State][]setTrans{}
	for _, t := range s.trans {
		sOut[fromSym{t.from, t.sym}] = append(sOut[fromSym{t.from, t.sym}], t.to)
		sInto[t.to] = append(sInto[t.to], t)
	}
	l := map[pair]W{}
	var work []pair
	inWork := map[pair]bool{}
	for x := 0; x < a.states; x++ {
		if !a.final[x] {
			continue
		}
		for y := 0; y < s.states; y++ {
			if s.final[y] {
				k := pair{State(x), State(y)}
				l[k] = sr.One()
				work = append(work, k)
				inWork[k] = true
			}
		}
	}
	for len(work) > 0 {
		k := work[0]
		work = work[1:]
		inWork[k] = false
		for _, ta := range a.into[k.x] {
			if ta.sym == Epsilon {
				continue
			}
			for _, ts := range sInto[k.y] {
				if ts.sym != ta.sym {
					continue
				}
				src := pair{ta.from, ts.from}
				var v W
				if a.backward {
					v = sr.Extend(l[k], a.eff(ta))
				} else {
					v = sr.Extend(a.eff(ta), l[k])
				}
				old, ok := l[src]
				if !ok {
					old = sr.Zero()
				}
				nw := sr.Combine(old, v)
				if ok && sr.Equal(nw, old) {
					continue
				}
				l[src] = nw
				if !inWork[src] {
					inWork[src] = true
					work = append(work, src)
				}
			}
		}
	}
	for p := 0; p < a.pds.controls; p++ {
		if w, ok := l[pair{State(p), State(p)}]; ok {
			total = sr.Combine(total, w)
		}
	}
	return total
}
