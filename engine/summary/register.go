package summary

import (
	"flag"
	"fmt"
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
			var shortest ShortestFlag
			fs.Var(&shortest, "shortest", "the search for a shortest trace: auto (give up past twice the reachability search's time plus 5s, and build a replayed trace from the search's history instead, not necessarily shortest: the stats say so), always, never, or a time budget such as 10s")
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

// ShortestFlag is the value of the --shortest flag: an
// Options.ShortestBudget, written auto (0), always (ShortestAlways), never
// (negative) or as a positive duration.
type ShortestFlag time.Duration

// String returns the flag's text.
func (f *ShortestFlag) String() string {
	switch d := time.Duration(*f); {
	case d == 0:
		return "auto"
	case d == ShortestAlways:
		return "always"
	case d < 0:
		return "never"
	default:
		return d.String()
	}
}

// Set parses auto, always, never or a positive duration.
func (f *ShortestFlag) Set(s string) error {
	switch s {
	case "auto":
		*f = 0
	case "always":
		*f = ShortestFlag(ShortestAlways)
	case "never":
		*f = -1
	default:
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return fmt.Errorf("want auto, always, never or a positive duration such as 10s")
		}
		*f = ShortestFlag(d)
	}
	return nil
}
