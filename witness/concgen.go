package witness

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"boolprog/bdd"
	"boolprog/interp"
	"boolprog/ir"
)

// DefaultMaxConfigs bounds the configurations (or thread states) that
// FromConcurrent explores, and that a validation of a concurrent
// correctness witness enumerates, when no other bound is given.
const DefaultMaxConfigs = 1 << 18

// errTooMany is the error of a search past its budget.
var errTooMany = errors.New("too many configurations")

// FromConcurrent returns the correctness witness of a safe concurrent
// program, computed from the concrete semantics (package interp) alone,
// whatever engine proved the program safe: the configurations reachable
// when which thread ran last is forgotten (every live thread may take the
// next step, subject to the atomic section; this matters only for
// Getafix's global `atomic`), grouped by their thread stacks, one
// configuration invariant per group, each an irredundant sum of products
// over the globals and the threads' locals. If there are more than
// maxConfigs of them (0: DefaultMaxConfigs), as when the program creates
// threads without end, it falls back to thread-modular invariants: the
// states (a stack, the globals, its locals) that one thread reaches by its
// own steps and the changes of the globals by the others, grouped by
// stack. It fails if an error is reachable in that abstraction too, at a
// limit, or if ctx ends.
func FromConcurrent(ctx context.Context, p *ir.Program, meta Metadata, maxConfigs int) (*Witness, error) {
	if !p.Concurrent {
		return nil, fmt.Errorf("the program is sequential")
	}
	if maxConfigs <= 0 {
		maxConfigs = DefaultMaxConfigs
	}
	// A program that creates threads without end has no end of
	// configurations: a first search within a small budget leaves time
	// for the thread-modular invariants, and a second, within the full
	// one, is for a program that they do not prove.
	first := min(maxConfigs, quickConfigs)
	w, err := configWitness(ctx, p, meta, first)
	if !errors.Is(err, errTooMany) {
		return w, err
	}
	w, terr := threadWitness(ctx, p, meta, maxConfigs)
	if terr == nil {
		return w, nil
	}
	if first < maxConfigs {
		w, err = configWitness(ctx, p, meta, maxConfigs)
		if !errors.Is(err, errTooMany) {
			return w, err
		}
	}
	return nil, fmt.Errorf("more than %d reachable configurations, and no thread-modular invariant: %w", maxConfigs, terr)
}

// quickConfigs is the budget of FromConcurrent's first search.
const quickConfigs = 1 << 14

// forget returns c with the thread that ran last forgotten (Running -1:
// any live thread may step next).
func forget(c interp.Config) interp.Config {
	c.Running = -1
	return c
}

// errorIn describes an error that configuration c is at, or "".
func errorIn(p *ir.Program, c interp.Config) string {
	for t, f := range c.Threads {
		if f == nil {
			continue
		}
		proc := p.Procs[f.Proc]
		loc := proc.Locations[f.Loc]
		switch {
		case loc.Kind == ir.FailLoc:
			return fmt.Sprintf("thread %d's assertion at %s %d:%d fails", t, proc.Name, loc.Pos.Line, loc.Pos.Col)
		case loc.Error:
			return fmt.Sprintf("thread %d is at the error location %s %d:%d", t, proc.Name, loc.Pos.Line, loc.Pos.Col)
		}
	}
	return ""
}

// group is the configurations (or thread states) at one tuple of stacks.
type group struct {
	inv   ConfigInvariant
	v     *vars
	cover bdd.Node
}

// configKey identifies the group of a configuration: its threads' stacks
// of (procedure, location), the atomic section's owner, init.
func configKey(c interp.Config) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d/%t", c.Atomic, c.Init)
	for _, top := range c.Threads {
		b.WriteString("|")
		for _, f := range top.Stack() {
			fmt.Fprintf(&b, "%d.%d.%d,", f.Proc, f.Loc, f.Call)
		}
	}
	return b.String()
}

// configWitness explores the configurations and writes their groups.
func configWitness(ctx context.Context, p *ir.Program, meta Metadata, maxConfigs int) (*Witness, error) {
	inits, err := interp.Initials(p)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var work []interp.Config
	var order []string
	groups := map[string][]interp.Config{}
	add := func(c interp.Config) error {
		c = forget(c)
		k := c.Key()
		if seen[k] {
			return nil
		}
		if len(seen) >= maxConfigs {
			return errTooMany
		}
		if why := errorIn(p, c); why != "" {
			return fmt.Errorf("an error is reachable when the thread that ran last is forgotten: %s in %s", why, c.String(p))
		}
		seen[k] = true
		work = append(work, c)
		g := configKey(c)
		if _, ok := groups[g]; !ok {
			order = append(order, g)
		}
		groups[g] = append(groups[g], c)
		return nil
	}
	for _, c := range inits {
		if err := add(c); err != nil {
			return nil, err
		}
	}
	for n := 0; len(work) > 0; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("the reachable configurations: %w", context.Cause(ctx))
		}
		c := work[0]
		work = work[1:]
		trs, err := interp.SuccessorsContext(ctx, p, c)
		if err != nil {
			return nil, err
		}
		for _, tr := range trs {
			if err := add(tr.Next); err != nil {
				return nil, err
			}
		}
	}
	m := bdd.New(bdd.Config{InitialNodes: 1 << 12, Reorder: bdd.ReorderOff})
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	w := &Witness{Kind: Correctness, Metadata: meta}
	for _, k := range order {
		cs := groups[k]
		c0 := cs[0]
		v := newVars(p, frameStacks(c0), func(i int) string { return threadPrefix + strconv.Itoa(i) })
		if v.clash != "" {
			return nil, fmt.Errorf("two variables would be named %s in an invariant", qualText(v.clash))
		}
		inv := ConfigInvariant{Atomic: c0.Atomic, Init: c0.Init}
		for _, top := range c0.Threads {
			inv.Threads = append(inv.Threads, stackOf(p, top))
		}
		val, err := coverOf(ctx, m, v, cs, v.values)
		if err != nil {
			return nil, fmt.Errorf("the invariant at %s: %w", inv.Tuple(), err)
		}
		inv.Value = val
		w.Configurations = append(w.Configurations, inv)
	}
	return w, nil
}

// coverOf writes the set of the valuations of items (by values, laid out
// by v) as a simplified formula.
func coverOf[T any](ctx context.Context, m *bdd.Manager, v *vars, items []T, values func(T) []bool) (string, error) {
	if n := v.n(); m.VarNum() < n {
		m.ExtVarNum(n - m.VarNum())
	}
	idx := make([]int, v.n())
	for i := range idx {
		idx[i] = i
	}
	set := bdd.False
	for _, it := range items {
		set = m.Or(set, m.Assignment(idx, values(it)))
	}
	if m.Err() != nil {
		return "", m.Err()
	}
	if ctx.Err() != nil {
		return "", context.Cause(ctx)
	}
	name := func(i int) string { return v.names[i] }
	// Equalities factored out make a relation between the globals and
	// the locals readable, a single configuration less so: the shorter
	// text.
	factored, err := coverText(m, set, nil, name)
	if err != nil {
		return "", err
	}
	plain, err := cover(m, set, name)
	if err != nil || len(factored) <= len(plain) {
		return factored, nil
	}
	return plain, nil
}

// tstate is a thread state of the thread-modular abstraction: one thread
// (its stack) and the globals, as a one-thread configuration.
type tstate = interp.Config

// threadWitness computes thread-modular invariants: the least set of
// thread states closed under a thread's own steps (which may start new
// threads) and under the changes of the globals that the steps of another
// thread's states with the same globals make.
func threadWitness(ctx context.Context, p *ir.Program, meta Metadata, maxStates int) (*Witness, error) {
	if p.Init >= 0 && len(p.Threads) > 0 && p.Procs[p.Init].Entry != p.Procs[p.Init].Exit {
		return nil, fmt.Errorf("thread invariants do not speak of Getafix's init, which runs before the threads")
	}
	inits, err := interp.Initials(p)
	if err != nil {
		return nil, err
	}
	ts := newThreadSpace(ctx, p, maxStates)
	for _, c := range inits {
		for _, f := range c.Threads {
			if f != nil {
				if err := ts.add(c.Globals, f); err != nil {
					return nil, err
				}
			}
		}
	}
	for n := 0; len(ts.work) > 0; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return nil, fmt.Errorf("the thread states: %w", context.Cause(ctx))
		}
		s := ts.work[0]
		ts.work = ts.work[1:]
		if err := ts.expand(s); err != nil {
			return nil, err
		}
	}
	m := bdd.New(bdd.Config{InitialNodes: 1 << 12, Reorder: bdd.ReorderOff})
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	w := &Witness{Kind: Correctness, Metadata: meta}
	for _, k := range ts.order {
		ss := ts.byStack[k]
		v := newVars(p, frameStacks(ss[0]), func(int) string { return threadPrefix })
		if v.clash != "" {
			return nil, fmt.Errorf("two variables would be named %s in an invariant", qualText(v.clash))
		}
		st := stackOf(p, ss[0].Threads[0])
		val, err := coverOf(ctx, m, v, ss, v.values)
		if err != nil {
			return nil, fmt.Errorf("the invariant at %s: %w", st, err)
		}
		w.ThreadInvariants = append(w.ThreadInvariants, ThreadInvariant{Stack: st, Value: val})
	}
	return w, nil
}

// threadSpace is the thread-modular abstraction's state space: the thread
// states found, by globals (for the interference of the others' steps)
// and by stack (for the invariants), and the changes of the globals that
// the steps from states with given globals make.
type threadSpace struct {
	ctx     context.Context
	p       *ir.Program
	max     int
	seen    map[string]bool
	work    []tstate
	order   []string
	byStack map[string][]tstate
	byGlob  map[string][]tstate
	effects map[string][][]bool // globals -> the globals that steps from them make
	effSeen map[string]bool
}

func newThreadSpace(ctx context.Context, p *ir.Program, max int) *threadSpace {
	return &threadSpace{ctx: ctx, p: p, max: max, seen: map[string]bool{}, byStack: map[string][]tstate{},
		byGlob: map[string][]tstate{}, effects: map[string][][]bool{}, effSeen: map[string]bool{}}
}

func globKey(g []bool) string {
	b := make([]byte, len(g))
	for i, v := range g {
		b[i] = '0'
		if v {
			b[i] = '1'
		}
	}
	return string(b)
}

// add records the state of a thread at frame top with the globals g, and
// applies to it the changes of the globals already known for g.
func (ts *threadSpace) add(g []bool, top *interp.Frame) error {
	s := tstate{Globals: slices.Clone(g), Threads: []*interp.Frame{top}, Running: -1, Atomic: -1}
	k := s.Key()
	if ts.seen[k] {
		return nil
	}
	if len(ts.seen) >= ts.max {
		return fmt.Errorf("more than %d thread states", ts.max)
	}
	if why := errorIn(ts.p, s); why != "" {
		return fmt.Errorf("the thread-modular abstraction reaches an error: %s in %s", strings.Replace(why, "thread 0", "a thread", 1), s.String(ts.p))
	}
	ts.seen[k] = true
	ts.work = append(ts.work, s)
	sk := configKey(s)
	if _, ok := ts.byStack[sk]; !ok {
		ts.order = append(ts.order, sk)
	}
	ts.byStack[sk] = append(ts.byStack[sk], s)
	gk := globKey(g)
	ts.byGlob[gk] = append(ts.byGlob[gk], s)
	for _, e := range ts.effects[gk] {
		if err := ts.add(e, top); err != nil {
			return err
		}
	}
	return nil
}

// expand adds the successors of a thread state: its own next state, the
// threads it starts, and, when its step changes the globals, the states
// of every thread with the same globals under the new ones.
func (ts *threadSpace) expand(s tstate) error {
	trs, err := interp.SuccessorsContext(ts.ctx, ts.p, s)
	if err != nil {
		return err
	}
	gk := globKey(s.Globals)
	for _, tr := range trs {
		n := tr.Next
		for _, f := range n.Threads {
			if f != nil {
				if err := ts.add(n.Globals, f); err != nil {
					return err
				}
			}
		}
		if why := errorIn(ts.p, n); why != "" {
			return fmt.Errorf("the thread-modular abstraction reaches an error: %s", why)
		}
		ek := gk + ">" + globKey(n.Globals)
		if slices.Equal(n.Globals, s.Globals) || ts.effSeen[ek] {
			continue
		}
		ts.effSeen[ek] = true
		ts.effects[gk] = append(ts.effects[gk], n.Globals)
		for _, o := range slices.Clone(ts.byGlob[gk]) {
			if err := ts.add(n.Globals, o.Threads[0]); err != nil {
				return err
			}
		}
	}
	return nil
}
