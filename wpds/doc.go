// Package wpds is a library for weighted pushdown systems (WPDS) and
// extended weighted pushdown systems (EWPDS), after Lal's thesis (2009),
// chapters 2 to 4, generic in the weight domain.
//
// A Semiring[W] gives the weights: Bool (reachability), MinPath (shortest
// rule sequences, weights Dist) and BitVector (gen/kill data flow, weights
// GenKill) are provided. A PDS[W] holds pop, step and push rules
// ⟨p,γ⟩ ↪ ⟨p',w⟩ with weights, and push rules may carry a Merge function
// (EWPDS) that combines the caller's weight with the callee's at the
// matching pop, which is how local variables survive calls.
//
// Regular sets of configurations are Sets (unweighted P-automata).
// Prestar(pds, C) and Poststar(pds, C) saturate a set into a weighted
// Automaton whose Weight(c) is the combine of the values of all rule
// sequences from c into C (pre*) or from C to c (post*), and whose
// Summary(S) is the same over a regular set S of configurations
// (stack-qualified queries); TopSummaries(p) gives the summary of
// "control p, γ on top" for every γ at once. With Options.Witnesses the automaton also
// records a derivation DAG (Witness) for every weight; Trace expands it
// into a rule sequence and its end configurations, which PDS.Apply and
// PDS.Unapply replay and PDS.Value evaluates. Automaton.Stats counts the
// extends, combines and merges that the saturation used, and
// Options.Differential propagates weight gains instead of whole weights.
//
// Options.FWPDS computes the same automata by the method of Lal's thesis,
// ch. 4: the transition dependence graph is cut at push rules into
// intragraphs, each solved by path expressions (Kleene stars close its
// loops), and the out-node equations that connect them are solved one
// recursive component after another with incremental re-evaluation. It
// uses fewer extends and combines than the chaotic saturation when loops
// need several rounds (domains of some height, such as relations);
// BenchmarkFWPDS compares the two. Its own work (the dependence graph, the
// expressions) costs more than cheap weights such as Bool, MinPath and
// BitVector do: it pays when extends are expensive (BDD relations).
//
// Limits: the input sets are unweighted (every input transition has weight
// One); pre* with merge functions needs them to satisfy path extension
// (post* follows the operational semantics of §3.2.2, which §3.2.3 shows
// correct without it, but the tests only use merges that satisfy it);
// FWPDS needs path extension in both directions and falls back to the chaotic saturation on dense systems whose path
// expressions would grow cubically (Stats.Fallback).
//
// Inputs that break the rules of the model (a transition into a control
// state, a state out of range) are errors from Set.Add and PDS.Add; the
// convenience builders Pop, Step and Push panic on them instead, for
// systems written by hand.
package wpds
