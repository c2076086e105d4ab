package concfix

import (
	"fmt"

	"boolprog/bdd"
	"boolprog/fix"
	"boolprog/fix/program"
	"boolprog/result"
)

// strata watches the solver as it finishes init's summaries and each
// stratum Reach<c>, and stops it once the answer is settled: at the first
// stratum that reaches an error for a context-switch bound; for a rounds
// bound, once no later stratum can do with fewer rounds.
type strata struct {
	sv     *fix.Solver
	m      *model
	rels   *program.Relations
	report func(phase, detail string)

	done  int // the last stratum solved (-1: none)
	found int // the stratum of the error kept (-1: none); product: its level
	// foundThread, for the product encoding, is the thread that reaches
	// the error at level found.
	foundThread int
	inInit      bool // init itself reaches an error
	desc        int  // rounds: the returns to a smaller thread of the error kept
	// restrict, for rounds, is the schedules of stratum found with desc
	// returns (over its t bits), rooted.
	restrict *bdd.Root
	err      error // an internal error seen in a callback
	// overflowed, for the product encoding, says a solved relation
	// reaches an overflow location (see prodOverflow).
	overflowed bool
}

// watch tracks the strata and registers the callbacks.
func (st *strata) watch(kind result.BoundKind) error {
	sv, m := st.sv, st.m
	if err := st.watchInit(); err != nil {
		return err
	}
	for c := 0; c <= m.k; c++ {
		c := c
		if err := sv.Track(reachName(c)); err != nil {
			return err
		}
		if err := sv.OnDone(reachName(c), func() error {
			st.done = c
			if st.report != nil {
				st.report(result.PhaseReach, fmt.Sprintf("stratum %d of %d solved (runs with %d context switches): %d BDD nodes", c, m.k, c, sv.Manager().NodeCount(sv.Value(reachName(c)))))
			}
			errs, err := st.errors(c)
			if err != nil {
				st.err = err
				return err
			}
			if errs == bdd.False {
				if kind == result.Rounds && st.found >= 0 && st.minDesc(c+1) >= st.desc {
					return errFound
				}
				return nil
			}
			if kind != result.Rounds {
				st.found = c
				return errFound
			}
			d, sched, err := st.fewest(c, errs)
			if err != nil {
				st.err = err
				return err
			}
			if st.found < 0 || d < st.desc {
				st.found, st.desc = c, d
				if st.restrict != nil {
					st.restrict.Release()
				}
				st.restrict = sv.Manager().Keep(sched)
			}
			if st.desc == 0 || st.minDesc(c+1) >= st.desc {
				return errFound
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// watchInit tracks init's summaries and stops the solver if init itself
// reaches an error.
func (st *strata) watchInit() error {
	sv, m := st.sv, st.m
	if m.init >= 0 {
		if err := sv.Track("InitReach"); err != nil {
			return err
		}
		if err := sv.OnDone("InitReach", func() error {
			v, err := stateVars(sv, m.enc, "InitReach", "v")
			if err != nil {
				st.err = err
				return err
			}
			if sv.Manager().And(sv.Value("InitReach"), st.rels.Target(v)) != bdd.False {
				st.inInit = true
				return errFound
			}
			return nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// minDesc is the fewest returns to a smaller thread a schedule of c
// switches has: n threads in a round, so c+1 contexts need
// ceil((c+1)/n) rounds.
func (st *strata) minDesc(c int) int {
	n := max(st.m.n, 1)
	return (c+n)/n - 1
}

// bound is the bound at which the error was found.
func (st *strata) bound(kind result.BoundKind) result.Bound {
	if kind == result.Rounds {
		if st.inInit {
			return result.Bound{Kind: result.Rounds, K: 1}
		}
		return result.Bound{Kind: result.Rounds, K: st.desc + 1}
	}
	if st.inInit {
		return result.Bound{Kind: result.ContextSwitches}
	}
	return result.Bound{Kind: result.ContextSwitches, K: st.found}
}

// errors returns the tuples of stratum c at an error location.
func (st *strata) errors(c int) (bdd.Node, error) {
	v, err := stateVars(st.sv, st.m.enc, reachName(c), "v")
	if err != nil {
		return bdd.False, err
	}
	m := st.sv.Manager()
	out := m.And(st.sv.Value(reachName(c)), st.rels.Target(v))
	return out, m.Err()
}

// tEq is the BDD of t_i = val over the bits of stratum c.
func (st *strata) tEq(c, i, val int) (bdd.Node, error) {
	bits, err := st.sv.Bits(reachName(c), fmt.Sprintf("t%d", i))
	if err != nil {
		return bdd.False, err
	}
	return st.sv.Manager().Assignment(bits, enumBits(len(bits), val)), nil
}

// enumBits is val in n bits, most significant first.
func enumBits(n, val int) []bool {
	out := make([]bool, n)
	for b := range out {
		out[b] = val>>(n-1-b)&1 == 1
	}
	return out
}

// fewest returns the fewest returns to a smaller thread among the
// schedules of the tuples errs of stratum c, and those schedules.
func (st *strata) fewest(c int, errs bdd.Node) (int, bdd.Node, error) {
	m := st.sv.Manager()
	n := st.m.n
	// D[d]: the schedules t0..ti with d returns, i growing.
	D := []bdd.Node{bdd.True}
	for i := 1; i <= c; i++ {
		less := bdd.False // t_i < t_{i-1}
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				x, err := st.tEq(c, i, a)
				if err != nil {
					return 0, bdd.False, err
				}
				y, err := st.tEq(c, i-1, b)
				if err != nil {
					return 0, bdd.False, err
				}
				less = m.Or(less, m.And(x, y))
			}
		}
		next := make([]bdd.Node, len(D)+1)
		for d := range next {
			next[d] = bdd.False
			if d < len(D) {
				next[d] = m.And(D[d], m.Not(less))
			}
			if d > 0 {
				next[d] = m.Or(next[d], m.And(D[d-1], less))
			}
		}
		D = next
	}
	for d, sched := range D {
		if m.And(errs, sched) != bdd.False {
			return d, sched, m.Err()
		}
	}
	return 0, bdd.False, fmt.Errorf("conc-fix: internal error: the errors of stratum %d have no schedule", c)
}

// overflow says some solved stratum reaches an overflow location: a
// creation with every thread slot taken (the SATABS convention).
func (st *strata) overflow() bool {
	d := st.m.dyn
	if d == nil || len(d.overflow) == 0 {
		return false
	}
	if st.m.product {
		return st.overflowed
	}
	m := st.sv.Manager()
	for c := 0; c <= st.done; c++ {
		v, err := stateVars(st.sv, st.m.enc, reachName(c), "v")
		if err != nil {
			return true // cannot tell: say so
		}
		if m.And(st.sv.Value(reachName(c)), st.atOverflow(v)) != bdd.False {
			return true
		}
	}
	return false
}

// atOverflow is "state v is at an overflow location".
func (st *strata) atOverflow(v program.StateVars) bdd.Node {
	m := st.sv.Manager()
	at := bdd.False
	for _, o := range st.m.dyn.overflow {
		at = m.Or(at, m.Assignment(v.PC, enumBits(len(v.PC), st.m.enc.PC(o[0], o[1]))))
	}
	return at
}
