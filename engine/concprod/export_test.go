package concprod

import "time"

// SetMacroRel sets how long a thread's macro steps run step by step before
// their relation is built and the least time a build may take, and makes
// every thread take macro steps, for the tests; it returns a function that
// restores the defaults.
func SetMacroRel(after, budget time.Duration) (restore func()) {
	oldAfter, oldBudget, oldShare := macroRelAfter, macroRelBudget, macroMinShare
	macroRelAfter, macroRelBudget, macroMinShare = after, budget, 0
	return func() { macroRelAfter, macroRelBudget, macroMinShare = oldAfter, oldBudget, oldShare }
}

// SetMerge turns the unbounded search without classes (runMerged) on or
// off, for the tests; it returns a function that restores the default.
func SetMerge(on bool) (restore func()) {
	old := mergeUnbounded
	mergeUnbounded = on
	return func() { mergeUnbounded = old }
}
