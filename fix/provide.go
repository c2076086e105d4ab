package fix

import (
	"context"
	"fmt"
	"slices"
	"time"

	"boolprog/bdd"
)

// Solver evaluates one file and lets a Go program take part: provide the
// value of relations (declared without a body, `bool R(T x, ...) order;`,
// or replacing a plain definition), evaluate, then read the values of the
// relations and the tuples each round added to them.
//
// The use is, in this order:
//
//	sv, err := fix.NewSolver(f, opts)   // checks f, allocates the BDD variables
//	defer sv.Release()
//	bits, _ := sv.Bits("Edge", "x")     // the BDD variables of a parameter
//	sv.Provide("Edge", node)            // a BDD over sv.Manager()
//	sv.Track("Reach")                   // keep Reach's rounds (optional)
//	ans, err := sv.Solve(ctx)
//	sv.Value("Reach"); sv.Layers("Reach")
//
// The values are BDDs of the solver's manager over the bits of the
// relation's parameters (Bits): a provided value must mention no other
// variable. A Solver is not safe for concurrent use.
type Solver struct {
	s      *solver
	solved bool
}

// NewSolver checks f (if Check was not called) and allocates the BDD
// variables of every relation and quantified variable, in a new manager
// bounded by opts.MaxNodes. A file that does not check gives its
// ErrorList.
func NewSolver(f *File, opts Options) (*Solver, error) {
	if !f.checked {
		if err := Check(f); err != nil {
			return nil, err
		}
	}
	s := &solver{
		file:      f.Name,
		in:        f.info,
		m:         bdd.New(bdd.Config{MaxNodes: opts.MaxNodes}),
		bits:      map[*variable][]int{},
		val:       map[*definition]*bdd.Root{},
		cache:     map[Expr]*bdd.Root{},
		volat:     map[Expr]bool{},
		free:      map[Expr]map[*variable]bool{},
		plans:     map[*Apply]*applyPlan{},
		bySig:     map[string]*applyPlan{},
		moved:     map[movedKey]*bdd.Root{},
		movedBack: map[movedKey]*bdd.Root{},
		noSizes:   opts.NoSizes,
		domains:   map[*variable]bdd.Node{},
		provided:  map[*definition]*bdd.Root{},
		tracked:   map[*definition]bool{},
		started:   map[*definition][]*bdd.Root{},
		starts:    map[*definition]*bdd.Root{},
		layers:    map[*definition][]*bdd.Root{},
	}
	s.layout()
	return &Solver{s: s}, nil
}

// Manager returns the BDD manager of the solver: provided values are
// built in it, and the values it returns belong to it.
func (sv *Solver) Manager() *bdd.Manager { return sv.s.m }

// Declared returns the names of the relations declared without a body, in
// source order: those Solve needs from Provide.
func (sv *Solver) Declared() []string {
	var out []string
	for _, d := range sv.s.in.defs {
		if d.body == nil {
			out = append(out, d.name)
		}
	}
	return out
}

// Bits returns the BDD variables of a variable of relation rel: a
// parameter, or a variable its body quantifies (if only one has that
// name), optionally narrowed to a field (Bits("R", "s", "pc") for s.pc).
// The bits are in the logical order of the value: a class's fields one
// after the other in declaration order, an enum's bits most significant
// first (an enum {lo..hi} holds value-lo in binary; a bool is one bit,
// true when the variable is true). The BDD order of the bits is the
// file's order constraints' business, not the caller's.
func (sv *Solver) Bits(rel, name string, fields ...string) ([]int, error) {
	d, ok := sv.s.in.rels[rel]
	if !ok {
		return nil, fmt.Errorf("fix: no relation %s", rel)
	}
	var v *variable
	for _, x := range d.vars {
		if x.name == name {
			if v != nil && x.index >= len(d.params) {
				return nil, fmt.Errorf("fix: %s quantifies more than one variable %s", rel, name)
			}
			if v == nil {
				v = x
			}
		}
	}
	if v == nil {
		return nil, fmt.Errorf("fix: relation %s has no variable %s", rel, name)
	}
	bits := sv.s.bits[v]
	t := v.typ
	for _, f := range fields {
		ct, ok := t.(*classType)
		if !ok {
			return nil, fmt.Errorf("fix: %s of %s: %s is not a class", name, rel, t.name())
		}
		fi, ok := ct.byName[f]
		if !ok {
			return nil, fmt.Errorf("fix: class %s has no field %s", ct.name(), f)
		}
		bits = bits[fi.offset : fi.offset+fi.typ.width()]
		t = fi.typ
	}
	return slices.Clone(bits), nil
}

// Params returns the names of the parameters of relation rel.
func (sv *Solver) Params(rel string) ([]string, error) {
	d, ok := sv.s.in.rels[rel]
	if !ok {
		return nil, fmt.Errorf("fix: no relation %s", rel)
	}
	var out []string
	for _, p := range d.params {
		out = append(out, p.name)
	}
	return out, nil
}

// Provide sets the value of relation rel to v, a BDD of Manager() over
// the bits of rel's parameters (see Bits); the solver conjoins it with the
// legal values of the parameters' types. rel must be declared without a
// body or be a plain (non-recursive) definition, whose body is then
// ignored. Provide must be called before Solve.
func (sv *Solver) Provide(rel string, v bdd.Node) error {
	s := sv.s
	d, err := sv.valueFor("Provide", rel, Plain, "only plain relations can be provided", "the value provided for", v)
	if err != nil {
		return err
	}
	if old := s.provided[d]; old != nil {
		old.Set(v)
		return nil
	}
	s.provided[d] = s.m.Keep(v)
	s.roots = append(s.roots, s.provided[d])
	return nil
}

// valueFor checks a value given from Go for relation rel (Provide,
// StartLayers) before Solve: rel exists, is of the kind the call takes
// (else the error says kindMsg), and each of vs is a BDD over the bits of
// rel's parameters only (else the error names what as the value's).
func (sv *Solver) valueFor(call, rel string, kind RelKind, kindMsg, what string, vs ...bdd.Node) (*definition, error) {
	s := sv.s
	if sv.solved {
		return nil, fmt.Errorf("fix: %s(%s) after Solve", call, rel)
	}
	d, ok := s.in.rels[rel]
	if !ok {
		return nil, fmt.Errorf("fix: no relation %s", rel)
	}
	if d.kind != kind {
		return nil, fmt.Errorf("fix: %s is a %v relation: %s", rel, d.kind, kindMsg)
	}
	own := map[int]bool{}
	for _, p := range d.params {
		for _, b := range s.bits[p] {
			own[b] = true
		}
	}
	for i, v := range vs {
		if v == bdd.Invalid {
			return nil, fmt.Errorf("fix: %s %s: value %d is Invalid", what, rel, i)
		}
		for _, b := range s.m.Support(v) {
			if !own[b] {
				return nil, fmt.Errorf("fix: %s %s mentions BDD variable %d, which is not a bit of its parameters", what, rel, b)
			}
		}
	}
	return d, nil
}

// Track asks Solve to keep, for relation rel, the tuples each round of its
// evaluation added (see Layers).
func (sv *Solver) Track(rel string) error {
	d, ok := sv.s.in.rels[rel]
	if !ok {
		return fmt.Errorf("fix: no relation %s", rel)
	}
	sv.s.tracked[d] = true
	return nil
}

// Solve evaluates the file as the package function Solve does, with the
// provided values. It may be called once.
func (sv *Solver) Solve(ctx context.Context) (*Answer, error) {
	if sv.solved {
		return nil, fmt.Errorf("fix: Solve called twice")
	}
	sv.solved = true
	start := time.Now()
	s := sv.s
	s.ctx = ctx
	// One BDD operation can run for minutes on a large model: the manager
	// polls the context inside operations, so that a time limit or a
	// signal stops it (the operation then fails with bdd.ErrInterrupted,
	// and the caller sees ctx's end).
	s.m.SetInterrupt(func() bool { return ctx.Err() != nil })
	defer s.m.SetInterrupt(nil)
	ans := &Answer{Vars: s.nvars}
	err := s.run(ans)
	ans.PeakNodes = s.m.Stats().PeakNodes
	ans.Time = time.Since(start)
	return ans, err
}

// Value returns the value of relation rel after Solve (bdd.Invalid if it
// was not computed), over the bits of its parameters. It stays valid until
// Release. In a group of relations evaluated nested (mixed mu and nu, or
// negation), only the members that something outside the group reads (the
// query, another relation, #size, Track) get their own outermost
// evaluation; the others hold the value of their last inner evaluation.
func (sv *Solver) Value(rel string) bdd.Node {
	d, ok := sv.s.in.rels[rel]
	if !ok || sv.s.val[d] == nil {
		return bdd.Invalid
	}
	return sv.s.val[d].Node()
}

// Layers returns, for a relation named by Track, the tuples that each
// round of its evaluation added, in order, after the layers of its start
// value if it has one (StartLayers): their union is its value. For a
// relation evaluated simultaneously with others (see Evaluation), every
// tuple of round i+1 follows from tuples of rounds up to i; in a nested
// evaluation, a round is a round of the outermost iteration, whose inner
// fixed points may derive tuples from others of the same round. They stay
// valid until Release.
func (sv *Solver) Layers(rel string) []bdd.Node {
	d, ok := sv.s.in.rels[rel]
	if !ok {
		return nil
	}
	out := make([]bdd.Node, len(sv.s.layers[d]))
	for i, r := range sv.s.layers[d] {
		out[i] = r.Node()
	}
	return out
}

// Release frees the solver's BDDs; the values it returned become invalid.
func (sv *Solver) Release() {
	s := sv.s
	s.release()
	for _, ls := range s.layers {
		for _, r := range ls {
			r.Release()
		}
	}
	s.layers = map[*definition][]*bdd.Root{}
	for d := range s.started {
		s.releaseStart(d)
	}
}
