package conc

import (
	"fmt"
	"sort"

	"boolprog/ir"
	"boolprog/result"
)

// Trace maps a trace of the sequential program (to its error label) back
// to a trace of the concurrent program that interp.Replay accepts: the
// steps of the program's own edges, each with its thread and the values of
// its round's copy of the globals, in the order of the round-robin
// schedule (round by round, the threads in order), up to the error; a step
// by another thread than the one before is marked as a context switch.
// Lazy programs run a thread's first contexts again for every later
// context: the last run of each thread is the one that counts.
func (s *Seq) Trace(tr *result.Trace) (*result.Trace, error) {
	if tr == nil || len(tr.Steps) == 0 {
		return nil, fmt.Errorf("conc: empty sequential trace")
	}
	p, sp := s.Model.Prog, s.Prog
	type mapped struct {
		step  result.Step
		round int
		seq   int
		run   int
		slot  int // a thread creation: the created thread's slot (-1: none); else -2
	}
	var out []mapped
	base := make(map[int]int) // thread → depth of its first frame in the sequential trace
	run := make(map[int]int)  // thread → the number of its current run
	lastRound := make(map[int]int)
	nameIdx := newScope(sp)
	for k := range tr.Steps {
		st := &tr.Steps[k]
		proc := sp.Proc(st.Proc)
		if proc == nil || st.Loc < 0 || st.Loc >= len(proc.Locations) {
			return nil, fmt.Errorf("conc: step %d: no location %d in %s", k+1, st.Loc, st.Proc)
		}
		var o ir.Origin
		noEdge := false
		slot := -2
		if st.Edge == result.NoEdge {
			o = proc.Locations[st.Loc].Origin
			if o.Proc < 0 {
				continue // the sequentialisation's own error label
			}
			noEdge = true
		} else {
			if st.Edge < 0 || st.Edge >= len(proc.Edges) {
				return nil, fmt.Errorf("conc: step %d: no edge %d in %s", k+1, st.Edge, st.Proc)
			}
			key := [2]int{proc.Index, st.Edge}
			if t, ok := s.starts[key]; ok {
				if t == initThread {
					base[0] = st.Depth + 1
				} else {
					base[t] = st.Depth + 1
					run[t]++
				}
				continue
			}
			o = proc.Edges[st.Edge].Origin
			if sl, ok := s.creations[key]; ok {
				slot = sl
			}
			if s.errRecords[key] {
				noEdge = true
			} else if o.Edge < 0 || o.Proc < 0 {
				continue
			}
		}
		op := p.Procs[o.Proc]
		loc, edge := o.Loc, o.Edge
		if noEdge {
			loc, edge = o.Loc, result.NoEdge
		} else {
			loc = op.Edges[edge].From
		}
		round := o.Round
		if round < 0 {
			// The arrival at a target label (lazy, init): in the
			// context of the thread's step before.
			round = max(lastRound[o.Thread], 1)
			if o.Thread == 0 && base[0] > 0 && run[0] == 0 {
				round = 0 // in init
			}
		}
		lastRound[o.Thread] = round
		vals, err := s.values(nameIdx, proc, st, op, max(round, 1))
		if err != nil {
			return nil, fmt.Errorf("conc: step %d: %v", k+1, err)
		}
		b, ok := base[o.Thread]
		if !ok {
			return nil, fmt.Errorf("conc: step %d: thread %d steps before it starts", k+1, o.Thread)
		}
		step := result.NewStep(p, op, loc, edge, vals, st.Depth-b, o.Thread)
		out = append(out, mapped{step: step, round: round, seq: k, run: run[o.Thread], slot: slot})
	}
	// Keep each thread's last run (lazy), then order by the schedule.
	last := make(map[int]int)
	for _, m := range out {
		last[m.step.Thread] = max(last[m.step.Thread], m.run)
	}
	kept := out[:0]
	for _, m := range out {
		if m.round == 0 || m.run == last[m.step.Thread] {
			kept = append(kept, m)
		}
	}
	sort.SliceStable(kept, func(a, b int) bool {
		x, y := kept[a], kept[b]
		if x.round != y.round {
			return x.round < y.round
		}
		if x.round == 0 {
			return false
		}
		return x.step.Thread < y.step.Thread
	})
	// Threads are numbered by creation, the slots of the threads
	// created at run time by creation among those that have one (a
	// thread that never steps has none): number them as the run
	// creates them.
	static := len(s.Model.Static)
	id := make(map[int]int) // slot → thread
	created := static
	var steps []result.Step
	for i, m := range kept {
		st := m.step
		if st.Thread >= static {
			t, ok := id[st.Thread]
			if !ok {
				return nil, fmt.Errorf("conc: thread slot %d steps before its creation", st.Thread)
			}
			st.Thread = t
		}
		if m.slot >= -1 {
			if m.slot >= 0 {
				id[m.slot] = created
			}
			created++
		}
		if i > 0 {
			prev := kept[i-1]
			st.Switch = m.step.Thread != prev.step.Thread && prev.round != 0
		}
		steps = append(steps, st)
		if isError(p, &st) {
			return &result.Trace{Steps: steps}, nil
		}
	}
	return nil, fmt.Errorf("conc: the sequential trace reaches no error of the program")
}

// isError reports whether a step of the concurrent program is its error:
// the arrival at an error location, or an edge into one.
func isError(p *ir.Program, st *result.Step) bool {
	proc := p.Proc(st.Proc)
	if st.Edge == result.NoEdge {
		return proc.Locations[st.Loc].Error
	}
	return proc.Locations[proc.Edges[st.Edge].To].Kind == ir.FailLoc
}

// scope resolves the names of a step's values in the sequential program.
type scope struct {
	globals map[string]int
}

func newScope(p *ir.Program) *scope {
	s := &scope{globals: make(map[string]int)}
	for i, g := range p.Globals {
		s.globals[g] = i
	}
	return s
}

// values returns the values of the original step: the globals of the
// round's copy (or the working copy), then the locals of the original
// procedure, as far as the sequential step lists them.
func (s *Seq) values(sc *scope, proc *ir.Proc, st *result.Step, orig *ir.Proc, round int) ([]result.Value, error) {
	p := s.Model.Prog
	gv := make([]int, len(p.Globals)) // 0 unknown, 1 false, 2 true
	lv := make([]int, len(orig.Locals))
	locals := make(map[string][]int)
	for j, n := range proc.Locals {
		locals[n] = append(locals[n], j)
	}
	next := 0 // values are a subsequence of globals, then locals
	ng := len(s.Prog.Globals)
	for _, v := range st.Values {
		val := 1
		if v.Value {
			val = 2
		}
		if g, ok := sc.globals[v.Name]; ok && g >= next {
			next = g + 1
			c := s.copyOf[g]
			want := round
			if s.Lazy {
				want = workCopy
			}
			if c.round == want || c.round == anyRound {
				gv[c.global] = val
			}
			continue
		}
		found := false
		for _, j := range locals[v.Name] {
			if ng+j >= next {
				next = ng + j + 1
				if j < len(lv) {
					lv[j] = val
				}
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("variable %s is not in scope in %s", v.Name, proc.Name)
		}
	}
	vals := []result.Value{} // never nil: the JSON report lists values as an array
	for i, g := range p.Globals {
		if gv[i] != 0 {
			vals = append(vals, result.Value{Name: g, Value: gv[i] == 2})
		}
	}
	for j, l := range orig.Locals {
		if lv[j] != 0 {
			vals = append(vals, result.Value{Name: l, Value: lv[j] == 2})
		}
	}
	return vals, nil
}
