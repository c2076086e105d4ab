package interp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"boolprog/ir"
	"boolprog/result"
)

// maxCandidates bounds the configurations Replay tracks at once.
const maxCandidates = 1 << 16

// Replay is ReplayContext without a deadline.
func Replay(p *ir.Program, tr *result.Trace) error {
	return ReplayContext(context.Background(), p, tr)
}

// ReplayContext checks that tr is a real execution of p that ends in an
// error, and returns nil if so. It is the independent judge of every
// engine's traces:
//
//   - the first step is thread 0 at the entry of main (in the Getafix
//     convention: of init, or of a thread procedure if there is no init),
//     at depth 0; its values fix the initial state (variables it omits may
//     have any value);
//   - every step names its thread (result.Step.Thread: threads are numbered
//     from 0 in the order they are created, see the package doc), which
//     must exist, not have ended, and be allowed to run: a step by another
//     thread than the previous step's is a context switch, forbidden while
//     a thread owns an atomic section and, in the Getafix convention, while
//     the global `atomic` is T; a step is marked result.Step.Switch iff it is
//     a context switch (the first step, and the first after Getafix's init,
//     are none);
//   - every step names a location of its procedure, with the line and text
//     of that location's statement, an edge leaving it, and the procedure,
//     call depth and values of the configuration of its thread (the
//     globals, then the locals of the thread's top frame; variables a step
//     omits are unconstrained);
//   - executing the step's edge in its thread leads to a configuration that
//     the following steps describe (calls push, arriving at an exit returns
//     to the caller: calls and returns must match; thread creation, ends and
//     atomic sections follow the package doc);
//   - no step before the last is at an error location, no thread arrives at
//     one before the last step, and the last step is the error: either an
//     edge into an assertion-failure location that can be taken, or (with
//     no edge, result.NoEdge) a target-labelled location.
//
// Replay tracks the set of configurations consistent with the trace so far,
// so nondeterministic choices need not be recorded: a value a step chooses
// is taken from the step that next shows it (the next step for a global;
// the thread's next step for a local of its top frame) and checked to be
// possible. Only values that no step shows are enumerated: at most
// MaxOmitted at once (else an error wrapping ErrTooManyChoices). The time
// is linear in the size of the trace (with one candidate configuration
// per step, as a trace that states every value gives).
//
// ReplayContext polls ctx and returns an error wrapping ctx.Err() when it
// is done. Messages number steps from 1, e.g.
// "step 7: line 21: values do not agree: g=1 expected 0".
func ReplayContext(ctx context.Context, p *ir.Program, tr *result.Trace) error {
	if tr == nil || len(tr.Steps) == 0 {
		return fmt.Errorf("replay: empty trace")
	}
	r := newReplayer(p, tr.Steps)
	r.s.ctx = ctx
	return r.run(ctx)
}

// replayer holds what Replay knows about the trace; it is also the guide
// of its stepper (see stepper and guide).
type replayer struct {
	p     *ir.Program
	steps []result.Step
	s     *stepper
	at    int // the step being executed; -1 before the first

	procs     map[string]*ir.Proc
	globalIdx map[string]int
	localIdx  map[*ir.Proc]map[string][]int
	nextSame  []int       // the next step of the same thread, or -1
	first     map[int]int // thread → its first step
	slots     [][]int     // per step: the variable slot of each value, computed on demand
	slotErr   map[int]error

	iota []int       // 0, 1, 2, …: the slots of a step that lists every variable
	kept []Config    // buffer: the candidates a step describes
	bufs [2][]Config // buffers: the outcomes of a step, alternately
	flip bool
}

func newReplayer(p *ir.Program, steps []result.Step) *replayer {
	r := &replayer{
		p:         p,
		steps:     steps,
		at:        -1,
		procs:     make(map[string]*ir.Proc, len(p.Procs)),
		globalIdx: make(map[string]int, len(p.Globals)),
		localIdx:  make(map[*ir.Proc]map[string][]int),
		nextSame:  make([]int, len(steps)),
		first:     make(map[int]int),
		slots:     make([][]int, len(steps)),
		slotErr:   make(map[int]error),
	}
	r.s = newStepper(p, r)
	for _, proc := range p.Procs {
		if _, dup := r.procs[proc.Name]; !dup {
			r.procs[proc.Name] = proc
		}
	}
	for i, g := range p.Globals {
		if _, dup := r.globalIdx[g]; !dup {
			r.globalIdx[g] = i
		}
	}
	next := make(map[int]int)
	for i := len(steps) - 1; i >= 0; i-- {
		t := steps[i].Thread
		if k, ok := next[t]; ok {
			r.nextSame[i] = k
		} else {
			r.nextSame[i] = -1
		}
		next[t] = i
	}
	r.first = next
	return r
}

func (r *replayer) run(ctx context.Context) error {
	p, steps := r.p, r.steps
	first := &steps[0]
	if starts, _ := startProcs(p); len(starts) == 1 {
		sp := p.Procs[starts[0]]
		if first.Proc != sp.Name || first.Loc != sp.Entry || first.Depth != 0 || first.Thread != 0 {
			return fmt.Errorf("step 1: the trace does not start at the entry of %s (got %s location %d depth %d thread %d)", sp.Name, first.Proc, first.Loc, first.Depth, first.Thread)
		}
	}
	cands, err := r.s.initials()
	if err != nil {
		return fmt.Errorf("step 1: %w", r.omitted(err))
	}

	last := len(steps) - 1
	work := 256 // poll ctx at the first step
	for i := range steps {
		if work += len(cands); work >= 256 {
			work = 0
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("replay: stopped at step %d of %d: %w", i+1, len(steps), err)
			}
		}
		s := &steps[i]
		t := s.Thread
		where := stepWhere{i + 1, t, s.Line, p.Concurrent}
		proc, loc, edge, err := r.checkStatic(s, i == last)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}
		slots, err := r.stepSlots(i)
		if err != nil {
			return fmt.Errorf("%s: %v", where, err)
		}

		// Keep the configurations the step describes.
		kept := r.kept[:0]
		var why string
		for _, c := range cands {
			if reason := r.describes(c, t, proc, s, slots); reason != "" {
				if why == "" {
					why = reason
				}
				continue
			}
			kept = append(kept, c)
		}
		if len(kept) == 0 {
			return fmt.Errorf("%s: %s", where, why)
		}
		r.kept = kept

		r.at = i
		if i == last {
			if edge == nil {
				if !loc.Error {
					return fmt.Errorf("%s: the last step is not the error: %s is not an error location", where, locName(proc, loc))
				}
				return nil
			}
			if proc.Locations[edge.To].Kind != ir.FailLoc {
				return fmt.Errorf("%s: the last step is not the error: edge %d (%s) does not fail an assertion", where, edge.ID, edge.Text)
			}
			for _, c := range kept {
				next, err := r.s.step(c, t, edge.ID)
				if err != nil {
					return fmt.Errorf("%s: %w", where, r.omitted(err))
				}
				if len(next) > 0 {
					return nil
				}
			}
			return fmt.Errorf("%s: %s cannot fail in this state", where, edge.Text)
		}

		if loc.Error {
			return fmt.Errorf("%s: the trace reaches the error at %s before its last step", where, locName(proc, loc))
		}
		if proc.Locations[edge.To].Kind == ir.FailLoc {
			return fmt.Errorf("%s: an assertion fails before the last step", where)
		}
		var ended bool
		cands, ended, err = r.advance(kept, t, edge.ID)
		if err != nil {
			return fmt.Errorf("%s: %w", where, r.omitted(err))
		}
		if len(cands) == 0 && !ended {
			// No outcome has the values the later steps state. Execute
			// the step again without their guidance, so that the step
			// that states an impossible value is the one blamed.
			r.s.g = nil
			cands, ended, err = r.advance(kept, t, edge.ID)
			r.s.g = r
			if cerr := ctx.Err(); cerr != nil {
				return fmt.Errorf("replay: stopped at step %d of %d: %w", i+1, len(steps), cerr)
			}
			if err != nil || len(cands) > maxCandidates {
				return fmt.Errorf("%s: %q cannot be executed in this state, or not to the values the trace states next (%s)", where, edge.Text, kept[0].String(p))
			}
		}
		switch {
		case len(cands) == 0 && ended:
			return fmt.Errorf("%s: the program ends after this step, but the trace goes on", where)
		case len(cands) == 0:
			return fmt.Errorf("%s: %q cannot be executed in this state (%s)", where, edge.Text, kept[0].String(p))
		case len(cands) > maxCandidates:
			return fmt.Errorf("%s: too many configurations agree with the trace (it omits too many values): %w", where, ErrTooManyChoices)
		}
		if steps[i+1].Thread != t {
			if f := cands[0].Thread(t); f != nil && p.Procs[f.Proc].Locations[f.Loc].Error {
				return fmt.Errorf("%s: the trace reaches the error at %s in thread %d before its last step", where, locName(p.Procs[f.Proc], p.Procs[f.Proc].Locations[f.Loc]), t)
			}
		}
	}
	panic("unreachable")
}

// advance executes edge id of thread t from each configuration and
// returns the distinct outcomes that have not ended, and whether some have.
// The outcomes go to the buffer that the previous step's candidates did
// not use (the two alternate).
func (r *replayer) advance(kept []Config, t, id int) (cands []Config, ended bool, err error) {
	r.flip = !r.flip
	buf := &r.bufs[0]
	if r.flip {
		buf = &r.bufs[1]
	}
	r.s.out = (*buf)[:0]
	for _, c := range kept {
		r.s.free = 0
		if err := r.s.exec(c, t, id); err != nil {
			return nil, false, err
		}
	}
	*buf = r.s.out
	cands = r.s.out[:0]
	for _, n := range r.s.out {
		if n.Ended() { // no next step can describe it
			ended = true
			continue
		}
		cands = append(cands, n)
	}
	if len(cands) > 1 {
		cands = dedupe(cands)
	}
	return cands, ended, nil
}

// stepWhere formats as the start of a message about a step, e.g.
// "step 7: line 21" or "step 7: thread 1: line 21". (It is formatted
// only when there is an error.)
type stepWhere struct {
	n, thread, line int
	concurrent      bool
}

func (w stepWhere) String() string {
	if w.concurrent {
		return fmt.Sprintf("step %d: thread %d: line %d", w.n, w.thread, w.line)
	}
	return fmt.Sprintf("step %d: line %d", w.n, w.line)
}

// omitted explains an ErrTooManyChoices in the terms of a trace.
func (r *replayer) omitted(err error) error {
	if errors.Is(err, ErrTooManyChoices) {
		return fmt.Errorf("the trace omits the values of more than %d variables that this step chooses: %w", MaxOmitted, err)
	}
	return err
}

// initials returns the configurations before the first step, with the
// values the guide states.
func (s *stepper) initials() ([]Config, error) {
	starts, _ := startProcs(s.p)
	var opts [][]bool
	add := func(f fate) error {
		o, err := s.pick(either, f)
		opts = append(opts, o)
		return err
	}
	for i := range s.p.Globals {
		f := free
		if s.g != nil {
			f = s.g.global(i)
		}
		if err := add(f); err != nil {
			return nil, err
		}
	}
	for t, pi := range starts {
		proc := s.p.Procs[pi]
		for j := range proc.Locals {
			f := dead
			if proc.Entry != proc.Exit {
				f = free
				if s.g != nil {
					f = s.g.local(t, proc, 0, j)
				}
			}
			if err := add(f); err != nil {
				return nil, err
			}
		}
	}
	ng := len(s.p.Globals)
	var out []Config
	err := s.each(opts, func(vals []bool) error {
		out = append(out, Initial(s.p, vals[:ng], vals[ng:]))
		return nil
	})
	return out, err
}

// dedupe removes duplicate configurations. Frames are identified by their
// contents and their caller's identity, so a key costs the globals plus
// the frames not seen before, not the whole stacks.
func dedupe(cs []Config) []Config {
	ids := make(map[*Frame]int)
	byKey := make(map[string]int)
	var id func(f *Frame) int
	id = func(f *Frame) int {
		if f == nil {
			return 0
		}
		if n, ok := ids[f]; ok {
			return n
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d.%d.%d.%d.", id(f.Caller), f.Proc, f.Loc, f.Call)
		bits(&b, f.Locals)
		k := b.String()
		n, ok := byKey[k]
		if !ok {
			n = len(byKey) + 1
			byKey[k] = n
		}
		ids[f] = n
		return n
	}
	seen := make(map[string]bool)
	var out []Config
	for _, c := range cs {
		var b strings.Builder
		bits(&b, c.Globals)
		fmt.Fprintf(&b, "/%d/%d/%t", c.Running, c.Atomic, c.Init)
		for _, f := range c.Threads {
			fmt.Fprintf(&b, "/%d", id(f))
		}
		if k := b.String(); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	return out
}

// global implements guide: the value step at+1 states for global i.
func (r *replayer) global(i int) fate {
	return r.stated(r.at+1, i)
}

// local implements guide: the value the next step of thread t states for
// local i of the frame (proc, depth) that is then on top of the thread.
func (r *replayer) local(t int, proc *ir.Proc, depth, i int) fate {
	k := -1
	switch f, ok := r.first[t]; {
	case r.at >= 0 && r.steps[r.at].Thread == t:
		k = r.nextSame[r.at]
	case !ok:
		return dead // the thread never runs
	case f > r.at:
		k = f
	default:
		return free
	}
	if k < 0 {
		return dead // the thread does not run again
	}
	if s := &r.steps[k]; s.Proc != proc.Name || s.Depth != depth {
		return dead // step k does not describe this frame: the trace fails there
	}
	return r.stated(k, len(r.p.Globals)+i)
}

// stated returns the value step k states for slot, free if it omits it.
func (r *replayer) stated(k, slot int) fate {
	if k >= len(r.steps) {
		return dead // no later step observes it
	}
	sl, err := r.stepSlots(k)
	if err != nil {
		return dead // the trace fails at step k anyway
	}
	j := sort.SearchInts(sl, slot)
	if j == len(sl) || sl[j] != slot {
		return free
	}
	if r.steps[k].Values[j].Value {
		return statedTrue
	}
	return statedFalse
}

// stepSlots maps each value listed in step k to a variable in scope in its
// procedure: slot i < len(Globals) is global i, slot len(Globals)+j is
// local j. Values must be listed as a subsequence of globals-then-locals,
// so a name that a local shadows refers to the global first.
func (r *replayer) stepSlots(k int) ([]int, error) {
	if r.slots[k] != nil || r.slotErr[k] != nil {
		return r.slots[k], r.slotErr[k]
	}
	s := &r.steps[k]
	proc := r.procs[s.Proc]
	if proc == nil {
		r.slotErr[k] = fmt.Errorf("no procedure %q", s.Proc)
		return nil, r.slotErr[k]
	}
	ng := len(r.p.Globals)
	if n := ng + len(proc.Locals); len(s.Values) == n {
		// The common case: every variable in scope, in order (as
		// result.ValuesOf lists them). The slots are 0, 1, …, n-1.
		all := true
		for i, v := range s.Values {
			name := ""
			if i < ng {
				name = r.p.Globals[i]
			} else {
				name = proc.Locals[i-ng]
			}
			if v.Name != name {
				all = false
				break
			}
		}
		if all {
			for len(r.iota) < n {
				r.iota = append(r.iota, len(r.iota))
			}
			r.slots[k] = r.iota[:n:n]
			return r.slots[k], nil
		}
	}
	locals := r.localIdx[proc]
	if locals == nil {
		locals = make(map[string][]int)
		for j, name := range proc.Locals {
			locals[name] = append(locals[name], j)
		}
		r.localIdx[proc] = locals
	}
	slots := make([]int, len(s.Values))
	next := 0
	for i, v := range s.Values {
		slot := -1
		if g, ok := r.globalIdx[v.Name]; ok && g >= next {
			slot = g
		} else {
			for _, j := range locals[v.Name] {
				if ng+j >= next {
					slot = ng + j
					break
				}
			}
		}
		if slot < 0 {
			r.slotErr[k] = fmt.Errorf("variable %s is not in scope in %s (or out of order)", v.Name, proc.Name)
			return nil, r.slotErr[k]
		}
		slots[i] = slot
		next = slot + 1
	}
	r.slots[k] = slots
	return slots, nil
}

// checkStatic checks what a step says about the program text alone and
// returns its procedure, location and edge (nil for result.NoEdge).
func (r *replayer) checkStatic(s *result.Step, last bool) (*ir.Proc, *ir.Location, *ir.Edge, error) {
	if !r.p.Concurrent && s.Thread != 0 {
		return nil, nil, nil, fmt.Errorf("thread %d in a sequential program", s.Thread)
	}
	proc := r.procs[s.Proc]
	if proc == nil {
		return nil, nil, nil, fmt.Errorf("no procedure %q", s.Proc)
	}
	if s.Loc < 0 || s.Loc >= len(proc.Locations) {
		return nil, nil, nil, fmt.Errorf("%s has no location %d", proc.Name, s.Loc)
	}
	loc := proc.Locations[s.Loc]
	if loc.Kind != ir.StmtLoc {
		return nil, nil, nil, fmt.Errorf("location %d of %s is not a statement", s.Loc, proc.Name)
	}
	if s.Line != loc.Pos.Line {
		return nil, nil, nil, fmt.Errorf("location %d of %s is at line %d", s.Loc, proc.Name, loc.Pos.Line)
	}
	if s.Edge == result.NoEdge {
		if !last {
			return nil, nil, nil, fmt.Errorf("no edge taken, but this is not the last step")
		}
		if s.Text != loc.Text {
			return nil, nil, nil, fmt.Errorf("text %q, but the statement is %q", s.Text, loc.Text)
		}
		return proc, loc, nil, nil
	}
	if s.Edge < 0 || s.Edge >= len(proc.Edges) {
		return nil, nil, nil, fmt.Errorf("%s has no edge %d", proc.Name, s.Edge)
	}
	edge := proc.Edges[s.Edge]
	if edge.From != s.Loc {
		return nil, nil, nil, fmt.Errorf("edge %d of %s does not leave location %d", s.Edge, proc.Name, s.Loc)
	}
	if s.Text != edge.Text {
		return nil, nil, nil, fmt.Errorf("text %q, but the statement is %q", s.Text, edge.Text)
	}
	return proc, loc, edge, nil
}

// describes returns "" if the step (of thread t) describes configuration
// c, else why not.
func (r *replayer) describes(c Config, t int, proc *ir.Proc, s *result.Step, slots []int) string {
	if why := r.s.blocked(c, t); why != "" {
		return why
	}
	top := c.Threads[t]
	cur := r.p.Procs[top.Proc]
	if cur != proc {
		return fmt.Sprintf("the execution is in %s, not %s", cur.Name, proc.Name)
	}
	if top.Loc != s.Loc {
		return fmt.Sprintf("the execution is at %s, not %s", locName(cur, cur.Locations[top.Loc]), locName(proc, proc.Locations[s.Loc]))
	}
	if d := top.Depth; d != s.Depth {
		return fmt.Sprintf("call depth %d, expected %d", s.Depth, d)
	}
	ng := len(r.p.Globals)
	var bad []string
	for k, slot := range slots {
		var actual bool
		if slot < ng {
			actual = c.Globals[slot]
		} else {
			actual = top.Locals[slot-ng]
		}
		if v := s.Values[k]; v.Value != actual {
			bad = append(bad, fmt.Sprintf("%s=%s expected %s", v.Name, bit(v.Value), bit(actual)))
		}
	}
	if len(bad) > 0 {
		return "values do not agree: " + strings.Join(bad, ", ")
	}
	switch sw := c.Running >= 0 && c.Running != t; {
	case sw && !s.Switch:
		return fmt.Sprintf("a context switch from thread %d to thread %d that the step does not mark", c.Running, t)
	case !sw && s.Switch:
		return "the step is marked as a context switch, but it is not one"
	}
	return ""
}

func locName(proc *ir.Proc, l *ir.Location) string {
	return fmt.Sprintf("%s line %d (location %d)", proc.Name, l.Pos.Line, l.ID)
}
