package pushdown

import (
	"errors"
	"fmt"
	"slices"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/symbolic"
	"boolprog/wpds"
)

// Traces come from witnesses. A witness node stands for a set of rule
// sequences, and its weight is the combine of their values; but a
// relation's combine forgets which sequence gives which pair of states,
// so choosing at a combine node "some part with a non-zero weight" (as
// wpds.Witness.Expand does) can pick a sequence that the rest of the run
// cannot continue. The expansion here therefore walks the DAG with
// concrete states: to expand a node from state s to state x (a pair its
// weight relates), it picks a part of a combine that relates s to x, and
// for a sequence the intermediate states that both halves relate, so every
// choice stays feasible. The result is a rule sequence with the concrete
// state before each rule, an execution that interp.Replay accepts.
//
// The forms of the nodes are those Poststar and Prestar build (see package
// wpds): for post*, Seq{t, rule} (the rule applied after t; a push rule
// with a merge function adds no weight there), Seq{} (the start of a
// callee, weight One) and Seq{t, e} (a call t, ending with its push rule,
// then the callee's run e up to its return: the merge); for pre*,
// Seq{rule} (a return), Seq{rule, t} and Seq{rule, t1, t2} (a call whose
// callee returns (t1 ends in the control state: the merge) or does not).

// errTooLong reports a trace longer than maxSteps.
var errTooLong = fmt.Errorf("the counterexample is longer than %d steps", maxSteps)

// maxSteps bounds the length of a trace.
const maxSteps = 1 << 22

// rstep is one rule of a run and the concrete state before it.
type rstep struct {
	rule   wpds.RuleID
	before []bool
}

// expander turns witnesses into runs.
type expander struct {
	md    *model
	out   []rstep
	polls int
}

func (x *expander) poll() error {
	x.polls++
	if err := x.md.m.Err(); err != nil {
		return err
	}
	if x.polls&255 == 0 && x.md.ctx.Err() != nil {
		return errTimeout
	}
	return nil
}

func (x *expander) emit(r wpds.RuleID, before []bool) error {
	if len(x.out) >= maxSteps {
		return errTooLong
	}
	x.out = append(x.out, rstep{r, before})
	return nil
}

// internal returns an internal error, unless an operation failed (the node
// limit), which is then the real cause.
func (x *expander) internal(format string, args ...any) error {
	if err := x.md.m.Err(); err != nil {
		return err
	}
	return fmt.Errorf("pushdown: internal error building the trace: "+format, args...)
}

// choose picks a state of f (Cur copies).
func (x *expander) choose(f bdd.Node, what string) ([]bool, error) {
	s := x.md.pick(f)
	if s == nil {
		return nil, x.internal("no state %s", what)
	}
	return s, nil
}

// pair picks a callee entry state in entries (Cur) and an exit state in
// exits (Next) that w relates.
func (x *expander) pair(entries bdd.Node, w symbolic.Rel, exits bdd.Node) (e0, x0 []bool, err error) {
	md, m := x.md, x.md.m
	f := m.And(m.And(entries, md.full(w)), exits)
	if e0, err = x.choose(f, "enters the callee"); err != nil {
		return nil, nil, err
	}
	g := m.And(md.image(md.cube(symbolic.Cur, e0), w), m.Replace(exits, md.nextToCur))
	if x0, err = x.choose(g, "leaves the callee"); err != nil {
		return nil, nil, err
	}
	return e0, x0, nil
}

// lastRule returns the last rule of the sequences of n (post*: the push
// rule that a call transition ends with).
func (x *expander) lastRule(n *wpds.Witness[symbolic.Rel]) wpds.RuleID {
	for {
		switch n.Kind {
		case wpds.WitnessRule:
			return n.Rule
		case wpds.WitnessSeq, wpds.WitnessCombine:
			if len(n.Parts) == 0 {
				return -1
			}
			if n.Kind == wpds.WitnessSeq {
				n = n.Parts[len(n.Parts)-1]
			} else {
				n = n.Parts[0]
			}
		default:
			return -1
		}
	}
}

// leaf expands the witness kinds that post* and pre* witnesses share: the
// initial configuration, a combine (the part whose weight relates s to e,
// expanded by more), and a single rule. It reports done = false for an
// extend, whose form depends on the direction of the search.
func (x *expander) leaf(n *wpds.Witness[symbolic.Rel], s, e []bool, more func(*wpds.Witness[symbolic.Rel], []bool, []bool) error) (done bool, err error) {
	if err := x.poll(); err != nil {
		return true, err
	}
	switch n.Kind {
	case wpds.WitnessInitial:
		if !slices.Equal(s, e) {
			return true, x.internal("a run of no rules changes the state")
		}
		return true, nil
	case wpds.WitnessCombine:
		for _, p := range n.Parts {
			if x.md.relates(p.Weight, s, e) {
				return true, more(p, s, e)
			}
		}
		return true, x.internal("no part of a combine relates the states")
	case wpds.WitnessRule:
		return true, x.emit(n.Rule, s)
	}
	return false, nil
}

// post appends a run of the post* witness n from state s to state e.
func (x *expander) post(n *wpds.Witness[symbolic.Rel], s, e []bool) error {
	md := x.md
	if done, err := x.leaf(n, s, e, x.post); done {
		return err
	}
	switch {
	case len(n.Parts) == 0:
		if !slices.Equal(s, e) {
			return x.internal("the start of a callee changes the state")
		}
		return nil
	case len(n.Parts) == 2 && n.Parts[1].Kind == wpds.WitnessRule:
		t, id := n.Parts[0], n.Parts[1].Rule
		r := md.pds.Rule(id)
		if len(r.Out) == 2 { // a push with a merge: no weight here
			if err := x.post(t, s, e); err != nil {
				return err
			}
			return x.emit(id, e)
		}
		y, err := x.choose(x.md.m.And(md.image(md.cube(symbolic.Cur, s), t.Weight), md.preimage(r.Weight, md.cube(symbolic.Cur, e))), "before a rule")
		if err != nil {
			return err
		}
		if err := x.post(t, s, y); err != nil {
			return err
		}
		return x.emit(id, y)
	case len(n.Parts) == 2:
		t, callee := n.Parts[0], n.Parts[1]
		ci := md.calls[x.lastRule(t)]
		if ci == nil {
			return x.internal("a merge without its call")
		}
		sc, err := x.choose(md.m.And(md.image(md.cube(symbolic.Cur, s), t.Weight), md.preimage(md.ret(ci, callee.Weight), md.cube(symbolic.Cur, e))), "at the call")
		if err != nil {
			return err
		}
		e0, x0, err := x.pair(md.image(md.cube(symbolic.Cur, sc), ci.enter), callee.Weight, md.exitStates(ci, sc, e))
		if err != nil {
			return err
		}
		if err := x.post(t, s, sc); err != nil {
			return err
		}
		return x.post(callee, e0, x0)
	}
	return x.internal("a post* witness of an unknown form")
}

// toOf returns the target state of the pre* transition whose witness is n.
func (x *expander) toOf(n *wpds.Witness[symbolic.Rel]) wpds.State {
	for {
		switch n.Kind {
		case wpds.WitnessInitial:
			return n.To
		case wpds.WitnessRule:
			return x.md.pds.Rule(n.Rule).To
		case wpds.WitnessCombine:
			n = n.Parts[0]
		default:
			if len(n.Parts) == 0 {
				return -1
			}
			n = n.Parts[len(n.Parts)-1]
		}
	}
}

// pre appends a run of the pre* witness n from state s to state e.
func (x *expander) pre(n *wpds.Witness[symbolic.Rel], s, e []bool) error {
	md, m := x.md, x.md.m
	if done, err := x.leaf(n, s, e, x.pre); done {
		return err
	}
	if len(n.Parts) == 0 || n.Parts[0].Kind != wpds.WitnessRule {
		return x.internal("a pre* witness of an unknown form")
	}
	id := n.Parts[0].Rule
	r := md.pds.Rule(id)
	cs := md.cube(symbolic.Cur, s)
	switch len(n.Parts) {
	case 1: // a return
		return x.emit(id, s)
	case 2:
		t := n.Parts[1]
		y, err := x.choose(m.And(md.image(cs, r.Weight), md.preimage(t.Weight, md.cube(symbolic.Cur, e))), "after a rule")
		if err != nil {
			return err
		}
		if err := x.emit(id, s); err != nil {
			return err
		}
		return x.pre(t, y, e)
	case 3:
		t1, t2 := n.Parts[1], n.Parts[2]
		ci := md.calls[id]
		if ci == nil {
			return x.internal("a push rule without its call")
		}
		var e0, y, x0 []bool
		var err error
		if x.toOf(t1) == control { // the callee returns: the merge
			y, err = x.choose(m.And(md.image(cs, md.ret(ci, t1.Weight)), md.preimage(t2.Weight, md.cube(symbolic.Cur, e))), "after the return")
			if err != nil {
				return err
			}
			e0, x0, err = x.pair(md.image(cs, ci.enter), t1.Weight, md.exitStates(ci, s, y))
			if err != nil {
				return err
			}
			if err := x.emit(id, s); err != nil {
				return err
			}
			if err := x.pre(t1, e0, x0); err != nil {
				return err
			}
			return x.pre(t2, y, e)
		}
		e0, err = x.choose(m.And(md.image(cs, ci.enter), md.preimage(md.sr.Extend(t1.Weight, t2.Weight), md.cube(symbolic.Cur, e))), "at the callee's entry")
		if err != nil {
			return err
		}
		y, err = x.choose(m.And(md.image(md.cube(symbolic.Cur, e0), t1.Weight), md.preimage(t2.Weight, md.cube(symbolic.Cur, e))), "in the callee")
		if err != nil {
			return err
		}
		if err := x.emit(id, s); err != nil {
			return err
		}
		if err := x.pre(t1, e0, y); err != nil {
			return err
		}
		return x.pre(t2, y, e)
	}
	return x.internal("a pre* witness of an unknown form")
}

// trace renders a run from the start of main that ends in the state last
// at an error location as a result trace: one step per edge taken (a call
// is one step; returns are not steps), and for a target label a final step
// at the labelled location.
func (md *model) trace(run []rstep, last []bool) (*result.Trace, error) {
	p, l := md.p, md.l
	tr := &result.Trace{Steps: make([]result.Step, 0, len(run)+1)}
	depth := 0
	values := func(pr *ir.Proc, vals []bool) []result.Value {
		return result.ValuesOf(p, pr, func(v ir.VarRef) bool { return vals[l.Slot(v)] })
	}
	at := [2]int{p.Main, p.Procs[p.Main].Entry} // procedure and location after the last rule
	var returns [][2]int                        // the return points of the pending calls
	for i, st := range run {
		if i&255 == 0 && md.ctx.Err() != nil {
			return nil, errTimeout
		}
		ri := md.rules[st.rule]
		r := md.pds.Rule(st.rule)
		from := md.locOf[r.Sym]
		pr := p.Procs[ri.proc]
		if ri.edge < 0 { // a return
			if len(returns) == 0 {
				return nil, errors.New("pushdown: internal error: a return from main")
			}
			depth--
			at, returns = returns[len(returns)-1], returns[:len(returns)-1]
			continue
		}
		tr.Steps = append(tr.Steps, result.NewStep(p, pr, from[1], ri.edge, values(pr, st.before), depth, 0))
		if ri.call {
			depth++
			returns = append(returns, md.locOf[r.Out[1]])
		}
		at = md.locOf[r.Out[0]]
	}
	pr := p.Procs[at[0]]
	if !pr.Locations[at[1]].Error {
		return nil, fmt.Errorf("pushdown: internal error: the run ends at %s location %d, not an error", pr.Name, at[1])
	}
	if pr.Locations[at[1]].Kind != ir.FailLoc {
		tr.Steps = append(tr.Steps, result.NewStep(p, pr, at[1], result.NoEdge, values(pr, last), depth, 0))
	}
	if len(tr.Steps) == 0 {
		return nil, errors.New("pushdown: internal error: an empty trace")
	}
	return tr, nil
}
