package program

import (
	"embed"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"

	"boolprog/fix"
	"boolprog/ir"
)

//go:embed algorithms/*.mu
var algorithms embed.FS

// Algorithms lists the built-in algorithms, by name: "summary" (the
// paper's §4.1), "ef" (§4.2, entry-forward with the split return clause)
// and "efopt" (§4.3, with the frontier bit).
var Algorithms = []string{"ef", "efopt", "summary"}

// Algorithm returns the text of a built-in algorithm.
func Algorithm(name string) (string, error) {
	b, err := algorithms.ReadFile("algorithms/" + name + ".mu")
	if err != nil {
		return "", fmt.Errorf("no algorithm %q (the algorithms are %s)", name, strings.Join(Algorithms, ", "))
	}
	return string(b), nil
}

// relSpec describes one of the program's relations as formulas see it.
type relSpec struct {
	name   string
	params []string // names of State parameters
	order  string
	doc    string
	body   func(b *builder[string]) string
}

// programRelations are the relations an algorithm may use, in the order
// a model declares them. Their parameters are all of type State; a
// relation that only needs a program counter reads the pc field of its
// State.
var programRelations = []relSpec{
	{"Entry", []string{"u"}, "", "u is at the entry of a procedure", func(b *builder[string]) string { return b.entry(0) }},
	{"Exit", []string{"u"}, "", "u is at the exit of a procedure", func(b *builder[string]) string { return b.exit(0) }},
	{"Target", []string{"u"}, "", "u is at an error location", func(b *builder[string]) string { return b.target(0) }},
	{"Init", []string{"u"}, "", "u is an initial state: main's entry, slots out of main's scope false", func(b *builder[string]) string { return b.init(0) }},
	{"Across", []string{"x", "v"}, "x ~+ v", "x.pc is a call and v.pc its return point", func(b *builder[string]) string { return b.across(0, 1) }},
	{"ProgramInt", []string{"x", "v"}, "x ~+ v", "one step from x to v along an edge that is not a call", func(b *builder[string]) string { return b.internal(0, 1) }},
	{"IntoCall", []string{"x", "y"}, "x ~+ y", "x is a call and y the callee's entry state", func(b *builder[string]) string { return b.intoCall(0, 1) }},
	{"Return", []string{"x", "z", "v"}, "x ~+ z, z ~+ v", "x is a call, z the callee's exit state, v the state at the return point", func(b *builder[string]) string { return b.ret(0, 1, 2) }},
	{"ReturnA", []string{"x", "zs", "v"}, "x ~+ zs, zs ~+ v", "the caller's half of Return (reads only zs.pc)", func(b *builder[string]) string { return b.retA(0, 1, 2) }},
	{"ReturnB", []string{"xs", "z", "v"}, "xs ~+ z, z ~+ v", "the callee's half of Return (reads only xs.pc)", func(b *builder[string]) string { return b.retB(0, 1, 2) }},
}

// RelationNames returns the names of the program's relations that a
// formula may use.
func RelationNames() []string {
	var out []string
	for _, r := range programRelations {
		out = append(out, r.name)
	}
	return out
}

// used returns the program's relations that the algorithm text applies.
func used(alg string) []relSpec {
	var out []relSpec
	for _, r := range programRelations {
		if regexp.MustCompile(`\b` + r.name + `\s*\(`).MatchString(alg) {
			out = append(out, r)
		}
	}
	return out
}

// header writes the declaration line of a relation, without its body.
func (r relSpec) header() string {
	ps := make([]string, len(r.params))
	for i, p := range r.params {
		ps[i] = "State " + p
	}
	h := fmt.Sprintf("bool %s(%s)", r.name, strings.Join(ps, ", "))
	if r.order != "" {
		h += " " + r.order
	}
	return h
}

// WritePrelude writes what an algorithm needs before it when the
// program's relations are provided from Go: the types, and the relations
// the algorithm uses declared without a body.
func WritePrelude(w io.Writer, enc *Encoding, alg string) error {
	if err := enc.WriteTypes(w); err != nil {
		return err
	}
	for _, r := range used(alg) {
		fmt.Fprintf(w, "// %s\n%s;\n", r.doc, r.header())
	}
	_, err := fmt.Fprintf(w, "\n")
	return err
}

// WriteModel writes a complete model: the types, the relations the
// algorithm uses written out as formulas, and the algorithm. Solving it
// (boolprog mucke) answers whether an error location is reachable.
func WriteModel(w io.Writer, enc *Encoding, alg string) error {
	fmt.Fprintf(w, "// Written by boolprog mucke --emit.\n")
	if err := enc.WriteTypes(w); err != nil {
		return err
	}
	for _, r := range used(alg) {
		b := &builder[string]{enc: enc, a: &textAlg{enc: enc, names: r.params}}
		fmt.Fprintf(w, "\n// %s\n%s\n(%s);\n", r.doc, r.header(), r.body(b))
	}
	// Mucke reads a relation only after its head: declare those the
	// algorithm applies before defining them.
	if af, err := fix.ParseFile("algorithm", []byte(alg)); err == nil {
		if fw := fix.Forward(af); len(fw) > 0 {
			fmt.Fprintf(w, "\n// Declared before use (Mucke reads a relation only after its head).\n%s\n", strings.Join(fw, "\n"))
		}
	}
	_, err := fmt.Fprintf(w, "\n%s", alg)
	return err
}

// textAlg writes formulas in Mucke's language over the States names.
type textAlg struct {
	enc   *Encoding
	names []string
}

func (a *textAlg) tru() string { return "true" }
func (a *textAlg) fls() string { return "false" }

func (a *textAlg) and(fs ...string) string { return a.join(" & ", "true", "false", fs) }
func (a *textAlg) or(fs ...string) string  { return a.join(" | ", "false", "true", fs) }

// join joins fs by op, leaving out unit and giving zero for any zero.
func (a *textAlg) join(op, unit, zero string, fs []string) string {
	var keep []string
	for _, f := range fs {
		switch f {
		case unit:
			continue
		case zero:
			return zero
		}
		keep = append(keep, f)
	}
	switch len(keep) {
	case 0:
		return unit
	case 1:
		return keep[0]
	}
	return "(" + strings.Join(keep, op) + ")"
}

// simple says f is a field or a negated field (no operator to bind).
func simple(f string) bool {
	return !strings.ContainsAny(f, " ()=")
}

func (a *textAlg) not(f string) string {
	switch {
	case f == "true":
		return "false"
	case f == "false":
		return "true"
	case strings.HasPrefix(f, "!") && simple(f):
		return f[1:]
	case simple(f):
		return "!" + f
	case strings.HasPrefix(f, "(") && strings.HasSuffix(f, ")") && balanced(f):
		return "!" + f
	}
	return "!(" + f + ")"
}

// balanced says the parenthesis that opens f closes at its end.
func balanced(f string) bool {
	depth := 0
	for i, c := range f {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 && i != len(f)-1 {
				return false
			}
		}
	}
	return depth == 0
}

func (a *textAlg) equiv(x, y string) string {
	switch {
	case x == "true":
		return y
	case y == "true":
		return x
	case x == "false":
		return a.not(y)
	case y == "false":
		return a.not(x)
	}
	if simple(x) && simple(y) && !strings.HasPrefix(x, "!") && !strings.HasPrefix(y, "!") {
		return x + " = " + y
	}
	return "(" + x + " <-> " + y + ")"
}

func (a *textAlg) lit(st, s int) string { return a.names[st] + "." + a.enc.FieldName(s) }

func (a *textAlg) pcIs(st, pc int) string { return a.names[st] + ".pc=" + strconv.Itoa(pc) }

func (a *textAlg) poss(e ir.Expr, read func(v *ir.Var) (int, int)) (string, string) {
	alg := textAlgebra{a}
	p := ir.Possible[string](alg, e, func(v *ir.Var) (string, string) {
		l := a.lit(read(v))
		return l, a.not(l)
	})
	return p.True(alg), p.False(alg)
}

// textAlgebra is the ir.Algebra of formulas as text.
type textAlgebra struct{ a *textAlg }

func (textAlgebra) True() string                 { return "true" }
func (textAlgebra) False() string                { return "false" }
func (t textAlgebra) Not(x string) string        { return t.a.not(x) }
func (t textAlgebra) And(x, y string) string     { return t.a.and(x, y) }
func (t textAlgebra) Or(x, y string) string      { return t.a.or(x, y) }
func (t textAlgebra) Xor(x, y string) string     { return t.a.not(t.a.equiv(x, y)) }
func (t textAlgebra) Equiv(x, y string) string   { return t.a.equiv(x, y) }
func (t textAlgebra) Implies(x, y string) string { return t.a.or(t.a.not(x), y) }
