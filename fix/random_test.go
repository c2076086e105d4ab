package fix

import (
	"context"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// This file checks the solver against a direct evaluation over explicit
// sets of tuples, on random files: an enum with three values (so the
// range constraint matters), bool, a small class, mu and nu relations
// that use each other (forward references too) positively, plain
// relations that use earlier plain ones, quantifiers, constants and
// repeated arguments. The explicit side follows the paper's nested
// algorithmic semantics literally; the solver iterates monotone
// one-kind components simultaneously and mixed ones nested.

type rtype struct {
	name   string
	values int // number of values; class values are pairs of bools
}

var (
	rBool  = rtype{"bool", 2}
	rEnum  = rtype{"T", 3}
	rClass = rtype{"P", 4} // class P { bool a; bool b; }: value = 2a+b
	rTypes = []rtype{rBool, rEnum, rClass}
)

type rrel struct {
	name   string
	kind   RelKind
	params []rtype
	body   rform
}

type rvar struct {
	name string
	t    rtype
}

// rform is a random formula with its explicit meaning.
type rform interface {
	text() string
	eval(env map[string]int, rels map[string]map[string]bool) bool
}

type (
	rConst   bool
	rBoolVar struct{ v string }
	rField   struct{ v, f string } // f is "a" or "b"
	rEqConst struct {
		v string
		t rtype
		c int
	}
	rEqVar struct{ a, b string }
	rNot   struct{ x rform }
	rBin   struct {
		op   string
		x, y rform
	}
	rQuant struct {
		forall bool
		v      rvar
		body   rform
	}
	rApp struct {
		rel  string
		args []rarg
	}
	rarg struct {
		v string // variable, or "" for the constant c
		c int
		t rtype
	}
)

func (f rConst) text() string {
	if f {
		return "true"
	}
	return "false"
}
func (f rConst) eval(map[string]int, map[string]map[string]bool) bool { return bool(f) }
func (f rBoolVar) text() string                                       { return f.v }
func (f rBoolVar) eval(env map[string]int, _ map[string]map[string]bool) bool {
	return env[f.v] == 1
}
func (f rField) text() string { return f.v + "." + f.f }
func (f rField) eval(env map[string]int, _ map[string]map[string]bool) bool {
	if f.f == "a" {
		return env[f.v]>>1 == 1
	}
	return env[f.v]&1 == 1
}
func (f rEqConst) text() string { return fmt.Sprintf("%s = %d", f.v, f.c) }
func (f rEqConst) eval(env map[string]int, _ map[string]map[string]bool) bool {
	return env[f.v] == f.c
}
func (f rEqVar) text() string { return f.a + " = " + f.b }
func (f rEqVar) eval(env map[string]int, _ map[string]map[string]bool) bool {
	return env[f.a] == env[f.b]
}
func (f rNot) text() string { return "!(" + f.x.text() + ")" }
func (f rNot) eval(env map[string]int, r map[string]map[string]bool) bool {
	return !f.x.eval(env, r)
}
func (f rBin) text() string { return "(" + f.x.text() + " " + f.op + " " + f.y.text() + ")" }
func (f rBin) eval(env map[string]int, r map[string]map[string]bool) bool {
	x, y := f.x.eval(env, r), f.y.eval(env, r)
	switch f.op {
	case "&":
		return x && y
	case "|":
		return x || y
	case "->":
		return !x || y
	}
	return x == y
}
func (f rQuant) text() string {
	q := "exists"
	if f.forall {
		q = "forall"
	}
	return fmt.Sprintf("(%s %s %s. %s)", q, f.v.t.name, f.v.name, f.body.text())
}
func (f rQuant) eval(env map[string]int, r map[string]map[string]bool) bool {
	old, had := env[f.v.name]
	defer func() {
		if had {
			env[f.v.name] = old
		} else {
			delete(env, f.v.name)
		}
	}()
	for x := 0; x < f.v.t.values; x++ {
		env[f.v.name] = x
		if f.body.eval(env, r) != f.forall {
			return !f.forall
		}
	}
	return f.forall
}
func (f rApp) text() string {
	var as []string
	for _, a := range f.args {
		if a.v != "" {
			as = append(as, a.v)
		} else {
			as = append(as, fmt.Sprint(a.c))
		}
	}
	return f.rel + "(" + strings.Join(as, ", ") + ")"
}
func (f rApp) eval(env map[string]int, r map[string]map[string]bool) bool {
	vals := make([]int, len(f.args))
	for i, a := range f.args {
		if a.v != "" {
			vals[i] = env[a.v]
		} else {
			vals[i] = a.c
		}
	}
	return r[f.rel][fmt.Sprint(vals)]
}

type rgen struct {
	rng    *rand.Rand
	rels   []*rrel
	index  int   // of cur
	cur    *rrel // the relation being defined (nil: the query)
	noFix  bool  // under <->: no mu/nu application
	dist   bool  // only &, | and exists (for #frontier)
	fresh  int
	scope  []rvar
	budget int
}

func (g *rgen) pickVar(t rtype) string {
	var cands []string
	seen := map[string]bool{}
	for i := len(g.scope) - 1; i >= 0; i-- {
		v := g.scope[i]
		if !seen[v.name] && v.t == t {
			cands = append(cands, v.name)
		}
		seen[v.name] = true // an inner binding hides the outer ones
	}
	if len(cands) == 0 {
		return ""
	}
	return cands[g.rng.Intn(len(cands))]
}

func (g *rgen) form(depth int, positive bool) rform {
	g.budget--
	if depth <= 0 || g.budget <= 0 {
		return g.atom(positive)
	}
	k := g.rng.Intn(9)
	if g.dist && (k == 0 || k == 5 || k == 6) {
		k = 1 + k%4 // & or |
	}
	switch k {
	case 0:
		return rNot{g.form(depth-1, !positive)}
	case 1, 2:
		return rBin{"&", g.form(depth-1, positive), g.form(depth-1, positive)}
	case 3, 4:
		return rBin{"|", g.form(depth-1, positive), g.form(depth-1, positive)}
	case 5:
		return rBin{"->", g.form(depth-1, !positive), g.form(depth-1, positive)}
	case 6:
		// <-> uses both sides both ways: no fixed point under it.
		saved := g.noFix
		g.noFix = true
		f := rBin{"<->", g.form(depth-1, positive), g.form(depth-1, positive)}
		g.noFix = saved
		return f
	default:
		g.fresh++
		v := rvar{fmt.Sprintf("q%d", g.fresh%3), rTypes[g.rng.Intn(len(rTypes))]}
		g.scope = append(g.scope, v)
		body := g.form(depth-1, positive)
		g.scope = g.scope[:len(g.scope)-1]
		return rQuant{forall: !g.dist && g.rng.Intn(2) == 0, v: v, body: body}
	}
}

func (g *rgen) atom(positive bool) rform {
	for tries := 0; tries < 10; tries++ {
		switch g.rng.Intn(6) {
		case 0:
			return rConst(g.rng.Intn(2) == 0)
		case 1:
			if v := g.pickVar(rBool); v != "" {
				return rBoolVar{v}
			}
		case 2:
			if v := g.pickVar(rClass); v != "" {
				return rField{v, []string{"a", "b"}[g.rng.Intn(2)]}
			}
		case 3:
			t := rTypes[g.rng.Intn(2)]
			if v := g.pickVar(t); v != "" {
				if w := g.pickVar(t); w != "" && g.rng.Intn(2) == 0 {
					return rEqVar{v, w}
				}
				return rEqConst{v, t, g.rng.Intn(t.values)}
			}
		default:
			var cands []*rrel
			for i, r := range g.rels {
				switch {
				case g.cur == nil: // the query uses anything
					cands = append(cands, r)
				case g.cur.kind == Plain: // earlier plain relations only
					if r.kind == Plain && i < g.index {
						cands = append(cands, r)
					}
				case r.kind == Plain:
					if i < g.index {
						cands = append(cands, r)
					}
				case positive && !g.noFix:
					cands = append(cands, r)
				}
			}
			if len(cands) == 0 {
				continue
			}
			r := cands[g.rng.Intn(len(cands))]
			app := rApp{rel: r.name}
			for _, t := range r.params {
				v := g.pickVar(t)
				if v == "" || t != rClass && g.rng.Intn(4) == 0 {
					if t == rClass {
						return rConst(false)
					}
					app.args = append(app.args, rarg{c: g.rng.Intn(t.values), t: t})
				} else {
					app.args = append(app.args, rarg{v: v, t: t})
				}
			}
			return app
		}
	}
	return rConst(true)
}

func tuples(params []rtype) [][]int {
	out := [][]int{{}}
	for _, t := range params {
		var next [][]int
		for _, p := range out {
			for x := 0; x < t.values; x++ {
				next = append(next, append(append([]int(nil), p...), x))
			}
		}
		out = next
	}
	return out
}

// explicit computes the query, evaluating each relation it uses as the
// paper's §3 says: Evaluate(R) starts from false (mu) or everything (nu)
// and, each round, evaluates from scratch every relation R's body uses
// (with R and the enclosing relations fixed), then R's body, until R is
// stable. A relation that cannot reach the fixed ones is computed once.
func explicit(rels []*rrel, query rform) bool {
	byName := map[string]*rrel{}
	for _, r := range rels {
		byName[r.name] = r
	}
	uses := func(f rform) map[string]bool {
		out := map[string]bool{}
		var walk func(rform)
		walk = func(f rform) {
			switch f := f.(type) {
			case rNot:
				walk(f.x)
			case rBin:
				walk(f.x)
				walk(f.y)
			case rQuant:
				walk(f.body)
			case rApp:
				out[f.rel] = true
			}
		}
		walk(f)
		return out
	}
	reaches := func(from string, targets map[string]map[string]bool) bool {
		seen := map[string]bool{}
		var dfs func(string) bool
		dfs = func(n string) bool {
			if _, ok := targets[n]; ok {
				return true
			}
			if seen[n] {
				return false
			}
			seen[n] = true
			for m := range uses(byName[n].body) {
				if dfs(m) {
					return true
				}
			}
			return false
		}
		return dfs(from)
	}
	final := map[string]map[string]bool{}
	var evaluate func(r *rrel, fixed map[string]map[string]bool) map[string]bool
	evaluate = func(r *rrel, fixed map[string]map[string]bool) map[string]bool {
		all := tuples(r.params)
		cur := map[string]bool{}
		if r.kind == Greatest {
			for _, tu := range all {
				cur[fmt.Sprint(tu)] = true
			}
		}
		for {
			vals := map[string]map[string]bool{}
			for k, v := range fixed {
				vals[k] = v
			}
			vals[r.name] = cur
			for name := range uses(r.body) {
				if _, ok := vals[name]; ok {
					continue
				}
				if reaches(name, vals) {
					vals[name] = evaluate(byName[name], vals)
				} else {
					if _, ok := final[name]; !ok {
						final[name] = evaluate(byName[name], map[string]map[string]bool{})
					}
					vals[name] = final[name]
				}
			}
			next := map[string]bool{}
			for _, tu := range all {
				env := map[string]int{}
				for i, x := range tu {
					env[fmt.Sprintf("p%d", i)] = x
				}
				if r.body.eval(env, vals) {
					next[fmt.Sprint(tu)] = true
				}
			}
			same := len(next) == len(cur)
			for k := range next {
				same = same && cur[k]
			}
			if same || r.kind == Plain {
				return next
			}
			cur = next
		}
	}
	vals := map[string]map[string]bool{}
	for name := range uses(query) {
		vals[name] = evaluate(byName[name], map[string]map[string]bool{})
	}
	return query.eval(map[string]int{}, vals)
}

func TestSolveRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for round := 0; round < 400; round++ {
		g := &rgen{rng: rng}
		var b strings.Builder
		b.WriteString("enum T {0..2};\nclass P { bool a; bool b; };\n")
		nrel := 1 + rng.Intn(4)
		for i := 0; i < nrel; i++ {
			r := &rrel{name: fmt.Sprintf("R%d", i), kind: RelKind(rng.Intn(3))}
			for j := 1 + rng.Intn(3); j > 0; j-- {
				r.params = append(r.params, rTypes[rng.Intn(len(rTypes))])
			}
			g.rels = append(g.rels, r)
		}
		for i, r := range g.rels {
			g.scope = nil
			for j, tp := range r.params {
				g.scope = append(g.scope, rvar{fmt.Sprintf("p%d", j), tp})
			}
			g.cur, g.index = r, i
			g.budget = 25
			r.body = g.form(4, true)
			var ps []string
			for j, tp := range r.params {
				ps = append(ps, fmt.Sprintf("%s p%d", tp.name, j))
			}
			kw := map[RelKind]string{Plain: "bool", Least: "mu bool", Greatest: "nu bool"}[r.kind]
			fmt.Fprintf(&b, "%s %s(%s) (%s);\n", kw, r.name, strings.Join(ps, ", "), r.body.text())
		}
		g.scope, g.cur = nil, nil
		g.budget = 25
		q := g.form(4, true)
		fmt.Fprintf(&b, "%s;\n", q.text())
		src := b.String()
		want := explicit(g.rels, q)
		f, err := ParseFile("r.mu", []byte(src))
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, src)
		}
		a, err := Solve(context.Background(), f, Options{})
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, src)
		}
		if a.Value != want {
			t.Fatalf("round %d: solver %v, explicit %v\n%s", round, a.Value, want, src)
		}
	}
}

// TestFrontierRandom checks #frontier on random files whose mu relations
// use each other only under &, | and exists (several applications in one
// body, mutual recursion): the solver with #frontier on every relation
// against the direct evaluation.
func TestFrontierRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	recursive := 0
	for round := 0; round < 300; round++ {
		g := &rgen{rng: rng, dist: true}
		var b strings.Builder
		b.WriteString("enum T {0..2};\nclass P { bool a; bool b; };\n")
		nrel := 1 + rng.Intn(3)
		for i := 0; i < nrel; i++ {
			r := &rrel{name: fmt.Sprintf("R%d", i), kind: Least}
			for j := 1 + rng.Intn(3); j > 0; j-- {
				r.params = append(r.params, rTypes[rng.Intn(len(rTypes))])
			}
			g.rels = append(g.rels, r)
		}
		for i, r := range g.rels {
			g.scope = nil
			for j, tp := range r.params {
				g.scope = append(g.scope, rvar{fmt.Sprintf("p%d", j), tp})
			}
			g.cur, g.index = r, i
			g.budget = 25
			r.body = g.form(4, true)
			var ps []string
			for j, tp := range r.params {
				ps = append(ps, fmt.Sprintf("%s p%d", tp.name, j))
			}
			fmt.Fprintf(&b, "mu bool %s(%s) (%s);\n#frontier %s;\n", r.name, strings.Join(ps, ", "), r.body.text(), r.name)
		}
		g.scope, g.cur = nil, nil
		g.budget = 25
		q := g.form(4, true)
		fmt.Fprintf(&b, "%s;\n", q.text())
		src := b.String()
		want := explicit(g.rels, q)
		f, err := ParseFile("r.mu", []byte(src))
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, src)
		}
		sv, err := NewSolver(f, Options{})
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, src)
		}
		a, err := sv.Solve(context.Background())
		sv.Release()
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, src)
		}
		if a.Value != want {
			t.Fatalf("round %d: solver %v, explicit %v\n%s", round, a.Value, want, src)
		}
		for _, r := range a.Relations {
			if r.Iterations > 2 {
				recursive++
				break
			}
		}
	}
	if recursive < 20 {
		t.Errorf("only %d files iterated more than twice", recursive)
	}
}

// TestSplitRandom checks partitioned relations (split.go) on random
// systems of one kind whose bodies are disjunctions guarded by their
// first parameter (p0 = c & ...), as Getafix's per-module relations are,
// applied often with a constant there: the solver, which evaluates the
// applications with a constant guard from the parts, against the direct
// evaluation.
func TestSplitRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(29))
	split := 0
	for round := 0; round < 300; round++ {
		g := &rgen{rng: rng, dist: true}
		var b strings.Builder
		b.WriteString("enum T {0..2};\nclass P { bool a; bool b; };\n")
		kind := []RelKind{Least, Greatest}[rng.Intn(2)]
		nrel := 1 + rng.Intn(4)
		for i := 0; i < nrel; i++ {
			r := &rrel{name: fmt.Sprintf("R%d", i), kind: kind, params: []rtype{rEnum}}
			for j := rng.Intn(3); j > 0; j-- {
				r.params = append(r.params, rTypes[rng.Intn(len(rTypes))])
			}
			g.rels = append(g.rels, r)
		}
		for i, r := range g.rels {
			g.scope = nil
			for j, tp := range r.params {
				g.scope = append(g.scope, rvar{fmt.Sprintf("p%d", j), tp})
			}
			g.cur, g.index = r, i
			var body rform = rConst(false)
			for k := 1 + rng.Intn(4); k > 0; k-- {
				g.budget = 10
				var d rform = g.form(3, true)
				if rng.Intn(5) > 0 {
					d = rBin{"&", rEqConst{"p0", rEnum, rng.Intn(3)}, d}
				}
				body = rBin{"|", body, d}
			}
			r.body = body
			var ps []string
			for j, tp := range r.params {
				ps = append(ps, fmt.Sprintf("%s p%d", tp.name, j))
			}
			fmt.Fprintf(&b, "%s bool %s(%s) (%s);\n", kind, r.name, strings.Join(ps, ", "), r.body.text())
		}
		g.scope, g.cur = nil, nil
		g.budget = 25
		q := g.form(4, true)
		fmt.Fprintf(&b, "%s;\n", q.text())
		src := b.String()
		want := explicit(g.rels, q)
		f, err := ParseFile("r.mu", []byte(src))
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, src)
		}
		a, err := Solve(context.Background(), f, Options{})
		if err != nil {
			t.Fatalf("round %d: %v\n%s", round, err, src)
		}
		if a.Value != want {
			t.Fatalf("round %d: solver %v, explicit %v\n%s", round, a.Value, want, src)
		}
		for _, r := range a.Relations {
			if strings.Contains(r.Name, "[") {
				split++
				break
			}
		}
	}
	if split < 50 {
		t.Errorf("only %d files had a relation split", split)
	}
}
