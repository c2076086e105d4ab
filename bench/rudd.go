package bench

import (
	"math"

	"github.com/dalzilio/rudd"
)

// Rudd adapts github.com/dalzilio/rudd to Engine. rudd manages memory with
// Go finalizers, so Release does nothing.
type Rudd struct {
	B     *rudd.BDD
	sets  []rudd.Node
	setN  []int
	pairs []rudd.Replacer
}

// NewRudd returns a rudd engine sized by c (rudd needs the variable count
// up front).
func NewRudd(c Config) *Rudd {
	b, err := rudd.New(c.Vars, rudd.Nodesize(c.Nodes), rudd.Cachesize(c.Cache),
		rudd.Cacheratio(100*c.Cache/max(c.Nodes, 1)), rudd.Maxnodeincrease(0))
	if err != nil {
		panic(err)
	}
	return &Rudd{B: b}
}

func (r *Rudd) chk(n rudd.Node) rudd.Node {
	if n == nil {
		panic(r.B.Error())
	}
	return n
}

// Name implements Engine.
func (r *Rudd) Name() string { return "rudd" }

// True implements Engine.
func (r *Rudd) True() rudd.Node { return r.B.True() }

// False implements Engine.
func (r *Rudd) False() rudd.Node { return r.B.False() }

// Ithvar implements Engine.
func (r *Rudd) Ithvar(v int) rudd.Node { return r.chk(r.B.Ithvar(v)) }

// NIthvar implements Engine.
func (r *Rudd) NIthvar(v int) rudd.Node { return r.chk(r.B.NIthvar(v)) }

// And implements Engine.
func (r *Rudd) And(a, b rudd.Node) rudd.Node { return r.chk(r.B.And(a, b)) }

// Or implements Engine.
func (r *Rudd) Or(a, b rudd.Node) rudd.Node { return r.chk(r.B.Or(a, b)) }

// Xor implements Engine.
func (r *Rudd) Xor(a, b rudd.Node) rudd.Node { return r.chk(r.B.Apply(a, b, rudd.OPxor)) }

// Not implements Engine.
func (r *Rudd) Not(a rudd.Node) rudd.Node { return r.chk(r.B.Not(a)) }

// Equiv implements Engine.
func (r *Rudd) Equiv(a, b rudd.Node) rudd.Node { return r.chk(r.B.Equiv(a, b)) }

// Ite implements Engine.
func (r *Rudd) Ite(a, b, c rudd.Node) rudd.Node {
	return r.chk(r.B.Ite(a, b, c))
}

// Exists implements Engine.
func (r *Rudd) Exists(a rudd.Node, s int) rudd.Node { return r.chk(r.B.Exist(a, r.sets[s])) }

// AndExists implements Engine.
func (r *Rudd) AndExists(a, b rudd.Node, s int) rudd.Node {
	return r.chk(r.B.AndExist(r.sets[s], a, b))
}

// Replace implements Engine.
func (r *Rudd) Replace(a rudd.Node, p int) rudd.Node { return r.chk(r.B.Replace(a, r.pairs[p])) }

// MakeSet implements Engine.
func (r *Rudd) MakeSet(vars []int) int {
	r.sets = append(r.sets, r.chk(r.B.Makeset(vars)))
	r.setN = append(r.setN, len(vars))
	return len(r.sets) - 1
}

// MakePairs implements Engine.
func (r *Rudd) MakePairs(from, to []int) int {
	p, err := r.B.NewReplacer(from, to)
	if err != nil {
		panic(err)
	}
	r.pairs = append(r.pairs, p)
	return len(r.pairs) - 1
}

// SatCount: rudd counts over all variables; scale to the set (the
// workloads only count functions whose support is inside the set).
func (r *Rudd) SatCount(a rudd.Node, s int) float64 {
	c, _ := r.B.Satcount(a).Float64()
	return c / math.Exp2(float64(r.B.Varnum()-r.setN[s]))
}

// NodeCount implements Engine.
func (r *Rudd) NodeCount(a rudd.Node) int {
	n := 0
	r.B.Allnodes(func(id, level, low, high int) error {
		if id > 1 {
			n++
		}
		return nil
	}, a)
	return n
}

// Release implements Engine.
func (r *Rudd) Release(rudd.Node) {}

// Close implements Engine.
func (r *Rudd) Close() {}

// Equal implements Engine.
func (r *Rudd) Equal(a, b rudd.Node) bool { return r.B.Equal(a, b) }
