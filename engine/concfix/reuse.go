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
// procedure) are carried the same way, stratum by stratum
// (Reach<c>(u, v, ecs, g1..gc, t0..tc), c up to the old bound): tuples
// whose v is at an overflow location are dropped (a thread stuck there
// could as well have been switched out just before its creation, with
// the same globals: the tuples that followed from it stay), and slot
// M+1's created flag is 0 in u, v and every copy of the globals. Its
// other ghosts (kind and arguments) are not free there: the run never
// assigns them, so they are equal in u, v and every copy. The Tid enum
// of t0..tc widens with the thread count (and the CS enum of ecs with
// the bound, for rounds): a value keeps its low bits, the new high bits
// are 0. The copies of the globals are States when the program has more
// than 10 globals (see stateCopies), and the ghosts of slot M+1 may cross
// that line: the fields of a copy other than the globals are free but for
// their type's range, so they are quantified away and, in the new copy,
// left to the solver's range. A stratum whose value reads a bit the map
// lacks (none is known) starts from false.

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
// the same encoding (the product, or the strata) of the same program, m
// with one more slot, the same program counters and locals.
func reusable(old, m *model) bool {
	if old.product != m.product || old.dyn == nil || m.dyn == nil || m.n != old.n+1 || old.rounds != m.rounds || old.k > m.k {
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

// reuse starts each relation of st's solve that prev's solve has from
// prev's value (see above) and returns how many it started, and how many
// it could not carry over (a bit the map lacks). prev's solver must be
// alive; the caller releases it after.
func (st *strata) reuse(prev *carried) (started, unmapped int, err error) {
	old, m := prev.m, st.m
	if !reusable(old, m) {
		return 0, 0, nil
	}
	fields, err := fieldMap(old, m)
	if err != nil {
		return 0, 0, err
	}
	c := &carry{old: old, m: m, osv: prev.sv, sv: st.sv, fields: fields}
	defer func() { unmapped = c.unmapped }()
	c.om, c.nm = c.osv.Manager(), c.sv.Manager()
	if m.product {
		for l := 0; l < old.levels(); l++ {
			for i := 0; i < old.n; i++ {
				ok, err := c.product(l, i)
				if err != nil {
					return started, 0, err
				}
				if ok {
					started++
				}
			}
		}
		return started, 0, nil
	}
	for k := 0; k <= old.k; k++ {
		ok, err := c.stratum(k)
		if err != nil {
			return started, 0, err
		}
		if ok {
			started++
		}
	}
	return started, 0, nil
}

// carry moves the relations of the solve of old (osv) into that of m
// (sv).
type carry struct {
	old, m  *model
	osv, sv *fix.Solver
	om, nm  *bdd.Manager
	fields  map[string]string // old State field -> new
	vars    []int             // old BDD variable -> new (-1: none)
	// unmapped counts the relations that start from false because their
	// value reads a bit the map lacks.
	unmapped int
}

// reset clears the variable map.
func (c *carry) reset() {
	c.vars = make([]int, c.om.VarNum())
	for v := range c.vars {
		c.vars[v] = -1
	}
}

// mapFields maps fields (old name -> new name) of variable name of
// relation rel, old to new.
func (c *carry) mapFields(rel, name string, fields map[string]string) error {
	for f, nf := range fields {
		ob, err := c.osv.Bits(rel, name, f)
		if err != nil {
			return err
		}
		nb, err := c.sv.Bits(rel, name, nf)
		if err != nil {
			return err
		}
		if len(ob) != len(nb) {
			return fmt.Errorf("conc-fix: internal error: field %s of %s.%s has %d bits, %d with more threads", f, rel, name, len(ob), len(nb))
		}
		for b := range ob {
			c.vars[ob[b]] = nb[b]
		}
	}
	return nil
}

// mapEnum maps enum variable name of rel, whose new type may be wider:
// a value keeps its low bits; the new high bits are 0, which it returns.
func (c *carry) mapEnum(rel, name string) (bdd.Node, bool, error) {
	ob, err := c.osv.Bits(rel, name)
	if err != nil {
		return bdd.False, false, err
	}
	nb, err := c.sv.Bits(rel, name)
	if err != nil {
		return bdd.False, false, err
	}
	d := len(nb) - len(ob)
	if d < 0 {
		return bdd.False, false, nil
	}
	for b := range ob {
		c.vars[ob[b]] = nb[d+b]
	}
	return c.nm.Assignment(nb[:d], make([]bool, d)), true, nil
}

// unbornIn is "slot M+1's created flag is 0" in the new State (or Glob)
// variable name of rel.
func (c *carry) unbornIn(rel, name string) (bdd.Node, error) {
	b, err := c.sv.Bits(rel, name, c.m.bornField(c.m.n-1))
	if err != nil {
		return bdd.False, err
	}
	return c.nm.NIthvar(b[0]), nil
}

// start moves the layers of rel, restricted to keep with the variables
// drop quantified away (old side), into the new manager, conjoins them
// with also (new side) and starts rel from them. It says whether anything
// was started.
func (c *carry) start(rel string, keep bdd.Node, drop []int, also bdd.Node) (bool, error) {
	var layers []bdd.Node
	set := c.om.VarSet(drop...)
	for _, ly := range c.osv.Layers(rel) {
		if len(drop) > 0 {
			ly = c.om.AndExists(ly, keep, set)
		} else {
			ly = c.om.And(ly, keep)
		}
		if ly != bdd.False {
			layers = append(layers, ly)
		}
	}
	if err := c.om.Err(); err != nil {
		return false, err
	}
	if len(layers) == 0 {
		return false, nil
	}
	moved, err := c.nm.Transfer(c.om, layers, c.vars)
	if err != nil {
		if c.nm.Err() != nil {
			return false, err
		}
		// A bit the map lacks (see above): this relation starts from
		// false, which the stats show.
		c.unmapped++
		return false, nil
	}
	for k := range moved {
		moved[k] = c.nm.And(moved[k], also)
	}
	if err := c.nm.Err(); err != nil {
		return false, err
	}
	if err := c.sv.StartLayers(rel, moved); err != nil {
		return false, err
	}
	c.om.Safepoint()
	c.nm.Safepoint()
	return true, nil
}

// product starts relation P<l>_<i>.
func (c *carry) product(l, i int) (bool, error) {
	old, m, om := c.old, c.m, c.om
	name := prodName(l, i)
	c.reset()
	keep := bdd.True // no live thread at an overflow location
	for j := 0; j < old.n; j++ {
		ov, err := stateVars(c.osv, old.enc, name, prodArg(j))
		if err != nil {
			return false, err
		}
		at := (&strata{sv: c.osv, m: old}).atOverflow(ov)
		if j > 0 {
			born := ov.Slots[old.enc.Slots.Slot(ir.VarRef{Global: true, Index: old.dyn.created[j-1]})]
			at = om.And(at, om.Ithvar(born))
		}
		keep = om.And(keep, om.Not(at))
		if err := c.mapFields(name, prodArg(j), c.fields); err != nil {
			return false, err
		}
	}
	// Slot M+1 unborn: its created flag 0 in its own state and in the
	// running thread's globals.
	also := bdd.True
	for _, j := range []int{i, m.n - 1} {
		u, err := c.unbornIn(name, prodArg(j))
		if err != nil {
			return false, err
		}
		also = c.nm.And(also, u)
	}
	return c.start(name, keep, nil, also)
}

// stratum starts relation Reach<k>.
func (c *carry) stratum(k int) (bool, error) {
	old, m, nm := c.old, c.m, c.nm
	name := reachName(k)
	c.reset()
	v, err := stateVars(c.osv, old.enc, name, "v")
	if err != nil {
		return false, err
	}
	keep := c.om.Not((&strata{sv: c.osv, m: old}).atOverflow(v))
	also := bdd.True
	// The states and the copies of the globals (their global fields;
	// a copy that is a State keeps its other fields unmapped).
	globals := map[string]string{}
	for _, f := range old.globals() {
		globals[f] = c.fields[f]
	}
	holders := []string{"u", "v"}
	for _, g := range names("g", 1, k) {
		holders = append(holders, g)
	}
	var drop []int // the fields of the old copies that are not globals
	if old.stateCopies() {
		for _, g := range names("g", 1, k) {
			for _, f := range old.nonGlobals() {
				b, err := c.osv.Bits(name, g, f)
				if err != nil {
					return false, err
				}
				drop = append(drop, b...)
			}
		}
	}
	for _, h := range holders {
		fs := globals
		if h == "u" || h == "v" {
			fs = c.fields
		}
		if err := c.mapFields(name, h, fs); err != nil {
			return false, err
		}
		u, err := c.unbornIn(name, h)
		if err != nil {
			return false, err
		}
		also = nm.And(also, u)
	}
	// Slot M+1's kind and arguments: equal in every holder.
	fresh := m.n - 1
	for _, g := range append(slices.Clone(m.dyn.site[fresh-1]), m.dyn.args[fresh-1]...) {
		f := m.enc.FieldName(m.enc.Slots.Slot(ir.VarRef{Global: true, Index: g}))
		first, err := c.sv.Bits(name, "u", f)
		if err != nil {
			return false, err
		}
		for _, h := range holders[1:] {
			b, err := c.sv.Bits(name, h, f)
			if err != nil {
				return false, err
			}
			also = nm.And(also, nm.Equiv(nm.Ithvar(first[0]), nm.Ithvar(b[0])))
		}
	}
	enums := []string{"ecs"}
	for _, t := range names("t", 0, k) {
		enums = append(enums, t)
	}
	for _, e := range enums {
		zero, ok, err := c.mapEnum(name, e)
		if err != nil || !ok {
			return false, err
		}
		also = nm.And(also, zero)
	}
	return c.start(name, keep, drop, also)
}
