package explicitval

import (
	"context"
	"fmt"

	"boolprog/cpa"
	"boolprog/ir"
	"boolprog/result"
)

// MaxPathStates bounds the explicit states Concretize keeps after one edge
// of a path.
const MaxPathStates = 1 << 14

// Infeasible is returned by Concretize for a path that no execution
// follows: the first Fail edges can be taken, edge Fail cannot.
type Infeasible struct {
	Fail int
}

// Error says where the path fails (edges numbered from 0).
func (e *Infeasible) Error() string { return fmt.Sprintf("the path is infeasible at edge %d", e.Fail) }

// pnode is an explicit state reached along a path prefix.
type pnode struct {
	s      *State
	pre    *State // the split state of the parent the edge started from
	parent *pnode
	stack  *pframe
}

// pframe is a pending call of a path state.
type pframe struct {
	piece *State // the caller's state at the call (split)
	up    *pframe
}

// Concretize replays path (from the entry of main; Return edges matching
// the Call edges before them; see cpa.Path) with every variable tracked.
// If some execution follows it to the error location at its end, it
// returns that execution as a trace with every value stated, which
// interp.Replay accepts. If none does, the error is an *Infeasible naming
// the first edge no execution can take. Other errors are limits (too many
// states) or ctx's end.
//
// The search is depth-first over the explicit states along the path (a
// state splits where an edge reads an unknown value), remembering the
// states from which the rest of the path failed, so that a feasible path
// costs time linear in its length in the common case, and an infeasible
// one at most the states a breadth-first replay would keep.
func Concretize(ctx context.Context, cfa *cpa.CFA, path []*cpa.Edge) (*result.Trace, error) {
	p := cfa.Prog
	a := &Analysis{P: p}
	frames := make(map[string]*pframe)
	intern := func(piece *State, up *pframe) *pframe {
		k := fmt.Sprintf("%p/%s", up, a.Key(piece))
		if f, ok := frames[k]; ok {
			return f
		}
		f := &pframe{piece: piece, up: up}
		frames[k] = f
		return f
	}
	// succ returns the states after edge i from z.
	succ := func(i int, z *pnode) ([]*pnode, error) {
		e := path[i]
		var out []*pnode
		switch e.Kind {
		case cpa.Intra:
			st, err := a.post(z.s, e, nil)
			if err != nil {
				return nil, err
			}
			for _, x := range st {
				out = append(out, &pnode{s: x.post, pre: x.pre, parent: z, stack: z.stack})
			}
		case cpa.Call:
			for _, q := range a.Split(z.s, e, nil) {
				q := q.(*State)
				out = append(out, &pnode{s: a.enter(q, e, nil), pre: q, parent: z, stack: intern(q, z.stack)})
			}
		case cpa.Return:
			if z.stack == nil {
				return nil, fmt.Errorf("explicitval: a return without a call at edge %d", i)
			}
			st, err := a.combine(z.stack.piece, z.s, e, nil)
			if err != nil {
				return nil, err
			}
			for _, x := range st {
				out = append(out, &pnode{s: x.post, pre: x.pre, parent: z, stack: z.stack.up})
			}
		default:
			return nil, fmt.Errorf("explicitval: a %s edge in a path", e.Kind)
		}
		return out, nil
	}
	key := func(n *pnode) string { return fmt.Sprintf("%p/%s", n.stack, a.Key(n.s)) }
	failed := make([]map[string]bool, len(path)+1) // states from which the rest fails
	type frame struct {
		n     *pnode
		level int
		next  []*pnode
	}
	stack := []frame{{n: &pnode{s: a.top(p.Main)}, level: 0}}
	deepest, kept := 0, 0
	for len(stack) > 0 {
		if kept++; kept&255 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		f := &stack[len(stack)-1]
		if f.level == len(path) {
			return a.trace(cfa, path, f.n)
		}
		if f.next == nil {
			next, err := succ(f.level, f.n)
			if err != nil {
				return nil, err
			}
			if next == nil {
				next = []*pnode{}
			}
			f.next = next
		}
		if len(f.next) == 0 {
			if failed[f.level] == nil {
				failed[f.level] = make(map[string]bool)
			}
			failed[f.level][key(f.n)] = true
			if len(failed[f.level]) > MaxPathStates {
				return nil, fmt.Errorf("explicitval: more than %d explicit states along the path", MaxPathStates)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		n := f.next[0]
		f.next = f.next[1:]
		lv := f.level + 1
		if failed[lv][key(n)] {
			continue
		}
		deepest = max(deepest, lv)
		stack = append(stack, frame{n: n, level: lv})
	}
	return nil, &Infeasible{Fail: deepest}
}

// concrete returns the values of s with ⊤ read as false.
func concrete(s *State) []bool {
	c := make([]bool, len(s.V))
	for i, v := range s.V {
		c[i] = v == T
	}
	return c
}

// trace picks concrete values backwards from the final state z, so that
// each step leads to the next (see the package doc), and builds the
// trace.
func (a *Analysis) trace(cfa *cpa.CFA, path []*cpa.Edge, z *pnode) (*result.Trace, error) {
	p := a.P
	ng := len(p.Globals)
	n := len(path)
	vals := make([][]bool, n+1)
	nodes := make([]*pnode, n+1)
	for i, x := n, z; i >= 0; i-- {
		nodes[i] = x
		x = x.parent
	}
	c := concrete(nodes[n].s)
	vals[n] = c
	var pending [][]bool // caller values to restore at the matching Call, innermost last
	for i := n - 1; i >= 0; i-- {
		e := path[i]
		after := nodes[i+1]
		zi := nodes[i].s
		switch e.Kind {
		case cpa.Intra:
			pre := concrete(after.pre)
			ci := append([]bool(nil), c...)
			var slots []int
			switch op := e.IR.Op.(type) {
			case *ir.Assign:
				for _, t := range op.Targets {
					slots = append(slots, a.slot(zi.Proc, t))
				}
			case *ir.Return:
				for j := range p.Procs[zi.Proc].Returns {
					slots = append(slots, a.retSlot(zi.Proc, j))
				}
			}
			for _, k := range slots {
				ci[k] = pre[k]
			}
			c = ci
		case cpa.Call:
			ci := concrete(after.pre)
			copy(ci, c[:ng])
			if len(pending) > 0 {
				top := pending[len(pending)-1]
				pending = pending[:len(pending)-1]
				copy(ci[ng:], top[ng:])
			}
			c = ci
		case cpa.Return:
			op := e.CallOp()
			piece := concrete(nodes[i].stack.piece)
			// The caller's values at the call: its locals as after the
			// return, except targets, whose old values are the piece's.
			callerVals := append([]bool(nil), c...)
			ci := concrete(zi)
			copy(ci, c[:ng])
			for j, t := range op.Targets {
				if t.Discard {
					continue
				}
				k := a.slot(after.s.Proc, t.Var)
				ci[a.retSlot(zi.Proc, j)] = c[k]
				if t.Var.Global {
					ci[k] = zi.V[k] == T
				} else {
					callerVals[k] = piece[k]
				}
			}
			pending = append(pending, callerVals)
			c = ci
		}
		vals[i] = c
	}
	// Forward: the steps.
	tr := &result.Trace{}
	depth := 0
	for i, e := range path {
		switch e.Kind {
		case cpa.Intra, cpa.Call:
			proc := p.Procs[e.From.Proc]
			tr.Steps = append(tr.Steps, result.NewStep(p, proc, e.From.Loc, e.IR.ID, a.values(proc, vals[i]), depth, 0))
			if e.Kind == cpa.Call {
				depth++
			}
		case cpa.Return:
			depth--
		}
	}
	last := cpa.Node{Proc: p.Main, Loc: p.Procs[p.Main].Entry}
	if n > 0 {
		last = path[n-1].To
	}
	if l := cfa.Location(last); l.Error && l.Kind != ir.FailLoc {
		proc := p.Procs[last.Proc]
		tr.Steps = append(tr.Steps, result.NewStep(p, proc, last.Loc, result.NoEdge, a.values(proc, vals[n]), depth, 0))
	}
	return tr, nil
}

// values lists the globals and locals of proc in c.
func (a *Analysis) values(proc *ir.Proc, c []bool) []result.Value {
	return result.ValuesOf(a.P, proc, func(v ir.VarRef) bool { return c[a.slot(proc.Index, v)] })
}
