package analysis

import "boolprog/ir"

// Live is the result of the live-variable analysis: Live[proc][loc] is the
// set of slots whose values at location loc of procedure proc may still
// matter, i.e. may be read (directly, or by a callee, or after the
// procedure returns) before being overwritten.
type Live struct {
	Live [][]Set
}

// Liveness computes Live with the exit of each procedure reading its
// returned values and its MOD set (what its callers may see change): see
// ComputeLiveness.
var Liveness = &Analysis[*Live]{
	Title:    "liveness",
	Doc:      "the slots live at each location, a procedure's exit reading its MOD set and returned values",
	Requires: []Key{CallGraph, ModRef},
	Run: func(p *Pass) *Live {
		mr := Result(p, ModRef)
		return ComputeLiveness(p.Prog, Result(p, CallGraph), func(pr *ir.Proc) Set {
			s := mr.Mod[pr.Index].Clone()
			for i := 0; i < pr.Returns; i++ {
				s.Add(p.Slots.Ret(i))
			}
			return s
		})
	},
}

// ComputeLiveness runs the interprocedural live-variable analysis (Bebop
// paper §3.3). exitLive(proc) is the set of slots that matter at the exit
// of proc: its returned values and the globals its callers may read after
// the return (all globals, or the procedure's MOD set when the caller frames
// the others; Liveness uses the latter). A call reads its arguments and the globals live at the
// callee's entry, overwrites its targets, and lets the caller's other
// variables pass (globals, since the callee need not overwrite them).
// A start_thread reads its arguments; the started thread's own reads are
// not followed (the analysis is sequential: callers that use it for a
// concurrent program rely on a frame's locals being its thread's own).
// Error locations have no live slots: executions stop there. Returned-value
// slots are live only at the exit (no statement reads them).
func ComputeLiveness(p *ir.Program, calls *Calls, exitLive func(proc *ir.Proc) Set) *Live {
	sl := SlotsOf(p)
	n := len(p.Procs)
	lv := &Live{Live: make([][]Set, n)}
	entryG := make([]Set, n) // globals live at each procedure's entry
	callers := calls.Callers
	for i, pr := range p.Procs {
		entryG[i] = NewSet(sl.N())
		lv.Live[i] = make([]Set, len(pr.Locations))
	}
	globals := sl.Globals()
	rets := NewSet(sl.N())
	for i := 0; i < sl.R; i++ {
		rets.Add(sl.Ret(i))
	}
	// Worklist over procedures: re-analyse the callers of a procedure whose
	// live-at-entry globals grew.
	inWork := make([]bool, n)
	var work []int
	// Procedures are popped last first: callees usually follow their
	// callers in the source, so most are analysed before their callers.
	for i := 0; i < n; i++ {
		work = append(work, i)
		inWork[i] = true
	}
	for len(work) > 0 {
		i := work[len(work)-1]
		work = work[:len(work)-1]
		inWork[i] = false
		pr := p.Procs[i]
		liveProc(p, sl, pr, exitLive(pr), entryG, rets, lv.Live[i])
		if g := lv.Live[i][pr.Entry].Inter(globals); !g.Equal(entryG[i]) {
			entryG[i] = g
			for _, c := range callers[i] {
				if !inWork[c] {
					inWork[c] = true
					work = append(work, c)
				}
			}
		}
	}
	return lv
}

// liveProc computes the live slots of every location of pr by a backward
// worklist, given the live-at-entry globals of every procedure. Each edge
// is summarised once as live_in = (live_out \ kill) ∪ gen (∪ the callee's
// live-at-entry globals for a call), where kill always contains the
// returned-value slots: no statement reads them, and every edge into an
// exit other than a return leaves them nondeterministic.
func liveProc(p *ir.Program, sl Slots, pr *ir.Proc, exit Set, entryG []Set, rets Set, live []Set) {
	for i := range live {
		live[i] = NewSet(sl.N())
	}
	live[pr.Exit] = exit.Clone()
	type genKill struct {
		gen, kill Set
		callee    int // -1 if not a call
	}
	gk := make([]genKill, len(pr.Edges))
	for i, e := range pr.Edges {
		g, k := NewSet(sl.N()), rets.Clone()
		uses := func(x ir.Expr) { ir.Vars(x, func(v *ir.Var) { g.Add(sl.Slot(v.VarRef)) }) }
		callee := -1
		switch op := e.Op.(type) {
		case *ir.Assume:
			uses(op.Cond)
		case *ir.Assign:
			for _, t := range op.Targets {
				k.Add(sl.Slot(t))
			}
			for _, v := range op.Values {
				uses(v)
			}
			if op.Constrain != nil {
				ir.Vars(op.Constrain, func(v *ir.Var) {
					if s := sl.Slot(v.VarRef); !v.Primed || !k.Has(s) {
						g.Add(s)
					}
				})
			}
		case *ir.Call:
			// The post-condition reads the state after the return, in
			// which the targets are new: its reads of targets are not
			// uses before the call.
			if op.Post != nil {
				uses(op.Post)
			}
			for _, t := range op.Targets {
				if !t.Discard {
					s := sl.Slot(t.Var)
					k.Add(s)
					g.Remove(s)
				}
			}
			for _, a := range op.Args {
				uses(a)
			}
			callee = op.Proc
		case *ir.Return:
			for _, v := range op.Values {
				uses(v)
			}
		case *ir.StartThread:
			// The arguments are read here, in the starting frame (the
			// explicit search once took a local read only by them as
			// dead and started the thread with one value of it).
			for _, a := range op.Args {
				uses(a)
			}
		default: // Skip and the other thread operations: nothing read
		}
		gk[i] = genKill{g, k, callee}
	}
	scratch := NewSet(sl.N())
	inWork := make([]bool, len(pr.Locations))
	var work []int
	for _, l := range pr.Locations {
		work = append(work, l.ID)
		inWork[l.ID] = true
	}
	for len(work) > 0 {
		id := work[len(work)-1]
		work = work[:len(work)-1]
		inWork[id] = false
		loc := pr.Locations[id]
		if loc.Error || id == pr.Exit {
			continue
		}
		clear(scratch)
		for _, eid := range loc.Out {
			x := &gk[eid]
			out := live[pr.Edges[eid].To]
			for w := range scratch {
				v := out[w]&^x.kill[w] | x.gen[w]
				if x.callee >= 0 {
					v |= entryG[x.callee][w]
				}
				scratch[w] |= v
			}
		}
		if !scratch.Equal(live[id]) {
			copy(live[id], scratch)
			for _, eid := range loc.In {
				if from := pr.Edges[eid].From; !inWork[from] {
					inWork[from] = true
					work = append(work, from)
				}
			}
		}
	}
}

// ThreadLive is the liveness that the concurrent engines use to forget
// values that cannot matter: ComputeLiveness with every procedure's exit
// reading the globals (the other threads go on) and its returned values.
// A frame's locals are its thread's own, so their liveness is exact,
// unless a `start_thread goto` copies a frame into a new thread
// (CopiesFrames): then the new thread may read a local the old frame no
// longer does.
type ThreadLive struct {
	*Live
	CopiesFrames bool
}

// ThreadLiveness computes ThreadLive, once per cache for all the engines
// of a portfolio.
var ThreadLiveness = &Analysis[*ThreadLive]{
	Title:    "thread liveness",
	Doc:      "the slots live at each location, a procedure's exit reading every global and its returned values; whether a start_thread goto copies frames",
	Requires: []Key{CallGraph},
	Run: func(p *Pass) *ThreadLive {
		exit := p.Slots.Globals()
		for i := 0; i < p.Slots.R; i++ {
			exit.Add(p.Slots.Ret(i))
		}
		tl := &ThreadLive{Live: ComputeLiveness(p.Prog, Result(p, CallGraph), func(*ir.Proc) Set { return exit })}
		for _, proc := range p.Prog.Procs {
			for _, e := range proc.Edges {
				if st, ok := e.Op.(*ir.StartThread); ok && st.Goto >= 0 {
					tl.CopiesFrames = true
				}
			}
		}
		return tl
	},
}
