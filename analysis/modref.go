package analysis

import "boolprog/ir"

// ModRefSets is the result of the MOD/REF analysis: for every procedure
// (by index), the global slots it may modify and may read, itself or
// through the procedures it calls or starts, transitively.
type ModRefSets struct {
	Mod []Set
	Ref []Set
}

// ModRef computes ModRefSets (Bebop paper §3.3): a global is modified by a
// procedure if some assignment or call result of the procedure targets it,
// or a callee modifies it; referenced if some expression of the procedure
// reads it (ir.Reads: conditions, values, constrains, arguments,
// post-conditions, returned values), or a callee references it.
var ModRef = &Analysis[*ModRefSets]{
	Title:    "modref",
	Doc:      "the globals each procedure may modify and read, transitively",
	Requires: []Key{CallGraph, SCC},
	Run: func(p *Pass) *ModRefSets {
		calls, comps := Result(p, CallGraph), Result(p, SCC)
		n, sl := len(p.Prog.Procs), p.Slots
		mr := &ModRefSets{Mod: make([]Set, n), Ref: make([]Set, n)}
		for i, pr := range p.Prog.Procs {
			mod, ref := NewSet(sl.N()), NewSet(sl.N())
			for _, e := range pr.Edges {
				for _, v := range ir.Writes(e.Op) {
					if v.Global {
						mod.Add(v.Index)
					}
				}
				for _, v := range ir.Reads(e.Op) {
					if v.Global {
						ref.Add(v.Index)
					}
				}
			}
			mr.Mod[i], mr.Ref[i] = mod, ref
		}
		// Components callees first: a component's callees outside it are
		// final when it is reached, and inside it a fixed point is
		// iterated. Started threads are not in the components' order, so
		// the whole is repeated until nothing changes (once more, without
		// threads).
		union := func(i int) bool {
			changed := false
			for _, succ := range [][]int{calls.Callees[i], calls.Starts[i]} {
				for _, c := range succ {
					m := mr.Mod[i].UnionWith(mr.Mod[c])
					r := mr.Ref[i].UnionWith(mr.Ref[c])
					changed = changed || m || r
				}
			}
			return changed
		}
		for again := true; again; {
			again = false
			for _, comp := range comps.Comps {
				for changed := true; changed; {
					changed = false
					for _, i := range comp {
						if union(i) {
							changed, again = true, true
						}
					}
				}
			}
		}
		return mr
	},
}
