package conc

import (
	"fmt"

	"boolprog/ir"
	"boolprog/syntax"
)

// Goal is what a sequential program reaches at its error locations.
type Goal int

// The goals.
const (
	// GoalError: an error of the concurrent program (a failing assertion
	// or the target label) within the bound.
	GoalError Goal = iota
	// GoalOverflow: a thread creation beyond Model.MaxThreads within the
	// bound (the run the bound cut); its error label is OverflowLabel.
	GoalOverflow
)

// OverflowLabel is the error label of a GoalOverflow program.
const OverflowLabel = "conc_thread_overflow"

// Seq is a sequential program that simulates the runs of a concurrent
// program within a number of round-robin rounds, and what it takes to map
// its traces back (see Seq.Trace).
type Seq struct {
	Prog   *ir.Program // the sequential program; Prog.Target is its error label
	Model  *Model
	Rounds int
	Goal   Goal
	Lazy   bool
	// Contexts, if positive, bounds the non-empty contexts of the runs
	// the program simulates, up to and including the error's: a run of
	// at most K context switches has at most K+1 of them (see Build).
	Contexts int
	// Slots is the number of thread slots of the program: the static
	// threads, then the threads created at run time that step (fewer
	// than Model.Slots() when a bound in switches allows fewer to step;
	// see Model.SwitchSlots).
	Slots int

	// starts marks the driver's call of a thread's first procedure (and
	// main's call of init): seq proc, seq edge → thread.
	starts map[[2]int]int
	// errRecords marks the edges that record the arrival at a target
	// label in a thread (eager): seq proc, seq edge.
	errRecords map[[2]int]bool
	// creations marks the copies of the thread creations: seq proc, seq
	// edge → the slot of the created thread, or -1 for a thread that
	// gets none (it never steps). Threads are numbered by creation, so a
	// trace renumbers the slots (see Seq.Trace).
	creations map[[2]int]int
	// copyOf maps each seq global to the original global it copies and
	// its round (eager) or -1 for the working copy (lazy); {-2, _} for
	// the seq program's own variables.
	copyOf []globalCopy
}

type globalCopy struct{ round, global int }

// initThread marks main's call of init in Seq.starts.
const initThread = -1

const (
	workCopy = -1 // lazy: the working copy of the globals
	ownVar   = -2 // a variable of the sequentialisation
	anyRound = -3 // the one variable of a global that every copy shares
)

// clone is the copy of an original procedure for one thread (or for
// Getafix's init, thread 0 in round 0), possibly starting at a location
// (start_thread goto).
type cloneKey struct {
	thread int // -1: init
	proc   int
	from   int // -1: the entry
}

type clone struct {
	key   cloneKey
	pb    *ir.ProcBuilder
	index int
	locs  []int // original location → seq location
	temps []ir.VarRef
	abort int // eager: the location that ends the thread after an error (-1 until needed)
}

// startKind is a distinct way to start a dynamic thread.
type startKind struct {
	proc, from int // from: the location of start_thread goto, else -1
	nargs      int
}

// builder builds a Seq; Eager and Lazy share it.
type builder struct {
	m     *Model
	p     *ir.Program
	K     int
	goal  Goal
	lazy  bool
	b     *ir.Builder
	seq   *Seq
	n     int // thread slots
	names map[string]bool

	// single marks the components of the shared state that have one
	// variable for every copy (see globals).
	single []bool
	// The shared state: the original globals, then the creation counter
	// (dynamic, if a run may create more threads than the limit), then
	// the counter of the created threads that have a slot (if it is not
	// the creation counter), then s1 ("a thread has stepped in round 1",
	// Getafix's atomic).
	ns, cntOff, cntBits, rcOff, rcBits, s1Off int

	G    [][]ir.VarRef   // eager: G[r-1] is the shared state in round r
	V    [][]ir.VarRef   // eager: V[r-1] the guess of G[r-1] at the start (r >= 2)
	W    []ir.VarRef     // lazy: the working copy
	O    [][][]ir.VarRef // lazy: O[r-1][i] the shared state at the end of context (r, i)
	I    []ir.VarRef     // lazy: the shared state after init
	k    []ir.VarRef     // the current round minus 1
	tgt  []ir.VarRef     // lazy: the target round minus 1
	errR []ir.VarRef     // eager: the round of the error minus 1
	err  ir.VarRef       // eager
	ovf  ir.VarRef       // eager
	own  ir.VarRef       // a thread owns the atomic section
	kbit int

	// Counting the non-empty contexts (maxCtx > 0, see Build): ctr
	// holds the number of non-empty contexts before the running one that
	// come before the error in the schedule; nonempty says that the
	// running thread has stepped in its current context.
	maxCtx   int
	ctr      []ir.VarRef
	nonempty ir.VarRef
	// Lazy, counting: E[r-1][i] records that context (r, i) was
	// non-empty; a replay of an empty context must stay empty (steps
	// that leave the shared state as it was would otherwise add a
	// context that was not counted).
	E [][]ir.VarRef

	kinds   []startKind
	kindOf  map[[2]int]int // (proc, from) → kind
	created []ir.VarRef
	cround  [][]ir.VarRef
	ckind   [][]ir.VarRef
	cargs   [][]ir.VarRef
	maxArgs int

	clones map[cloneKey]*clone
	queue  []*clone

	threadProc    []int // driver of thread i (eager) / of context (r, i) (lazy: index r*n+i)
	switchProc    []int // thread i's switch procedure
	endProc       []int // thread i's end procedure
	yieldProc     []int // eager: the continuation after thread i
	main          *ir.ProcBuilder
	target        string
	afterInitProc int
}

// Eager returns the Lal–Reps sequentialisation of the model's runs within
// rounds round-robin rounds (thesis ch. 7, §7.1–7.2): K copies of the
// shared globals, the copies of rounds 2..K starting from guessed values
// that a checker compares at the end with what the last thread left in
// the round before. Threads run one after another, each through all its
// rounds; an error sets a flag and ends the thread, and the program
// reaches its error label only if the checker accepts the guesses.
//
// A known cost: the threads run nested (thread i+1 is called where thread
// i ends its last context), so the relations that summarise the
// procedures of a later thread are restricted to the states the threads
// before it leave, and those states are tied to the earlier threads'
// local states at every context switch: on Bluetooth 1+1 at 4 rounds the
// summaries of the second thread have 0.3-0.5 million nodes against
// 35,000 for the first. Lal's eager analysis (thesis §7.7) computes each
// thread's relation for every input instead.
func Eager(m *Model, rounds int, goal Goal) (*Seq, error) {
	return build(m, rounds, goal, false, 0, 0)
}

// Lazy returns the lazy sequentialisation of the model's runs within
// rounds round-robin rounds: instead of guessing the shared state at the
// start of a round, every context (round r, thread i) is computed from the
// recorded states of the contexts before it, by running thread i again
// from its start through its first r contexts, constrained to reproduce
// the states it produced before. Every state the program reaches is
// reached by a run of the concurrent program (thesis ch. 7.6: no guessed
// global values), so an error location is reached at once, without a
// checker.
func Lazy(m *Model, rounds int, goal Goal) (*Seq, error) {
	return build(m, rounds, goal, true, 0, 0)
}

// SeqOptions say which sequentialisation Build makes.
type SeqOptions struct {
	Rounds int  // round-robin rounds (at least 1)
	Goal   Goal // what the program reaches at its error label
	Lazy   bool // Lazy rather than Eager
	// Contexts, if positive, keeps only the runs with at most this many
	// non-empty contexts up to and including the one of the error (or
	// the overflow): Build(m, SeqOptions{Rounds: K+1, Contexts: K+1})
	// simulates exactly the runs of at most K context switches (a run
	// with K switches has K+1 contexts, which fit in K+1 rounds; a run
	// with at most K+1 non-empty contexts has at most K switches). The
	// program then counts them: a counter of ceil(log2(Contexts+1))
	// bits and a flag "the running thread has stepped in its context"
	// (eager also guesses the round of the error at the start, so that
	// contexts after it in the schedule are not counted).
	Contexts int
	// Switches, if positive, says that only the runs of at most this
	// many context switches need be simulated (the program may simulate
	// more of them; Contexts makes it exact). Such a run has at most
	// Model.SwitchSlots(Switches) threads that step, so the program
	// then has only as many slots (see Model.SwitchSlots). With
	// Contexts the limit of Contexts-1 switches applies as well.
	Switches int
}

// Build returns the sequentialisation that o describes (Eager and Lazy
// are Build without a context limit).
func Build(m *Model, o SeqOptions) (*Seq, error) {
	if o.Contexts < 0 || o.Switches < 0 {
		return nil, fmt.Errorf("conc: a limit of %d contexts and %d switches", o.Contexts, o.Switches)
	}
	return build(m, o.Rounds, o.Goal, o.Lazy, o.Contexts, o.Switches)
}

func build(m *Model, rounds int, goal Goal, lazy bool, maxCtx, switches int) (*Seq, error) {
	if rounds < 1 {
		return nil, fmt.Errorf("conc: %d rounds: at least 1", rounds)
	}
	if len(m.Static) == 0 {
		return nil, fmt.Errorf("conc: the program has no thread")
	}
	p := m.Prog
	target := p.Target
	if goal == GoalOverflow {
		target = OverflowLabel
	}
	n := m.Slots()
	if maxCtx > 0 {
		n = min(n, m.SwitchSlots(maxCtx-1))
	}
	if switches > 0 {
		n = min(n, m.SwitchSlots(switches))
	}
	bd := &builder{m: m, p: p, K: rounds, goal: goal, lazy: lazy, b: ir.NewBuilder(p.File, target),
		target: target, n: n, names: make(map[string]bool), clones: make(map[cloneKey]*clone), kindOf: make(map[[2]int]int), maxCtx: maxCtx}
	bd.seq = &Seq{Model: m, Rounds: rounds, Goal: goal, Lazy: lazy, Contexts: maxCtx, Slots: n, starts: make(map[[2]int]int), errRecords: make(map[[2]int]bool), creations: make(map[[2]int]int)}
	for _, g := range p.Globals {
		bd.names[g] = true
	}
	// The original procedures are not part of the sequential program
	// (only their copies, t0_f, init_f, ...): main is the new main.
	bd.globals()
	bd.procs()
	for len(bd.queue) > 0 {
		c := bd.queue[0]
		bd.queue = bd.queue[1:]
		bd.fill(c)
	}
	prog, err := bd.b.Build()
	if err != nil {
		return nil, fmt.Errorf("conc: internal error: the sequential program is malformed: %w", err)
	}
	bd.seq.Prog = prog
	return bd.seq, nil
}

// compact reports whether the program has fewer slots for the threads
// created at run time than the model's limit: a creation then either
// takes the next free slot or creates a thread that never steps (see
// Model.SwitchSlots).
func (bd *builder) compact() bool { return bd.n < bd.m.Slots() }

// name returns a fresh name based on s.
func (bd *builder) name(s string) string {
	n := s
	for i := 2; bd.names[n]; i++ {
		n = fmt.Sprintf("%s_%d", s, i)
	}
	bd.names[n] = true
	return n
}

// braced returns a fresh name made of base and suffix, which is not a
// plain identifier (so it is printed in braces, as {g@2}).
func (bd *builder) braced(base, suffix string) string {
	return bd.name(base + suffix)
}

func (bd *builder) global(name string, c globalCopy) ir.VarRef {
	bd.seq.copyOf = append(bd.seq.copyOf, c)
	return bd.b.Global(name)
}

func (bd *builder) bits(name string, n int) []ir.VarRef {
	out := make([]ir.VarRef, n)
	for i := range out {
		out[i] = bd.global(bd.braced(name, fmt.Sprint(i)), globalCopy{ownVar, 0})
	}
	return out
}

// globals declares the seq program's globals.
func (bd *builder) globals() {
	m, p := bd.m, bd.p
	bd.ns = len(p.Globals)
	bd.cntOff, bd.rcOff, bd.s1Off = -1, -1, -1
	if m.Convention == Dynamic {
		// The creation counter: only if a run may create more
		// threads than the limit (then the run is cut there, and the
		// overflow program reaches its label).
		if m.Cuts() {
			bd.cntOff = bd.ns
			bd.cntBits = bitsFor(m.MaxThreads + 1)
			bd.ns += bd.cntBits
		}
		// The counter of the slots taken, unless it is the creation
		// counter (every thread created takes a slot).
		if bd.compact() || bd.cntBits == 0 {
			bd.rcOff = bd.ns
			bd.rcBits = bitsFor(bd.n - len(m.Static) + 1)
			bd.ns += bd.rcBits
		}
	}
	if m.AtomicGlobal >= 0 {
		bd.s1Off = bd.ns
		bd.ns++
	}
	sharedNames := make([]string, bd.ns)
	copy(sharedNames, p.Globals)
	for i := 0; i < bd.cntBits; i++ {
		sharedNames[bd.cntOff+i] = fmt.Sprintf("#threads%d", i)
	}
	for i := 0; i < bd.rcBits; i++ {
		sharedNames[bd.rcOff+i] = fmt.Sprintf("#slots%d", i)
	}
	if bd.s1Off >= 0 {
		sharedNames[bd.s1Off] = "#stepped"
	}
	origIndex := func(j int) int {
		if j < len(p.Globals) {
			return j
		}
		return -1
	}
	// single[j]: component j of the shared state needs one variable, not
	// one per round (eager) or per recorded context (lazy): a global that
	// no thread writes keeps init's value through every run, and
	// (eager) #stepped is written and read in round 1 only. Copies of
	// such a component would only be chains of equalities (guess =
	// state the round before = guess ...) that double the width of the
	// BDDs of every relation over the copies, each.
	single := make([]bool, bd.ns)
	bd.single = single
	written := threadWrites(m)
	for j := range single {
		if o := origIndex(j); o >= 0 && !written[o] {
			single[j] = true
		}
	}
	if bd.s1Off >= 0 && !bd.lazy {
		single[bd.s1Off] = true
	}
	// The ways to start a dynamic thread (before the copies: see
	// slotWrites).
	for _, s := range m.Sites {
		key := [2]int{s.Op.Proc, s.Op.Goto}
		if s.Op.Goto >= 0 {
			key = [2]int{s.Proc, s.Op.Goto}
		}
		if _, ok := bd.kindOf[key]; ok {
			continue
		}
		k := startKind{proc: key[0], from: key[1]}
		if k.from >= 0 {
			k.nargs = len(p.Procs[k.proc].Locals)
		} else {
			k.nargs = p.Procs[k.proc].Params
		}
		bd.maxArgs = max(bd.maxArgs, k.nargs)
		bd.kindOf[key] = len(bd.kinds)
		bd.kinds = append(bd.kinds, k)
	}
	// The order of the declarations is the order of the BDD variables
	// for an engine that orders them by declaration (conc-eager and
	// conc-lazy run summary with --order declaration), and it decides
	// the size of the relations over the copies: see declareCopies.
	bd.control()
	bd.declareCopies(sharedNames, origIndex, single)
	// Records of the dynamic threads: created, its first round, how it
	// starts (bd.kinds), its arguments.
	bd.created = make([]ir.VarRef, bd.n)
	bd.cround = make([][]ir.VarRef, bd.n)
	bd.ckind = make([][]ir.VarRef, bd.n)
	bd.cargs = make([][]ir.VarRef, bd.n)
	for i := len(m.Static); i < bd.n; i++ {
		bd.created[i] = bd.global(bd.braced(fmt.Sprintf("#t%d.created", i), ""), globalCopy{ownVar, 0})
		bd.cround[i] = bd.bits(fmt.Sprintf("#t%d.round", i), bd.kbit)
		if len(bd.kinds) > 1 {
			bd.ckind[i] = bd.bits(fmt.Sprintf("#t%d.start", i), bitsFor(len(bd.kinds)))
		}
		for j := 0; j < bd.maxArgs; j++ {
			bd.cargs[i] = append(bd.cargs[i], bd.global(bd.braced(fmt.Sprintf("#t%d.arg%d", i, j), ""), globalCopy{ownVar, 0}))
		}
	}
}

// control declares the variables of the sequentialisation that are not
// copies of the shared state: the round, the target round (lazy), the
// error's round and flags (eager), the atomic-section owner and the
// context counter. They come first in the order: every relation of the
// threads' code depends on the round, so the BDDs split on it at once
// and the rest is one relation per round.
func (bd *builder) control() {
	m := bd.m
	bd.kbit = bitsFor(bd.K)
	bd.k = bd.bits("#round", bd.kbit)
	if bd.lazy {
		bd.tgt = bd.bits("#target", bd.kbit)
	} else {
		bd.errR = bd.bits("#errround", bd.kbit)
		bd.err = bd.global(bd.braced("#error", ""), globalCopy{ownVar, 0})
		bd.ovf = bd.global(bd.braced("#overflow", ""), globalCopy{ownVar, 0})
	}
	if m.AtomicSections {
		bd.own = bd.global(bd.braced("#atomic_section", ""), globalCopy{ownVar, 0})
	}
	if bd.maxCtx > 0 {
		bd.ctr = bd.bits("#contexts", bitsFor(bd.maxCtx+1))
		bd.nonempty = bd.global(bd.braced("#nonempty", ""), globalCopy{ownVar, 0})
		if bd.lazy {
			bd.E = make([][]ir.VarRef, bd.K)
			for r := range bd.E {
				for i := 0; i < bd.n; i++ {
					bd.E[r] = append(bd.E[r], bd.global(bd.braced(fmt.Sprintf("#nonempty@%d.%d", r+1, i), ""), globalCopy{ownVar, 0}))
				}
			}
		}
	}
}

// declareCopies declares the copies of the shared state (names: the
// component names; orig: the original global of a component, or -1;
// single: the components that need one variable only, declared first
// and shared by every copy).
//
// The copies are declared copy by copy, in the order in which the runs
// connect them: eager G@1, then G@2 with its guess V@2 interleaved
// variable by variable, G@3 with V@3, ...; lazy the state after init,
// the recorded states O@r.i in schedule order, and the working copy W
// last. A relation between the copies (the summary of a thread's
// procedure: its effect on each round's copy, the rounds linked by its
// local state at the context switches; the recorded history of the lazy
// program) is then a chain whose width at the border between two copies
// is the number of states that cross it. Declared variable by variable
// instead (p2@1, p2@2, ..., p1@1, ...), the relation between consecutive
// rounds is spread over the whole order. Measured on the Bluetooth
// models at 3 rounds (summary, CPU seconds): lazy 1+2 6.4 → 3.3, 2+1
// > 30 → 3.0, 2+2 11.2 → 2.0 (variable by variable under FORCE
// placement before); eager unchanged (1+1 2.6 → 2.8), whose cost is
// elsewhere (see Eager).
func (bd *builder) declareCopies(names []string, orig func(int) int, single []bool) {
	ones := make([]ir.VarRef, bd.ns)
	for j := range ones {
		if !single[j] {
			continue
		}
		c := globalCopy{ownVar, 0}
		if o := orig(j); o >= 0 {
			c = globalCopy{anyRound, o}
		}
		ones[j] = bd.global(bd.braced(names[j], "@all"), c)
	}
	// block declares copies side by side, variable by variable; round
	// is the round of copies[0] for the trace (0: a record, no round of
	// the original program).
	block := func(round int, suffixes []string, copies ...*[]ir.VarRef) {
		for _, v := range copies {
			*v = make([]ir.VarRef, bd.ns)
		}
		for j := 0; j < bd.ns; j++ {
			for x, v := range copies {
				if single[j] {
					(*v)[j] = ones[j]
					continue
				}
				c := globalCopy{ownVar, 0}
				if x == 0 && round != 0 && orig(j) >= 0 {
					c = globalCopy{round, orig(j)}
				}
				(*v)[j] = bd.global(bd.braced(names[j], suffixes[x]), c)
			}
		}
	}
	if bd.lazy {
		block(0, []string{"@init"}, &bd.I)
		// A component that thread i never writes is at the end of
		// its context what it was at the start: its record is the
		// variable of the record before (see slotWrites).
		writes := bd.slotWrites()
		bd.O = make([][][]ir.VarRef, bd.K)
		for r := range bd.O {
			bd.O[r] = make([][]ir.VarRef, bd.n)
			for i := range bd.O[r] {
				in := bd.input(r+1, i)
				o := make([]ir.VarRef, bd.ns)
				for j := range o {
					switch {
					case single[j]:
						o[j] = ones[j]
					case !writes[i][j]:
						o[j] = in[j]
					default:
						o[j] = bd.global(bd.braced(names[j], fmt.Sprintf("@%d.%d", r+1, i)), globalCopy{ownVar, 0})
					}
				}
				bd.O[r][i] = o
			}
		}
		block(workCopy, []string{""}, &bd.W)
		return
	}
	bd.G = make([][]ir.VarRef, bd.K)
	bd.V = make([][]ir.VarRef, bd.K)
	block(1, []string{"@1"}, &bd.G[0])
	for r := 1; r < bd.K; r++ {
		block(r+1, []string{fmt.Sprintf("@%d", r+1), fmt.Sprintf("@%d.guess", r+1)}, &bd.G[r], &bd.V[r])
	}
}

// slotWrites returns (lazy), for each thread slot, the components of the
// shared state its code may write: the globals assigned (or bound to a
// call's result) in the procedures it runs and calls, the creation
// counters if it creates threads, and #stepped. A created slot runs any
// of the ways to start a thread (bd.kinds).
func (bd *builder) slotWrites() [][]bool {
	p := bd.p
	var dynRoots []int
	for _, k := range bd.kinds {
		dynRoots = append(dynRoots, k.proc)
	}
	out := make([][]bool, bd.n)
	for i := range out {
		roots := dynRoots
		if i < len(bd.m.Static) {
			roots = []int{bd.m.Static[i]}
		}
		w := make([]bool, bd.ns)
		if bd.s1Off >= 0 {
			w[bd.s1Off] = true
		}
		seen := make([]bool, len(p.Procs))
		stack := append([]int(nil), roots...)
		for _, r := range roots {
			seen[r] = true
		}
		for len(stack) > 0 {
			pr := p.Procs[stack[len(stack)-1]]
			stack = stack[:len(stack)-1]
			for _, e := range pr.Edges {
				for _, v := range ir.Writes(e.Op) {
					if v.Global {
						w[v.Index] = true
					}
				}
				switch op := e.Op.(type) {
				case *ir.Call:
					if !seen[op.Proc] {
						seen[op.Proc] = true
						stack = append(stack, op.Proc)
					}
				case *ir.StartThread:
					for j := 0; j < bd.cntBits; j++ {
						w[bd.cntOff+j] = true
					}
					for j := 0; j < bd.rcBits; j++ {
						w[bd.rcOff+j] = true
					}
				}
			}
		}
		out[i] = w
	}
	return out
}

// recorded returns (lazy) the components of the shared state that the
// record of context (r, i) holds in variables of its own (the others
// are the variables of the record before: see declareCopies), as the
// pairs of the record's variables and the working copy's.
func (bd *builder) recorded(r, i int) (rec, work []ir.VarRef) {
	in := bd.input(r, i)
	for j, v := range bd.O[r-1][i] {
		if v != in[j] {
			rec = append(rec, v)
			work = append(work, bd.W[j])
		}
	}
	return rec, work
}

// threadWrites returns, for each global of the model's program, whether
// a thread may write it: an assignment to it, or a call's result bound
// to it, in any procedure but Getafix's init.
func threadWrites(m *Model) []bool {
	p := m.Prog
	w := make([]bool, len(p.Globals))
	for _, pr := range p.Procs {
		if pr.Index == m.Init {
			continue
		}
		for _, e := range pr.Edges {
			for _, v := range ir.Writes(e.Op) {
				if v.Global {
					w[v.Index] = true
				}
			}
		}
	}
	return w
}

// shared returns the variables that hold the shared state in round r
// (1-based) for the code of the threads.
func (bd *builder) shared(r int) []ir.VarRef {
	if bd.lazy {
		return bd.W
	}
	return bd.G[r-1]
}

func (bd *builder) kEq(r int) ir.Expr { return eqBits(bd.k, r-1) }

// counting reports whether the program counts non-empty contexts.
func (bd *builder) counting() bool { return bd.maxCtx > 0 }

// count returns the targets, values and constraint that add one to the
// context counter where c holds; c must not hold with the counter at its
// limit (which it therefore never exceeds).
func (bd *builder) count(c ir.Expr) ([]ir.VarRef, []ir.Expr, ir.Expr) {
	vals := make([]ir.Expr, len(bd.ctr))
	carry := c
	for j, b := range bd.ctr {
		vals[j] = xor(vr(b), carry)
		carry = and(carry, vr(b))
	}
	return cloneRefs(bd.ctr), vals, or(not(c), bd.ctrBelow())
}

// ctrBelow says that the context counter is below its limit.
func (bd *builder) ctrBelow() ir.Expr { return not(eqBits(bd.ctr, bd.maxCtx)) }

// counted says whether the context of round r that is ending comes before
// the error in the schedule and so counts. Lazy computes the contexts in
// schedule order and stops at the error: all count. Eager runs each
// thread through all its rounds, so it guesses the error's round at the
// start (the error then only happens in that round): a context of an
// earlier round counts, and one of that round if it runs before the
// error is reached (by a thread before the erring one).
func (bd *builder) counted(r int) ir.Expr {
	if bd.lazy {
		return ir.True
	}
	var xs []ir.Expr
	for e := r + 1; e <= bd.K; e++ {
		xs = append(xs, eqBits(bd.errR, e-1))
	}
	xs = append(xs, and(eqBits(bd.errR, r-1), not(vr(bd.err)), not(vr(bd.ovf))))
	return or(xs...)
}

// endContext returns what a step that ends the running thread's context
// of round r adds when counting (nothing otherwise): the counter counts
// the context if the thread stepped in it and it comes before the error,
// and the next context starts empty.
func (bd *builder) endContext(r int) ([]ir.VarRef, []ir.Expr, ir.Expr) {
	if !bd.counting() {
		return nil, nil, ir.True
	}
	ts, vs, cons := bd.count(and(vr(bd.nonempty), bd.counted(r)))
	return append(ts, bd.nonempty), append(vs, ir.False), cons
}

// sameEmptiness says (lazy, counting) that a replay of context (r, i) is
// empty if the context was.
func (bd *builder) sameEmptiness(r, i int) ir.Expr {
	if !bd.counting() {
		return ir.True
	}
	return or(not(vr(bd.nonempty)), vr(bd.E[r-1][i]))
}

// startContext returns what a step that starts a thread's context adds
// when counting: the context is empty so far.
func (bd *builder) startContext() ([]ir.VarRef, []ir.Expr) {
	if !bd.counting() {
		return nil, nil
	}
	return []ir.VarRef{bd.nonempty}, []ir.Expr{ir.False}
}

func (bd *builder) tgtEq(r int) ir.Expr { return eqBits(bd.tgt, r-1) }

// tgtAbove says that the target round is above r.
func (bd *builder) tgtAbove(r int) ir.Expr {
	var xs []ir.Expr
	for t := r + 1; t <= bd.K; t++ {
		xs = append(xs, bd.tgtEq(t))
	}
	return or(xs...)
}

// errBy says (eager) that an error (or overflow) was recorded in a round
// at most r: after it, the bound's switch conditions no longer matter.
func (bd *builder) errBy(r int) ir.Expr {
	var xs []ir.Expr
	for e := 1; e <= r; e++ {
		xs = append(xs, eqBits(bd.errR, e-1))
	}
	return and(or(vr(bd.err), vr(bd.ovf)), or(xs...))
}

// guard is the condition under which the running thread may end its
// context of round r: it does not own the atomic section, and Getafix's
// atomic is F (unless no thread has stepped yet).
func (bd *builder) guard(r int) ir.Expr {
	var xs []ir.Expr
	if bd.m.AtomicSections {
		xs = append(xs, not(vr(bd.own)))
	}
	if a := bd.m.AtomicGlobal; a >= 0 {
		sh := bd.shared(r)
		x := not(vr(sh[a]))
		if r == 1 {
			x = or(x, not(vr(sh[bd.s1Off])))
		}
		xs = append(xs, x)
	}
	g := and(xs...)
	if !bd.lazy && !isConst(g, true) {
		g = or(g, bd.errBy(r))
	}
	return g
}

// input returns (lazy) the recorded shared state at the start of context
// (r, i).
func (bd *builder) input(r, i int) []ir.VarRef {
	switch {
	case i > 0:
		return bd.O[r-1][i-1]
	case r == 1:
		return bd.I
	}
	return bd.O[r-2][bd.n-1]
}

func vars(refs []ir.VarRef) []ir.Expr {
	out := make([]ir.Expr, len(refs))
	for i, r := range refs {
		out[i] = vr(r)
	}
	return out
}

func eqVec(a, b []ir.VarRef) ir.Expr {
	var xs []ir.Expr
	for i := range a {
		if a[i] == b[i] {
			continue // one variable for both copies
		}
		xs = append(xs, eq(vr(a[i]), vr(b[i])))
	}
	return and(xs...)
}

// syn is the origin of what the sequentialisation adds.
var syn = ir.Origin{Proc: -1, Loc: -1, Edge: -1, Thread: -1, Round: -1}

// simple adds a location without a statement of the original program.
func simple(pb *ir.ProcBuilder, text string) int {
	return pb.Loc(ir.Location{Kind: ir.StmtLoc, Text: text, Origin: syn})
}

func edge(pb *ir.ProcBuilder, from, to int, op ir.Op, text string) int {
	return pb.Edge(ir.Edge{From: from, To: to, Op: op, Text: text, Origin: syn})
}

func assume(c ir.Expr) ir.Op { return &ir.Assume{Cond: c} }

// assign returns the assignment of values to targets under the
// constraint c, or the assumption of c if there are no targets.
func assign(targets []ir.VarRef, values []ir.Expr, c ir.Expr) ir.Op {
	if len(targets) == 0 {
		return assume(c)
	}
	if isConst(c, true) {
		c = nil
	}
	return &ir.Assign{Targets: targets, Values: values, Constrain: c}
}

func call(proc int) ir.Op { return &ir.Call{Proc: proc} }

// synProc adds a procedure of the sequentialisation with an entry and an
// exit location.
func (bd *builder) synProc(name string) (pb *ir.ProcBuilder, entry int) {
	pb = bd.b.Proc(bd.name(name), syntax.Pos{}, nil, 0)
	entry = simple(pb, name)
	exit := pb.Loc(ir.Location{Kind: ir.ExitLoc, Origin: syn})
	pb.SetEntry(entry)
	pb.SetExit(exit)
	return pb, entry
}

// cloneOf returns the copy of proc (from location from, or its entry) for
// a thread (-1: init), creating it if needed.
func (bd *builder) cloneOf(thread, proc, from int) *clone {
	key := cloneKey{thread, proc, from}
	if c, ok := bd.clones[key]; ok {
		return c
	}
	orig := bd.p.Procs[proc]
	ctx := "init"
	if thread >= 0 {
		ctx = fmt.Sprintf("t%d", thread)
	}
	name := fmt.Sprintf("%s_%s", ctx, orig.Name)
	params := orig.Locals[:orig.Params]
	if from >= 0 {
		name += fmt.Sprintf("_from%d", from)
		params = orig.Locals
	}
	c := &clone{key: key, abort: -1}
	c.pb = bd.b.Proc(bd.name(name), orig.Pos, params, orig.Returns)
	for _, l := range orig.Locals[len(params):] {
		c.pb.Local(l)
	}
	c.index = c.pb.Index()
	bd.clones[key] = c
	bd.queue = append(bd.queue, c)
	return c
}

// ownProc is a procedure of the sequentialisation's own and its entry.
type ownProc struct {
	pb    *ir.ProcBuilder
	entry int
}

// ownProcs are the procedures of the sequentialisation that are not
// copies of the program's.
type ownProcs struct {
	main, afterInit ownProc // afterInit: only with an init
	sw, end         []ownProc
	drivers         []ownProc // eager: by thread; lazy: by context r*n+i
	yields          []ownProc // eager: after_t<i>
}

// procs adds the procedures of the sequentialisation that are not copies
// of the program's: main, and per thread its driver, switch, end (and,
// eager, the continuation after it). They are declared first, in a fixed
// order (it numbers them), then given their bodies.
func (bd *builder) procs() {
	sp := bd.declareProcs()
	if !bd.lazy {
		for i, y := range sp.yields {
			bd.yield(y, i)
		}
	}
	bd.start(sp)
	for i := 0; i < bd.n; i++ {
		// end: the thread has ended; its remaining contexts are empty.
		bd.switchEdges(sp.end[i].pb, i, sp.end[i].entry)
		bd.switchBody(sp.sw[i], i)
	}
	if bd.lazy {
		for r := 1; r <= bd.K; r++ {
			for i := 0; i < bd.n; i++ {
				d := sp.drivers[(r-1)*bd.n+i]
				d1 := simple(d.pb, "")
				edge(d.pb, d.entry, d1, &ir.Assign{Targets: bd.tgt, Values: constBits(bd.kbit, r-1)}, fmt.Sprintf("context (%d, t%d)", r, i))
				bd.driver(d.pb, i, d1, r)
			}
		}
	} else {
		for i := 0; i < bd.n; i++ {
			bd.driver(sp.drivers[i].pb, i, sp.drivers[i].entry, 0)
		}
	}
}

// declareProcs declares the procedures of procs, without bodies.
func (bd *builder) declareProcs() *ownProcs {
	n, K := bd.n, bd.K
	sp := &ownProcs{sw: make([]ownProc, n), end: make([]ownProc, n)}
	main, mainEntry := bd.synProc("main")
	bd.b.SetMain(main.Index())
	bd.main = main
	sp.main = ownProc{main, mainEntry}
	if bd.m.Init >= 0 {
		pb, e := bd.synProc("after_init")
		sp.afterInit = ownProc{pb, e}
		bd.afterInitProc = pb.Index()
	}
	bd.switchProc = make([]int, n)
	bd.endProc = make([]int, n)
	for i := 0; i < n; i++ {
		pb, e := bd.synProc(fmt.Sprintf("switch_t%d", i))
		sp.sw[i] = ownProc{pb, e}
		bd.switchProc[i] = pb.Index()
		pb, e = bd.synProc(fmt.Sprintf("end_t%d", i))
		sp.end[i] = ownProc{pb, e}
		bd.endProc[i] = pb.Index()
	}
	if bd.lazy {
		for r := 1; r <= K; r++ {
			for i := 0; i < n; i++ {
				pb, e := bd.synProc(fmt.Sprintf("context_%d_t%d", r, i))
				sp.drivers = append(sp.drivers, ownProc{pb, e})
				bd.threadProc = append(bd.threadProc, pb.Index())
			}
		}
		return sp
	}
	sp.yields = make([]ownProc, n)
	for i := 0; i < n; i++ {
		pb, e := bd.synProc(fmt.Sprintf("thread_t%d", i))
		sp.drivers = append(sp.drivers, ownProc{pb, e})
		bd.threadProc = append(bd.threadProc, pb.Index())
		pb, e = bd.synProc(fmt.Sprintf("after_t%d", i))
		sp.yields[i] = ownProc{pb, e}
		bd.yieldProc = append(bd.yieldProc, pb.Index())
	}
	return sp
}

// yield is the body of after_t<i> (eager): round 1 again, then the next
// thread or, after the last, the checker of the guesses and the error.
func (bd *builder) yield(y ownProc, i int) {
	K := bd.K
	y1 := simple(y.pb, "")
	edge(y.pb, y.entry, y1, &ir.Assign{Targets: bd.k, Values: constBits(bd.kbit, 0)}, "round 1")
	if i+1 < bd.n {
		edge(y.pb, y1, y1, call(bd.threadProc[i+1]), "run the next thread")
		return
	}
	// The checker: the guessed state of each round (before the
	// error's) is what the last thread left in the round before.
	flag := bd.err
	if bd.goal == GoalOverflow {
		flag = bd.ovf
	}
	// One assume per variable (see the guesses in main).
	at := y1
	for j := 0; j < bd.ns; j++ {
		if bd.single[j] {
			continue
		}
		var xs []ir.Expr
		for r := 1; r < K; r++ {
			var after []ir.Expr
			for e := r + 1; e <= K; e++ {
				after = append(after, eqBits(bd.errR, e-1))
			}
			xs = append(xs, implies(or(after...), eq(vr(bd.V[r][j]), vr(bd.G[r-1][j]))))
		}
		next := simple(y.pb, "")
		edge(y.pb, at, next, assume(and(xs...)), "check the guesses")
		at = next
	}
	z := y.pb.Loc(ir.Location{Kind: ir.StmtLoc, Text: "skip", Labels: []string{bd.target}, Origin: syn})
	edge(y.pb, at, z, assume(vr(flag)), "the error")
}

// start is the body of main: (eager) the guesses, the start's
// assignment, init if any, then the threads.
func (bd *builder) start(sp *ownProcs) {
	n, K := bd.n, bd.K
	main, mainEntry := sp.main.pb, sp.main.entry
	var targets []ir.VarRef
	var values []ir.Expr
	set := func(t ir.VarRef, v ir.Expr) {
		targets = append(targets, t)
		values = append(values, v)
	}
	first := bd.shared(1)
	m1 := simple(main, "")
	at := mainEntry
	if !bd.lazy {
		// The guesses: one assignment per variable, so that engines
		// that place variables assigned together side by side keep
		// each variable's copies together.
		for j := 0; j < bd.ns && K > 1; j++ {
			if bd.single[j] {
				continue
			}
			var ts []ir.VarRef
			var vs []ir.Expr
			for r := 1; r < K; r++ {
				ts = append(ts, bd.V[r][j])
				vs = append(vs, vr(bd.G[r][j]))
			}
			next := simple(main, "")
			edge(main, at, next, &ir.Assign{Targets: ts, Values: vs}, "guess")
			at = next
		}
		set(bd.err, ir.False)
		set(bd.ovf, ir.False)
	}
	for _, b := range bd.k {
		set(b, ir.False)
	}
	for _, b := range bd.ctr {
		set(b, ir.False)
	}
	if bd.m.AtomicSections {
		set(bd.own, ir.False)
	}
	for i := len(bd.m.Static); i < n; i++ {
		set(bd.created[i], ir.False)
	}
	for j := 0; j < bd.cntBits; j++ {
		set(first[bd.cntOff+j], ir.False)
	}
	for j := 0; j < bd.rcBits; j++ {
		set(first[bd.rcOff+j], ir.False)
	}
	if bd.s1Off >= 0 {
		set(first[bd.s1Off], ir.False)
	}
	edge(main, at, m1, &ir.Assign{Targets: targets, Values: values}, "start")
	// What follows init (or the start): the threads.
	startThreads := func(pb *ir.ProcBuilder, from int) {
		if bd.lazy {
			to := simple(pb, "")
			edge(pb, from, to, &ir.Assign{Targets: bd.I, Values: vars(bd.W)}, "the state after init")
			edge(pb, to, to, call(bd.threadProc[0]), "run the first context")
			return
		}
		edge(pb, from, from, call(bd.threadProc[0]), "run the first thread")
	}
	if bd.m.Init >= 0 {
		ic := bd.cloneOf(-1, bd.m.Init, -1)
		m2 := simple(main, "")
		e := main.Edge(ir.Edge{From: m1, To: m2, Op: call(ic.index), Text: "init()", Origin: syn})
		bd.seq.starts[[2]int{main.Index(), e}] = initThread
		edge(main, m2, m2, call(sp.afterInit.pb.Index()), "the threads start")
		startThreads(sp.afterInit.pb, sp.afterInit.entry)
	} else {
		startThreads(main, m1)
	}
}

// switchBody is the body of switch_t<i>: the end of the thread's last
// context (lazy: of each context r, recorded, then the next context).
func (bd *builder) switchBody(s ownProc, i int) {
	K := bd.K
	if bd.lazy {
		for r := 1; r <= K; r++ {
			y := simple(s.pb, "")
			ts, vs, cons := bd.endContext(r)
			if bd.counting() {
				ts, vs = append(ts, bd.E[r-1][i]), append(vs, vr(bd.nonempty))
			}
			rec, work := bd.recorded(r, i)
			edge(s.pb, s.entry, y, assign(append(rec, ts...), append(vars(work), vs...), and(bd.kEq(r), bd.tgtEq(r), bd.guard(r), cons)), fmt.Sprintf("record context (%d, t%d)", r, i))
			if next := bd.nextContext(r, i); next >= 0 {
				edge(s.pb, y, y, call(next), "run the next context")
			}
		}
		return
	}
	y := simple(s.pb, "")
	if ts, vs, cons := bd.endContext(K); ts != nil {
		edge(s.pb, s.entry, y, &ir.Assign{Targets: ts, Values: vs, Constrain: and(bd.kEq(K), bd.guard(K), cons)}, "end of the last round")
	} else {
		edge(s.pb, s.entry, y, assume(and(bd.kEq(K), bd.guard(K))), "end of the last round")
	}
	edge(s.pb, y, y, call(bd.yieldProc[i]), "the next thread")
}

// nextContext returns (lazy) the driver of the context after (r, i), or
// -1 after the last.
func (bd *builder) nextContext(r, i int) int {
	if i+1 < bd.n {
		return bd.threadProc[(r-1)*bd.n+i+1]
	}
	if r < bd.K {
		return bd.threadProc[r*bd.n]
	}
	return -1
}

// driver fills the code that starts thread i from location at; target is
// the lazy context's round (0 for eager).
func (bd *builder) driver(pb *ir.ProcBuilder, i, at, target int) {
	m := bd.m
	startCall := func(from int, proc, fromLoc int, args []ir.Expr) {
		c := bd.cloneOf(i, proc, fromLoc)
		e := simple(pb, "thread ended")
		id := pb.Edge(ir.Edge{From: from, To: e, Op: &ir.Call{Proc: c.index, Args: args}, Text: "start thread", Origin: syn})
		bd.seq.starts[[2]int{pb.Index(), id}] = i
		edge(pb, e, e, call(bd.endProc[i]), "the thread has ended")
	}
	stepped := func(from int) int {
		if bd.s1Off < 0 {
			return from
		}
		s1 := bd.shared(1)[bd.s1Off]
		to := simple(pb, "")
		edge(pb, from, to, &ir.Assign{Targets: []ir.VarRef{s1}, Values: []ir.Expr{or(vr(s1), bd.kEq(1))}}, "the thread may step in round 1")
		return to
	}
	if i < len(m.Static) {
		proc := m.Static[i]
		p := simple(pb, "")
		ts, vs := bd.startContext()
		targets, values := append(cloneRefs(bd.k), ts...), append(constBits(bd.kbit, 0), vs...)
		if bd.lazy {
			targets = append(cloneRefs(targets), bd.W...)
			values = append(values, vars(bd.input(1, i))...)
		}
		edge(pb, at, p, &ir.Assign{Targets: targets, Values: values}, "round 1")
		bd.switchEdges(pb, i, p)
		args := make([]ir.Expr, bd.p.Procs[proc].Params)
		for j := range args {
			args[j] = &ir.Nondet{}
		}
		startCall(stepped(p), proc, -1, args)
		return
	}
	// A thread created at run time, if it was.
	no, yes := simple(pb, "not created"), simple(pb, "created")
	edge(pb, at, no, assume(not(vr(bd.created[i]))), "not created")
	edge(pb, at, yes, assume(vr(bd.created[i])), "created")
	if bd.lazy {
		n2 := simple(pb, "")
		var ts []ir.VarRef
		var vs []ir.Expr
		in := bd.input(target, i)
		for j, v := range bd.O[target-1][i] {
			if v != in[j] {
				ts, vs = append(ts, v), append(vs, vr(in[j]))
			}
		}
		if bd.counting() {
			ts, vs = append(ts, bd.E[target-1][i]), append(vs, ir.False)
		}
		edge(pb, no, n2, assign(ts, vs, ir.True), "an empty context")
		if next := bd.nextContext(target, i); next >= 0 {
			edge(pb, n2, n2, call(next), "run the next context")
		}
	} else {
		edge(pb, no, no, call(bd.yieldProc[i]), "the next thread")
	}
	p := simple(pb, "")
	if bd.lazy {
		for r := 1; r <= target; r++ {
			ts, vs := bd.startContext()
			edge(pb, yes, p, &ir.Assign{Targets: append(append(cloneRefs(bd.k), bd.W...), ts...), Values: append(append(constBits(bd.kbit, r-1), vars(bd.input(r, i))...), vs...),
				Constrain: eqBits(bd.cround[i], r-1)}, fmt.Sprintf("created in round %d", r))
		}
	} else {
		ts, vs := bd.startContext()
		edge(pb, yes, p, &ir.Assign{Targets: append(cloneRefs(bd.k), ts...), Values: append(vars(bd.cround[i]), vs...)}, "the round of its creation")
	}
	bd.switchEdges(pb, i, p)
	for j, k := range bd.kinds {
		c := p
		if len(bd.kinds) > 1 {
			c = simple(pb, "")
			edge(pb, p, c, assume(eqBits(bd.ckind[i], j)), "how it starts")
		}
		startCall(c, k.proc, k.from, vars(bd.cargs[i][:k.nargs]))
	}
}

func cloneRefs(v []ir.VarRef) []ir.VarRef { return append([]ir.VarRef(nil), v...) }

func cloneExprs(v []ir.Expr) []ir.Expr { return append([]ir.Expr(nil), v...) }

// switchEdges adds at location l of thread i the ends of its contexts:
// to the next round, and (a call of the switch procedure) after the last.
func (bd *builder) switchEdges(pb *ir.ProcBuilder, i, l int) {
	for r := 1; r < bd.K; r++ {
		if bd.lazy {
			ts, vs := bd.startContext()
			targets := append(append(cloneRefs(bd.k), bd.W...), ts...)
			values := append(append(constBits(bd.kbit, r), vars(bd.input(r+1, i))...), vs...)
			edge(pb, l, l, &ir.Assign{Targets: targets, Values: values,
				Constrain: and(bd.kEq(r), bd.tgtAbove(r), bd.guard(r), eqVec(bd.recorded(r, i)), bd.sameEmptiness(r, i))}, fmt.Sprintf("replay: end of round %d", r))
			continue
		}
		ts, vs, cons := bd.endContext(r)
		edge(pb, l, l, &ir.Assign{Targets: append(cloneRefs(bd.k), ts...), Values: append(constBits(bd.kbit, r), vs...), Constrain: and(bd.kEq(r), bd.guard(r), cons)}, fmt.Sprintf("end of round %d", r))
	}
	edge(pb, l, l, call(bd.switchProc[i]), "end of the thread's last context")
}
