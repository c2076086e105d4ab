package summary

import (
	"flag"
	"time"

	"boolprog/engine"
	"boolprog/symbolic"
)

func init() {
	engine.Register(engine.Info{
		Names: []string{Name, "bebop"},
		Doc:   "Bebop: BDD path and summary edges (RHS tabulation), shortest hierarchical traces (within a budget: --shortest)",
		Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
			reorder := DefaultReorder
			fs.Var(&reorder, "reorder", "dynamic BDD variable reordering: off, sift (sift whenever the live nodes double), or auto (sift while it pays)")
			order := symbolic.OrderForce
			fs.Var(&order, "order", "initial order of the BDD variables: force (FORCE placement of the statements' variables), affinity (greedy arrangement of the statements' affinity graph, without FORCE) or declaration")
			var shortest engine.ShortestFlag
			fs.Var(&shortest, "shortest", engine.ShortestUsage)
			var worklist Worklist
			fs.Var(&worklist, "worklist", "the search's worklist order: callees (procedures callees first: few, large steps, the cheapest complete fixed point), alternate (callees first and callers first in turn: errors at the end of a long run of a caller found far sooner), or auto (alternate to the first error, callees with --all)")
			return func() (engine.Engine, error) {
				return New(Options{Reorder: reorder, AffinityOrder: order == symbolic.OrderAffinity, DeclarationOrder: order == symbolic.OrderDeclaration,
					ShortestBudget: time.Duration(shortest), Worklist: worklist}), nil
			}
		},
		// The node limit bounds the BDD manager of every run.
		NodeLimited:  true,
		AllReachable: true,
	})
}
