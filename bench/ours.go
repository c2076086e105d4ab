package bench

import "boolprog/bdd"

// Ours adapts boolprog/bdd to Engine.
type Ours struct {
	M     *bdd.Manager
	refs  map[bdd.Node]*ref
	sets  []*bdd.VarSet
	pairs []*bdd.Pairs
}

type ref struct {
	root  *bdd.Root
	count int
}

// NewOurs returns a boolprog/bdd engine sized by c.
func NewOurs(c Config) *Ours {
	m := bdd.New(bdd.Config{Vars: c.Vars, InitialNodes: c.Nodes, CacheRatio: max(1, c.Nodes/max(c.Cache, 1))})
	return &Ours{M: m, refs: map[bdd.Node]*ref{}}
}

// own turns a fresh result into an owned reference (a Root) and declares a
// Safepoint: everything the workload still holds is owned.
func (o *Ours) own(n bdd.Node) bdd.Node {
	if n == bdd.Invalid {
		panic(o.M.Err())
	}
	if n >= 2 {
		r := o.refs[n]
		if r == nil {
			r = &ref{root: o.M.Keep(n)}
			o.refs[n] = r
		}
		r.count++
	}
	o.M.Safepoint()
	return n
}

// Name implements Engine.
func (o *Ours) Name() string { return "ours" }

// True implements Engine.
func (o *Ours) True() bdd.Node { return bdd.True }

// False implements Engine.
func (o *Ours) False() bdd.Node { return bdd.False }

// Ithvar implements Engine.
func (o *Ours) Ithvar(v int) bdd.Node { return o.own(o.M.Ithvar(v)) }

// NIthvar implements Engine.
func (o *Ours) NIthvar(v int) bdd.Node { return o.own(o.M.NIthvar(v)) }

// And implements Engine.
func (o *Ours) And(a, b bdd.Node) bdd.Node { return o.own(o.M.And(a, b)) }

// Or implements Engine.
func (o *Ours) Or(a, b bdd.Node) bdd.Node { return o.own(o.M.Or(a, b)) }

// Xor implements Engine.
func (o *Ours) Xor(a, b bdd.Node) bdd.Node { return o.own(o.M.Xor(a, b)) }

// Not implements Engine.
func (o *Ours) Not(a bdd.Node) bdd.Node { return o.own(o.M.Not(a)) }

// Equiv implements Engine.
func (o *Ours) Equiv(a, b bdd.Node) bdd.Node { return o.own(o.M.Equiv(a, b)) }

// Ite implements Engine.
func (o *Ours) Ite(a, b, c bdd.Node) bdd.Node {
	return o.own(o.M.Ite(a, b, c))
}

// Exists implements Engine.
func (o *Ours) Exists(a bdd.Node, s int) bdd.Node { return o.own(o.M.Exists(a, o.sets[s])) }

// AndExists implements Engine.
func (o *Ours) AndExists(a, b bdd.Node, s int) bdd.Node {
	return o.own(o.M.AndExists(a, b, o.sets[s]))
}

// Replace implements Engine.
func (o *Ours) Replace(a bdd.Node, p int) bdd.Node { return o.own(o.M.Replace(a, o.pairs[p])) }

// MakeSet implements Engine.
func (o *Ours) MakeSet(vars []int) int {
	o.sets = append(o.sets, o.M.VarSet(vars...))
	return len(o.sets) - 1
}

// MakePairs implements Engine.
func (o *Ours) MakePairs(from, to []int) int {
	o.pairs = append(o.pairs, o.M.NewPairs(from, to))
	return len(o.pairs) - 1
}

// SatCount implements Engine.
func (o *Ours) SatCount(a bdd.Node, s int) float64 { return o.M.SatCount(a, o.sets[s]) }

// NodeCount implements Engine.
func (o *Ours) NodeCount(a bdd.Node) int { return o.M.NodeCount(a) }

// Release implements Engine.
func (o *Ours) Release(a bdd.Node) {
	if a < 2 {
		return
	}
	r := o.refs[a]
	if r == nil {
		panic("bench: release of an unowned node")
	}
	if r.count--; r.count == 0 {
		r.root.Release()
		delete(o.refs, a)
	}
}

// Close implements Engine.
func (o *Ours) Close() {}

// Equal implements Engine.
func (o *Ours) Equal(a, b bdd.Node) bool { return a == b }
