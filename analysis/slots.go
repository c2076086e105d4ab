package analysis

import (
	"math/bits"
	"strings"

	"boolprog/ir"
)

// Slots numbers the storage places of a program's variables: globals
// first, then the locals of the executing procedure (shared by all
// procedures), then the returned values.
type Slots struct {
	G int // globals: slots 0..G-1
	L int // locals: slots G..G+L-1 (the most locals of any procedure)
	R int // returned values: slots G+L..G+L+R-1 (the most values any procedure returns)
}

// SlotsOf returns the slot numbering of p.
func SlotsOf(p *ir.Program) Slots {
	s := Slots{G: len(p.Globals)}
	for _, pr := range p.Procs {
		s.L = max(s.L, len(pr.Locals))
		s.R = max(s.R, pr.Returns)
	}
	return s
}

// N is the number of slots.
func (s Slots) N() int { return s.G + s.L + s.R }

// Slot returns the slot of a variable.
func (s Slots) Slot(v ir.VarRef) int {
	if v.Global {
		return v.Index
	}
	return s.G + v.Index
}

// Local returns the slot of local j.
func (s Slots) Local(j int) int { return s.G + j }

// Ret returns the slot of returned value i.
func (s Slots) Ret(i int) int { return s.G + s.L + i }

// IsGlobal reports whether slot is a global's.
func (s Slots) IsGlobal(slot int) bool { return slot < s.G }

// IsLocal reports whether slot is a local's.
func (s Slots) IsLocal(slot int) bool { return slot >= s.G && slot < s.G+s.L }

// IsRet reports whether slot holds a returned value.
func (s Slots) IsRet(slot int) bool { return slot >= s.G+s.L }

// Scope returns the slots in scope in proc: globals, its locals, and its
// returned values (meaningful only at its exit).
func (s Slots) Scope(proc *ir.Proc) Set {
	set := NewSet(s.N())
	for i := 0; i < s.G; i++ {
		set.Add(i)
	}
	for j := range proc.Locals {
		set.Add(s.Local(j))
	}
	for i := 0; i < proc.Returns; i++ {
		set.Add(s.Ret(i))
	}
	return set
}

// All returns the set of every slot.
func (s Slots) All() Set {
	set := NewSet(s.N())
	for i := 0; i < s.N(); i++ {
		set.Add(i)
	}
	return set
}

// Globals returns the set of all global slots.
func (s Slots) Globals() Set {
	set := NewSet(s.N())
	for i := 0; i < s.G; i++ {
		set.Add(i)
	}
	return set
}

// Set is a set of slots (a bit set).
type Set []uint64

// NewSet returns an empty set for n slots.
func NewSet(n int) Set { return make(Set, (n+63)/64) }

// Has reports whether slot i is in s.
func (s Set) Has(i int) bool { return s[i>>6]&(1<<(uint(i)&63)) != 0 }

// Add adds slot i.
func (s Set) Add(i int) { s[i>>6] |= 1 << (uint(i) & 63) }

// Remove removes slot i.
func (s Set) Remove(i int) { s[i>>6] &^= 1 << (uint(i) & 63) }

// Clone returns a copy of s.
func (s Set) Clone() Set { return append(Set(nil), s...) }

// Union returns s ∪ t as a new set.
func (s Set) Union(t Set) Set {
	r := s.Clone()
	for i := range r {
		r[i] |= t[i]
	}
	return r
}

// Inter returns s ∩ t as a new set.
func (s Set) Inter(t Set) Set {
	r := s.Clone()
	for i := range r {
		r[i] &= t[i]
	}
	return r
}

// Minus returns s \ t as a new set.
func (s Set) Minus(t Set) Set {
	r := s.Clone()
	for i := range r {
		r[i] &^= t[i]
	}
	return r
}

// UnionWith adds t to s and reports whether s changed.
func (s Set) UnionWith(t Set) bool {
	changed := false
	for i := range s {
		if n := s[i] | t[i]; n != s[i] {
			s[i] = n
			changed = true
		}
	}
	return changed
}

// Equal reports whether s and t have the same elements.
func (s Set) Equal(t Set) bool {
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// Empty reports whether s has no element.
func (s Set) Empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// Len returns the number of elements.
func (s Set) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Elems returns the elements in increasing order.
func (s Set) Elems() []int {
	var out []int
	for i, w := range s {
		for w != 0 {
			b := bits.TrailingZeros64(w)
			out = append(out, i*64+b)
			w &= w - 1
		}
	}
	return out
}

// Key returns a string that identifies the set (for caches).
func (s Set) Key() string {
	var b strings.Builder
	for _, w := range s {
		for k := 0; k < 8; k++ {
			b.WriteByte(byte(w >> (8 * k)))
		}
	}
	return b.String()
}
