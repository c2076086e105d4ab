package concprod

import "time"

// SetMacroRel sets how long a thread's macro steps run step by step before
// their relation is built and the least time a build may take, for the
// tests; it returns a function that restores the defaults.
func SetMacroRel(after, budget time.Duration) (restore func()) {
	oldAfter, oldBudget := macroRelAfter, macroRelBudget
	macroRelAfter, macroRelBudget = after, budget
	return func() { macroRelAfter, macroRelBudget = oldAfter, oldBudget }
}
