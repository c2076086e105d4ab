package fix

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"boolprog/bdd"
)

// Options tune Solve.
type Options struct {
	// MaxNodes bounds the BDD node table (0: the bdd package's default).
	// Reaching it makes Solve fail with an error wrapping bdd.ErrNodeLimit.
	MaxNodes int
	// NoSizes leaves Answer.Sizes empty: the #size directives are checked
	// but their counts, which cost a pass over each relation named, are
	// not computed (for a caller that does not print them).
	NoSizes bool
}

// Answer is the outcome of Solve.
type Answer struct {
	// HasQuery says whether the file ends with an unnamed formula; Value
	// is that formula's truth value.
	HasQuery bool
	Value    bool
	// Relations has one entry per relation, in evaluation order.
	Relations []RelStats
	// Sizes answers the #size directives, in source order.
	Sizes []Size
	// Vars is the number of BDD variables allocated.
	Vars int
	// PeakNodes is the largest node count of the BDD table.
	PeakNodes int
	// Time is the time spent in Solve.
	Time time.Duration
}

// WriteStats writes the #size answers and a table of the relations'
// statistics (kind, iterations, nodes, time), for a --stats option.
func (a *Answer) WriteStats(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', tabwriter.AlignRight)
	for _, z := range a.Sizes {
		fmt.Fprintf(tw, "#size %s:\t%d nodes\t%.0f tuples\t\n", z.Name, z.Nodes, z.Tuples)
	}
	fmt.Fprintf(tw, "relation\tkind\titerations\tnodes\ttime\t\n")
	for _, r := range a.Relations {
		fmt.Fprintf(tw, "%s\t%v\t%d\t%d\t%v\t\n", r.Name, r.Kind, r.Iterations, r.Nodes, r.Time.Round(time.Microsecond))
	}
	fmt.Fprintf(tw, "total\t\t\t%d peak\t%v\t\n", a.PeakNodes, a.Time.Round(time.Microsecond))
	return tw.Flush()
}

// RelStats describes the evaluation of one relation.
type RelStats struct {
	Name string
	Kind RelKind
	// Iterations is the number of times the body was evaluated: 1 for a
	// non-recursive relation; for a fixed point, one more than the rounds
	// that changed it (the last one confirms), and in a nested evaluation
	// the evaluations of every inner run.
	Iterations int
	Nodes      int // nodes of the final value
	Time       time.Duration
}

// Size is the answer to #size R: the nodes of R's BDD and the number of
// tuples in R (over the encodings of its parameters' types).
type Size struct {
	Name   string
	Nodes  int
	Tuples float64
}

// Solve evaluates every relation of a checked (or checkable) file in
// dependency order and then the query. Non-recursive relations are
// computed once; each strongly connected group of mu (nu) relations is
// iterated from false (from the full domain) until no member changes, the
// relations it uses being final already, so an inner fixed point that
// depends on an outer one is recomputed in each outer round. Parts of a
// body that do not depend on the relations being iterated are computed
// once and reused. Cancelling ctx or reaching Options.MaxNodes stops the
// evaluation with an error (wrapping ctx.Err() or bdd.ErrNodeLimit), as
// does a non-monotone recursion that cycles (ErrNoFixedPoint): callers
// report it as an unknown verdict. With such an error the Answer is
// returned too, with the statistics of the relations finished so far; a
// file that does not check gives a nil Answer and the ErrorList.
func Solve(ctx context.Context, f *File, opts Options) (*Answer, error) {
	sv, err := NewSolver(f, opts)
	if err != nil {
		return nil, err
	}
	defer sv.Release()
	return sv.Solve(ctx)
}

type solver struct {
	ctx   context.Context
	file  string
	in    *info
	m     *bdd.Manager
	nvars int
	bits  map[*variable][]int // BDD variable of each logical bit
	val   map[*definition]*bdd.Root
	cache map[Expr]*bdd.Root // values of parts that no longer change
	volat map[Expr]bool      // depends on the component being iterated
	free  map[Expr]map[*variable]bool
	plans map[*Apply]*applyPlan
	// Applications that move the same relation onto the same bits share
	// one plan (bySig), and the value of a plan on a final value of its
	// relation is computed once (moved): Getafix's models apply the same
	// relations with the same arguments at every call site.
	bySig map[string]*applyPlan
	moved map[movedKey]*bdd.Root
	// movedBack: closedApply's renamings of a formula's rest back onto
	// the parameters of the application.
	movedBack map[movedKey]*bdd.Root
	noSizes   bool                   // Options.NoSizes
	domains   map[*variable]bdd.Node // rooted in roots
	roots     []*bdd.Root
	scc       int
	monotone  bool  // the component uses itself only positively
	ops       int   // evaluation steps, to pace context checks
	stop      error // the context's error once seen

	outside map[*definition]bool // read by the query, another component, #size or Track
	// The frontier evaluation's current variant: the application that
	// reads the tuples the last round added (delta), and the parts of
	// the body on the way to it.
	chosen  *Apply
	onPath  map[Expr]bool
	delta   map[*definition]bdd.Node
	memo    map[*definition]*memoEntry
	closure map[*definition]map[*definition]bool

	provided map[*definition]*bdd.Root   // values given by Solver.Provide
	tracked  map[*definition]bool        // Solver.Track
	started  map[*definition][]*bdd.Root // Solver.StartLayers
	// starts holds, while a component with start values is evaluated,
	// each started member's start value: its iteration is inflationary.
	starts map[*definition]*bdd.Root
	layers map[*definition][]*bdd.Root  // the tuples each round added
	done   map[*definition]func() error // Solver.OnDone

	// The relations and the parts of split relations (see split), what
	// each reads, and its component.
	defs   []*definition
	deps   map[*definition]map[*definition]bool
	comp   map[*definition]int
	target map[*Apply]*definition // applications that read a part
}

// layout allocates the BDD variables: definition after definition, the
// parameters in the order their constraints give; each quantified
// variable interleaved with the parameter of its type whose name ends
// most like its own (t_pc1 with s_pc1), so that renaming one into the
// other keeps the order, or if no parameter has its type, with the first
// quantified variable of its type.
func (s *solver) layout() {
	defs := append([]*definition(nil), s.in.defs...)
	if s.in.query != nil {
		defs = append(defs, s.in.query)
	}
	ranks := map[*definition][]int{}
	for _, d := range defs {
		var items []orderItem
		var names []string
		offset := make([]int, len(d.vars))
		total := 0
		for i, v := range d.vars {
			offset[i] = total
			ph := v.typ.physical()
			b := make([]int, len(ph))
			for j, x := range ph {
				b[j] = total + x
			}
			items = append(items, orderItem{bits: b})
			names = append(names, v.name)
			total += v.typ.width()
		}
		var cs []orderCons
		if d.rel != nil {
			cs = consByName(names[:len(d.params)], d.rel.Order)
		}
		votes := s.partnerVotes(d, ranks)
		for i, v := range d.vars[len(d.params):] {
			if p := nearest(v, d.params); p != nil {
				cs = append(cs, orderCons{a: p.index, b: len(d.params) + i, interleave: true, bFirst: votes[[2]*variable{v, p}].before > 0})
				continue
			}
			// No parameter of its type (a query's variables): with the
			// first earlier quantified variable of its type that an
			// application relates to it interleaved (R(u, v) with R's
			// u ~+ v), so that the renaming keeps the order; none: in
			// declaration order (Thread(t_pc1, t_CL1, t_pc2, ...) with
			// t_pc1 < t_CL1 < t_pc2 keeps them apart).
			for _, u := range d.vars[len(d.params) : len(d.params)+i] {
				if w := votes[[2]*variable{v, u}]; u.typ == v.typ && w.together > 0 {
					cs = append(cs, orderCons{a: u.index, b: len(d.params) + i, interleave: true, bFirst: w.before > 0})
					break
				}
			}
			// And before the parameters and such variables that the
			// applications taking both put after it (Getafix's
			// GlobalInit(Global CG) applies Init_Reach(s_pc, s_CL, CG)
			// with s_pc < s_CL < CG).
			for _, u := range d.vars {
				if w := votes[[2]*variable{v, u}]; w.before > 0 && w.together <= 0 && (u.index < len(d.params) || nearest(u, d.params) == nil) {
					cs = append(cs, orderCons{a: len(d.params) + i, b: u.index})
				}
			}
		}
		order := arrange(items, cs)
		global := make([]int, total)
		for _, lb := range order {
			global[lb] = s.nvars
			s.nvars++
		}
		for i, v := range d.vars {
			s.bits[v] = global[offset[i] : offset[i]+v.typ.width()]
		}
	}
	s.m.ExtVarNum(s.nvars)
}

// partnerVotes says, for pairs (q, p) of a definition's variables, which
// should come first and whether they should be interleaved: the
// applications in its body that take both whole, q as argument i and p
// as argument j, vote +1 for q first if the applied relation puts its
// parameter i before its parameter j, -1 otherwise, and +1 for
// interleaving them if it interleaves i and j, -1 otherwise. Getafix's
// formulas apply a transition relation R(cp, dp) with cp ~+ dp to
// (t_pc, s_pc), the quantified variable first: with t_pc after s_pc, that
// renaming would reverse the order of every pair of bits (Replace's slow
// path); with t_pc first it keeps it.
func (s *solver) partnerVotes(d *definition, ranks map[*definition][]int) map[[2]*variable]vote {
	votes := map[[2]*variable]vote{}
	if d.body == nil {
		return votes
	}
	applications(d.body, func(e *Apply) {
		callee := s.in.applies[e]
		if callee == nil {
			return
		}
		rank := paramRank(callee, ranks)
		at := map[*variable]int{}
		for i, x := range e.Args {
			if r := s.in.paths[asPath(x)]; r != nil && r.v != nil && r.offset == 0 && r.typ == r.v.typ && i < len(rank) {
				at[r.v] = i
			}
		}
		for q, i := range at {
			for p, j := range at {
				if q == p || q.owner != d || p.owner != d {
					continue
				}
				k := [2]*variable{q, p}
				w := votes[k]
				if rank[i] < rank[j] {
					w.before++
				} else {
					w.before--
				}
				// Interleaved in the callee: the first bits are
				// closer than the width of the first parameter.
				lo, hi := min(rank[i], rank[j]), max(rank[i], rank[j])
				first := callee.params[i]
				if rank[j] < rank[i] {
					first = callee.params[j]
				}
				if hi-lo < first.typ.width() {
					w.together++
				} else {
					w.together--
				}
				votes[k] = w
			}
		}
	})
	return votes
}

// vote is what the applications of a definition's body say about two of
// its variables q and p: before > 0, that q should come before p;
// together > 0, that they should be interleaved, < 0 that they should
// not.
type vote struct{ before, together int }

// paramRank is, for each parameter of d, the position of its first bit
// among the bits of d's parameters as their constraints order them
// (memoised in ranks).
func paramRank(d *definition, ranks map[*definition][]int) []int {
	if r, ok := ranks[d]; ok {
		return r
	}
	var items []orderItem
	names := make([]string, len(d.params))
	first := make([]int, len(d.params))
	total := 0
	for i, v := range d.params {
		ph := v.typ.physical()
		b := make([]int, len(ph))
		for j, x := range ph {
			b[j] = total + x
		}
		items = append(items, orderItem{bits: b})
		names[i] = v.name
		if len(ph) > 0 {
			first[i] = total + ph[0]
		}
		total += v.typ.width()
	}
	var cs []orderCons
	if d.rel != nil {
		cs = consByName(names, d.rel.Order)
	}
	pos := make([]int, total)
	for k, b := range arrange(items, cs) {
		pos[b] = k
	}
	rank := make([]int, len(d.params))
	for i := range d.params {
		if d.params[i].typ.width() > 0 {
			rank[i] = pos[first[i]]
		}
	}
	ranks[d] = rank
	return rank
}

// nearest is the parameter of v's type whose name shares the longest
// suffix with v's name (nil if none has v's type).
func nearest(v *variable, params []*variable) *variable {
	var best *variable
	bestLen := -1
	for _, p := range params {
		if p.typ != v.typ {
			continue
		}
		n := 0
		for n < len(p.name) && n < len(v.name) && p.name[len(p.name)-1-n] == v.name[len(v.name)-1-n] {
			n++
		}
		if n > bestLen {
			best, bestLen = p, n
		}
	}
	return best
}

func (s *solver) keep(n bdd.Node) bdd.Node {
	s.roots = append(s.roots, s.m.Keep(n))
	return n
}

// release frees every root of the solver.
func (s *solver) release() {
	for _, r := range s.roots {
		r.Release()
	}
	s.roots = nil
	for e, r := range s.cache {
		r.Release()
		delete(s.cache, e)
	}
	for k, r := range s.moved {
		r.Release()
		delete(s.moved, k)
	}
	for k, r := range s.movedBack {
		r.Release()
		delete(s.movedBack, k)
	}
}

func (s *solver) run(ans *Answer) error {
	s.split()
	s.outside = map[*definition]bool{}
	users := s.defs
	if s.in.query != nil {
		users = append(users[:len(users):len(users)], s.in.query)
	}
	for _, e := range users {
		for d := range s.deps[e] {
			if s.comp[e] != s.comp[d] || e == s.in.query {
				s.outside[d] = true
			}
		}
		if e.sizes || s.tracked[e] {
			s.outside[e] = true
		}
	}
	// Group the relations by component; components were numbered so that
	// one comes after every component it uses.
	byComp := map[int][]*definition{}
	maxComp := -1
	for _, d := range s.defs {
		byComp[s.comp[d]] = append(byComp[s.comp[d]], d)
		maxComp = max(maxComp, s.comp[d])
	}
	for c := 0; c <= maxComp; c++ {
		if err := s.component(c, byComp[c], ans); err != nil {
			return err
		}
		if err := s.afterComponent(byComp[c]); err != nil {
			return err
		}
	}
	for _, name := range s.in.sizes {
		if s.noSizes {
			break
		}
		d := s.in.rels[name]
		v := s.val[d].Node()
		var bits []int
		for _, p := range d.params {
			bits = append(bits, s.bits[p]...)
		}
		ans.Sizes = append(ans.Sizes, Size{Name: name, Nodes: s.m.NodeCount(v), Tuples: s.m.SatCount(v, s.m.VarSet(bits...))})
	}
	if q := s.in.query; q != nil {
		s.scc = -1
		s.volat = map[Expr]bool{}
		s.mark(q.body, s.comp[q])
		v := s.evalRaw(q.body)
		if s.stop != nil {
			return fmt.Errorf("query: %w", s.stop)
		}
		if err := s.m.Err(); err != nil {
			return fmt.Errorf("query: %w", err)
		}
		if v != bdd.True && v != bdd.False {
			return errors.New("query: the formula has free variables") // Check forbids it
		}
		ans.HasQuery, ans.Value = true, v == bdd.True
	}
	return nil
}

// component evaluates one strongly connected group of relations. A group
// of relations of one kind whose bodies use the group only positively
// (under an even number of negations) is iterated simultaneously: each round evaluates every member with the
// latest values, until none changes; for such monotone systems this is
// the value the nested evaluation gives, at a fraction of its cost. Any
// other group (mixed mu and nu, or negation) is evaluated exactly as the
// Getafix paper's §3 says (see nested), which for one relation is the
// same iteration, watched for cycles.
func (s *solver) component(c int, members []*definition, ans *Answer) error {
	s.scc = c
	// Which parts depend on the component: a small map per component
	// (mark fills it for every member's body) keeps the lookups of every
	// evaluation step fast on large files.
	s.volat = map[Expr]bool{}
	if d := members[0]; len(members) == 1 && (s.provided[d] != nil || d.body == nil) {
		return s.given(d, ans)
	}
	recursive := len(members) > 1 || s.deps[members[0]][members[0]]
	stats := map[*definition]*RelStats{}
	simple, allPositive := true, true
	var started []string
	for _, d := range members {
		s.mark(d.body, c)
		stats[d] = &RelStats{Name: d.name, Kind: d.kind}
		init := s.init(d, recursive)
		if s.started[d] != nil {
			init = s.startValue(d)
			if err := s.m.Err(); err != nil {
				return fmt.Errorf("%s: the start value: %w", d.name, err)
			}
			s.starts[d] = s.m.Keep(init)
			defer s.releaseStart(d)
			started = append(started, d.name)
		}
		s.val[d] = s.m.Keep(init)
		s.roots = append(s.roots, s.val[d])
		pos := s.positive(d.body, c, true)
		simple = simple && d.kind == members[0].kind && pos
		allPositive = allPositive && pos
	}
	if len(started) > 0 && !allPositive {
		return fmt.Errorf("fix: %s has a start value (Solver.Start), but its group of relations uses itself under a negation: no monotone iteration to start", strings.Join(started, ", "))
	}
	var err error
	s.monotone = allPositive
	if recursive && simple && s.in.frontier[members[0]] {
		err = s.frontier(members, stats)
	} else if !recursive || simple {
		err = s.simultaneous(members, recursive, stats)
	} else {
		// Only the members that something outside the component reads
		// need their own outermost evaluation; the others keep the values
		// of the inner evaluations of the last round (each outermost
		// evaluation recomputes them inside anyway).
		need := map[*definition]bool{}
		for _, d := range members {
			need[d] = s.outside[d]
		}
		if len(need) == 0 || !anyTrue(need) {
			for _, d := range members {
				need[d] = true
			}
		}
		s.memo = map[*definition]*memoEntry{}
		s.closure = closureOf(members, s.deps)
		defer s.dropMemo()
		final := make([]bdd.Node, len(members))
		for i, d := range members {
			if !need[d] {
				continue
			}
			var v *bdd.Root
			if v, err = s.nested(d, members, nil, stats); err != nil {
				break
			}
			final[i] = v.Node()
			defer v.Release()
		}
		if err == nil {
			for i, d := range members {
				if need[d] {
					s.val[d].Set(final[i])
				}
			}
		}
	}
	if err != nil {
		return err
	}
	for _, d := range members {
		stats[d].Nodes = s.m.NodeCount(s.val[d].Node())
		ans.Relations = append(ans.Relations, *stats[d])
	}
	// The reused parts of these bodies are not needed any more.
	for e, r := range s.cache {
		r.Release()
		delete(s.cache, e)
	}
	return nil
}

// given sets the value of a relation provided from Go, or fails for a
// declaration without a body that was not provided.
func (s *solver) given(d *definition, ans *Answer) error {
	p := s.provided[d]
	if p == nil {
		return fmt.Errorf("%s:%d:%d: relation %s is declared without a body and no value was provided", s.file, d.rel.Pos.Line, d.rel.Pos.Col, d.name)
	}
	t0 := time.Now()
	v := s.m.And(p.Node(), s.domain(d.params))
	if err := s.m.Err(); err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	s.val[d] = s.m.Keep(v)
	s.roots = append(s.roots, s.val[d])
	ans.Relations = append(ans.Relations, RelStats{Name: d.name, Kind: d.kind, Nodes: s.m.NodeCount(v), Time: time.Since(t0)})
	return nil
}

// record keeps the tuples that a round added to a tracked relation (from
// old to v).
func (s *solver) record(d *definition, v, old bdd.Node) {
	if s.tracked[d] {
		s.layers[d] = append(s.layers[d], s.m.Keep(s.m.And(v, s.m.Not(old))))
	}
}

// init is the starting value of a relation: false for mu (and for
// relations computed once), the full domain for nu.
func (s *solver) init(d *definition, recursive bool) bdd.Node {
	if recursive && d.kind == Greatest {
		return s.domain(d.params)
	}
	return bdd.False
}

// inflate returns v joined with old for a relation with a start value
// (see StartLayers: its iteration is inflationary), v otherwise.
func (s *solver) inflate(d *definition, v, old bdd.Node) (bdd.Node, error) {
	if s.starts[d] == nil {
		return v, nil
	}
	v = s.m.Or(v, old)
	if err := s.m.Err(); err != nil {
		return bdd.Invalid, fmt.Errorf("%s: %w", d.name, err)
	}
	return v, nil
}

// step evaluates d's body once with the current values of the relations.
func (s *solver) step(d *definition, st *RelStats) (bdd.Node, error) {
	if err := s.ctx.Err(); err != nil {
		return bdd.Invalid, fmt.Errorf("%s: %w", d.name, err)
	}
	t0 := time.Now()
	v := s.m.And(s.evalRaw(d.body), s.domain(d.params))
	st.Iterations++
	st.Time += time.Since(t0)
	if s.stop != nil {
		return bdd.Invalid, fmt.Errorf("%s: %w", d.name, s.stop)
	}
	if err := s.m.Err(); err != nil {
		return bdd.Invalid, fmt.Errorf("%s: %w", d.name, err)
	}
	return v, nil
}

// simultaneous iterates the members together. A member is evaluated
// again only when a member it uses has changed since its last evaluation:
// otherwise its body would give the same value.
func (s *solver) simultaneous(members []*definition, recursive bool, stats map[*definition]*RelStats) error {
	version := map[*definition]int{}
	seen := map[*definition]map[*definition]int{}
	for changed := true; changed; {
		changed = false
		for _, d := range members {
			if last, ok := seen[d]; ok {
				stale := false
				for e, n := range last {
					stale = stale || version[e] != n
				}
				if !stale {
					continue
				}
			}
			last := map[*definition]int{}
			for _, e := range members {
				if s.deps[d][e] {
					last[e] = version[e]
				}
			}
			seen[d] = last
			v, err := s.step(d, stats[d])
			if err != nil {
				return err
			}
			if v, err = s.inflate(d, v, s.val[d].Node()); err != nil {
				return err
			}
			if v != s.val[d].Node() {
				s.record(d, v, s.val[d].Node())
				s.val[d].Set(v)
				version[d]++
				changed = recursive
			}
			s.m.Safepoint()
		}
	}
	return nil
}

// frontier iterates a monotone group of mu relations whose members are
// applied only under &, | and exists (#frontier, checked by Check): the
// first round evaluates the bodies; each later round evaluates, for each
// application of a member in a body, the body with that application
// reading only the tuples the last round added to its relation (its
// delta) and the others their whole current values, and only the parts of
// the body on the way to that application (the rest gave its tuples in
// the first round). Since each application distributes over a union, the
// union of these variants holds every tuple that the whole body gives
// and the relation does not have yet.
func (s *solver) frontier(members []*definition, stats map[*definition]*RelStats) error {
	type variant struct {
		a    *Apply
		path map[Expr]bool
	}
	variants := map[*definition][]variant{}
	for _, d := range members {
		var walk func(e Expr, path []Expr)
		walk = func(e Expr, path []Expr) {
			path = append(path, e)
			switch e := e.(type) {
			case *Not:
				walk(e.X, path)
			case *Binary:
				walk(e.X, path)
				walk(e.Y, path)
			case *Quant:
				walk(e.Body, path)
			case *Apply:
				if s.comp[s.applied(e)] == s.scc {
					on := map[Expr]bool{}
					for _, p := range path {
						on[p] = true
					}
					variants[d] = append(variants[d], variant{e, on})
				}
			}
		}
		walk(d.body, nil)
	}
	defer func() { s.chosen, s.onPath, s.delta = nil, nil, nil }()
	delta := map[*definition]*bdd.Root{}
	defer func() {
		for _, r := range delta {
			r.Release()
		}
	}()
	for _, d := range members {
		// With a start value, the whole body over it; the tuples it
		// adds are the first delta.
		old := s.val[d].Node()
		v, err := s.step(d, stats[d])
		if err != nil {
			return err
		}
		if v, err = s.inflate(d, v, old); err != nil {
			return err
		}
		nd := s.m.And(v, s.m.Not(old))
		if err := s.m.Err(); err != nil {
			return fmt.Errorf("%s: %w", d.name, err)
		}
		s.record(d, v, old)
		s.val[d].Set(v)
		delta[d] = s.m.Keep(nd)
		s.m.Safepoint()
	}
	for {
		s.delta = map[*definition]bdd.Node{}
		for d, r := range delta {
			s.delta[d] = r.Node()
		}
		changed := false
		for _, d := range members {
			if err := s.ctx.Err(); err != nil {
				return fmt.Errorf("%s: %w", d.name, err)
			}
			t0 := time.Now()
			acc := bdd.False
			for _, vr := range variants[d] {
				if s.delta[s.applied(vr.a)] == bdd.False {
					continue
				}
				s.chosen, s.onPath = vr.a, vr.path
				acc = s.m.Or(acc, s.evalRaw(d.body))
			}
			s.chosen, s.onPath = nil, nil
			old := s.val[d].Node()
			v := s.m.Or(old, s.m.And(acc, s.domain(d.params)))
			stats[d].Iterations++
			stats[d].Time += time.Since(t0)
			if s.stop != nil {
				return fmt.Errorf("%s: %w", d.name, s.stop)
			}
			if err := s.m.Err(); err != nil {
				return fmt.Errorf("%s: %w", d.name, err)
			}
			nd := s.m.And(v, s.m.Not(old))
			delta[d].Set(nd)
			if nd != bdd.False {
				changed = true
				s.record(d, v, old)
				s.val[d].Set(v)
			}
			s.m.Safepoint()
		}
		if !changed {
			return nil
		}
	}
}

// nested computes relation r of a group as the paper's algorithmic
// semantics says: start from false (mu) or the full domain (nu); in each
// round, first evaluate every other member that r's body uses and that no
// enclosing evaluation has fixed, from scratch, with r fixed at its
// current value; then evaluate r's body; stop when r's value no longer
// changes. fixed holds the values the enclosing evaluations hold fixed.
func (s *solver) nested(r *definition, members []*definition, fixed map[*definition]*bdd.Root, stats map[*definition]*RelStats) (*bdd.Root, error) {
	// Only the outermost evaluation of r starts from r's start value:
	// an inner one holds the relations around it at values below their
	// final ones, and its least fixed point may lie below the start.
	seeded := fixed == nil && s.starts[r] != nil
	start := s.init(r, true)
	if seeded {
		start = s.starts[r].Node()
	}
	cur := s.m.Keep(start)
	inner := map[*definition]*bdd.Root{}
	// A non-monotone body may make the values cycle: the earlier values
	// are kept to see it (they are few when the iteration converges).
	var history []*bdd.Root
	defer func() {
		for _, v := range inner {
			v.Release()
		}
		for _, v := range history {
			v.Release()
		}
	}()
	for {
		env := map[*definition]*bdd.Root{r: cur}
		for d, v := range fixed {
			env[d] = v
		}
		for _, d := range members {
			if _, isFixed := env[d]; isFixed || !s.deps[r][d] {
				continue
			}
			v, err := s.inner(d, members, env, stats)
			if err != nil {
				cur.Release()
				return nil, err
			}
			if old := inner[d]; old != nil {
				old.Release()
			}
			inner[d] = v
		}
		// The members r's body reads: r, the fixed ones, the inner ones.
		for d, v := range env {
			s.val[d].Set(v.Node())
		}
		for d, v := range inner {
			s.val[d].Set(v.Node())
		}
		v, err := s.step(r, stats[r])
		if err == nil && seeded {
			v, err = s.inflate(r, v, cur.Node())
		}
		if err != nil {
			cur.Release()
			return nil, err
		}
		if v == cur.Node() {
			return cur, nil
		}
		for i, h := range history {
			if h.Node() == v {
				cur.Release()
				return nil, fmt.Errorf("%s: %w: its values repeat every %d rounds", r.name, ErrNoFixedPoint, len(history)+1-i)
			}
		}
		if !s.monotone { // a monotone iteration cannot cycle
			history = append(history, s.m.Keep(cur.Node()))
		}
		if fixed == nil {
			s.record(r, v, cur.Node())
		}
		cur.Set(v)
		s.m.Safepoint()
	}
}

// memoEntry is the value of an inner relation and the values of the
// fixed relations it was computed with.
type memoEntry struct {
	key map[*definition]bdd.Node
	val *bdd.Root
}

// inner computes an inner member d of a nested evaluation with the
// relations of env fixed. Its value depends only on the fixed relations
// it reaches through its dependencies, so when those have the values of
// its last computation, that value is reused: an inner relation that does
// not depend on the relation iterated around it is computed once per
// change of what it does depend on (efopt's Relevant, for one).
func (s *solver) inner(d *definition, members []*definition, env map[*definition]*bdd.Root, stats map[*definition]*RelStats) (*bdd.Root, error) {
	key := map[*definition]bdd.Node{}
	for e, v := range env {
		if s.closure[d][e] {
			key[e] = v.Node()
		}
	}
	if m := s.memo[d]; m != nil && sameKey(m.key, key) {
		return s.m.Keep(m.val.Node()), nil
	}
	v, err := s.nested(d, members, env, stats)
	if err != nil {
		return nil, err
	}
	if old := s.memo[d]; old != nil {
		old.val.Release()
	}
	s.memo[d] = &memoEntry{key: key, val: s.m.Keep(v.Node())}
	return v, nil
}

func sameKey(a, b map[*definition]bdd.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func (s *solver) dropMemo() {
	for _, m := range s.memo {
		m.val.Release()
	}
	s.memo = nil
}

// closureOf gives, for each member, the members it reaches through its
// dependencies (itself included when it is recursive).
func closureOf(members []*definition, deps map[*definition]map[*definition]bool) map[*definition]map[*definition]bool {
	in := map[*definition]bool{}
	for _, d := range members {
		in[d] = true
	}
	out := map[*definition]map[*definition]bool{}
	for _, d := range members {
		seen := map[*definition]bool{}
		stack := []*definition{d}
		for len(stack) > 0 {
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for f := range deps[e] {
				if in[f] && !seen[f] {
					seen[f] = true
					stack = append(stack, f)
				}
			}
		}
		out[d] = seen
	}
	return out
}

func anyTrue(m map[*definition]bool) bool {
	for _, v := range m {
		if v {
			return true
		}
	}
	return false
}

// ErrNoFixedPoint is the error of Solve when the iteration of a
// non-monotone definition cycles through values without stabilising.
var ErrNoFixedPoint = errors.New("no fixed point")

// positive reports whether every application of a relation of component
// c in e occurs under an even number of negations (pos says whether e
// itself does).
func (s *solver) positive(e Expr, c int, pos bool) bool {
	switch e := e.(type) {
	case *Not:
		return s.positive(e.X, c, !pos)
	case *Binary:
		switch e.Op {
		case OpImp:
			return s.positive(e.X, c, !pos) && s.positive(e.Y, c, pos)
		case OpIff:
			return !s.volat[e]
		}
		return s.positive(e.X, c, pos) && s.positive(e.Y, c, pos)
	case *Apply:
		return pos || s.comp[s.applied(e)] != c
	case *Quant:
		return s.positive(e.Body, c, pos)
	}
	return true
}

// mark records which parts of a body depend on a relation of component c.
func (s *solver) mark(e Expr, c int) bool {
	var v bool
	switch e := e.(type) {
	case *Not:
		v = s.mark(e.X, c)
	case *Binary:
		x := s.mark(e.X, c)
		y := s.mark(e.Y, c)
		v = x || y
	case *Apply:
		v = s.comp[s.applied(e)] == c
	case *Quant:
		v = s.mark(e.Body, c)
	}
	s.volat[e] = v
	return v
}

// eval evaluates e, reusing its value if it does not depend on the
// relations being iterated.
func (s *solver) eval(e Expr) bdd.Node {
	if s.volat[e] {
		return s.evalRaw(e)
	}
	if r, ok := s.cache[e]; ok {
		return r.Node()
	}
	v := s.evalRaw(e)
	s.cache[e] = s.m.Keep(v)
	return v
}

// child evaluates a part of parent: through the cache when parent
// changes between rounds but the part does not.
func (s *solver) child(parent, e Expr) bdd.Node {
	if s.volat[parent] {
		return s.eval(e)
	}
	return s.evalRaw(e)
}

func (s *solver) evalRaw(e Expr) bdd.Node {
	// Look at the context every few hundred steps, so that a long
	// evaluation of one body stops soon after a cancellation; the values
	// computed from then on are garbage that step discards.
	if s.stop != nil {
		return bdd.False
	}
	if s.ops++; s.ops%256 == 0 {
		if err := s.ctx.Err(); err != nil {
			s.stop = err
			return bdd.False
		}
	}
	switch e := e.(type) {
	case *Const:
		if e.Value {
			return bdd.True
		}
		return bdd.False
	case *Path:
		r := s.in.paths[e]
		return s.m.Ithvar(s.bits[r.v][r.offset])
	case *Not:
		return s.m.Not(s.child(e, e.X))
	case *Binary:
		if e.Op == OpOr && s.onPath[e] {
			// A frontier variant: the other side holds nothing new.
			if s.onPath[e.X] {
				return s.child(e, e.X)
			}
			return s.child(e, e.Y)
		}
		x := s.child(e, e.X)
		y := s.child(e, e.Y)
		switch e.Op {
		case OpAnd:
			return s.m.And(x, y)
		case OpOr:
			return s.m.Or(x, y)
		case OpImp:
			return s.m.Imp(x, y)
		default:
			return s.m.Equiv(x, y)
		}
	case *Compare:
		v := s.compare(e)
		if e.Neg {
			v = s.m.Not(v)
		}
		return v
	case *Apply:
		return s.apply(e)
	case *Quant:
		vars := make([]*variable, len(e.Vars))
		for i, p := range e.Vars {
			vars[i] = s.in.quant[p]
		}
		if e.Forall {
			// forall x. f  =  !exists x. !f
			return s.m.Not(s.exists(e, vars, &Not{Pos: e.Pos, X: e.Body}, true))
		}
		return s.exists(e, vars, e.Body, false)
	}
	return bdd.False
}

// termBits gives the BDD variables of a variable term, in logical order.
func (s *solver) termBits(r *ref) []int {
	return s.bits[r.v][r.offset : r.offset+r.typ.width()]
}

// constCube is the conjunction saying that bits hold constant value val
// of type t (most significant bit first).
func (s *solver) constCube(bits []int, val int) bdd.Node {
	vals := make([]bool, len(bits))
	for i := range bits {
		vals[i] = val>>(len(bits)-1-i)&1 == 1
	}
	return s.m.Assignment(bits, vals)
}

func (s *solver) compare(e *Compare) bdd.Node {
	rx, ry := s.in.paths[asPath(e.X)], s.in.paths[asPath(e.Y)]
	if rx == nil || rx.v == nil {
		rx, ry = ry, rx
		e = &Compare{X: e.Y, Y: e.X}
	}
	bx := s.termBits(rx)
	if ry == nil || ry.v == nil {
		c, _ := constant(e.Y, rx.typ, ry)
		return s.constCube(bx, c)
	}
	by := s.termBits(ry)
	v := bdd.True
	for i := len(bx) - 1; i >= 0; i-- {
		v = s.m.And(s.m.Equiv(s.m.Ithvar(bx[i]), s.m.Ithvar(by[i])), v)
	}
	return v
}

func asPath(e Expr) *Path {
	p, _ := e.(*Path)
	return p
}

// applyPlan says how to move a relation's value onto the arguments of one
// application: constrain and drop the parameters bound to constants or
// to bits already used, then rename the others.
type applyPlan struct {
	constraint *bdd.Root
	drop       *bdd.VarSet
	rename     *bdd.Pairs
	// The renamed bits (the callee's) and their new names (the
	// caller's), and, built when first needed, the inverse renaming (see
	// closedApply).
	from, to []int
	back     *bdd.Pairs
}

// movedKey is a plan and the value it was applied to.
type movedKey struct {
	p *applyPlan
	v bdd.Node
}

func (s *solver) plan(a *Apply) *applyPlan {
	if p, ok := s.plans[a]; ok {
		return p
	}
	def := s.in.applies[a]
	sig := append(make([]byte, 0, 64), s.applied(a).name...)
	for i, x := range a.Args {
		if r := s.in.paths[asPath(x)]; r == nil || r.v == nil {
			c, _ := constant(x, def.params[i].typ, r)
			sig = strconv.AppendInt(append(sig, '|', 'c'), int64(c), 10)
		} else {
			sig = append(sig, '|')
			for _, b := range s.termBits(r) {
				sig = strconv.AppendInt(append(sig, ' '), int64(b), 10)
			}
		}
	}
	if p, ok := s.bySig[string(sig)]; ok {
		s.plans[a] = p
		return p
	}
	constraint := bdd.True
	var drop, from, to []int
	source := map[int]int{} // caller bit -> the parameter bit renamed to it
	for i, x := range a.Args {
		formal := s.bits[def.params[i]]
		r := s.in.paths[asPath(x)]
		if r == nil || r.v == nil {
			c, _ := constant(x, def.params[i].typ, r)
			constraint = s.m.And(constraint, s.constCube(formal, c))
			drop = append(drop, formal...)
			continue
		}
		// Bit by bit: a bit of the caller that another parameter already
		// maps to (R(x, x), or a field of an argument) becomes an
		// equality between the two parameters' bits, so that the
		// constraint never mixes the callee's and the caller's bits.
		actual := s.termBits(r)
		for j := range formal {
			if src, taken := source[actual[j]]; taken {
				constraint = s.m.And(constraint, s.m.Equiv(s.m.Ithvar(formal[j]), s.m.Ithvar(src)))
				drop = append(drop, formal[j])
				continue
			}
			source[actual[j]] = formal[j]
			if formal[j] != actual[j] {
				from = append(from, formal[j])
				to = append(to, actual[j])
			}
		}
	}
	p := &applyPlan{constraint: s.m.Keep(constraint)}
	s.roots = append(s.roots, p.constraint)
	if len(drop) > 0 {
		p.drop = s.m.VarSet(drop...)
	}
	if len(from) > 0 {
		p.rename = s.m.NewPairs(from, to)
		p.from, p.to = from, to
	}
	s.plans[a] = p
	s.bySig[string(sig)] = p
	return p
}

func (s *solver) apply(a *Apply) bdd.Node {
	v := s.current(a)
	p := s.plan(a)
	final := a != s.chosen && !s.volat[a]
	if final {
		if r, ok := s.moved[movedKey{p, v}]; ok {
			return r.Node()
		}
	}
	in := v
	if p.drop != nil {
		v = s.m.AndExists(v, p.constraint.Node(), p.drop)
	}
	if p.rename != nil {
		v = s.m.Replace(v, p.rename)
	}
	if final && s.m.Err() == nil && s.stop == nil {
		s.moved[movedKey{p, in}] = s.m.Keep(v)
	}
	return v
}

// current is the value an application reads: its relation's, or in a
// frontier variant the tuples the last round added.
func (s *solver) current(a *Apply) bdd.Node {
	if a == s.chosen {
		return s.delta[s.applied(a)]
	}
	return s.val[s.applied(a)].Node()
}

// closedApply evaluates a closed formula exists vars. (A & rest), with A
// the one conjunct that changes between rounds, an application (Getafix's
// early termination, exists t. Thread(t) & target(t), in every round of
// Thread), without renaming A's relation: its quantified copy t is
// renamed back onto the relation's parameters in the small, unchanging
// rest instead. Both sides are closed, so the value is the same: the
// parameters and the quantified variables are distinct bits. It returns
// Invalid when the formula does not have that shape.
func (s *solver) closedApply(vars []*variable, conj []Expr, body Expr) bdd.Node {
	in := map[*variable]bool{}
	for _, v := range vars {
		in[v] = true
	}
	for v := range s.freeVars(body) {
		if !in[v] {
			return bdd.Invalid
		}
	}
	var a *Apply
	for _, c := range conj {
		if !s.volat[c] {
			continue
		}
		x, ok := c.(*Apply)
		if !ok || a != nil {
			return bdd.Invalid
		}
		a = x
	}
	if a == nil {
		return bdd.Invalid
	}
	p := s.plan(a)
	if p.rename == nil {
		return bdd.Invalid
	}
	rest := s.domain(vars)
	for _, c := range conj {
		if c != Expr(a) {
			rest = s.m.And(rest, s.eval(c))
		}
	}
	if p.back == nil {
		p.back = s.m.NewPairs(p.to, p.from)
	}
	key := movedKey{p, rest}
	r, ok := s.movedBack[key]
	if !ok {
		r = s.m.Keep(s.m.Replace(rest, p.back))
		s.movedBack[key] = r
	}
	v := s.current(a)
	if p.drop != nil {
		v = s.m.AndExists(v, p.constraint.Node(), p.drop)
	}
	// What rest mentions besides A's arguments is quantified too.
	var bits []int
	for _, x := range vars {
		bits = append(bits, s.bits[x]...)
	}
	return s.m.AndExists(v, r.Node(), s.m.VarSet(append(bits, p.from...)...))
}

// domain is the conjunction of the range constraints of the variables
// (enums whose size is not a power of two).
func (s *solver) domain(vars []*variable) bdd.Node {
	v := bdd.True
	for _, x := range vars {
		d, ok := s.domains[x]
		if !ok {
			d = s.keep(s.typeDomain(x.typ, s.bits[x]))
			s.domains[x] = d
		}
		v = s.m.And(v, d)
	}
	return v
}

func (s *solver) typeDomain(t typ, bits []int) bdd.Node {
	switch t := t.(type) {
	case *enumType:
		// value-lo <= hi-lo, most significant bit first.
		k := t.hi - t.lo
		v := bdd.True
		for i := len(bits) - 1; i >= 0; i-- {
			if k>>(len(bits)-1-i)&1 == 1 {
				v = s.m.Or(s.m.NIthvar(bits[i]), v)
			} else {
				v = s.m.And(s.m.NIthvar(bits[i]), v)
			}
		}
		return v
	case *classType:
		v := bdd.True
		for _, f := range t.fields {
			v = s.m.And(v, s.typeDomain(f.typ, bits[f.offset:f.offset+f.typ.width()]))
		}
		return v
	}
	return bdd.True
}

// freeVars is the set of variables e mentions free.
func (s *solver) freeVars(e Expr) map[*variable]bool {
	if f, ok := s.free[e]; ok {
		return f
	}
	f := map[*variable]bool{}
	add := func(g map[*variable]bool) {
		for v := range g {
			f[v] = true
		}
	}
	switch e := e.(type) {
	case *Path:
		if r := s.in.paths[e]; r != nil && r.v != nil {
			f[r.v] = true
		}
	case *Not:
		add(s.freeVars(e.X))
	case *Binary:
		add(s.freeVars(e.X))
		add(s.freeVars(e.Y))
	case *Compare:
		add(s.freeVars(e.X))
		add(s.freeVars(e.Y))
	case *Apply:
		for _, x := range e.Args {
			add(s.freeVars(x))
		}
	case *Quant:
		add(s.freeVars(e.Body))
		for _, p := range e.Vars {
			delete(f, s.in.quant[p])
		}
	}
	s.free[e] = f
	return f
}

// exists computes (exists vars. body) for quantifier q: over each
// disjunct separately, and within a conjunction quantifying each variable
// as soon as no later conjunct mentions it (AndExists). negated says body
// is a synthetic !q.Body (for forall), evaluated without the cache.
func (s *solver) exists(q Expr, vars []*variable, body Expr, negated bool) bdd.Node {
	if b, ok := body.(*Binary); ok && b.Op == OpOr && !negated {
		if s.onPath[b] { // a frontier variant: only the side of the delta
			if s.onPath[b.X] {
				return s.exists(q, vars, b.X, false)
			}
			return s.exists(q, vars, b.Y, false)
		}
		return s.m.Or(s.exists(q, vars, b.X, false), s.exists(q, vars, b.Y, false))
	}
	var conj []Expr
	var flatten func(Expr)
	flatten = func(e Expr) {
		if b, ok := e.(*Binary); ok && b.Op == OpAnd && !negated {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		conj = append(conj, e)
	}
	flatten(body)
	if !negated && s.volat[body] {
		if r := s.closedApply(vars, conj, body); r != bdd.Invalid {
			return r
		}
	}
	// last[v]: the last conjunct that mentions v.
	last := map[*variable]int{}
	for _, v := range vars {
		last[v] = -1
	}
	for i, c := range conj {
		if negated {
			break
		}
		fv := s.freeVars(c)
		for _, v := range vars {
			if fv[v] {
				last[v] = i
			}
		}
	}
	acc := s.domain(vars)
	if negated {
		var bits []int
		for _, v := range vars {
			bits = append(bits, s.bits[v]...)
		}
		inner := s.m.Not(s.child(q, q.(*Quant).Body))
		return s.m.AndExists(acc, inner, s.m.VarSet(bits...))
	}
	// Variables mentioned nowhere: their (non-empty) domain is all that
	// constrains them.
	var bits []int
	for _, v := range vars {
		if last[v] < 0 {
			bits = append(bits, s.bits[v]...)
		}
	}
	if len(bits) > 0 {
		acc = s.m.Exists(acc, s.m.VarSet(bits...))
	}
	for i, c := range conj {
		x := s.child(q, c)
		bits = bits[:0]
		for _, v := range vars {
			if last[v] == i {
				bits = append(bits, s.bits[v]...)
			}
		}
		if len(bits) > 0 {
			acc = s.m.AndExists(acc, x, s.m.VarSet(bits...))
		} else {
			acc = s.m.And(acc, x)
		}
		if acc == bdd.False {
			break
		}
	}
	return acc
}
