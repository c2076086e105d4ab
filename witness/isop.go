package witness

import (
	"errors"
	"sort"
	"strings"

	"boolprog/bdd"
)

// literal is one literal of a cube: a BDD variable and its polarity.
type literal struct {
	v   int
	pos bool
}

// isop computes an irredundant sum of products of a function between
// lower and upper (Minato–Morreale): a list of cubes whose disjunction f
// satisfies lower ⇒ f ⇒ upper, no cube of which can be dropped. With
// lower = upper it is an irredundant cover of exactly that function.
type isop struct {
	m     *bdd.Manager
	memo  map[[2]bdd.Node]isopResult
	lits  int // literals in the cubes built so far
	limit int // past it, stop (the formula would be unreadable)
}

// maxCoverLiterals bounds the literals of one formula's cover.
const maxCoverLiterals = 1 << 20

// errCoverTooLarge is returned for a set whose cover exceeds
// maxCoverLiterals.
var errCoverTooLarge = errors.New("an invariant's sum of products is too large to write")

type isopResult struct {
	cubes [][]literal
	f     bdd.Node
}

func newISOP(m *bdd.Manager) *isop {
	return &isop{m: m, memo: map[[2]bdd.Node]isopResult{}, limit: maxCoverLiterals}
}

// top returns the variable at the smallest level among the roots of f and g.
func (s *isop) top(f, g bdd.Node) int {
	m := s.m
	vf, vg := m.Var(f), m.Var(g)
	switch {
	case vf < 0:
		return vg
	case vg < 0:
		return vf
	case m.Level(vf) <= m.Level(vg):
		return vf
	}
	return vg
}

func (s *isop) cofactors(f bdd.Node, v int) (lo, hi bdd.Node) {
	if s.m.Var(f) == v {
		return s.m.Low(f), s.m.High(f)
	}
	return f, f
}

func (s *isop) run(lower, upper bdd.Node) isopResult {
	m := s.m
	if lower == bdd.False {
		return isopResult{f: bdd.False}
	}
	if upper == bdd.True {
		return isopResult{cubes: [][]literal{{}}, f: bdd.True}
	}
	if s.lits > s.limit {
		return isopResult{f: lower} // abandoned: coverText reports it
	}
	key := [2]bdd.Node{lower, upper}
	if r, ok := s.memo[key]; ok {
		return r
	}
	v := s.top(lower, upper)
	l0, l1 := s.cofactors(lower, v)
	u0, u1 := s.cofactors(upper, v)
	r0 := s.run(m.And(l0, m.Not(u1)), u0)
	r1 := s.run(m.And(l1, m.Not(u0)), u1)
	lstar := m.Or(m.And(l0, m.Not(r0.f)), m.And(l1, m.Not(r1.f)))
	rs := s.run(lstar, m.And(u0, u1))
	x := m.Ithvar(v)
	f := m.Or(m.Or(m.And(m.Not(x), r0.f), m.And(x, r1.f)), rs.f)
	var cubes [][]literal
	for _, c := range r0.cubes {
		cubes = append(cubes, append([]literal{{v, false}}, c...))
	}
	for _, c := range r1.cubes {
		cubes = append(cubes, append([]literal{{v, true}}, c...))
	}
	cubes = append(cubes, rs.cubes...)
	s.lits += len(r0.cubes) + len(r1.cubes)
	r := isopResult{cubes: cubes, f: f}
	s.memo[key] = r
	return r
}

// coverText writes an irredundant sum of products of f as a formula, with
// name giving each variable's text: "T", "F", or cubes joined by " | ",
// each cube's literals joined by " & " (parenthesised when there are
// several cubes), sorted for a stable text.
//
// Equalities are factored out first: for each pair (a, b) of variables
// that f forces equal (or different), "(a = b)" (or "(a != b)"), and f
// becomes ∃b. f, whose cover is smaller; f is then their conjunction
// with the rest. The pairs given (a variable now and its entry value,
// typically) are tried first, then any two variables of the support, the
// later one in the order quantified.
func coverText(m *bdd.Manager, f bdd.Node, pairs [][2]int, name func(v int) string) (string, error) {
	var eqs []string
	if f != bdd.False {
		cands := append([][2]int(nil), pairs...)
		sup := m.Support(f)
		for i, a := range sup {
			for _, b := range sup[i+1:] {
				cands = append(cands, [2]int{a, b})
			}
		}
		for _, pr := range cands {
			if f == bdd.True {
				break
			}
			a, b := m.Ithvar(pr[0]), m.Ithvar(pr[1])
			op := " = "
			if m.Imp(f, m.Equiv(a, b)) != bdd.True {
				if m.Imp(f, m.Equiv(a, m.Not(b))) != bdd.True {
					continue
				}
				op = " != "
			}
			eqs = append(eqs, "("+name(pr[0])+op+name(pr[1])+")")
			f = m.Exists(f, m.VarSet(pr[1]))
		}
	}
	if len(eqs) > 0 {
		if f == bdd.True {
			return strings.Join(eqs, " & "), nil
		}
		rest, err := cover(m, f, name)
		if strings.Contains(rest, " | ") {
			rest = "(" + rest + ")"
		}
		return strings.Join(eqs, " & ") + " & " + rest, err
	}
	return cover(m, f, name)
}

func cover(m *bdd.Manager, f bdd.Node, name func(v int) string) (string, error) {
	switch f {
	case bdd.False:
		return "F", nil
	case bdd.True:
		return "T", nil
	}
	s := newISOP(m)
	r := s.run(f, f)
	if s.lits > s.limit {
		return "", errCoverTooLarge
	}
	var cubes []string
	for _, c := range r.cubes {
		lits := make([]string, len(c))
		sort.Slice(c, func(i, j int) bool { return name(c[i].v) < name(c[j].v) })
		for i, l := range c {
			lits[i] = name(l.v)
			if !l.pos {
				lits[i] = "!" + lits[i]
			}
		}
		s := strings.Join(lits, " & ")
		if len(r.cubes) > 1 && len(c) > 1 {
			s = "(" + s + ")"
		}
		cubes = append(cubes, s)
	}
	sort.Strings(cubes)
	return strings.Join(cubes, " | "), nil
}
