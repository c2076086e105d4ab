//go:build libbdd

package bench

/*
#cgo LDFLAGS: -lbdd
#include <stdlib.h>
#include <bdd.h>

static void quiet_gbc(int pre, bddGbcStat *s) { (void)pre; (void)s; }
static void buddy_quiet(void) { bdd_gbc_hook(quiet_gbc); }

// rename_loop renames f k times with pair p, re-setting the pairs each time
// so that every call gets a fresh pair id (no cache hit), as a C loop so
// that the cgo call overhead is not charged to BuDDy.
static void rename_loop(BDD f, int k, bddPair *p, int *from, int *to, int n) {
	for (int i = 0; i < k; i++) {
		bdd_setpairs(p, from, to, n);
		BDD r = bdd_addref(bdd_replace(f, p));
		bdd_delref(r);
	}
}

// rename_newpair_loop is the same with a new pair object per renaming:
// bdd_newpair allocates an array over all variables.
static void rename_newpair_loop(BDD f, int k, int *from, int *to, int n) {
	for (int i = 0; i < k; i++) {
		bddPair *p = bdd_newpair();
		bdd_setpairs(p, from, to, n);
		BDD r = bdd_addref(bdd_replace(f, p));
		bdd_delref(r);
		bdd_freepair(p);
	}
}
*/
import "C"

import (
	"fmt"
	"time"
	"unsafe"
)

// BuddyNode is the BDD type of BuDDy (a C int).
type BuddyNode = C.BDD

// Buddy adapts the BuDDy C library to Engine. BuDDy has global state: one
// instance at a time (Close ends it).
type Buddy struct {
	sets    []C.BDD
	pairs   []*C.bddPair
	ordered bool // SetOrderAndBlocks ran (see there)
}

// NewBuddy initialises BuDDy with the given node table and cache, lets the
// table double without a practical cap (bdd_setmaxincrease(1<<30)), keeps the cache in
// proportion to the table, and declares c.Vars variables.
func NewBuddy(c Config) *Buddy {
	if rc := C.bdd_init(C.int(c.Nodes), C.int(c.Cache)); rc != 0 {
		panic(fmt.Sprintf("bdd_init: %d", rc))
	}
	C.buddy_quiet()
	C.bdd_setmaxincrease(1 << 30)
	C.bdd_setcacheratio(C.int(max(1, c.Nodes/max(c.Cache, 1))))
	if c.Vars > 0 {
		C.bdd_setvarnum(C.int(c.Vars))
	}
	return &Buddy{}
}

func (b *Buddy) ref(n C.BDD) C.BDD {
	if n < 0 {
		panic(fmt.Sprintf("buddy error %d", n))
	}
	return C.bdd_addref(n)
}

// Name implements Engine.
func (b *Buddy) Name() string { return "buddy" }

// True implements Engine.
func (b *Buddy) True() C.BDD { return 1 }

// False implements Engine.
func (b *Buddy) False() C.BDD { return 0 }

// Ithvar implements Engine.
func (b *Buddy) Ithvar(v int) C.BDD { return b.ref(C.bdd_ithvar(C.int(v))) }

// NIthvar implements Engine.
func (b *Buddy) NIthvar(v int) C.BDD { return b.ref(C.bdd_nithvar(C.int(v))) }

// And implements Engine.
func (b *Buddy) And(x, y C.BDD) C.BDD { return b.ref(C.bdd_and(x, y)) }

// Or implements Engine.
func (b *Buddy) Or(x, y C.BDD) C.BDD { return b.ref(C.bdd_or(x, y)) }

// Xor implements Engine.
func (b *Buddy) Xor(x, y C.BDD) C.BDD { return b.ref(C.bdd_apply(x, y, C.bddop_xor)) }

// Not implements Engine.
func (b *Buddy) Not(x C.BDD) C.BDD { return b.ref(C.bdd_not(x)) }

// Equiv implements Engine.
func (b *Buddy) Equiv(x, y C.BDD) C.BDD { return b.ref(C.bdd_apply(x, y, C.bddop_biimp)) }

// Ite implements Engine.
func (b *Buddy) Ite(x, y, z C.BDD) C.BDD {
	return b.ref(C.bdd_ite(x, y, z))
}

// Exists implements Engine.
func (b *Buddy) Exists(x C.BDD, s int) C.BDD { return b.ref(C.bdd_exist(x, b.sets[s])) }

// AndExists implements Engine.
func (b *Buddy) AndExists(x, y C.BDD, s int) C.BDD {
	return b.ref(C.bdd_appex(x, y, C.bddop_and, b.sets[s]))
}

// Replace implements Engine.
func (b *Buddy) Replace(x C.BDD, p int) C.BDD { return b.ref(C.bdd_replace(x, b.pairs[p])) }

// MakeSet implements Engine.
func (b *Buddy) MakeSet(vars []int) int {
	cv := cInts(vars)
	defer C.free(unsafe.Pointer(cv))
	b.sets = append(b.sets, b.ref(C.bdd_makeset(cv, C.int(len(vars)))))
	return len(b.sets) - 1
}

// MakePairs implements Engine.
func (b *Buddy) MakePairs(from, to []int) int {
	p := C.bdd_newpair()
	cf, ct := cInts(from), cInts(to)
	defer C.free(unsafe.Pointer(cf))
	defer C.free(unsafe.Pointer(ct))
	C.bdd_setpairs(p, cf, ct, C.int(len(from)))
	b.pairs = append(b.pairs, p)
	return len(b.pairs) - 1
}

// SatCount implements Engine.
func (b *Buddy) SatCount(x C.BDD, s int) float64 {
	return float64(C.bdd_satcountset(x, b.sets[s]))
}

// NodeCount implements Engine.
func (b *Buddy) NodeCount(x C.BDD) int { return int(C.bdd_nodecount(x)) }

// Release implements Engine.
func (b *Buddy) Release(x C.BDD) { C.bdd_delref(x) }

// Equal implements Engine.
func (b *Buddy) Equal(x, y C.BDD) bool { return x == y }

// Close implements Engine.
func (b *Buddy) Close() {
	for _, p := range b.pairs {
		C.bdd_freepair(p)
	}
	C.bdd_done()
}

// Var, Low and High expose the structure for the cross-check.
func (b *Buddy) Var(x C.BDD) int { return int(C.bdd_var(x)) }

// Low exposes the diagram structure (cross-check).
func (b *Buddy) Low(x C.BDD) C.BDD { return C.bdd_low(x) }

// High exposes the diagram structure (cross-check).
func (b *Buddy) High(x C.BDD) C.BDD { return C.bdd_high(x) }

// RenameLoop renames f (an owned node) k times in C, with pairs re-set each
// time (fresh cache id) or with a new pair object each time.
func (b *Buddy) RenameLoop(f C.BDD, k int, from, to []int, newPair bool) {
	cf, ct := cInts(from), cInts(to)
	defer C.free(unsafe.Pointer(cf))
	defer C.free(unsafe.Pointer(ct))
	if newPair {
		C.rename_newpair_loop(f, C.int(k), cf, ct, C.int(len(from)))
		return
	}
	p := C.bdd_newpair()
	C.rename_loop(f, C.int(k), p, cf, ct, C.int(len(from)))
	C.bdd_freepair(p)
}

func cInts(xs []int) *C.int {
	p := (*C.int)(C.malloc(C.size_t(len(xs)+1) * C.size_t(unsafe.Sizeof(C.int(0)))))
	s := unsafe.Slice(p, len(xs)+1)
	for i, x := range xs {
		s[i] = C.int(x)
	}
	return p
}

// Sift runs BuDDy's sifting once (bdd_reorder(BDD_REORDER_SIFT), every
// variable its own block) and reports the live nodes before and after
// (after a collection, so only referenced nodes count) and its time.
func (b *Buddy) Sift() SiftResult {
	C.bdd_varblockall()
	return b.SiftBlocks()
}

// SiftBlocks implements SavedEngine: one bdd_reorder(BDD_REORDER_SIFT)
// with the blocks declared so far (SetOrderAndBlocks), reporting the live
// nodes before and after (after a collection, so only referenced nodes
// count, plus BuDDy's 2 permanent nodes per variable) and its time.
func (b *Buddy) SiftBlocks() SiftResult {
	C.bdd_gbc()
	before := int(C.bdd_getnodenum())
	start := time.Now()
	C.bdd_reorder(C.BDD_REORDER_SIFT)
	d := time.Since(start)
	C.bdd_gbc()
	return SiftResult{Before: before, After: int(C.bdd_getnodenum()), Time: d}
}

// SetOrderAndBlocks implements SavedEngine, before any BDD is built:
// bdd_setvarorder, then bdd_intaddvarblock(first, last,
// BDD_REORDER_FIXED) per block, then every variable in no block as its
// own block (as bdd_varblockall does for all), since BuDDy's sifting moves
// only the blocks of its variable tree. BuDDy's blocks are ranges of
// variable indices, so each block must be one, at consecutive levels in
// index order (bdd.Manager.Save writes such blocks: its order is the
// identity). It may run once: BuDDy's bdd_setvarorder fails once blocks
// exist, and its default error handler ends the process.
func (b *Buddy) SetOrderAndBlocks(order []int, blocks [][]int) error {
	if b.ordered {
		return fmt.Errorf("buddy: order and blocks already set")
	}
	b.ordered = true
	n := int(C.bdd_varnum())
	if len(order) != n {
		return fmt.Errorf("buddy: %d variables ordered, %d declared", len(order), n)
	}
	if n > 0 {
		co := cInts(order)
		C.bdd_setvarorder(co)
		C.free(unsafe.Pointer(co))
	}
	inBlock := make([]bool, n)
	for _, bl := range blocks {
		if len(bl) == 0 {
			return fmt.Errorf("buddy: empty block")
		}
		first := bl[0]
		for i, v := range bl {
			if v != first+i || v < 0 || v >= n || inBlock[v] ||
				int(C.bdd_var2level(C.int(v))) != int(C.bdd_var2level(C.int(first)))+i {
				return fmt.Errorf("buddy: block %v is not a range of variables at consecutive levels", bl)
			}
			inBlock[v] = true
		}
		if rc := C.bdd_intaddvarblock(C.int(first), C.int(bl[len(bl)-1]), C.BDD_REORDER_FIXED); rc < 0 {
			return fmt.Errorf("buddy: bdd_intaddvarblock(%d, %d): %s", first, bl[len(bl)-1], C.GoString(C.bdd_errstring(rc)))
		}
	}
	for v := 0; v < n; v++ {
		if !inBlock[v] {
			if rc := C.bdd_intaddvarblock(C.int(v), C.int(v), C.BDD_REORDER_FIXED); rc < 0 {
				return fmt.Errorf("buddy: bdd_intaddvarblock(%d, %d): %s", v, v, C.GoString(C.bdd_errstring(rc)))
			}
		}
	}
	return nil
}

// SatCountAll implements SavedEngine (bdd_satcount: over all the
// variables declared).
func (b *Buddy) SatCountAll(f C.BDD) float64 { return float64(C.bdd_satcount(f)) }

// NodeCountAll implements SavedEngine (bdd_anodecount).
func (b *Buddy) NodeCountAll(fs []C.BDD) int {
	if len(fs) == 0 {
		return 0
	}
	return int(C.bdd_anodecount(&fs[0], C.int(len(fs))))
}
