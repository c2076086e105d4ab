// Package bench measures boolprog/bdd against BuDDy (C, through cgo, build
// tag libbdd) and github.com/dalzilio/rudd (pure Go) on the same
// workloads. It is a separate module so that the main module gains neither
// a dependency nor cgo.
package bench

// Engine is the common interface of the measured BDD packages. Every Node
// returned is an owned reference that the caller gives back with Release
// (BuDDy needs reference counts; the adapter of boolprog/bdd turns them into
// Roots and calls Safepoint after every operation, so that its collector
// works as hard as BuDDy's). Sets and renamings are created once and named
// by small integers.
type Engine[N comparable] interface {
	Name() string
	True() N
	False() N
	Ithvar(v int) N
	NIthvar(v int) N
	And(a, b N) N
	Or(a, b N) N
	Xor(a, b N) N
	Not(a N) N
	Equiv(a, b N) N
	Ite(a, b, c N) N
	Exists(a N, set int) N
	AndExists(a, b N, set int) N
	Replace(a N, pairs int) N
	MakeSet(vars []int) int
	MakePairs(from, to []int) int
	SatCount(a N, set int) float64
	NodeCount(a N) int
	Equal(a, b N) bool
	Release(a N)
	Close()
}

// Config is the size configuration shared by all engines, so that no engine
// is starved: initial node table and computed-cache entries.
type Config struct {
	Vars  int
	Nodes int
	Cache int
}

// DefaultConfig is used by the benchmark command.
var DefaultConfig = Config{Nodes: 1 << 18, Cache: 1 << 16}
