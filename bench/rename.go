package bench

import (
	"time"

	"boolprog/bdd"
	"github.com/dalzilio/rudd"
)

// RenameOurs measures k renamings of the 4-variable function in a manager
// of `vars` variables, each with a fresh renaming (so no cache hit), using
// the native API (no adapter): one Pairs re-set with Pairs.Set each time
// (like BuDDy's bdd_setpairs), or a new Pairs each time if newPairs. It
// returns the time per renaming.
func RenameOurs(vars, k int, newPairs bool) time.Duration {
	m := bdd.New(bdd.Config{Vars: vars})
	f := m.Or(m.And(m.Ithvar(0), m.Ithvar(1)), m.Xor(m.Ithvar(2), m.Ithvar(3)))
	defer m.Keep(f).Release()
	want := m.Or(m.And(m.Ithvar(6), m.Ithvar(7)), m.Xor(m.Ithvar(8), m.Ithvar(9)))
	defer m.Keep(want).Release()
	m.Safepoint()
	p := m.NewPairs(RenameFrom, RenameTo)
	start := time.Now()
	for i := 0; i < k; i++ {
		if newPairs {
			p = m.NewPairs(RenameFrom, RenameTo)
		} else {
			p.Set(RenameFrom, RenameTo)
		}
		if m.Replace(f, p) != want {
			panic("rename: wrong result")
		}
		m.Safepoint()
	}
	return time.Since(start) / time.Duration(k)
}

// RenameRudd is RenameOurs for rudd: a new Replacer per renaming (rudd
// has no way to re-set one).
func RenameRudd(vars, k int) time.Duration {
	b, err := rudd.New(vars)
	if err != nil {
		panic(err)
	}
	f := b.Or(b.And(b.Ithvar(0), b.Ithvar(1)), b.Apply(b.Ithvar(2), b.Ithvar(3), rudd.OPxor))
	want := b.Or(b.And(b.Ithvar(6), b.Ithvar(7)), b.Apply(b.Ithvar(8), b.Ithvar(9), rudd.OPxor))
	start := time.Now()
	for i := 0; i < k; i++ {
		p, err := b.NewReplacer(RenameFrom, RenameTo)
		if err != nil {
			panic(err)
		}
		if !b.Equal(b.Replace(f, p), want) {
			panic("rename: wrong result")
		}
	}
	return time.Since(start) / time.Duration(k)
}
