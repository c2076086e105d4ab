package wpds

// TopSummaries returns, for each stack symbol γ, the combine of the
// weights of all the configurations ⟨p, γ u⟩ that a accepts, over every
// stack u below: what Summary gives for the set "control p, γ on top",
// for all γ at once, in one pass over the automaton instead of one product
// per symbol. Symbols with weight Zero are left out. (Data-flow analyses
// ask this of every program location.)
func (a *Automaton[W]) TopSummaries(p State) map[Symbol]W {
	sr := a.sr
	// tail[q] is the combine of the weights of the paths from q to a final
	// state, in a's reading direction; a worklist iterates to the fixpoint.
	tail := make([]W, a.states)
	has := make([]bool, a.states)
	inWork := make([]bool, a.states)
	var work []State
	for q := 0; q < a.states; q++ {
		if a.final[q] {
			tail[q], has[q] = sr.One(), true
			work = append(work, State(q))
			inWork[q] = true
		}
	}
	for len(work) > 0 {
		q := work[0]
		work = work[1:]
		inWork[q] = false
		for _, t := range a.into[q] {
			if t.sym == Epsilon {
				continue
			}
			// The path reads t, then the rest from q.
			var v W
			if a.backward {
				v = sr.Extend(tail[q], a.eff(t))
			} else {
				v = sr.Extend(a.eff(t), tail[q])
			}
			old := sr.Zero()
			if has[t.from] {
				old = tail[t.from]
			}
			nw := sr.Combine(old, v)
			if has[t.from] && sr.Equal(nw, old) {
				continue
			}
			tail[t.from], has[t.from] = nw, true
			if !inWork[t.from] {
				inWork[t.from] = true
				work = append(work, t.from)
			}
		}
	}
	out := map[Symbol]W{}
	if p < 0 || int(p) >= a.pds.controls {
		return out
	}
	for _, t := range a.from[p] {
		if t.sym == Epsilon || !has[t.to] {
			continue
		}
		var v W
		if a.backward {
			v = sr.Extend(tail[t.to], a.eff(t))
		} else {
			v = sr.Extend(a.eff(t), tail[t.to])
		}
		if old, ok := out[t.sym]; ok {
			v = sr.Combine(old, v)
		}
		if !sr.Equal(v, sr.Zero()) {
			out[t.sym] = v
		}
	}
	return out
}
