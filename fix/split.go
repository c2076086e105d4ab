package fix

import (
	"fmt"
	"sort"
)

// Partitioned relations.
//
// Getafix's models define a relation over all the program's modules as one
// big disjunction, one disjunct per module, each guarded by the module's
// constant (programInt1nonthread(cm, ...) = (cm=4 & ...) | (cm=5 & ...) |
// ...), and apply it with a constant module (programInt1nonthread(5, ...)).
// Read whole, such a relation makes one strongly connected component of
// every summary of the program (the disjunct of module 5 applies the
// summary of the module it calls, whose body applies the relation again),
// and each round of that component evaluates every disjunct again: the
// Bebop template T(N) takes O(N) rounds of O(N) work.
//
// split keeps such a relation R as a list of parts instead: the part R[c]
// is the disjunction of R's disjuncts guarded by key = c (and of those
// guarded by no key), and an application of R with the constant c at the
// key reads R[c] (equal to R where key = c, the only tuples the
// application uses). The dependencies then follow the parts, the
// component falls apart into small ones (T(N): one per summary), and R
// itself, still defined by its whole body, is computed once at the end
// if anything reads it whole.
//
// This is exact for a component of relations of one kind (all mu or all
// nu) that uses itself only under &, | and exists: its value is the
// simultaneous least (greatest) fixed point of its equations, which the
// equations of the parts do not change (Bekić's lemma: adding equations
// whose variables are defined by the others keeps the solution). Any
// other component is left whole, as are relations the caller tracks
// (Solver.Track), gives (Solver.Provide) or starts (Solver.Start), and
// components evaluated by #frontier.

// parts describes the split of one relation.
type splitRel struct {
	key   int                 // the parameter the guards test
	parts map[int]*definition // by the key's encoded value
	rest  []Expr              // disjuncts with no guard
}

// split computes the parts of the relations worth splitting, retargets
// the applications with a constant key to them, and computes the
// dependencies and components of the relations and parts (s.deps,
// s.comp, s.defs). With nothing to split they are those Check found.
func (s *solver) split() {
	in := s.in
	s.target = map[*Apply]*definition{}
	// The components as Check found them, and whether each may be split.
	members := map[int][]*definition{}
	for _, d := range in.defs {
		members[d.scc] = append(members[d.scc], d)
	}
	splittable := map[int]bool{}
	for c, ms := range members {
		ok := len(ms) > 1 && ms[0].kind != Plain
		for _, d := range ms {
			if !ok {
				break
			}
			ok = d.kind == ms[0].kind && d.body != nil && s.provided[d] == nil && !s.tracked[d] && s.started[d] == nil &&
				!in.frontier[d] && undistributive(in, d.body, c, false) == nil
		}
		splittable[c] = ok
	}
	splits := map[*definition]*splitRel{}
	var parts []*definition
	for _, d := range in.defs {
		if !splittable[d.scc] {
			continue
		}
		sp := s.guards(d)
		if sp == nil {
			continue
		}
		splits[d] = sp
	}
	// Retarget the applications with a constant key, creating the parts
	// they read.
	for a, d := range in.applies {
		sp := splits[d]
		if sp == nil {
			continue
		}
		r := in.paths[asPath(a.Args[sp.key])]
		if r != nil && r.v != nil {
			continue // a variable key: the whole relation
		}
		c, _ := constant(a.Args[sp.key], d.params[sp.key].typ, r)
		part := sp.parts[c]
		if part == nil {
			part = &definition{name: fmt.Sprintf("%s[%d]", d.name, c), kind: d.kind,
				params: d.params, vars: d.vars, body: orOf(sp.rest), parent: d}
			sp.parts[c] = part
		}
		if !part.used {
			part.used = true
			parts = append(parts, part)
		}
		s.target[a] = part
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].name < parts[j].name })
	s.defs = append(append([]*definition(nil), in.defs...), parts...)
	s.deps = map[*definition]map[*definition]bool{}
	all := s.defs
	if in.query != nil {
		all = append(all[:len(all):len(all)], in.query)
	}
	for _, d := range all {
		deps := map[*definition]bool{}
		s.depsOf(d.body, deps)
		s.deps[d] = deps
	}
	s.comp = components(s.defs, s.deps)
	if in.query != nil {
		n := 0
		for _, c := range s.comp {
			n = max(n, c+1)
		}
		s.comp[in.query] = n
	}
}

// guards finds the parameter of d that most of its body's disjuncts
// compare with a constant (at the top of the disjunct's conjunction), and
// groups the disjuncts by that constant; nil when fewer than two constants
// guard disjuncts.
func (s *solver) guards(d *definition) *splitRel {
	var disj []Expr
	var flat func(e Expr)
	flat = func(e Expr) {
		if b, ok := e.(*Binary); ok && b.Op == OpOr {
			flat(b.X)
			flat(b.Y)
			return
		}
		if c, ok := e.(*Const); ok && !c.Value {
			return // false | ...
		}
		disj = append(disj, e)
	}
	flat(d.body)
	// guard[i][p] = the constant disjunct i compares parameter p with.
	guard := make([]map[int]int, len(disj))
	count := make([]map[int]bool, len(d.params))
	for i := range count {
		count[i] = map[int]bool{}
	}
	for i, e := range disj {
		guard[i] = map[int]int{}
		var conj func(e Expr)
		conj = func(e Expr) {
			switch e := e.(type) {
			case *Binary:
				if e.Op == OpAnd {
					conj(e.X)
					conj(e.Y)
				}
			case *Compare:
				if e.Neg {
					return
				}
				x, y := e.X, e.Y
				rx := s.in.paths[asPath(x)]
				if rx == nil || rx.v == nil {
					x, y = y, x
					rx = s.in.paths[asPath(x)]
				}
				if rx == nil || rx.v == nil || rx.offset != 0 {
					return
				}
				p, isParam := indexOf(d.params, rx.v)
				if !isParam || rx.typ != rx.v.typ {
					return
				}
				ry := s.in.paths[asPath(y)]
				if ry != nil && ry.v != nil {
					return
				}
				if _, msg := constant(y, rx.typ, ry); msg != "" {
					return
				}
				c, _ := constant(y, rx.typ, ry)
				if old, ok := guard[i][p]; ok && old != c {
					return // contradictory guards: leave it to the BDDs
				}
				guard[i][p] = c
				count[p][c] = true
			}
		}
		conj(e)
	}
	key, best := -1, 1
	for p, cs := range count {
		if len(cs) > best {
			key, best = p, len(cs)
		}
	}
	if key < 0 {
		return nil
	}
	sp := &splitRel{key: key, parts: map[int]*definition{}}
	groups := map[int][]Expr{}
	for i, e := range disj {
		if c, ok := guard[i][key]; ok {
			groups[c] = append(groups[c], e)
		} else {
			sp.rest = append(sp.rest, e)
		}
	}
	for c, g := range groups {
		sp.parts[c] = &definition{name: fmt.Sprintf("%s[%d]", d.name, c), kind: d.kind,
			params: d.params, vars: d.vars, body: orOf(append(g, sp.rest...)), parent: d}
	}
	return sp
}

// orOf is the disjunction of es (false for none).
func orOf(es []Expr) Expr {
	if len(es) == 0 {
		return &Const{Value: false}
	}
	x := es[0]
	for _, e := range es[1:] {
		x = &Binary{Pos: e.exprPos(), Op: OpOr, X: x, Y: e}
	}
	return x
}

// depsOf adds to deps the relations (or parts) that e applies.
func (s *solver) depsOf(e Expr, deps map[*definition]bool) {
	applications(e, func(a *Apply) { deps[s.applied(a)] = true })
}

// applied is the relation, or the part of one, that an application reads.
func (s *solver) applied(a *Apply) *definition {
	if d, ok := s.target[a]; ok {
		return d
	}
	return s.in.applies[a]
}

// components numbers the strongly connected components of the
// dependency graph so that a component comes after every component it
// uses (Tarjan's algorithm, whose order that is).
func components(defs []*definition, deps map[*definition]map[*definition]bool) map[*definition]int {
	order := map[*definition]int{}
	for i, d := range defs {
		order[d] = i
	}
	index := map[*definition]int{}
	low := map[*definition]int{}
	onStack := map[*definition]bool{}
	comp := map[*definition]int{}
	var stack []*definition
	n, scc := 0, 0
	var visit func(d *definition)
	visit = func(d *definition) {
		index[d], low[d] = n, n
		n++
		stack = append(stack, d)
		onStack[d] = true
		next := make([]*definition, 0, len(deps[d]))
		for e := range deps[d] {
			next = append(next, e)
		}
		sort.Slice(next, func(i, j int) bool { return order[next[i]] < order[next[j]] })
		for _, e := range next {
			if _, seen := index[e]; !seen {
				visit(e)
				low[d] = min(low[d], low[e])
			} else if onStack[e] {
				low[d] = min(low[d], index[e])
			}
		}
		if low[d] == index[d] {
			for {
				e := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[e] = false
				comp[e] = scc
				if e == d {
					break
				}
			}
			scc++
		}
	}
	for _, d := range defs {
		if _, seen := index[d]; !seen {
			visit(d)
		}
	}
	return comp
}
