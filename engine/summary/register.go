package summary

import "boolprog/engine"

func init() {
	engine.Register(engine.Info{
		Names: []string{Name, "bebop"},
		Doc:   "Bebop: BDD path and summary edges (RHS tabulation), shortest hierarchical traces",
		Flags: engine.NoFlags(func() engine.Engine { return New(Options{}) }),
		// The node limit bounds the BDD manager of every run.
		NodeLimited: true,
	})
}
