package bdd

import "math/bits"

// Operation codes of computed-cache entries. Binary Boolean operators use
// their code directly; parameterised operations (Replace, VecCompose) put
// the id of their parameter object in the third key.
const (
	opNone int32 = iota
	opAnd
	opOr
	opXor
	opImp
	opEquiv
	opNot
	opIte
	opExists
	opForall
	opAndExists
	opReplace
	opCompose
	opVecCompose
	opRestrict
	opConstrain
)

// Operations are served by three separate caches, like BuDDy's per-family
// caches, so that e.g. the Or steps inside AndExists do not evict the
// AndExists results of the same fixpoint iteration (measured: with one
// shared cache the Milner benchmark recomputed 6.7x more).
const (
	cacheBool  = iota // And, Or, Xor, Imp, Equiv, Not
	cacheQuant        // Exists, Forall, AndExists
	cacheMisc         // Ite, Replace, Compose, VecCompose, Restrict, Constrain
	numCaches
)

// The fused relational product and renaming (AndExistsReplace) takes one
// operation code per renaming it is used with, from opRelBase to opRelMax,
// so that the renaming is part of the cache key (the third key is the
// quantified cube); past opRelMax renamings it runs unfused. Its codes are
// served by the quantifier cache.
const (
	opRelBase int32 = 32
	opRelMax  int32 = 255
)

// cacheFor returns the cache of an operation code.
func cacheFor(op int32) uint8 {
	if op >= opRelBase {
		return cacheQuant
	}
	return cacheOf[op]
}

// cacheOf maps an operation code below opRelBase to its cache.
var cacheOf = [...]uint8{
	opNone: cacheBool, opAnd: cacheBool, opOr: cacheBool, opXor: cacheBool,
	opImp: cacheBool, opEquiv: cacheBool, opNot: cacheBool,
	opIte: cacheMisc, opExists: cacheQuant, opForall: cacheQuant,
	opAndExists: cacheQuant, opReplace: cacheMisc, opCompose: cacheMisc,
	opVecCompose: cacheMisc, opRestrict: cacheMisc, opConstrain: cacheMisc,
}

// cacheEntry is one slot of the lossy computed cache: a hit needs all of
// op, a, b, c equal. 20 bytes, no pointers.
type cacheEntry struct {
	op      int32
	a, b, c Node
	r       Node
}

// resizeCache sizes each cache for the current node table (CacheRatio
// nodes per entry, power of two) or to the fixed CacheSize. Called only between
// operations, since entries are addressed by hash during recursion.
func (m *Manager) resizeCache() {
	n := m.cacheFixed
	if n <= 0 {
		n = len(m.nodes) / m.cacheRatio
	}
	if n < 1024 {
		n = 1024
	}
	n = 1 << bits.Len(uint(n-1))
	if len(m.caches[0]) == n {
		return
	}
	for i := range m.caches {
		m.caches[i] = makeTable[cacheEntry](n)
	}
	m.cShift = uint(64 - bits.Len(uint(n-1)))
}

func (m *Manager) clearCache() {
	for _, c := range m.caches {
		clear(c)
	}
}

func cacheHash(op int32, a, b, c Node) uint64 {
	x := uint64(uint32(a))<<32 | uint64(uint32(b))
	x ^= (uint64(uint32(c))<<8 | uint64(op)) * 0xD6E8FEB86659FD93
	return x * 0x9E3779B97F4A7C15
}
