package bdd

import (
	"testing"
	"unsafe"
)

// TestMakeTable checks that makeTable gives make's slice (length, zeroed,
// writable to the end) at sizes below, at and across huge-page
// boundaries, where the Linux version advises part of it.
func TestMakeTable(t *testing.T) {
	per := int(unsafe.Sizeof(node{}))
	for _, n := range []int{0, 1, 1000, hugePageBytes / per, hugePageBytes/per + 1, 3*hugePageBytes/per + 7} {
		s := makeTable[node](n)
		if len(s) != n {
			t.Fatalf("makeTable(%d): length %d", n, len(s))
		}
		for i := range s {
			if s[i] != (node{}) {
				t.Fatalf("makeTable(%d): entry %d is %+v, not zero", n, i, s[i])
			}
			s[i] = node{level: int32(i), low: Node(i), high: Node(i), next: int32(i)}
		}
		for i := range s {
			if s[i].level != int32(i) || s[i].next != int32(i) {
				t.Fatalf("makeTable(%d): entry %d lost its value", n, i)
			}
		}
	}
}

// hugePageBytes is 2 MiB: the huge-page size of hugepages_linux.go, named
// here too so that the test builds where that file does not.
const hugePageBytes = 2 << 20
