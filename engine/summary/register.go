package summary

import (
	"flag"

	"boolprog/engine"
	"boolprog/symbolic"
)

func init() {
	engine.Register(engine.Info{
		Names: []string{Name, "bebop"},
		Doc:   "Bebop: BDD path and summary edges (RHS tabulation), shortest hierarchical traces",
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			reorder := DefaultReorder
			fs.Var(&reorder, "reorder", "dynamic BDD variable reordering: off, sift (sift whenever the live nodes double), or auto (sift while it pays)")
			order := symbolic.OrderForce
			fs.Var(&order, "order", "initial order of the BDD variables: force (FORCE placement of the statements' variables), affinity (greedy arrangement of the statements' affinity graph, without FORCE) or declaration")
			return func() (engine.Engine, error) {
				return New(Options{Reorder: reorder, AffinityOrder: order == symbolic.OrderAffinity, DeclarationOrder: order == symbolic.OrderDeclaration}), nil
			}
		},
		// The node limit bounds the BDD manager of every run.
		NodeLimited: true,
	})
}
