package bench

import (
	"fmt"
	"math"
	"math/rand"

	"boolprog/bdd"
)

// Sifting saved BDDs: the BDDs that the engines really produce (saved by
// bdd.Manager.Save, e.g. the summary engine's largest relation on the hard
// set, see engine/summary's TestHardFigures) are rebuilt in both packages
// under the saved order and blocks, and each package sifts them once.
// Unlike the synthetic SiftCases, these carry the engine's blocks (the
// copies of one program variable), so the comparison is of group sifting.

// LoadSaved builds the BDDs of s in e bottom-up, each node as the
// if-then-else of its variable's literal and its children (Ithvar, Ite),
// and returns the roots (owned). e must have the variables of s; when its
// order is that of s (SetOrderAndBlocks), every Ite creates exactly the
// node saved, so the diagrams are the saved ones. s comes from
// bdd.ReadSaved, which has checked it; an undefined id or variable out of
// range is still an error here rather than a panic, for a hand-built s.
func LoadSaved[N comparable](e Engine[N], s *bdd.Saved) ([]N, error) {
	built := make(map[int]N, len(s.Nodes))
	lits := make(map[int]N) // one literal per variable, released at the end
	node := func(id int) (N, bool) {
		switch id {
		case 0:
			return e.False(), true
		case 1:
			return e.True(), true
		}
		n, ok := built[id]
		return n, ok
	}
	release := func() {
		for _, n := range built {
			e.Release(n)
		}
		for _, n := range lits {
			e.Release(n)
		}
	}
	for _, sn := range s.Nodes {
		lo, ok1 := node(sn.Low)
		hi, ok2 := node(sn.High)
		_, dup := built[sn.ID]
		if !ok1 || !ok2 || dup || sn.ID < 2 || sn.Var < 0 || sn.Var >= s.Vars {
			release()
			return nil, fmt.Errorf("bench: saved node %d (variable %d, children %d, %d) is not well formed", sn.ID, sn.Var, sn.Low, sn.High)
		}
		x, ok := lits[sn.Var]
		if !ok {
			x = e.Ithvar(sn.Var)
			lits[sn.Var] = x
		}
		built[sn.ID] = e.Ite(x, hi, lo)
	}
	roots := make([]N, len(s.Roots))
	for i, r := range s.Roots {
		n, ok := node(r)
		if !ok {
			for _, x := range roots[:i] {
				e.Release(x)
			}
			release()
			return nil, fmt.Errorf("bench: saved root %d is not a node", r)
		}
		// The roots are handed out owned: one more reference each
		// (Ite of a constant condition returns its operand, owned).
		roots[i] = e.Ite(e.True(), n, n)
	}
	release()
	return roots, nil
}

// SavedEngine is what sifting saved BDDs needs of a package besides
// Engine: the initial order and blocks, one sifting with the blocks
// declared, shared node counts, and the diagram's structure (to evaluate
// the sifted BDDs).
type SavedEngine[N comparable] interface {
	Engine[N]
	// SetOrderAndBlocks sets the order (order[l] is the variable at
	// level l) and declares the blocks (variables at consecutive levels,
	// in level order), before any BDD is built.
	SetOrderAndBlocks(order []int, blocks [][]int) error
	// SiftBlocks sifts every live BDD once, moving the declared blocks as
	// units, and reports the live nodes before and after and its time.
	SiftBlocks() SiftResult
	// NodeCountAll is the number of internal nodes of fs, shared nodes
	// counted once.
	NodeCountAll(fs []N) int
	// SatCountAll is the number of satisfying assignments of f over all
	// the variables, without a set: BuDDy's variable set is a BDD, which
	// would be sifted with the BDDs measured.
	SatCountAll(f N) float64
	// Var, Low and High are the variable and the else- and then-child
	// of the root node of f (not a constant).
	Var(f N) int
	Low(f N) N
	High(f N) N
}

// SavedSift is the outcome of sifting saved BDDs once in one package.
type SavedSift struct {
	// Before and After are the internal nodes of the saved BDDs (shared
	// nodes once), so they compare across packages: BuDDy's live nodes
	// (Live) also count its 2 permanent nodes per variable.
	Before, After int
	Live          SiftResult
	// Count is the number of satisfying assignments of each root over
	// all the saved variables, after sifting (equal to the count before:
	// SiftSaved checks it).
	Count []float64
}

// SiftSaved sets e's order and blocks to those of s, builds its BDDs,
// sifts once (SiftBlocks), and checks that the BDDs still compute the
// saved functions: the satisfying-assignment counts before and after are
// equal, and on random assignments the sifted BDDs agree with the saved
// diagrams. e should be fresh, with s.Vars variables.
func SiftSaved[N comparable](e SavedEngine[N], s *bdd.Saved) (SavedSift, error) {
	var r SavedSift
	if err := e.SetOrderAndBlocks(s.Order, s.Blocks); err != nil {
		return r, err
	}
	roots, err := LoadSaved[N](e, s)
	if err != nil {
		return r, err
	}
	before := make([]float64, len(roots))
	for i, f := range roots {
		before[i] = e.SatCountAll(f)
	}
	r.Before = e.NodeCountAll(roots)
	r.Live = e.SiftBlocks()
	r.After = e.NodeCountAll(roots)
	for i, f := range roots {
		c := e.SatCountAll(f)
		if !SameCount(c, before[i]) {
			return r, fmt.Errorf("bench: %s: root %d has %g satisfying assignments after sifting, %g before", e.Name(), i, c, before[i])
		}
		r.Count = append(r.Count, c)
	}
	if err := checkEval(e, s, roots, 1000); err != nil {
		return r, err
	}
	return r, nil
}

// SameCount compares satisfying-assignment counts: both packages count in
// float64, so counts past 2^53 may differ in the last bits by the order of
// the additions.
func SameCount(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-12*math.Max(math.Abs(a), math.Abs(b))
}

// checkEval evaluates the saved diagrams and e's BDDs under k random
// assignments (the same for every root) and reports the first
// disagreement.
func checkEval[N comparable](e SavedEngine[N], s *bdd.Saved, roots []N, k int) error {
	byID := make(map[int]bdd.SavedNode, len(s.Nodes))
	for _, n := range s.Nodes {
		byID[n.ID] = n
	}
	rng := rand.New(rand.NewSource(1))
	val := make([]bool, s.Vars)
	for try := 0; try < k; try++ {
		for v := range val {
			val[v] = rng.Intn(2) == 1
		}
		for i, r := range s.Roots {
			want := r
			for want >= 2 {
				n := byID[want]
				if val[n.Var] {
					want = n.High
				} else {
					want = n.Low
				}
			}
			f := roots[i]
			for f != e.True() && f != e.False() {
				if val[e.Var(f)] {
					f = e.High(f)
				} else {
					f = e.Low(f)
				}
			}
			if got := f == e.True(); got != (want == 1) {
				return fmt.Errorf("bench: %s: root %d differs from the saved function under assignment %v", e.Name(), i, val)
			}
		}
	}
	return nil
}

// SetOrderAndBlocks implements SavedEngine: Manager.SetVarOrder, then
// Manager.AddBlock per block.
func (o *Ours) SetOrderAndBlocks(order []int, blocks [][]int) error {
	if len(order) > 0 {
		if err := o.M.SetVarOrder(order); err != nil {
			return err
		}
	}
	for _, b := range blocks {
		if err := o.M.AddBlock(b...); err != nil {
			return err
		}
	}
	return nil
}

// SiftBlocks implements SavedEngine: Sift, which moves the blocks
// declared with AddBlock as units (group sifting).
func (o *Ours) SiftBlocks() SiftResult { return o.Sift() }

// NodeCountAll implements SavedEngine.
func (o *Ours) NodeCountAll(fs []bdd.Node) int { return o.M.NodeCount(fs...) }

// SatCountAll implements SavedEngine.
func (o *Ours) SatCountAll(f bdd.Node) float64 {
	all := make([]int, o.M.VarNum())
	for i := range all {
		all[i] = i
	}
	return o.M.SatCount(f, o.M.VarSet(all...))
}

// Var implements SavedEngine.
func (o *Ours) Var(f bdd.Node) int { return o.M.Var(f) }

// Low implements SavedEngine.
func (o *Ours) Low(f bdd.Node) bdd.Node { return o.M.Low(f) }

// High implements SavedEngine.
func (o *Ours) High(f bdd.Node) bdd.Node { return o.M.High(f) }
