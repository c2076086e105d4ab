package summary

import (
	"context"
	"errors"
	"fmt"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/symbolic"
)

// Reachable is the complete set of path edges of a sequential program, as
// the search of Check computes them, for certificates (package witness):
// per location, the pairs (values of the procedure's globals and
// parameters at its entry, values now) that some execution from the start
// of main reaches. They are computed without live-variable analysis and
// MOD/REF, so they mention every variable in scope: at a location other
// than an exit, the Entry copies of the globals and parameters and the Cur
// copies of the globals and locals; at an exit, the Cur copies of the
// globals and returned values.
type Reachable struct {
	md *model
	r  *reach
}

// ErrErrorReachable is returned by ReachableSets when an error location is
// reachable: the program has no invariant that excludes the error.
var ErrErrorReachable = errors.New("an error location is reachable")

// ReachableSets computes every path edge of a sequential program p, with
// q's BDD node limit (q.MaxNodes, 0: the default) and without dynamic
// reordering (so that the same program always gives the same BDDs). It
// takes p's analyses from q.Analyses, the check's cache (a new one when
// that is nil or another program's). It returns ErrErrorReachable if an
// error is reachable, and an error for a concurrent program, a cancelled
// ctx (wrapping ctx.Err()) or the node limit. Release frees the BDDs.
func ReachableSets(ctx context.Context, p *ir.Program, q engine.Query) (*Reachable, error) {
	maxNodes := q.MaxNodes
	if p.Concurrent || p.Main < 0 {
		return nil, errors.New(ReasonConcurrent)
	}
	locs := 0
	for _, pr := range p.Procs {
		locs += len(pr.Locations)
	}
	m := bdd.New(bdd.Config{MaxNodes: maxNodes, InitialNodes: min(max(locs*16, 1<<12), 1<<16), Reorder: bdd.ReorderOff})
	m.SetInterrupt(func() bool { return ctx.Err() != nil })
	md := newModel(p, q.AnalysesFor(p), m, Options{NoLiveness: true, NoModRef: true, DeclarationOrder: true})
	r := newReach(ctx, md, true, false, func(string) {})
	err := r.run()
	if err == nil && ctx.Err() != nil {
		err = errTimeout
	}
	if err == nil && r.errorFound {
		err = ErrErrorReachable
	}
	if err != nil {
		r.release()
		md.release()
		switch {
		case errors.Is(err, errTimeout), errors.Is(err, bdd.ErrInterrupted):
			return nil, fmt.Errorf("summary: %w", context.Cause(ctx))
		case errors.Is(err, bdd.ErrNodeLimit):
			return nil, fmt.Errorf("summary: %s", bdd.LimitReason(err, maxNodes))
		}
		return nil, err
	}
	return &Reachable{md: md, r: r}, nil
}

// Layout returns the variable layout of the BDDs (its manager is theirs).
func (x *Reachable) Layout() *symbolic.Layout { return x.md.l }

// At returns the path edges at location loc of procedure proc (False if it
// is not reached).
func (x *Reachable) At(proc, loc int) bdd.Node { return x.r.pathEdges(proc, loc) }

// Iface returns the slots whose Entry copies the path edges of proc
// mention: every global and the parameters.
func (x *Reachable) Iface(proc int) symbolic.Set { return x.md.procs[proc].iface }

// Release frees the path edges and the model.
func (x *Reachable) Release() {
	x.r.release()
	x.md.release()
}

// ReachableSets is the engine's engine.ReachableSetter: package
// ReachableSets, whatever the engine's options (the path edges of a
// certificate are computed without the search's optimisations).
func (e *Engine) ReachableSets(ctx context.Context, p *ir.Program, q engine.Query) (engine.PathEdges, error) {
	rs, err := ReachableSets(ctx, p, q)
	if err != nil {
		return nil, err
	}
	return rs, nil
}
