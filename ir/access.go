package ir

// Writes returns the variables of the current frame that an operation
// assigns, in order: an Assign's targets and a Call's non-discarded targets.
// A call may also change globals inside the callee; that is the callee's
// MOD set, a whole-program analysis, not a property of the operation.
func Writes(op Op) []VarRef {
	switch op := op.(type) {
	case *Assign:
		return append([]VarRef(nil), op.Targets...)
	case *Call:
		var out []VarRef
		for _, t := range op.Targets {
			if !t.Discard {
				out = append(out, t.Var)
			}
		}
		return out
	}
	return nil
}

// Reads returns the variables whose values before the operation it may
// depend on, in order of first occurrence without repetitions: those of its
// conditions, values and arguments, of an Assign's Constrain (there a
// primed variable that is not a target is its old value, so it is read
// too) and, conservatively, of a Call's Post (which is evaluated after the
// return). Globals a callee reads are, again, the callee's REF set.
func Reads(op Op) []VarRef {
	var out []VarRef
	seen := make(map[VarRef]bool)
	add := func(v VarRef) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	unprimed := func(e Expr) {
		if e != nil {
			Vars(e, func(v *Var) {
				if !v.Primed {
					add(v.VarRef)
				}
			})
		}
	}
	switch op := op.(type) {
	case *Assume:
		unprimed(op.Cond)
	case *Assign:
		for _, e := range op.Values {
			unprimed(e)
		}
		if op.Constrain != nil {
			targets := make(map[VarRef]bool, len(op.Targets))
			for _, t := range op.Targets {
				targets[t] = true
			}
			Vars(op.Constrain, func(v *Var) {
				if !v.Primed || !targets[v.VarRef] {
					add(v.VarRef)
				}
			})
		}
	case *Call:
		for _, e := range op.Args {
			unprimed(e)
		}
		unprimed(op.Post)
	case *Return:
		for _, e := range op.Values {
			unprimed(e)
		}
	case *StartThread:
		for _, e := range op.Args {
			unprimed(e)
		}
	}
	return out
}
