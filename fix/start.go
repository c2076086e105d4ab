package fix

import "boolprog/bdd"

// Start makes Solve iterate the mu relation rel from v instead of from
// false: v is a BDD of Manager() over the bits of rel's parameters (see
// Bits), conjoined, as a provided value is, with the legal values of the
// parameters' types. It is StartLayers with one layer.
func (sv *Solver) Start(rel string, v bdd.Node) error {
	return sv.StartLayers(rel, []bdd.Node{v})
}

// StartLayers makes Solve iterate the mu relation rel from the union of
// layers instead of from false, and, if rel is tracked (Track), makes
// them its first layers (Layers), in order, before those its own rounds
// add. A caller that carries the value of a relation over from an
// earlier solve (of a model that differs only where it derives more)
// passes that solve's layers, so that a walk back through the layers
// still finds, for each tuple of a layer, what it follows from in
// earlier ones; a start value that is one layer is a layer whose tuples
// the walk must take as given.
//
// The contract: the caller promises that the start value lies below
// rel's least fixed point (with the values Solve computes for the other
// relations). The iteration from it is inflationary, X := X ∪ f(X), so
// Solve computes the least X that contains the start value and that
// f(X) ⊆ X: rel's least fixed point exactly when the promise holds. If
// it does not, the value computed holds the start value whole and is
// larger than the least fixed point: a wrong answer, which Solve cannot
// see (checking the promise would cost the solve it saves). The relations
// that read rel then read that value.
//
// Every evaluation of a mu relation honours it: the simultaneous
// iteration of a monotone group, the semi-naive one of #frontier (the
// first round evaluates the whole body over the start value; its new
// tuples are the first delta), and the nested evaluation of a group that
// mixes mu and nu relations but uses itself only positively (the start
// value starts the outermost evaluation of rel; the inner evaluations,
// whose other relations are held at values below their final ones,
// start from false). A group that uses itself under a negation has no
// monotone iteration for a start value to shorten: Solve fails there
// with an error that names rel. A relation with a start value is never
// split into parts (see split). StartLayers must be called before Solve;
// a second call for rel replaces the first.
func (sv *Solver) StartLayers(rel string, layers []bdd.Node) error {
	s := sv.s
	d, err := sv.valueFor("Start", rel, Least, "only mu relations start from a given value", "the start value of", layers...)
	if err != nil {
		return err
	}
	for _, r := range s.started[d] {
		r.Release()
	}
	rs := make([]*bdd.Root, len(layers))
	for i, v := range layers {
		rs[i] = s.m.Keep(v)
	}
	s.started[d] = rs
	return nil
}

// startValue is the start value of d (StartLayers): the union of its
// layers, within the parameters' domain, or false. If d is tracked, its
// layers become d's first.
func (s *solver) startValue(d *definition) bdd.Node {
	ls := s.started[d]
	if len(ls) == 0 {
		return bdd.False
	}
	dom := s.domain(d.params)
	v := bdd.False
	for _, r := range ls {
		l := s.m.And(r.Node(), dom)
		if s.tracked[d] {
			s.layers[d] = append(s.layers[d], s.m.Keep(l))
		}
		v = s.m.Or(v, l)
	}
	return v
}

// releaseStart frees d's start value once its group is evaluated (a
// tracked relation keeps it as layers).
func (s *solver) releaseStart(d *definition) {
	for _, r := range s.started[d] {
		r.Release()
	}
	delete(s.started, d)
	if r := s.starts[d]; r != nil {
		r.Release()
		delete(s.starts, d)
	}
}
