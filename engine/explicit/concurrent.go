package explicit

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"boolprog/analysis"
	"boolprog/engine"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// The concurrent oracle: an explicit search over the interleavings of a
// concurrent program, on the configurations of package interp
// (interp.Successors), hashed by the values that can matter
// (deadness.key, a bit per value; interp.Config.Key would tell dead
// values apart too).
//
// Every step has a cost: for a ContextSwitches bound, 1 for a context switch
// (a step by another thread than the last; the first step, and the first
// after Getafix's init, cost 0); for a Rounds bound, 1 for a step by a thread
// with a smaller number than the last (round-robin over threads 0..n-1 in
// index order: a thread with a smaller number can only run in the next
// round; contexts may be empty, so a larger number is reached in the same
// round). A configuration's cost is the least cost of a path to it, and
// since what can happen next depends only on the configuration, a cheaper
// path dominates: the search is a 0-1 breadth-first search in layers of
// increasing cost, each configuration expanded once, at its least cost. So
// the first error found is at the smallest bound, and its trace has the
// fewest steps among the traces of that cost (breadth first in each layer).
//
// With a bound, the search stops after the layer at the bound's cost; with
// none, when no configuration is left: then every reachable configuration
// has been explored, which proves the program safe (whatever its
// recursion: the reachable state space turned out finite). A recursive
// program whose stacks grow without end exhausts the state budget instead:
// an Unknown answer, never a wrong one.
//
// The error is reached when a thread is at an error location: a thread at
// an assertion-failure location got there by the step that failed (the
// trace's last step); a thread at a target-labelled location shows it by a
// final step without an edge, which is a step of that thread and has its
// cost (a thread created at a labelled location needs a switch to show it).

// DefaultMaxThreads bounds the threads of a concurrent program (the initial
// ones included) when Options.MaxThreads is 0: the initial threads plus one
// per thread-creation site of the program.
func DefaultMaxThreads(p *ir.Program) int {
	n := initialThreads(p)
	for _, proc := range p.Procs {
		for _, e := range proc.Edges {
			if _, ok := e.Op.(*ir.StartThread); ok {
				n++
			}
		}
	}
	return n
}

// initialThreads is the number of threads that exist once the program has
// started (after Getafix's init).
func initialThreads(p *ir.Program) int {
	if len(p.Threads) > 0 {
		return len(p.Threads)
	}
	return 1
}

// cnode is a configuration of the concurrent search, by its key, and how
// it was first reached at its least cost. The configuration itself is not
// kept: the key holds every value that can matter, so the search expands
// a node from the configuration its key decodes to (deadness.config: the
// values that cannot matter false), and a trace finds the configurations
// on its path again by stepping from an initial one (csearch.replay), so
// that it shows the values of a real run. Keeping each node's
// configuration, as the search once did, took half of its heap
// (bench/RESULTS.md, "Issue 25, tenth session").
type cnode struct {
	key    string // deadness.key, shared with the index's key
	cost   int
	parent int32 // index of the previous node, -1 for an initial configuration
	thread int32 // the thread and edge of the step from the parent
	edge   int32
}

// cnodes holds the search's nodes in chunks of fixed size, so that adding
// one never copies the others: as one slice, its growth (each doubling
// copies every configuration, with the collector's write barriers on the
// slices they hold) took a third of the search's time on a 3-thread
// SafeStack program at 2 million configurations.
type cnodes struct {
	chunks [][]cnode
	n      int
}

// chunkBits is the log2 of the nodes per chunk.
const chunkBits = 12

func (ns *cnodes) len() int { return ns.n }

// at returns node i, which stays where it is.
func (ns *cnodes) at(i int32) *cnode {
	return &ns.chunks[i>>chunkBits][i&(1<<chunkBits-1)]
}

// add appends n and returns its index.
func (ns *cnodes) add(n cnode) int32 {
	if ns.n&(1<<chunkBits-1) == 0 {
		ns.chunks = append(ns.chunks, make([]cnode, 0, 1<<chunkBits))
	}
	last := &ns.chunks[len(ns.chunks)-1]
	*last = append(*last, n)
	ns.n++
	return int32(ns.n - 1)
}

// csearch is the state of the concurrent search.
type csearch struct {
	ctx        context.Context
	p          *ir.Program
	rounds     bool // the cost counts rounds, not switches
	limit      int  // the largest cost explored
	maxStates  int
	maxThreads int
	report     func(phase, detail string)

	dead     *deadness
	nodes    cnodes
	index    map[string]int32
	tick     int
	capped   bool // a step that would create a thread past maxThreads was left out
	maxLayer int  // the largest cost of an expanded configuration
}

// stepCost returns the cost of a step by thread t from c.
func (s *csearch) stepCost(c interp.Config, t int) int {
	if c.Running < 0 || c.Running == t {
		return 0
	}
	if s.rounds && t > c.Running {
		return 0
	}
	return 1
}

// checkConcurrent answers q for a concurrent program.
func (e *Engine) checkConcurrent(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	s := &csearch{
		ctx:        ctx,
		p:          p,
		limit:      math.MaxInt,
		maxStates:  e.opts.maxStates(),
		maxThreads: e.opts.MaxThreads,
		report:     q.Progress,
		index:      make(map[string]int32),
		dead:       newDeadness(p, q.AnalysesFor(p)),
	}
	if s.maxThreads == 0 {
		s.maxThreads = DefaultMaxThreads(p)
	}
	if !p.ErrorReachableInThreads() {
		r := &result.Result{Verdict: result.Safe}
		r.Stats.Set("cfg_unreachable_error", 1)
		return r, nil
	}
	switch q.Bound.Kind {
	case result.ContextSwitches:
		s.limit = q.Bound.K
	case result.Rounds:
		s.rounds = true
		s.limit = q.Bound.K - 1 // K rounds: K-1 returns to a smaller thread number
	}
	q.Report(result.PhaseReach, "")
	start := time.Now()
	r := &result.Result{Verdict: result.Safe}
	found, err := s.run()
	r.Stats.AddPhase(result.PhaseReach, time.Since(start))
	r.Stats.States = int64(s.nodes.len())
	r.Stats.Set("configurations", int64(s.nodes.len()))
	r.Stats.Set("max_cost", int64(s.maxLayer))
	if err != nil {
		r.Verdict = result.Unknown
		var b errBudget
		switch {
		case errors.As(err, new(errStop)):
			r.Reason = engine.StopReason(ctx)
		case errors.As(err, &b), errors.As(err, new(errMemory)):
			r.Reason = err.Error()
		case errors.Is(err, interp.ErrTooManyChoices):
			r.Reason = "too many initial configurations for the explicit engine: " + err.Error()
		default:
			return nil, err
		}
		return r, nil
	}
	if found != nil {
		r.Verdict = result.Unsafe
		r.Trace = found.trace
		kind := q.Bound.Kind
		if kind == result.Unbounded {
			kind = result.ContextSwitches
		}
		r.Bound = result.Bound{Kind: kind, K: found.cost}
		if kind == result.Rounds {
			r.Bound.K = found.cost + 1
		}
		r.Stats.Set("trace_steps", int64(len(found.trace.Steps)))
		return r, nil
	}
	if s.capped {
		r.Verdict = result.Unknown
		within := "in every interleaving"
		if q.Bound.Kind != result.Unbounded {
			within = "up to " + q.Bound.String()
		}
		r.Reason = fmt.Sprintf("no error %s with at most %d threads, but the program can create more (max-threads %d)", within, s.maxThreads, s.maxThreads)
		return r, nil
	}
	if q.Bound.Kind == result.Unbounded {
		r.Stats.Set("exhaustive", 1) // every reachable configuration explored: a proof
	}
	return r, nil
}

// cfound is an error found: the node that shows it, the thread whose
// final step at a labelled location shows it (-1: the node's last step
// failed an assertion), its cost, and, once it is the answer, its trace.
type cfound struct {
	node   int32
	thread int
	cost   int
	trace  *result.Trace
}

// add records configuration c reached at the given cost from parent by
// (thread, edge), if it is new or cheaper than before; it returns whether
// it was.
func (s *csearch) add(c interp.Config, cost int, parent, thread, edge int) (int32, bool, error) {
	k := s.dead.key(c)
	if i, ok := s.index[string(k)]; ok {
		n := s.nodes.at(i)
		if n.cost <= cost {
			return i, false, nil
		}
		n.cost, n.parent, n.thread, n.edge = cost, int32(parent), int32(thread), int32(edge)
		return i, true, nil
	}
	if s.nodes.len() >= s.maxStates {
		return 0, false, errBudget{s.maxStates}
	}
	key := string(k)
	i := s.nodes.add(cnode{key: key, cost: cost, parent: int32(parent), thread: int32(thread), edge: int32(edge)})
	s.index[key] = i
	return i, true, nil
}

func (s *csearch) poll() error {
	s.tick++
	if s.tick&1023 != 0 {
		return nil
	}
	if s.ctx.Err() != nil {
		return errStop{s.ctx.Err()}
	}
	if err := memoryLeft(); err != nil {
		return err
	}
	if s.report != nil && s.tick&4095 == 0 {
		s.report(result.PhaseReach, fmt.Sprintf("%d configurations, cost %d (budget %d)", s.nodes.len(), s.maxLayer, s.maxStates))
	}
	return nil
}

// run searches layer by layer and returns the first error found, or nil.
func (s *csearch) run() (*cfound, error) {
	var cur []int32
	err := s.initials(func(c interp.Config) error {
		if err := s.poll(); err != nil {
			return err
		}
		i, fresh, err := s.add(c, 0, -1, -1, result.NoEdge)
		if fresh {
			cur = append(cur, i)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	// pending is an error shown by a final step that costs 1: it is the
	// answer at the next layer unless that layer finds nothing cheaper
	// (nothing can be: it starts with it).
	var pending *cfound
	for layer := 0; layer <= s.limit && (len(cur) > 0 || pending != nil); layer++ {
		if pending != nil && pending.cost == layer {
			return s.finish(pending)
		}
		var next []int32
		for q := 0; q < len(cur); q++ {
			if err := s.poll(); err != nil {
				return nil, err
			}
			i := cur[q]
			n := s.nodes.at(i)
			if n.cost != layer {
				continue // reached more cheaply since, and expanded then
			}
			c, err := s.dead.config(s.p, n.key)
			if err != nil {
				return nil, err
			}
			s.maxLayer = layer
			if f := s.errorAt(i, c); f != nil {
				if f.cost == layer {
					return s.finish(f)
				}
				// Shown only by a switch: the answer at the next layer,
				// unless this one finds an error; the search goes on
				// from here in case it does.
				if f.cost <= s.limit && (pending == nil || f.cost < pending.cost) {
					pending = f
				}
			}
			// A step may have any number of outcomes (an assignment of
			// many `*`): they come one at a time, each added (keyed)
			// here, so the state budget is the limit.
			err = interp.EachSuccessor(s.ctx, s.p, c, s.dead.liveLocals(), func(tr interp.Transition) error {
				if err := s.poll(); err != nil {
					return err
				}
				if len(tr.Next.Threads) > s.maxThreads {
					s.capped = true
					return nil
				}
				cost := layer + s.stepCost(c, tr.Thread)
				if cost > s.limit {
					return nil
				}
				j, fresh, err := s.add(tr.Next, cost, int(i), tr.Thread, tr.Edge)
				if err != nil || !fresh {
					return err
				}
				if cost == layer {
					cur = append(cur, j)
				} else {
					next = append(next, j)
				}
				return nil
			})
			if err != nil {
				if s.ctx.Err() != nil && !errors.As(err, new(errStop)) {
					return nil, errStop{err}
				}
				return nil, err
			}
		}
		cur = next
	}
	if pending != nil && pending.cost <= s.limit {
		return s.finish(pending)
	}
	return nil, nil
}

// errorAt returns the error that node i, reached as configuration c,
// shows, if any: a thread at an assertion-failure location (reached by the
// path's last step, at the node's cost), or a thread at a labelled error
// location that may run (a final step of that thread, at its cost); the
// cheapest one. Its trace is built only once it is the answer (finish).
func (s *csearch) errorAt(i int32, c interp.Config) *cfound {
	n := s.nodes.at(i)
	var best *cfound
	for t, f := range c.Threads {
		if f == nil {
			continue
		}
		proc := s.p.Procs[f.Proc]
		loc := proc.Locations[f.Loc]
		if !loc.Error {
			continue
		}
		if loc.Kind == ir.FailLoc {
			return &cfound{node: i, thread: -1, cost: n.cost}
		}
		if !s.canRun(c, t) {
			continue
		}
		cost := n.cost + s.stepCost(c, t)
		if best == nil || cost < best.cost {
			best = &cfound{node: i, thread: t, cost: cost}
		}
	}
	return best
}

// canRun reports whether thread t may take the next step from c: the
// atomicity rules of the interp package doc.
func (s *csearch) canRun(c interp.Config, t int) bool {
	if c.Atomic >= 0 && c.Atomic != t {
		return false
	}
	if len(s.p.Threads) > 0 && c.Running >= 0 && c.Running != t {
		for g, name := range s.p.Globals {
			if name == "atomic" && c.Globals[g] {
				return false
			}
		}
	}
	return true
}

// step describes thread t of c about to take edge as a trace step.
func (s *csearch) step(c interp.Config, t, edge int) result.Step {
	top := c.Threads[t]
	proc := s.p.Procs[top.Proc]
	vals := result.ValuesOf(s.p, proc, func(v ir.VarRef) bool {
		if v.Global {
			return c.Globals[v.Index]
		}
		return top.Locals[v.Index]
	})
	st := result.NewStep(s.p, proc, top.Loc, edge, vals, top.Depth, t)
	st.Switch = c.Running >= 0 && c.Running != t
	return st
}

// errFound stops an enumeration of replay once it has what it looks for.
var errFound = errors.New("found")

// finish builds the trace of f, the search's answer, and returns f.
func (s *csearch) finish(f *cfound) (*cfound, error) {
	tr, err := s.replay(f)
	if err != nil {
		return nil, err
	}
	f.trace = tr
	return f, nil
}

// replay returns the trace of f: the steps from an initial configuration
// to f's node, then f's final step if it has one. The search keeps only
// the keys of its nodes and expands the configurations they decode to
// (deadness.config), so the path is found again: the initial
// configuration with the first node's key, then at each step the outcome
// the search took, by its place among the successors of the parent's
// decoded configuration (the one with the node's thread, edge and key),
// taken from the successors of the real parent. The two differ only in
// values that cannot matter, so they have the same successors in the
// same order, up to such values; the trace is that of a real run and
// shows its values throughout, as the interpreter's replay checks. (The
// real successor's key need not be the node's: a frame that becomes a
// caller keeps its dead values, which the key of a caller frame does
// not leave out.)
func (s *csearch) replay(f *cfound) (*result.Trace, error) {
	var path []int32
	for i := f.node; i >= 0; i = s.nodes.at(i).parent {
		path = append(path, i)
	}
	slices.Reverse(path)
	var c interp.Config
	first := s.nodes.at(path[0]).key
	err := s.initials(func(ic interp.Config) error {
		if string(s.dead.key(ic)) == first {
			c = ic
			return errFound
		}
		return nil
	})
	if err != errFound {
		if err == nil {
			err = fmt.Errorf("explicit: internal error: no initial configuration has the key of the trace's first")
		}
		return nil, err
	}
	lost := func(step int, n *cnode) error {
		return fmt.Errorf("explicit: internal error: the trace's step %d (thread %d, edge %d) has no successor with the search's key", step, n.thread, n.edge)
	}
	// each calls fn with the successors of c and their places, until fn
	// returns errFound; it reports whether it did.
	each := func(c interp.Config, fn func(int, interp.Transition) bool) (bool, error) {
		k := 0
		err := interp.EachSuccessor(s.ctx, s.p, c, s.dead.liveLocals(), func(tr interp.Transition) error {
			k++
			if fn(k-1, tr) {
				return errFound
			}
			return nil
		})
		if err == errFound {
			return true, nil
		}
		if err != nil && s.ctx.Err() != nil {
			err = errStop{err}
		}
		return false, err
	}
	steps := make([]result.Step, 0, len(path))
	for q, j := range path[1:] {
		parent, n := s.nodes.at(path[q]), s.nodes.at(j)
		dc, err := s.dead.config(s.p, parent.key)
		if err != nil {
			return nil, err
		}
		at := -1
		ok, err := each(dc, func(k int, tr interp.Transition) bool {
			if tr.Thread == int(n.thread) && tr.Edge == int(n.edge) && string(s.dead.key(tr.Next)) == n.key {
				at = k
				return true
			}
			return false
		})
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, lost(q+1, n)
		}
		var next interp.Config
		matched := false
		_, err = each(c, func(k int, tr interp.Transition) bool {
			if k < at {
				return false
			}
			matched = tr.Thread == int(n.thread) && tr.Edge == int(n.edge)
			next = tr.Next
			return true
		})
		if err != nil {
			return nil, err
		}
		if !matched {
			return nil, lost(q+1, n)
		}
		steps = append(steps, s.step(c, int(n.thread), int(n.edge)))
		c = next
	}
	if f.thread >= 0 {
		steps = append(steps, s.step(c, f.thread, result.NoEdge))
	}
	return &result.Trace{Steps: steps}, nil
}

// deadness says which values cannot matter: configurations that differ
// only in them have the same futures, so the search identifies them (its
// key leaves them out) and keeps the first one reached, whose values are
// real. Traces therefore show real values throughout.
//
// It uses the live-variable analysis of package analysis, which is
// sequential: a local of a thread's top frame is private to the thread, so
// its liveness at the frame's location is the sequential one, unless a
// `start_thread goto L` copies the frame into a new thread (then no local
// is taken as dead); a global is dead only while Getafix's init runs
// alone, at the location of its top frame, taking every global as read
// once init returns. Caller frames are never reduced.
type deadness struct {
	ng     int
	live   *analysis.Live
	slots  analysis.Slots
	locals bool // locals of top frames may be dead

	// Caller frames are numbered by their contents and their own
	// caller's number, so that a key costs the top frames, not the whole
	// stacks (frames are shared between configurations).
	ids     map[*interp.Frame]int32
	byKey   map[string]int32
	frames  []*interp.Frame // by number less one: a frame with that number (config)
	keyBuf  []byte
	packBuf []byte // key's
}

// frameID returns the number of a frame (0 for none): equal numbers for
// equal stacks.
func (d *deadness) frameID(f *interp.Frame) int32 {
	if f == nil {
		return 0
	}
	if n, ok := d.ids[f]; ok {
		return n
	}
	k := fmt.Appendf(d.keyBuf[:0], "%d.%d.%d.%d.", d.frameID(f.Caller), f.Proc, f.Loc, f.Call)
	for _, v := range f.Locals {
		if v {
			k = append(k, '1')
		} else {
			k = append(k, '0')
		}
	}
	d.keyBuf = k
	n, ok := d.byKey[string(k)]
	if !ok {
		n = int32(len(d.byKey) + 1)
		d.byKey[string(k)] = n
		d.frames = append(d.frames, f)
	}
	d.ids[f] = n
	return n
}

func newDeadness(p *ir.Program, an *analysis.Cache) *deadness {
	tl := analysis.Of(an, analysis.ThreadLiveness)
	return &deadness{ng: len(p.Globals), slots: analysis.SlotsOf(p), locals: !tl.CopiesFrames, live: tl.Live,
		ids: make(map[*interp.Frame]int32), byKey: make(map[string]int32)}
}

// globalLive reports whether global i of c can matter.
func (d *deadness) globalLive(c interp.Config, i int) bool {
	if c.Init && len(c.Threads) > 0 && c.Threads[0] != nil {
		top := c.Threads[0]
		return d.live.Live[top.Proc][top.Loc].Has(i)
	}
	return true
}

// liveLocals is localLive for interp.EachSuccessor, which then chooses
// one value for a local that cannot matter instead of enumerating both
// (the key would merge them anyway); nil where no local is taken as dead.
func (d *deadness) liveLocals() interp.LiveLocals {
	if !d.locals {
		return nil
	}
	return func(proc *ir.Proc, loc, i int) bool {
		return d.live.Live[proc.Index][loc].Has(d.slots.Local(i))
	}
}

// localLive reports whether local j of frame f, on top of its thread, can
// matter.
func (d *deadness) localLive(f *interp.Frame, j int) bool {
	if f.Call >= 0 || !d.locals {
		return true
	}
	return d.live.Live[f.Proc][f.Loc].Has(d.slots.Local(j))
}

// key returns the identity of c up to dead values, in d's buffer (valid
// until the next call): the globals and each top frame's locals one bit
// each, the rest as varints.
//
// A dead value is written as a 0: whether a value is dead depends only on
// the location of its frame (of init's frame, for a global), which the
// key holds, so two configurations with the same key agree on which
// values are dead, and on the others. Bits rather than a byte per value:
// the key of a configuration of a 3-thread SafeStack program went from
// 150 bytes to 30, and with it the search's memory and hashing.
func (d *deadness) key(c interp.Config) []byte {
	k := d.packBuf[:0]
	var initLive analysis.Set
	if c.Init && len(c.Threads) > 0 && c.Threads[0] != nil {
		top := c.Threads[0]
		initLive = d.live.Live[top.Proc][top.Loc]
	}
	var acc byte
	var n uint
	put := func(v bool) {
		if v {
			acc |= 1 << n
		}
		if n++; n == 8 {
			k = append(k, acc)
			acc, n = 0, 0
		}
	}
	flush := func() {
		if n > 0 {
			k = append(k, acc)
			acc, n = 0, 0
		}
	}
	for i, v := range c.Globals {
		put(v && (initLive == nil || initLive.Has(i)))
	}
	flush()
	init := int64(0)
	if c.Init {
		init = 1
	}
	k = binary.AppendVarint(k, int64(c.Running))
	k = binary.AppendVarint(k, int64(c.Atomic))
	k = binary.AppendVarint(k, init)
	k = binary.AppendUvarint(k, uint64(len(c.Threads)))
	for _, top := range c.Threads {
		if top == nil {
			k = append(k, 0)
			continue
		}
		// The caller's number is positive: 0 marks an ended thread.
		k = binary.AppendUvarint(k, uint64(d.frameID(top.Caller))+1)
		k = binary.AppendUvarint(k, uint64(top.Proc))
		k = binary.AppendUvarint(k, uint64(top.Loc))
		k = binary.AppendVarint(k, int64(top.Call))
		var live analysis.Set
		if top.Call < 0 && d.locals {
			live = d.live.Live[top.Proc][top.Loc]
		}
		// The frame's procedure fixes the number of its locals.
		for j, v := range top.Locals {
			put(v && (live == nil || live.Has(d.slots.Local(j))))
		}
		flush()
	}
	d.packBuf = k
	return k
}

// config returns a configuration whose key is key: the values key leaves
// out are false. It has the futures of every configuration with that key
// (that is what the key leaves out), so the search expands it instead of
// keeping the one it found.
func (d *deadness) config(p *ir.Program, key string) (interp.Config, error) {
	bad := func() (interp.Config, error) {
		return interp.Config{}, fmt.Errorf("explicit: internal error: a configuration's key does not decode")
	}
	k := []byte(key)
	bits := func(n int) []bool {
		if len(k) < (n+7)/8 {
			return nil
		}
		vs := make([]bool, n)
		for i := range vs {
			vs[i] = k[i/8]>>(i%8)&1 != 0
		}
		k = k[(n+7)/8:]
		return vs
	}
	varint := func() int {
		v, w := binary.Varint(k)
		if w <= 0 {
			k = nil
			return 0
		}
		k = k[w:]
		return int(v)
	}
	uvarint := func() int {
		v, w := binary.Uvarint(k)
		if w <= 0 {
			k = nil
			return 0
		}
		k = k[w:]
		return int(v)
	}
	var c interp.Config
	if c.Globals = bits(d.ng); c.Globals == nil && d.ng > 0 {
		return bad()
	}
	c.Running, c.Atomic, c.Init = varint(), varint(), varint() == 1
	nt := uvarint()
	if nt > len(k) { // a thread takes a byte at least
		return bad()
	}
	c.Threads = make([]*interp.Frame, nt)
	for t := range c.Threads {
		caller := uvarint()
		if caller == 0 {
			continue // an ended thread
		}
		f := &interp.Frame{Proc: uvarint(), Loc: uvarint(), Call: varint()}
		if caller > 1 {
			if caller-2 >= len(d.frames) {
				return bad()
			}
			f.Caller = d.frames[caller-2]
			f.Depth = f.Caller.Depth + 1
		}
		if f.Proc >= len(p.Procs) {
			return bad()
		}
		if f.Locals = bits(len(p.Procs[f.Proc].Locals)); f.Locals == nil {
			return bad()
		}
		c.Threads[t] = f
	}
	if k == nil || len(k) != 0 {
		return bad()
	}
	return c, nil
}

// initials calls fn with the initial configurations up to dead values:
// every valuation of the variables live at the start (the globals, or in
// Getafix's convention those init reads before writing them, and the live
// locals of the starting frames), the others false, one at a time, so that
// the state budget limits them. Past 63 live variables it reports an
// error wrapping interp.ErrTooManyChoices that names the symbolic engines.
func (s *csearch) initials(fn func(interp.Config) error) error {
	p := s.p
	ng := len(p.Globals)
	locals := interp.StartLocals(p)
	// A configuration with every variable true tells the key which are
	// dead: they show as '-'.
	probeG, probeL := make([]bool, ng), make([]bool, locals)
	for i := range probeG {
		probeG[i] = true
	}
	for i := range probeL {
		probeL[i] = true
	}
	probe := interp.Initial(p, probeG, probeL)
	var free []int // indices into globals ++ locals
	for i := 0; i < ng; i++ {
		if s.dead.globalLive(probe, i) {
			free = append(free, i)
		}
	}
	for t, k := 0, 0; t < len(probe.Threads) && k < locals; t++ {
		f := probe.Threads[t]
		n := 0
		if f != nil {
			n = len(f.Locals)
		}
		for j := 0; j < n; j++ {
			if s.dead.localLive(f, j) {
				free = append(free, ng+k+j)
			}
		}
		k += n
	}
	if len(free) > maxInitialChoices {
		return fmt.Errorf("%w: %d variables live at the start, 2^%d initial configurations (at most 2^%d are counted); a symbolic engine (conc-fix, conc-lazy) takes them at once", interp.ErrTooManyChoices, len(free), len(free), maxInitialChoices)
	}
	vals := make([]bool, ng+locals)
	for bits := uint64(0); bits < 1<<len(free); bits++ {
		for i, v := range free {
			vals[v] = bits>>i&1 != 0
		}
		if c := interp.Initial(p, vals[:ng], vals[ng:]); !c.Ended() {
			if err := fn(c); err != nil {
				return err
			}
		}
	}
	return nil
}

// maxInitialChoices bounds the live variables whose initial valuations
// the search counts: 2^63 configurations are beyond any state budget, and
// the counter is a uint64.
const maxInitialChoices = 63
