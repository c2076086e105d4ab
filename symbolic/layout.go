package symbolic

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"boolprog/bdd"
	"boolprog/ir"
)

// Copy selects one of the BDD variables of a slot: every slot has at least
// the copies Entry, Cur and Next, and a layout may give the slots (or only
// the globals) more (see LayoutOptions).
type Copy int

// The copies of a slot, adjacent in the BDD order in this order.
const (
	Entry Copy = iota // value at the entry of the executing procedure
	Cur               // value now
	Next              // value after a transition
	// Mid is the first copy after Next: the intermediate state when two
	// relations are composed (Layout.Compose), in a layout with at least
	// four copies.
	Mid

	minCopies = 3
)

// String returns "entry", "cur", "next", "mid" or "copyK".
func (c Copy) String() string {
	switch c {
	case Entry:
		return "entry"
	case Cur:
		return "cur"
	case Next:
		return "next"
	case Mid:
		return "mid"
	}
	return "copy" + strconv.Itoa(int(c))
}

// Order selects the initial order of the slots.
type Order int

const (
	// OrderAffinity places slots that are assigned together, read by the
	// same statement or bound by a call next to each other (greedy linear
	// arrangement of the affinity graph). It is the default.
	OrderAffinity Order = iota
	// OrderDeclaration keeps the slot numbering: globals in declaration
	// order, then locals, then returned values.
	OrderDeclaration
	// OrderForce starts from OrderAffinity's arrangement and refines it
	// by FORCE placement (Aloul, Markov and Sakallah): every statement
	// pulls the slots it mentions towards their centre of gravity, and
	// the arrangement with the least total span of the statements is
	// kept.
	OrderForce
)

var orderNames = [...]string{OrderAffinity: "affinity", OrderDeclaration: "declaration", OrderForce: "force"}

// String returns "affinity", "declaration" or "force".
func (o Order) String() string {
	if o >= 0 && int(o) < len(orderNames) {
		return orderNames[o]
	}
	return "Order(" + strconv.Itoa(int(o)) + ")"
}

// Set parses "affinity", "declaration" (or "decl") or "force": Order is
// a flag.Value.
func (o *Order) Set(s string) error {
	for k, name := range orderNames {
		if s == name {
			*o = Order(k)
			return nil
		}
	}
	if s == "decl" {
		*o = OrderDeclaration
		return nil
	}
	return fmt.Errorf("want affinity, force or declaration, not %q", s)
}

// Layout maps the slots of a program to BDD variables of one manager and
// caches the variable sets and renamings the engines use over and over.
// A Layout is not safe for concurrent use (neither is its manager).
type Layout struct {
	Slots
	Prog *ir.Program
	M    *bdd.Manager

	pos    []int // slot -> position in the order
	atPos  []int // position -> slot
	base   int   // the first BDD variable of the layout
	first  []int // position -> the slot's first variable (its Entry copy)
	ncopy  []int // slot -> its number of copies
	pcBits int
	pcCopy int // copies of each pc bit
	nvars  int // variables created
	sets   map[string]*bdd.VarSet
	pairs  map[string]*bdd.Pairs
	scopes []Set // per procedure

}

// LayoutOptions configure a layout (NewLayoutWith).
type LayoutOptions struct {
	// Order is the initial order of the slots.
	Order Order
	// Copies is the number of copies of every slot: Entry, Cur, Next and
	// Copies-3 more (Mid first). Less than 3 means 3.
	Copies int
	// GlobalCopies, if more than Copies, is the number of copies of the
	// global slots: room, for instance, for the k+1 valuations of the
	// globals at the context switches of a context-bounded analysis.
	GlobalCopies int
	// PCBits is the number of program-counter bits (see PCBitsFor), with
	// Copies copies each; 0 for none.
	PCBits int
}

// NewLayout creates the BDD variables of p's slots in m, three per slot
// (Entry, Cur, Next) in the order chosen by order, and returns the layout.
func NewLayout(m *bdd.Manager, p *ir.Program, order Order) *Layout {
	return NewLayoutWith(m, p, LayoutOptions{Order: order})
}

// NewLayoutWith creates the BDD variables of a layout of p's slots in m as
// opts says and returns it. The variables are new ones, after those m
// already has (several layouts, or other variables, can share a manager),
// created at the bottom of the order: the pc bits first (on top), each
// with its copies adjacent, then the slots in the chosen order, each with
// its copies adjacent. Each pc bit and each slot is a block for dynamic
// reordering (bdd.Manager.AddBlock): reordering moves a slot's copies
// together and keeps them interleaved.
func NewLayoutWith(m *bdd.Manager, p *ir.Program, opts LayoutOptions) *Layout {
	l := &Layout{
		Slots: SlotsOf(p),
		Prog:  p,
		M:     m,
		sets:  make(map[string]*bdd.VarSet),
		pairs: make(map[string]*bdd.Pairs),
	}
	n := l.N()
	switch opts.Order {
	case OrderDeclaration:
		l.atPos = make([]int, n)
		for i := range l.atPos {
			l.atPos[i] = i
		}
	case OrderForce:
		edges := statementSlots(p, l.Slots)
		l.atPos = force(n, edges, arrange(affinityGraph(n, affinityWeights(edges))))
	default:
		l.atPos = affinityOrder(p, l.Slots)
	}
	l.pos = make([]int, n)
	for i, s := range l.atPos {
		l.pos[s] = i
	}
	copies := max(opts.Copies, minCopies)
	l.ncopy = make([]int, n)
	for s := range l.ncopy {
		l.ncopy[s] = copies
		if l.IsGlobal(s) {
			l.ncopy[s] = max(copies, opts.GlobalCopies)
		}
	}
	l.base = m.VarNum()
	l.pcBits, l.pcCopy = max(opts.PCBits, 0), copies
	next := l.base + l.pcBits*l.pcCopy
	l.first = make([]int, n)
	for i, s := range l.atPos {
		l.first[i] = next
		next += l.ncopy[s]
	}
	l.nvars = next - l.base
	m.ExtVarNum(l.nvars)
	block := func(first, k int) {
		vars := make([]int, k)
		for i := range vars {
			vars[i] = first + i
		}
		if err := m.AddBlock(vars...); err != nil {
			panic("symbolic: " + err.Error()) // new variables: cannot happen
		}
	}
	for b := 0; b < l.pcBits; b++ {
		block(l.base+b*l.pcCopy, l.pcCopy)
	}
	for i, s := range l.atPos {
		block(l.first[i], l.ncopy[s])
	}
	l.scopes = make([]Set, len(p.Procs))
	for i, pr := range p.Procs {
		l.scopes[i] = l.Slots.Scope(pr)
	}
	return l
}

// NumVars returns the number of BDD variables the layout created.
func (l *Layout) NumVars() int { return l.nvars }

// Copies returns the number of copies of slot.
func (l *Layout) Copies(slot int) int { return l.ncopy[slot] }

// PCBitsFor returns the number of bits that encode every location of every
// procedure of p (at least 1).
func PCBitsFor(p *ir.Program) int {
	most := 1
	for _, pr := range p.Procs {
		most = max(most, len(pr.Locations))
	}
	return max(bits.Len(uint(most-1)), 1)
}

// PCBits returns the number of pc bits.
func (l *Layout) PCBits() int { return l.pcBits }

// PCVar returns the BDD variable of copy c of pc bit b (bit 0 is the least
// significant).
func (l *Layout) PCVar(b int, c Copy) int {
	if b < 0 || b >= l.pcBits || c < 0 || int(c) >= l.pcCopy {
		panic(fmt.Sprintf("symbolic: no copy %v of pc bit %d", c, b))
	}
	return l.base + b*l.pcCopy + int(c)
}

// PC returns the cube that says copy c of the pc holds location loc (in
// binary, bit b being loc's bit b).
func (l *Layout) PC(c Copy, loc int) bdd.Node {
	if loc < 0 || loc>>l.pcBits != 0 {
		panic(fmt.Sprintf("symbolic: location %d does not fit in %d pc bits", loc, l.pcBits))
	}
	vars := make([]int, l.pcBits)
	vals := make([]bool, l.pcBits)
	for b := range vars {
		vars[b] = l.PCVar(b, c)
		vals[b] = loc>>b&1 != 0
	}
	return l.M.Assignment(vars, vals)
}

// PCVars returns the BDD variables of copy c of the pc bits, bit 0 first.
func (l *Layout) PCVars(c Copy) []int {
	out := make([]int, l.pcBits)
	for b := range out {
		out[b] = l.PCVar(b, c)
	}
	return out
}

// Order returns the slots in the layout's initial BDD order (top first);
// dynamic reordering may move them since (bdd.Manager.Level tells where a
// variable is now).
func (l *Layout) Order() []int { return slices.Clone(l.atPos) }

// Var returns the BDD variable of a copy of a slot.
func (l *Layout) Var(slot int, c Copy) int {
	if c < 0 || int(c) >= l.ncopy[slot] {
		panic(fmt.Sprintf("symbolic: slot %d has no copy %v (it has %d)", slot, c, l.ncopy[slot]))
	}
	return l.first[l.pos[slot]] + int(c)
}

// Lit returns the positive literal of a copy of a slot.
func (l *Layout) Lit(slot int, c Copy) bdd.Node { return l.M.Ithvar(l.Var(slot, c)) }

// ScopeOf returns the slots in scope in procedure proc (globals, its locals,
// its returned values). The set must not be modified.
func (l *Layout) ScopeOf(proc *ir.Proc) Set { return l.scopes[proc.Index] }

// Vars returns the BDD variables of copy c of the slots in set, in slot order.
func (l *Layout) Vars(c Copy, set Set) []int {
	el := set.Elems()
	out := make([]int, len(el))
	for i, s := range el {
		out[i] = l.Var(s, c)
	}
	return out
}

// VarSet returns the (cached) set of the BDD variables of the given copies
// of the slots: copies[k] applies to sets[k].
func (l *Layout) VarSet(parts ...CopySet) *bdd.VarSet {
	var vars []int
	for _, p := range parts {
		vars = append(vars, l.Vars(p.Copy, p.Set)...)
	}
	slices.Sort(vars)
	vars = slices.Compact(vars)
	key := intsKey(vars)
	if vs, ok := l.sets[key]; ok {
		return vs
	}
	vs := l.M.VarSet(vars...)
	l.sets[key] = vs
	return vs
}

// CopySet is a copy of a set of slots, an argument of VarSet.
type CopySet struct {
	Copy Copy
	Set  Set
}

// Rename returns the (cached) renaming of copy from to copy to of the
// slots in set.
func (l *Layout) Rename(from, to Copy, set Set) *bdd.Pairs {
	return l.RenameSlots(from, to, set.Elems(), set.Elems())
}

// RenameSlots returns the (cached) renaming of copy from of slots src[i]
// to copy to of slots dst[i].
func (l *Layout) RenameSlots(from, to Copy, src, dst []int) *bdd.Pairs {
	f := make([]int, len(src))
	t := make([]int, len(src))
	for i := range src {
		f[i] = l.Var(src[i], from)
		t[i] = l.Var(dst[i], to)
	}
	return l.pairsOf(f, t)
}

// pairsOf returns the (cached) renaming of variables f[i] to t[i].
func (l *Layout) pairsOf(f, t []int) *bdd.Pairs {
	key := intsKey(f) + "|" + intsKey(t)
	if p, ok := l.pairs[key]; ok {
		return p
	}
	p := l.M.NewPairs(f, t)
	l.pairs[key] = p
	return p
}

// RenameState returns the (cached) renaming of copy from to copy to of the
// slots in set and of the pc bits: the whole state, when the layout has a
// pc.
func (l *Layout) RenameState(from, to Copy, set Set) *bdd.Pairs {
	f, t := l.Vars(from, set), l.Vars(to, set)
	if l.pcBits > 0 {
		f, t = append(f, l.PCVars(from)...), append(t, l.PCVars(to)...)
	}
	return l.pairsOf(f, t)
}

// StateVarSet returns the (cached) set of copy c of the slots in set and of
// the pc bits.
func (l *Layout) StateVarSet(c Copy, set Set) *bdd.VarSet {
	vars := l.Vars(c, set)
	if l.pcBits > 0 {
		vars = append(vars, l.PCVars(c)...)
	}
	slices.Sort(vars)
	key := intsKey(vars)
	if vs, ok := l.sets[key]; ok {
		return vs
	}
	vs := l.M.VarSet(vars...)
	l.sets[key] = vs
	return vs
}

func intsKey(xs []int) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString(strconv.Itoa(x))
		b.WriteByte(',')
	}
	return b.String()
}

// Equal returns ∧_{s ∈ set} (a_s ↔ b_s): copies a and b agree on set.
func (l *Layout) Equal(a, b Copy, set Set) bdd.Node {
	m := l.M
	r := bdd.True
	el := set.Elems()
	// Build bottom-up in the order so that each conjunction is cheap: the
	// manager's current order, which dynamic reordering may have changed.
	slices.SortFunc(el, func(x, y int) int { return m.Level(l.Var(y, a)) - m.Level(l.Var(x, a)) })
	for _, s := range el {
		r = m.And(r, m.Equiv(l.Lit(s, a), l.Lit(s, b)))
	}
	return r
}

// Cube returns the conjunction fixing copy c of slots[i] to vals[i].
func (l *Layout) Cube(c Copy, slots []int, vals []bool) bdd.Node {
	vars := make([]int, len(slots))
	for i, s := range slots {
		vars[i] = l.Var(s, c)
	}
	return l.M.Assignment(vars, vals)
}

// Values returns one assignment to copy c of slots under which f holds (for
// some values of the other variables), preferring false; nil if f is False.
func (l *Layout) Values(f bdd.Node, c Copy, slots []int) []bool {
	vars := make([]int, len(slots))
	for i, s := range slots {
		vars[i] = l.Var(s, c)
	}
	vs := l.M.VarSet(vars...)
	one := l.M.SatOne(f, vs)
	if one == nil {
		return nil
	}
	// SatOne reports values in variable order; map back to slots.
	sorted := vs.Vars()
	out := make([]bool, len(slots))
	for i, v := range vars {
		k, _ := slices.BinarySearch(sorted, v)
		out[i] = one[k]
	}
	return out
}

// affinityOrder is OrderAffinity's arrangement of p's slots: the greedy
// arrangement of the affinity graph (see affinityWeights).
func affinityOrder(p *ir.Program, sl Slots) []int {
	return arrange(affinityGraph(sl.N(), affinityWeights(statementSlots(p, sl))))
}

// statementSlots returns, for every statement of p, the slots it relates
// (the hyperedges of the affinity graph): an assignment's targets and read
// variables (and its constraint's, for up to 8 targets); a condition's
// variables; for a call, each argument's variables with the parameter's
// slot, and each target with its returned value's slot; for a return, the
// values' variables with the returned value's slot. Each set is sorted,
// without duplicates, and has at least two slots.
func statementSlots(p *ir.Program, sl Slots) [][]int {
	var out [][]int
	add := func(s []int) {
		s = slices.Compact(sortedCopy(s))
		if len(s) >= 2 {
			out = append(out, s)
		}
	}
	varsOf := func(e ir.Expr) []int {
		var out []int
		ir.Vars(e, func(v *ir.Var) { out = append(out, sl.Slot(v.VarRef)) })
		return out
	}
	for _, pr := range p.Procs {
		for _, e := range pr.Edges {
			switch op := e.Op.(type) {
			case *ir.Assume:
				add(varsOf(op.Cond))
			case *ir.Assign:
				var s []int
				for _, t := range op.Targets {
					s = append(s, sl.Slot(t))
				}
				for _, v := range op.Values {
					s = append(s, varsOf(v)...)
				}
				if op.Constrain != nil && len(op.Targets) <= 8 {
					s = append(s, varsOf(op.Constrain)...)
				}
				add(s)
			case *ir.Call:
				for j, a := range op.Args {
					add(append(varsOf(a), sl.Local(j)))
				}
				for i, t := range op.Targets {
					if !t.Discard {
						add([]int{sl.Slot(t.Var), sl.Ret(i)})
					}
				}
			case *ir.Return:
				for i, v := range op.Values {
					add(append(varsOf(v), sl.Ret(i)))
				}
			}
		}
	}
	return out
}

// affinityWeights counts, for every pair of slots, the statements that
// relate both (see statementSlots): the affinity graph that OrderAffinity
// arranges greedily, starting from the heaviest slot and repeatedly
// appending the slot most attracted by the recently placed ones (ties keep
// declaration order). A statement of more than 64 slots says little about
// the order and only links consecutive slots, to stay linear.
func affinityWeights(edges [][]int) map[[2]int]int {
	w := make(map[[2]int]int)
	link := func(a, b int) { w[[2]int{a, b}]++ } // a < b: the sets are sorted
	for _, s := range edges {
		if len(s) > 64 {
			for i := 1; i < len(s); i++ {
				link(s[i-1], s[i])
			}
			continue
		}
		for i := range s {
			for j := i + 1; j < len(s); j++ {
				link(s[i], s[j])
			}
		}
	}
	return w
}

// force refines the arrangement start of n slots by FORCE placement: each
// round computes every statement's centre of gravity (the mean position of
// its slots), moves every slot to the mean of the centres of its
// statements (a slot in none keeps its position) and sorts the slots by
// these positions (ties: previous position). The arrangement with the
// least total span (the sum over statements of the distance between their
// first and last slot) over the rounds is returned; the rounds stop after
// 8 without improvement or 200 in all. Linear in the statements' sizes per
// round.
func force(n int, edges [][]int, start []int) []int {
	order := slices.Clone(start)
	pos := make([]int, n)
	span := func() int {
		for i, s := range order {
			pos[s] = i
		}
		total := 0
		for _, e := range edges {
			lo, hi := n, -1
			for _, s := range e {
				lo, hi = min(lo, pos[s]), max(hi, pos[s])
			}
			total += hi - lo
		}
		return total
	}
	best, bestSpan := slices.Clone(order), span()
	sum := make([]float64, n)
	cnt := make([]int, n)
	key := make([]float64, n)
	for round, stale := 0, 0; round < 200 && stale < 8; round++ {
		clear(sum)
		clear(cnt)
		for _, e := range edges {
			c := 0.0
			for _, s := range e {
				c += float64(pos[s])
			}
			c /= float64(len(e))
			for _, s := range e {
				sum[s] += c
				cnt[s]++
			}
		}
		for s := 0; s < n; s++ {
			key[s] = float64(pos[s])
			if cnt[s] > 0 {
				key[s] = sum[s] / float64(cnt[s])
			}
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch {
			case key[a] < key[b]:
				return -1
			case key[a] > key[b]:
				return 1
			}
			return pos[a] - pos[b]
		})
		if sp := span(); sp < bestSpan {
			best, bestSpan, stale = slices.Clone(order), sp, 0
		} else {
			stale++
		}
	}
	return best
}

// affinityGraph turns the pair weights w of n slots into adjacency lists
// and each slot's total weight, the input of arrange.
func affinityGraph(n int, w map[[2]int]int) ([][]affinity, []int) {
	adj := make([][]affinity, n)
	total := make([]int, n)
	for k, x := range w {
		adj[k[0]] = append(adj[k[0]], affinity{k[1], x})
		adj[k[1]] = append(adj[k[1]], affinity{k[0], x})
		total[k[0]] += x
		total[k[1]] += x
	}
	// Map iteration order is random: sort each adjacency list so that the
	// scores are summed in the same order every time.
	for _, a := range adj {
		slices.SortFunc(a, func(x, y affinity) int { return x.to - y.to })
	}
	return adj, total
}

// affinity is an edge of the affinity graph: the slot it leads to and its
// weight.
type affinity struct{ to, w int }

// arrange is the greedy linear arrangement of the affinity graph adj with
// total weights total: see affinityOrder.
func arrange(adj [][]affinity, total []int) []int {
	n := len(adj)
	// The slot with the best score from the last `window` placed slots
	// (nearer ones weigh more) comes next; only their neighbours have a
	// score, so each step looks at those, and without any the first
	// unplaced slot in declaration order follows (the heaviest one to
	// start with). Linear in the number of slots plus window × the edges.
	placed := make([]bool, n)
	score := make([]float64, n)
	order := make([]int, 0, n)
	const window = 8
	var touched []int
	nextFree := 0
	for len(order) < n {
		for _, s := range touched {
			score[s] = 0
		}
		touched = touched[:0]
		for d := 0; d < window && d < len(order); d++ {
			s := order[len(order)-1-d]
			for _, e := range adj[s] {
				if placed[e.to] {
					continue
				}
				if score[e.to] == 0 {
					touched = append(touched, e.to)
				}
				score[e.to] += float64(e.w) / float64(d+1)
			}
		}
		best := -1
		for _, s := range touched {
			if best < 0 || score[s] > score[best] || score[s] == score[best] && s < best {
				best = s
			}
		}
		if best < 0 {
			for placed[nextFree] {
				nextFree++
			}
			best = nextFree
			if len(order) == 0 {
				for s := 1; s < n; s++ {
					if total[s] > total[best] {
						best = s
					}
				}
			}
		}
		placed[best] = true
		order = append(order, best)
	}
	return order
}

func sortedCopy(s []int) []int {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
