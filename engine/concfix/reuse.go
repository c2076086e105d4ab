package concfix

import (
	"fmt"
	"slices"

	"boolprog/bdd"
	"boolprog/fix"
	"boolprog/ir"
)

// Reusing the solved levels when the thread count grows.
//
// A solve with M thread slots that finds no error but a run that creates
// more (an overflow location reached) is followed by a solve with M+1
// (see Check). Its product relations P<l>_<i>, i <= M, start from those
// the solve with M found (fix.Solver.StartLayers): their tuples without a
// live thread at an overflow location, with slot M+1 unborn (its created
// flag 0 in its own state and in the running thread's globals; its pc,
// locals and the other ghosts of slot M+1 free). Those are runs of the
// M+1 model: the two programs differ only at a creation that finds every
// slot taken (the M model's goes to its overflow location, where the
// thread stays; the M+1 model's takes slot M+1), and with slot M+1 never
// created, its ghosts keep whatever value the run started with. So they
// lie below each relation's least fixed point, which is what the start
// value of a mu relation must promise.
//
// The values move between the solves' managers by bdd.Transfer, over a
// map from each bit of the old relation's parameters to the bit of the
// same field (by the global's name: slot M+1's ghosts come before the
// ghost atomic, so the field numbers of the globals after them shift) of
// the same parameter of the new one. The old solve's layers move one by
// one, so that the trace's walk back (runProduct) still finds, for a tuple
// of a carried layer, a step from an earlier layer or the context before
// it; the new solve's own rounds may then add tuples that follow from a
// switch, which the walk also looks for beyond the first layer.
//
// The strata of §5.1 (Options.Summaries, or a thread that calls a
// procedure) start from false: their schedules' Tid and CS enums change
// width with the thread count (and the CS bound with it for rounds), and
// slot M+1's ghosts must be equal across u, v and every copy of the
// globals of a tuple rather than free, a map this code does not build.

// carried is what a solve with fewer threads leaves to the next one: its
// solver (released once the next solve has taken the values) and model.
type carried struct {
	sv *fix.Solver
	m  *model
}

// release frees the solver carried.
func (c *carried) release() {
	if c != nil && c.sv != nil {
		c.sv.Release()
		c.sv = nil
	}
}

// reusable says the relations of old's solve can start those of m's:
// both product encodings of the same program, m with one more slot, the
// same program counters and locals.
func reusable(old, m *model) bool {
	if !old.product || !m.product || old.dyn == nil || m.dyn == nil || m.n != old.n+1 || old.rounds != m.rounds || old.k > m.k {
		return false
	}
	oe, ne := old.enc, m.enc
	if oe.NPC != ne.NPC || oe.PCBits != ne.PCBits || oe.Slots.L != ne.Slots.L || oe.Slots.R != ne.Slots.R || len(old.p.Procs) != len(m.p.Procs) {
		return false
	}
	for i := range old.p.Procs {
		if oe.PCBase(i) != ne.PCBase(i) {
			return false
		}
	}
	return slices.Equal(old.dyn.kinds, m.dyn.kinds)
}

// fieldMap maps the State fields of old's encoding to those of m's: pc,
// the globals by name, the locals and returned values by number.
func fieldMap(old, m *model) (map[string]string, error) {
	out := map[string]string{"pc": "pc"}
	index := map[string]int{}
	for i, g := range m.p.Globals {
		index[g] = i
	}
	oe, ne := old.enc, m.enc
	for s := 0; s < oe.Slots.N(); s++ {
		if !oe.Slots.IsGlobal(s) {
			out[oe.FieldName(s)] = oe.FieldName(s) // l<j>, r<j>: the same in both
			continue
		}
		name := old.p.Globals[s]
		i, ok := index[name]
		if !ok {
			return nil, fmt.Errorf("conc-fix: internal error: global %s is not in the model with more threads", name)
		}
		out[oe.FieldName(s)] = ne.FieldName(ne.Slots.Slot(ir.VarRef{Global: true, Index: i}))
	}
	return out, nil
}

// reuse starts each product relation of st's solve that prev's solve has
// from prev's value (see above) and returns how many it started. prev's
// solver must be alive; the caller releases it after.
func (st *strata) reuse(prev *carried) (int, error) {
	old, m := prev.m, st.m
	if !reusable(old, m) {
		return 0, nil
	}
	fields, err := fieldMap(old, m)
	if err != nil {
		return 0, err
	}
	osv, sv := prev.sv, st.sv
	om, nm := osv.Manager(), sv.Manager()
	fresh := m.n - 1 // the new slot
	started := 0
	for l := 0; l < old.levels(); l++ {
		for i := 0; i < old.n; i++ {
			name := prodName(l, i)
			vars := make([]int, om.VarNum())
			for v := range vars {
				vars[v] = -1
			}
			keep := bdd.True // the old tuples carried: no live thread at an overflow location
			for j := 0; j < old.n; j++ {
				ov, err := stateVars(osv, old.enc, name, prodArg(j))
				if err != nil {
					return started, err
				}
				at := (&strata{sv: osv, m: old}).atOverflow(ov)
				if j > 0 {
					born := ov.Slots[old.enc.Slots.Slot(ir.VarRef{Global: true, Index: old.dyn.created[j-1]})]
					at = om.And(at, om.Ithvar(born))
				}
				keep = om.And(keep, om.Not(at))
				for f, nf := range fields {
					ob, err := osv.Bits(name, prodArg(j), f)
					if err != nil {
						return started, err
					}
					nb, err := sv.Bits(name, prodArg(j), nf)
					if err != nil {
						return started, err
					}
					if len(ob) != len(nb) {
						return started, fmt.Errorf("conc-fix: internal error: field %s of %s has %d bits, %d with more threads", f, name, len(ob), len(nb))
					}
					for b := range ob {
						vars[ob[b]] = nb[b]
					}
				}
			}
			var layers []bdd.Node
			for _, ly := range osv.Layers(name) {
				if ly = om.And(ly, keep); ly != bdd.False {
					layers = append(layers, ly)
				}
			}
			if err := om.Err(); err != nil {
				return started, err
			}
			if len(layers) == 0 {
				continue
			}
			moved, err := nm.Transfer(om, layers, vars)
			if err != nil {
				return started, err
			}
			// Slot M+1 unborn: its created flag 0 in its own state and in
			// the running thread's globals.
			unborn := bdd.True
			for _, j := range []int{i, fresh} {
				b, err := sv.Bits(name, prodArg(j), m.bornField(fresh))
				if err != nil {
					return started, err
				}
				unborn = nm.And(unborn, nm.NIthvar(b[0]))
			}
			for k := range moved {
				moved[k] = nm.And(moved[k], unborn)
			}
			if err := nm.Err(); err != nil {
				return started, err
			}
			if err := sv.StartLayers(name, moved); err != nil {
				return started, err
			}
			started++
			om.Safepoint()
			nm.Safepoint()
		}
	}
	return started, nil
}
