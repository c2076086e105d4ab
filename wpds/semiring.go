package wpds

import (
	"fmt"
	"math"
)

// Semiring is a bounded idempotent semiring (Lal's thesis, Defn. 2.4.1)
// whose elements, the weights, have type W. Combine (⊕) must be
// associative, commutative and idempotent with Zero as its identity; Extend
// (⊗) must be associative with One as its identity, distribute over Combine
// on both sides, and have Zero as annihilator; the order a ⊑ b iff
// a ⊕ b = b must have no infinite ascending chains, or the saturation
// algorithms do not terminate.
//
// Extend(a, b) means "a, then b": on a path whose rules have weights
// w1, …, wn the value is w1 ⊗ … ⊗ wn.
type Semiring[W any] interface {
	// Zero is the weight of no path (the infeasible transformer).
	Zero() W
	// One is the weight of the empty path (the identity transformer).
	One() W
	// Extend is sequential composition: a followed by b.
	Extend(a, b W) W
	// Combine is the join of two alternatives.
	Combine(a, b W) W
	// Equal reports whether two weights are the same element.
	Equal(a, b W) bool
}

// Differ is the optional difference operation of a semiring used for
// differential propagation: Diff(a, b) is a weight d such that
// b ⊕ d = a ⊕ b, ideally the smallest such (what a adds to b).
type Differ[W any] interface {
	Diff(a, b W) W
}

// Starrer is the optional Kleene star of a semiring:
// Star(a) = One ⊕ a ⊕ a⊗a ⊕ …, which exists because the semiring is bounded.
type Starrer[W any] interface {
	Star(a W) W
}

// Bool is the Boolean weight domain (Defn. 2.4.12): combine is or, extend
// is and. A weighted pushdown system over Bool is a plain pushdown system,
// and its answers are reachability.
type Bool struct{}

// Zero returns false.
func (Bool) Zero() bool { return false }

// One returns true.
func (Bool) One() bool { return true }

// Extend returns a && b.
func (Bool) Extend(a, b bool) bool { return a && b }

// Combine returns a || b.
func (Bool) Combine(a, b bool) bool { return a || b }

// Equal returns a == b.
func (Bool) Equal(a, b bool) bool { return a == b }

// Diff returns a && !b.
func (Bool) Diff(a, b bool) bool { return a && !b }

// Star returns true.
func (Bool) Star(bool) bool { return true }

// Dist is a weight of the min-path domain: the length of a path, or
// Infinity when there is none.
type Dist uint64

// Infinity is the Dist of no path; lengths saturate at it.
const Infinity Dist = math.MaxUint64

// String prints the length, or "inf".
func (d Dist) String() string {
	if d == Infinity {
		return "inf"
	}
	return fmt.Sprint(uint64(d))
}

// MinPath is the shortest-path weight domain (Defn. 2.4.14): combine is
// min, extend is addition (saturating at Infinity), Zero is Infinity and
// One is 0. Giving every rule the weight 1 makes the answer the length of a
// shortest rule sequence. A length that overflows uint64 becomes Infinity,
// which reads as "no path": shortest runs of recursive programs can be
// exponentially long, so use Bool for reachability.
type MinPath struct{}

// Zero returns Infinity.
func (MinPath) Zero() Dist { return Infinity }

// One returns 0.
func (MinPath) One() Dist { return 0 }

// Extend returns a + b, or Infinity if either is Infinity or the sum overflows.
func (MinPath) Extend(a, b Dist) Dist {
	if a == Infinity || b == Infinity || a+b < a {
		return Infinity
	}
	return a + b
}

// Combine returns min(a, b).
func (MinPath) Combine(a, b Dist) Dist { return min(a, b) }

// Equal returns a == b.
func (MinPath) Equal(a, b Dist) bool { return a == b }

// Diff returns a if it is shorter than b, else Infinity (a adds nothing).
func (MinPath) Diff(a, b Dist) Dist {
	if a < b {
		return a
	}
	return Infinity
}

// Star returns 0: lengths are never negative, so no loop shortens a path.
func (MinPath) Star(Dist) Dist { return 0 }

// GenKill is a weight of the bit-vector domain: the transformer
// x ↦ (x &^ Kill) | Gen on sets of at most 64 data-flow facts, or the
// infeasible transformer when Bottom is set. Build one with BitVector.Fn so
// that it is in canonical form (Gen ⊆ Kill), which Equal relies on.
type GenKill struct {
	Kill, Gen uint64
	Bottom    bool
}

// BitVector is the gen/kill weight domain for "may" data-flow problems
// (reaching definitions, possibly-uninitialised variables, …): combine is
// the pointwise union of transformers, extend is composition (a, then b).
type BitVector struct{}

// Fn returns the canonical transformer x ↦ (x &^ kill) | gen.
func (BitVector) Fn(kill, gen uint64) GenKill { return GenKill{Kill: kill | gen, Gen: gen} }

// Apply returns the facts after the transformer w runs on the facts x
// (none if w is infeasible).
func (BitVector) Apply(w GenKill, x uint64) uint64 {
	if w.Bottom {
		return 0
	}
	return x&^w.Kill | w.Gen
}

// Zero returns the infeasible transformer.
func (BitVector) Zero() GenKill { return GenKill{Bottom: true} }

// One returns the identity transformer.
func (BitVector) One() GenKill { return GenKill{} }

// Extend returns b ∘ a.
func (BitVector) Extend(a, b GenKill) GenKill {
	if a.Bottom || b.Bottom {
		return GenKill{Bottom: true}
	}
	return GenKill{Kill: a.Kill | b.Kill, Gen: a.Gen&^b.Kill | b.Gen}
}

// Combine returns x ↦ a(x) | b(x).
func (BitVector) Combine(a, b GenKill) GenKill {
	switch {
	case a.Bottom:
		return b
	case b.Bottom:
		return a
	}
	g := a.Gen | b.Gen
	return GenKill{Kill: a.Kill&b.Kill | g, Gen: g}
}

// Equal reports whether a and b are the same transformer (both canonical).
func (BitVector) Equal(a, b GenKill) bool {
	if a.Bottom || b.Bottom {
		return a.Bottom == b.Bottom
	}
	return a == b
}

// Star returns One ⊕ a: gen/kill transformers are idempotent under extend.
func (s BitVector) Star(a GenKill) GenKill { return s.Combine(s.One(), a) }
