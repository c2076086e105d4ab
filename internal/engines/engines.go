// Package engines is the one list of engines that boolprog's tools offer
// (the command and the Go API each import it, so that an engine added here
// is in both) and their default choice: Default for a sequential program
// and, for a concurrent one, the portfolio of Concurrent (package
// internal/portfolio) run at once, first decided answer wins.
package engines

import (
	"boolprog/analysis"
	"boolprog/engine"
	_ "boolprog/engine/conc"     // registers conc-eager and conc-lazy
	_ "boolprog/engine/concfix"  // registers conc-fix
	_ "boolprog/engine/concprod" // registers conc-product
	_ "boolprog/engine/cpa"      // registers the cpa engine
	_ "boolprog/engine/explicit" // registers the explicit engine
	_ "boolprog/engine/fixpoint" // registers the ef and efopt engines
	_ "boolprog/engine/pushdown" // registers the post* and pre* engines
	_ "boolprog/engine/summary"  // registers the summary engine
	"boolprog/internal/portfolio"
	"boolprog/ir"
)

// Default is the engine that runs on a sequential program when the user
// names none.
const Default = "summary"

// Concurrent are the members of the portfolio that runs on a concurrent
// program when the user names no engine and sets no engine flag; each
// entry lists alternatives, the first registered one being the member.
// The explicit interleaving search was the fastest on most concurrent
// programs we measured (the satabs-boppo tests, Getafix's fib, the
// Bluetooth models: under a second to seconds, where conc-eager took
// minutes), and its SUCCESSFUL is a proof when it explores everything; a
// symbolic engine decides where the interleavings are too many to
// enumerate or the explicit search gives up (state budget, thread limit):
// conc-product, the symbolic product of the threads, where it is linked
// in, else conc-eager, which deepens from 1 round up to its default bound
// and says so on the verdict line ("VERIFICATION SUCCESSFUL up to 4
// rounds"), an answer the portfolio reports only if no member decides.
var Concurrent = [][]string{{"explicit"}, {"conc-product", "conc-eager"}}

// Recursive is the member added to Concurrent when a procedure of the
// program recurses: the explicit search then enumerates call stacks that
// need not end, and the lazy sequentialisation's summaries handle them.
var Recursive = []string{"conc-lazy"}

// Members returns the portfolio's entries for the concurrent program p; c
// is the check's cache of p's analyses (nil: a new one).
func Members(p *ir.Program, c *analysis.Cache) [][]string {
	entries := Concurrent
	if recurses(analysis.CacheFor(c, p)) {
		entries = append(entries[:len(entries):len(entries)], Recursive)
	}
	return entries
}

// ConcurrentDefault returns the portfolio that checks the concurrent
// program p when the user names no engine; c is as for Members.
func ConcurrentDefault(p *ir.Program, c *analysis.Cache) (*portfolio.Portfolio, error) {
	return portfolio.New(Members(p, c)...)
}

// ConcurrentIgnores names the setting of q that the portfolio for p would
// ignore, so that the caller refuses it rather than drop a limit the user
// set: "max-nodes" (no member uses BDDs) or "all" (the members stop at
// the first error); "" if there is none. q.Analyses is as c for Members.
func ConcurrentIgnores(p *ir.Program, q engine.Query) string {
	nodes := false
	for _, entry := range Members(p, q.Analyses) {
		for _, name := range entry {
			info, ok := engine.Lookup(name)
			if !ok {
				continue
			}
			if q.AllReachable && !info.AllReachable {
				return "all"
			}
			nodes = nodes || info.NodeLimited
			break
		}
	}
	if q.MaxNodes > 0 && !nodes {
		return "max-nodes"
	}
	return ""
}

// recurses reports whether a procedure of c's program is in a cycle of
// calls.
func recurses(c *analysis.Cache) bool {
	p := c.Prog()
	calls, scc := analysis.Of(c, analysis.CallGraph), analysis.Of(c, analysis.SCC)
	for proc := range p.Procs {
		if scc.Recursive(calls, proc) {
			return true
		}
	}
	return false
}
