package fix

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
	"sort"

	"boolprog/internal/graph"
)

// typ is a checked type: *boolType, *enumType or *classType.
type typ interface {
	name() string
	width() int      // number of bits
	physical() []int // the bits of a value, logical indices in BDD order
}

type boolType struct{}

func (boolType) name() string     { return "bool" }
func (boolType) width() int       { return 1 }
func (boolType) physical() []int  { return []int{0} }
func (t *enumType) name() string  { return t.decl.Name }
func (t *classType) name() string { return t.decl.Name }

// enumType holds values lo..hi (or the named values 0..n-1), encoded
// as value-lo in binary, most significant bit first.
type enumType struct {
	decl   *EnumDecl
	lo, hi int
	n      int
}

func (t *enumType) width() int { return t.n }
func (t *enumType) physical() []int {
	p := make([]int, t.n)
	for i := range p {
		p[i] = i
	}
	return p
}

// classType lays its fields out one after the other (logical order); the
// BDD order of the bits follows the class's order constraints.
type classType struct {
	decl   *ClassDecl
	fields []*fieldInfo
	byName map[string]*fieldInfo
	n      int
	phys   []int
}

type fieldInfo struct {
	name   string
	typ    typ
	offset int
}

func (t *classType) width() int      { return t.n }
func (t *classType) physical() []int { return t.phys }

var theBool typ = boolType{}

// variable is a relation parameter or a quantified variable of one
// definition (a relation or the query). Quantified variables of the same
// name and type in disjoint scopes share one variable, hence its bits.
type variable struct {
	name  string
	typ   typ
	pos   Pos
	owner *definition
	index int // in owner.vars
	near  *variable
}

// definition is a relation definition or a top-level formula, with every
// variable its body binds.
type definition struct {
	rel    *RelDecl // nil for a query
	name   string
	kind   RelKind
	params []*variable
	vars   []*variable // params first
	body   Expr
	deps   map[*definition]bool
	scc    int
	sizes  bool // a #size directive names it
	// For a part of a split relation (see split): the relation, and
	// whether an application reads the part.
	parent *definition
	used   bool
}

// ref is what a Path denotes: a (part of a) variable, or an enum constant.
type ref struct {
	v      *variable // nil for a constant
	offset int       // first logical bit within v
	typ    typ       // nil for a named constant whose type comes from context
	value  int       // for a constant: the encoded value
	cname  string    // for a named constant not yet typed
}

type info struct {
	types   map[string]typ
	enumVal map[string][]*enumType // value name -> enums that define it
	rels    map[string]*definition
	defs    []*definition // relations in source order
	query   *definition
	paths   map[*Path]*ref
	applies map[*Apply]*definition
	quant   map[*Param]*variable
	sizes   []string // relation names of #size directives, in order
	// frontier: the components (by a member) that #frontier asks to
	// evaluate from the tuples each round adds; frontierAt: the directive.
	frontier   map[*definition]bool
	frontierAt map[*definition]Pos
}

type checker struct {
	file string
	errs ErrorList
	in   *info
	def  *definition
	// scope: the innermost binding of each name.
	scope map[string]*variable
}

func (c *checker) errorf(pos Pos, format string, args ...any) {
	c.errs.add(c.file, pos, format, args...)
}

// Check resolves names and types: undefined types, relations, variables
// and fields, arity and argument types of relation applications, kinds of
// compared values, and order constraints. It also rejects recursion
// through a plain bool definition, and values too wide for the solver. It
// reports every problem as an ErrorList and does no BDD work. Solve calls
// Check when it has not been called.
func Check(f *File) error { return check(context.Background(), f) }

func check(ctx context.Context, f *File) error {
	c := &checker{file: f.Name, in: &info{
		types:   map[string]typ{"bool": theBool},
		enumVal: map[string][]*enumType{},
		rels:    map[string]*definition{},
		paths:   map[*Path]*ref{},
		applies: map[*Apply]*definition{},
		quant:   map[*Param]*variable{},
	}}
	// Types and relation names first, so relations may refer to later ones.
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *EnumDecl:
			c.enum(d)
		case *ClassDecl:
			c.class(d)
		case *RelDecl:
			if prev, dup := c.in.rels[d.Name]; dup {
				if prev.body == nil && d.Body != nil {
					c.define(prev, d)
					continue
				}
				c.errorf(d.Pos, "relation %s defined twice", d.Name)
				continue
			}
			if _, isType := c.in.types[d.Name]; isType {
				c.errorf(d.Pos, "%s is a type, not a relation name", d.Name)
			}
			def := &definition{rel: d, name: d.Name, kind: d.Kind, body: d.Body, deps: map[*definition]bool{}}
			c.in.rels[d.Name] = def
			c.in.defs = append(c.in.defs, def)
		}
	}
	for _, def := range c.in.defs {
		if def.body == nil && def.kind != Plain {
			c.errorf(def.rel.Pos, "%s relation %s is declared but never defined", def.kind, def.name)
		}
		c.params(def)
	}
	for _, d := range f.Decls {
		if err := ctx.Err(); err != nil {
			return err
		}
		switch d := d.(type) {
		case *RelDecl:
			if def := c.in.rels[d.Name]; def != nil && (def.rel == d || d.Body != nil && def.body == d.Body) {
				c.relation(def)
			}
		case *Query:
			def := &definition{name: "query", body: d.Body, deps: map[*definition]bool{}}
			c.def, c.scope = def, map[string]*variable{}
			c.formula(d.Body)
			c.in.query = def
		case *Directive:
			c.directive(d)
		}
	}
	c.recursion()
	c.frontiers()
	all := c.in.defs
	if c.in.query != nil {
		all = append(all[:len(all):len(all)], c.in.query)
	}
	for _, d := range all {
		n := 0
		for _, v := range d.vars {
			n += v.typ.width()
		}
		if n > maxDefBits {
			pos := Pos{1, 1}
			if d.rel != nil {
				pos = d.rel.Pos
			}
			c.errorf(pos, "%s needs %d BDD variables, more than %d", d.name, n, maxDefBits)
		}
	}
	if err := c.errs.err(); err != nil {
		return err
	}
	f.info, f.checked = c.in, true
	return nil
}

func (c *checker) enum(d *EnumDecl) {
	if _, dup := c.in.types[d.Name]; dup {
		c.errorf(d.Pos, "type %s declared twice", d.Name)
		return
	}
	t := &enumType{decl: d, lo: d.Lo, hi: d.Hi}
	if d.Names != nil {
		t.lo, t.hi = 0, len(d.Names)-1
		seen := map[string]bool{}
		for _, n := range d.Names {
			if seen[n] {
				c.errorf(d.Pos, "value %s listed twice in enum %s", n, d.Name)
			}
			seen[n] = true
			c.in.enumVal[n] = append(c.in.enumVal[n], t)
		}
	}
	t.n = bits.Len(uint(t.hi - t.lo))
	if t.n == 0 {
		t.n = 1
	}
	c.in.types[d.Name] = t
}

func (c *checker) lookupType(tn *TypeName) typ {
	t, ok := c.in.types[tn.Name]
	if !ok {
		c.errorf(tn.Pos, "undefined type %s", tn.Name)
		return nil
	}
	if tn.Len > 0 {
		return c.array(t, tn.Len, tn.Pos)
	}
	return t
}

// array is the type of an array of n values of elem: a class whose
// fields are named [0] ... [n-1], laid out one after the other; one type
// per element type and length, so that arrays of the same kind compare
// equal.
func (c *checker) array(elem typ, n int, pos Pos) typ {
	name := fmt.Sprintf("%s[%d]", elem.name(), n)
	if t, ok := c.in.types[name]; ok {
		return t
	}
	if n*elem.width() > maxWidth {
		c.errorf(pos, "array %s has %d bits, more than the %d a value may have", name, n*elem.width(), maxWidth)
		return nil
	}
	t := &classType{decl: &ClassDecl{Pos: pos, Name: name}, byName: map[string]*fieldInfo{}}
	var items []orderItem
	for i := range n {
		fi := &fieldInfo{name: fmt.Sprintf("[%d]", i), typ: elem, offset: t.n}
		t.fields = append(t.fields, fi)
		t.byName[fi.name] = fi
		bitsOf := make([]int, 0, elem.width())
		for _, b := range elem.physical() {
			bitsOf = append(bitsOf, fi.offset+b)
		}
		items = append(items, orderItem{bits: bitsOf})
		t.n += elem.width()
	}
	t.phys = arrange(items, nil)
	c.in.types[name] = t
	return t
}

func (c *checker) class(d *ClassDecl) {
	if _, dup := c.in.types[d.Name]; dup {
		c.errorf(d.Pos, "type %s declared twice", d.Name)
		return
	}
	t := &classType{decl: d, byName: map[string]*fieldInfo{}}
	var items []orderItem
	var names []string
	for _, f := range d.Fields {
		ft := c.lookupType(f.Type)
		if ft == nil {
			ft = theBool
		}
		if _, dup := t.byName[f.Name]; dup {
			c.errorf(f.Pos, "field %s declared twice in class %s", f.Name, d.Name)
			continue
		}
		fi := &fieldInfo{name: f.Name, typ: ft, offset: t.n}
		t.fields = append(t.fields, fi)
		t.byName[f.Name] = fi
		bitsOf := make([]int, 0, ft.width())
		for _, b := range ft.physical() {
			bitsOf = append(bitsOf, fi.offset+b)
		}
		items = append(items, orderItem{bits: bitsOf})
		names = append(names, f.Name)
		t.n += ft.width()
	}
	for _, k := range d.Order {
		for _, n := range []string{k.A, k.B} {
			if _, ok := t.byName[n]; !ok {
				c.errorf(k.Pos, "order constraint names %s, which is not a field of %s", n, d.Name)
			}
		}
	}
	if t.n > maxWidth {
		c.errorf(d.Pos, "class %s has %d bits, more than the %d a value may have", d.Name, t.n, maxWidth)
		// Register it empty, so that classes built on it stay small.
		c.in.types[d.Name] = &classType{decl: d, byName: map[string]*fieldInfo{}}
		return
	}
	t.phys = arrange(items, consByName(names, d.Order))
	// Types are registered after their fields, so a class cannot contain
	// itself.
	c.in.types[d.Name] = t
}

// Limits that keep hostile input from exhausting memory: the bits of one
// value and the bits of all the variables of one definition.
const (
	maxWidth   = 1 << 16
	maxDefBits = 1 << 20
)

// orderItem is a variable (or field) to place: its bits, in their own order.
type orderItem struct {
	bits []int
}

// orderCons is an order constraint between items a and b. With
// interleave, bFirst puts b's bits just before a's in the group instead
// of after them (members otherwise alternate in declaration order).
type orderCons struct {
	a, b       int
	interleave bool
	bFirst     bool
}

// consByName turns named constraints into item indices, dropping those
// that name unknown items (reported by the checker).
func consByName(names []string, cs []*Constraint) []orderCons {
	idx := map[string]int{}
	for i, n := range names {
		if _, dup := idx[n]; !dup {
			idx[n] = i
		}
	}
	var out []orderCons
	for _, k := range cs {
		a, okA := idx[k.A]
		b, okB := idx[k.B]
		if okA && okB {
			out = append(out, orderCons{a: a, b: b, interleave: k.Interleave})
		}
	}
	return out
}

// arrange orders the bits of items as the constraints say: items joined by
// ~+ form one group whose bits alternate (bit 0 of each, then bit 1, ...);
// a < b puts b's group after a's; otherwise groups keep declaration order.
func arrange(items []orderItem, cs []orderCons) []int {
	parent := make([]int, len(items))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for _, k := range cs {
		if k.interleave {
			ra, rb := find(k.a), find(k.b)
			if ra < rb {
				parent[rb] = ra
			} else {
				parent[ra] = rb
			}
		}
	}
	// Groups, each listing its members in declaration order.
	groupOf := map[int]int{}
	var groups [][]int
	for i := range items {
		r := find(i)
		g, ok := groupOf[r]
		if !ok {
			g = len(groups)
			groupOf[r] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	// Within a group, declaration order, except that an item asked to go
	// first goes just before its partner.
	key := make([]int, len(items))
	for i := range key {
		key[i] = 2 * i
	}
	for _, k := range cs {
		if k.interleave && k.bFirst {
			key[k.b] = 2*k.a - 1
		}
	}
	for _, g := range groups {
		slices.SortStableFunc(g, func(x, y int) int { return key[x] - key[y] })
	}
	// a < b between groups: a stable topological order, ignoring cycles.
	after := make([]map[int]bool, len(groups))
	indeg := make([]int, len(groups))
	for _, k := range cs {
		if k.interleave {
			continue
		}
		ga, gb := groupOf[find(k.a)], groupOf[find(k.b)]
		if ga == gb {
			continue
		}
		if after[ga] == nil {
			after[ga] = map[int]bool{}
		}
		if !after[ga][gb] {
			after[ga][gb] = true
			indeg[gb]++
		}
	}
	done := make([]bool, len(groups))
	var order []int
	for len(order) < len(groups) {
		pick := -1
		for g := range groups {
			if !done[g] && indeg[g] == 0 {
				pick = g
				break
			}
		}
		if pick < 0 { // a cycle: take the first remaining group
			for g := range groups {
				if !done[g] {
					pick = g
					break
				}
			}
		}
		done[pick] = true
		order = append(order, pick)
		for h := range after[pick] {
			indeg[h]--
		}
	}
	var out []int
	for _, g := range order {
		for k := 0; ; k++ {
			any := false
			for _, i := range groups[g] {
				if k < len(items[i].bits) {
					out = append(out, items[i].bits[k])
					any = true
				}
			}
			if !any {
				break
			}
		}
	}
	return out
}

// define gives a forward-declared relation (a head without a body) its
// definition d, which must have the declaration's kind and parameter
// types; the parameters take the definition's names, and the
// declaration's order constraints are kept when its names are the same.
func (c *checker) define(def *definition, d *RelDecl) {
	proto := def.rel
	def.rel, def.body = d, d.Body
	if proto.Kind != d.Kind {
		c.errorf(d.Pos, "%s is declared %s at %d:%d but defined %s", d.Name, proto.Kind, proto.Pos.Line, proto.Pos.Col, d.Kind)
		return
	}
	if len(proto.Params) != len(d.Params) {
		c.errorf(d.Pos, "%s is declared with %d parameters at %d:%d but defined with %d", d.Name, len(proto.Params), proto.Pos.Line, proto.Pos.Col, len(d.Params))
		return
	}
	sameNames := true
	for i, p := range d.Params {
		q := proto.Params[i]
		if p.Type.Name != q.Type.Name || p.Type.Len != q.Type.Len {
			c.errorf(p.Pos, "parameter %s of %s has type %s, but %s at %d:%d", p.Name, d.Name, typeText(p.Type), typeText(q.Type), q.Pos.Line, q.Pos.Col)
			return
		}
		sameNames = sameNames && p.Name == q.Name
	}
	if sameNames && len(proto.Order) > 0 {
		def.rel = &RelDecl{Pos: d.Pos, Kind: d.Kind, Name: d.Name, Params: d.Params,
			Order: append(append([]*Constraint(nil), proto.Order...), d.Order...), Body: d.Body}
	}
}

// typeText is a declared type as written: T, or T[n] for an array.
func typeText(tn *TypeName) string {
	if tn.Len > 0 {
		return fmt.Sprintf("%s[%d]", tn.Name, tn.Len)
	}
	return tn.Name
}

func (c *checker) newVar(name string, t typ, pos Pos) *variable {
	v := &variable{name: name, typ: t, pos: pos, owner: c.def, index: len(c.def.vars)}
	c.def.vars = append(c.def.vars, v)
	return v
}

// params resolves the parameters of a relation.
func (c *checker) params(def *definition) {
	d := def.rel
	c.def, c.scope = def, map[string]*variable{}
	for _, p := range d.Params {
		t := c.lookupType(p.Type)
		if t == nil {
			t = theBool
		}
		if _, dup := c.scope[p.Name]; dup {
			c.errorf(p.Pos, "parameter %s declared twice", p.Name)
			continue
		}
		v := c.newVar(p.Name, t, p.Pos)
		def.params = append(def.params, v)
		c.scope[p.Name] = v
	}
}

// relation checks the order constraints and the body of a relation.
func (c *checker) relation(def *definition) {
	d := def.rel
	c.def, c.scope = def, map[string]*variable{}
	for _, v := range def.params {
		c.scope[v.name] = v
	}
	for _, k := range d.Order {
		for _, n := range []string{k.A, k.B} {
			if _, ok := c.scope[n]; !ok {
				c.errorf(k.Pos, "order constraint names %s, which is not a parameter of %s", n, d.Name)
			}
		}
	}
	if d.Body == nil {
		return // declared only: provided from Go
	}
	c.formula(d.Body)
}

func (c *checker) directive(d *Directive) {
	switch d.Name {
	case "size":
		for _, a := range d.Args {
			def, ok := c.in.rels[a]
			if !ok {
				c.errorf(d.Pos, "#size names %s, which is not a relation", a)
				continue
			}
			def.sizes = true
			c.in.sizes = append(c.in.sizes, a)
		}
	case "reset":
		for _, a := range d.Args {
			if _, ok := c.in.rels[a]; !ok {
				c.errorf(d.Pos, "#reset names %s, which is not a relation", a)
			}
		}
	case "frontier":
		for _, a := range d.Args {
			def, ok := c.in.rels[a]
			if !ok {
				c.errorf(d.Pos, "#frontier names %s, which is not a relation", a)
				continue
			}
			if c.in.frontierAt == nil {
				c.in.frontierAt = map[*definition]Pos{}
			}
			c.in.frontierAt[def] = d.Pos
		}
	case "timer":
	default:
		c.errorf(d.Pos, "unknown directive #%s", d.Name)
	}
}

// formula checks a Boolean formula.
func (c *checker) formula(e Expr) {
	switch e := e.(type) {
	case *Const:
	case *Int:
		c.errorf(e.Pos, "integer %d used as a formula", e.Value)
	case *Path:
		r := c.path(e)
		if r != nil && r.typ != theBool {
			c.errorf(e.Pos, "%s is %s, not bool; compare it with '='", pathString(e), typeName(r.typ))
		}
	case *Not:
		c.formula(e.X)
	case *Binary:
		c.formula(e.X)
		c.formula(e.Y)
	case *Compare:
		c.compare(e)
	case *Apply:
		c.apply(e)
	case *Quant:
		var saved []*variable
		var names []string
		for _, p := range e.Vars {
			t := c.lookupType(p.Type)
			if t == nil {
				t = theBool
			}
			// Reuse a variable of the same name and type that is not in
			// scope: a sibling quantifier's, so they share bits.
			var v *variable
			for _, w := range c.def.vars {
				if w.name == p.Name && w.typ == t && c.scope[p.Name] != w && !contains(saved, w) {
					if _, isParam := indexOf(c.def.params, w); !isParam {
						v = w
						break
					}
				}
			}
			if v == nil {
				v = c.newVar(p.Name, t, p.Pos)
			}
			c.in.quant[p] = v
			saved = append(saved, c.scope[p.Name])
			names = append(names, p.Name)
			c.scope[p.Name] = v
		}
		c.formula(e.Body)
		for i := len(names) - 1; i >= 0; i-- {
			if saved[i] == nil {
				delete(c.scope, names[i])
			} else {
				c.scope[names[i]] = saved[i]
			}
		}
	default:
		c.errorf(e.exprPos(), "malformed formula")
	}
}

func contains(vs []*variable, v *variable) bool {
	_, ok := indexOf(vs, v)
	return ok
}

func indexOf(vs []*variable, v *variable) (int, bool) {
	for i, w := range vs {
		if w == v {
			return i, true
		}
	}
	return -1, false
}

func pathString(p *Path) string {
	s := p.Names[0]
	for _, n := range p.Names[1:] {
		if n[0] != '[' {
			s += "."
		}
		s += n
	}
	return s
}

func typeName(t typ) string {
	if t == nil {
		return "a constant"
	}
	return "of type " + t.name()
}

// path resolves a variable or field path, or a named enum constant (whose
// type is then nil until the context gives it).
func (c *checker) path(p *Path) *ref {
	if r, ok := c.in.paths[p]; ok {
		return r
	}
	v, ok := c.scope[p.Names[0]]
	if !ok {
		if len(p.Names) == 1 && len(c.in.enumVal[p.Names[0]]) > 0 {
			r := &ref{cname: p.Names[0]}
			c.in.paths[p] = r
			return r
		}
		c.errorf(p.Pos, "undefined: %s", p.Names[0])
		return nil
	}
	r := &ref{v: v, typ: v.typ}
	for i, n := range p.Names[1:] {
		ct, ok := r.typ.(*classType)
		if !ok {
			prefix := &Path{Names: p.Names[:i+1]}
			c.errorf(p.Pos, "%s is %s, which has no fields (selecting .%s)", pathString(prefix), typeName(r.typ), n)
			return nil
		}
		f, ok := ct.byName[n]
		if !ok && n[0] == '[' {
			prefix := &Path{Names: p.Names[:i+1]}
			c.errorf(p.Pos, "index %s is out of range for %s, %s", n[1:len(n)-1], pathString(prefix), typeName(r.typ))
			return nil
		}
		if !ok {
			c.errorf(p.Pos, "class %s has no field %s", ct.decl.Name, n)
			return nil
		}
		r.offset += f.offset
		r.typ = f.typ
	}
	c.in.paths[p] = r
	return r
}

// constant gives the encoded value of a constant term in type t, or an
// error message.
func constant(e Expr, t typ, r *ref) (int, string) {
	switch t := t.(type) {
	case boolType:
		switch e := e.(type) {
		case *Const:
			if e.Value {
				return 1, ""
			}
			return 0, ""
		case *Int:
			if e.Value == 0 || e.Value == 1 {
				return e.Value, ""
			}
			return 0, fmt.Sprintf("%d is not a bool value (0 or 1)", e.Value)
		}
		return 0, fmt.Sprintf("%s is not a bool value", r.cname)
	case *enumType:
		switch e := e.(type) {
		case *Int:
			if e.Value < t.lo || e.Value > t.hi {
				return 0, fmt.Sprintf("%d is outside enum %s (%d..%d)", e.Value, t.decl.Name, t.lo, t.hi)
			}
			return e.Value - t.lo, ""
		case *Path:
			for i, n := range t.decl.Names {
				if n == r.cname {
					return i, ""
				}
			}
			return 0, fmt.Sprintf("%s is not a value of enum %s", r.cname, t.decl.Name)
		}
		return 0, fmt.Sprintf("a bool constant is not a value of enum %s", t.decl.Name)
	case *classType:
		return 0, fmt.Sprintf("a constant cannot be a value of class %s", t.decl.Name)
	}
	return 0, "bad constant"
}

// term resolves a term: the typed ref of a variable path, or (nil, true)
// for a constant whose type comes from the context.
func (c *checker) term(e Expr) (r *ref, isConst bool) {
	switch e := e.(type) {
	case *Const, *Int:
		return nil, true
	case *Path:
		r := c.path(e)
		if r != nil && r.v == nil {
			return r, true
		}
		return r, false
	}
	c.errorf(e.exprPos(), "expected a variable or constant")
	return nil, false
}

func (c *checker) compare(e *Compare) {
	rx, cx := c.term(e.X)
	ry, cy := c.term(e.Y)
	switch {
	case cx && cy:
		c.errorf(e.Pos, "comparison of two constants")
	case cx && ry != nil:
		if _, msg := constant(e.X, ry.typ, rx); msg != "" {
			c.errorf(e.X.exprPos(), "%s", msg)
		}
	case cy && rx != nil:
		if _, msg := constant(e.Y, rx.typ, ry); msg != "" {
			c.errorf(e.Y.exprPos(), "%s", msg)
		}
	case rx != nil && ry != nil:
		if rx.typ != ry.typ {
			c.errorf(e.Pos, "cannot compare %s (%s) with %s (%s)", exprString(e.X), rx.typ.name(), exprString(e.Y), ry.typ.name())
		}
	}
}

func exprString(e Expr) string {
	switch e := e.(type) {
	case *Path:
		return pathString(e)
	case *Int:
		return fmt.Sprint(e.Value)
	case *Const:
		return fmt.Sprint(e.Value)
	}
	return "formula"
}

func (c *checker) apply(a *Apply) {
	def, ok := c.in.rels[a.Name]
	if !ok {
		c.errorf(a.Pos, "undefined relation %s", a.Name)
		for _, x := range a.Args {
			c.term(x)
		}
		return
	}
	c.in.applies[a] = def
	c.def.deps[def] = true
	if len(a.Args) != len(def.params) {
		c.errorf(a.Pos, "%s takes %d arguments, not %d", a.Name, len(def.params), len(a.Args))
	}
	for i, x := range a.Args {
		r, isConst := c.term(x)
		if i >= len(def.params) {
			continue
		}
		want := def.params[i].typ
		if isConst {
			if _, msg := constant(x, want, r); msg != "" {
				c.errorf(x.exprPos(), "argument %d of %s: %s", i+1, a.Name, msg)
			}
			continue
		}
		if r != nil && r.typ != want {
			c.errorf(x.exprPos(), "argument %d of %s: %s is %s, want %s", i+1, a.Name, exprString(x), typeName(r.typ), want.name())
		}
	}
}

// recursion finds the strongly connected components of the dependency
// graph (in an order where a component comes after those it uses) and
// rejects the recursions the solver does not define.
func (c *checker) recursion() {
	// The graph over the definitions, each one's dependencies in the
	// order of their positions (then of the definitions).
	defs := c.in.defs
	index := make(map[*definition]int, len(defs))
	for i, d := range defs {
		index[d] = i
	}
	succ := make([][]int, len(defs))
	for i, d := range defs {
		for e := range d.deps {
			succ[i] = append(succ[i], index[e])
		}
		sort.Slice(succ[i], func(a, b int) bool {
			x, y := defs[succ[i][a]], defs[succ[i][b]]
			if x.rel.Pos.Line != y.rel.Pos.Line {
				return x.rel.Pos.Line < y.rel.Pos.Line
			}
			return succ[i][a] < succ[i][b]
		})
	}
	comps := graph.SCC(succ, nil)
	for scc, comp := range comps {
		members := make([]*definition, len(comp))
		for k, i := range comp {
			members[k] = defs[i]
			defs[i].scc = scc
		}
		c.checkSCC(members)
	}
	if q := c.in.query; q != nil {
		q.scc = len(comps)
	}
}

// frontiers checks the #frontier directives: the relation's component
// must be mu relations whose members are applied, in their bodies, only
// under &, | and exists, so that the new tuples of a round follow from
// the tuples the previous round added (each application's value
// distributes over a union).
func (c *checker) frontiers() {
	for def, pos := range c.in.frontierAt {
		var members []*definition
		for _, d := range c.in.defs {
			if d.scc == def.scc {
				members = append(members, d)
			}
		}
		ok := true
		for _, d := range members {
			if d.kind != Least {
				c.errorf(pos, "#frontier %s: %s is not a mu relation", def.name, d.name)
				ok = false
				break
			}
			if d.body == nil {
				continue
			}
			if bad := undistributive(c.in, d.body, def.scc, false); bad != nil {
				c.errorf(pos, "#frontier %s: %s applies %s under a negation, an implication, <-> or forall", def.name, d.name, bad.Name)
				ok = false
				break
			}
		}
		if ok {
			if c.in.frontier == nil {
				c.in.frontier = map[*definition]bool{}
			}
			for _, d := range members {
				c.in.frontier[d] = true
			}
		}
	}
}

// undistributive returns an application of a relation of component scc
// in e that is under a connective other than &, | and exists (under says
// e itself is), or nil.
func undistributive(in *info, e Expr, scc int, under bool) *Apply {
	switch e := e.(type) {
	case *Not:
		return undistributive(in, e.X, scc, true)
	case *Binary:
		u := under || e.Op == OpImp || e.Op == OpIff
		if a := undistributive(in, e.X, scc, u); a != nil {
			return a
		}
		return undistributive(in, e.Y, scc, u)
	case *Quant:
		return undistributive(in, e.Body, scc, under || e.Forall)
	case *Apply:
		if d := in.applies[e]; d != nil && d.scc == scc && under {
			return e
		}
	}
	return nil
}

func (c *checker) checkSCC(members []*definition) {
	recursive := len(members) > 1 || members[0].deps[members[0]]
	if !recursive {
		return
	}
	for _, d := range members {
		if d.kind == Plain {
			c.errorf(d.rel.Pos, "%s is recursive: declare it mu (least) or nu (greatest)", d.name)
			return
		}
	}
}
