package fix

import "fmt"

// OnDone asks Solve to call fn as soon as the value of relation rel is
// final (its group of relations is evaluated), before any relation that
// depends on it. fn may read rel's value and layers (Value, Layers) and
// those of every relation evaluated before it. If fn returns an error,
// Solve stops there and returns it (wrapped): the values computed so far
// stay readable. A caller uses it to stop as soon as a relation says
// enough, for instance when one layer of a stratified formula (the
// reachable states with one more context switch) holds an error.
// OnDone must be called before Solve; a second call for rel replaces fn.
func (sv *Solver) OnDone(rel string, fn func() error) error {
	if sv.solved {
		return fmt.Errorf("fix: OnDone(%s) after Solve", rel)
	}
	d, ok := sv.s.in.rels[rel]
	if !ok {
		return fmt.Errorf("fix: no relation %s", rel)
	}
	if sv.s.done == nil {
		sv.s.done = map[*definition]func() error{}
	}
	sv.s.done[d] = fn
	return nil
}

// afterComponent runs the OnDone functions of the members of a component
// just evaluated.
func (s *solver) afterComponent(members []*definition) error {
	for _, d := range members {
		if fn := s.done[d]; fn != nil {
			if err := fn(); err != nil {
				return fmt.Errorf("%s: %w", d.name, err)
			}
		}
	}
	return nil
}
