//go:build libbdd

package bench

import (
	"testing"

	"boolprog/bdd"
)

// TestLoadSavedBuddy loads the same saved BDDs in ours and BuDDy under
// the saved order: the diagrams must be the saved ones node for node.
// Then each package sifts them once with the saved blocks, and the counts
// must agree.
func TestLoadSavedBuddy(t *testing.T) {
	s, nodes := savedPairs(t)
	cfg := Config{Vars: s.Vars, Nodes: 1 << 10, Cache: 1 << 8}
	o := NewOurs(cfg)
	b := NewBuddy(cfg)
	if err := o.SetOrderAndBlocks(s.Order, s.Blocks); err != nil {
		t.Fatal(err)
	}
	if err := b.SetOrderAndBlocks(s.Order, s.Blocks); err != nil {
		t.Fatal(err)
	}
	ro, err := LoadSaved[bdd.Node](o, s)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := LoadSaved[BuddyNode](b, s)
	if err != nil {
		t.Fatal(err)
	}
	for i := range ro {
		checkSame(t, o, b, ro[i], rb[i])
	}
	if no, nb := o.NodeCountAll(ro), b.NodeCountAll(rb); no != nodes || nb != nodes {
		t.Fatalf("nodes: ours %d, buddy %d, saved %d", no, nb, nodes)
	}
	b.Close()

	b = NewBuddy(cfg)
	defer b.Close()
	sb, err := SiftSaved[BuddyNode](b, s)
	if err != nil {
		t.Fatal(err)
	}
	so, err := SiftSaved[bdd.Node](NewOurs(cfg), s)
	if err != nil {
		t.Fatal(err)
	}
	if sb.Before != so.Before || sb.After >= sb.Before {
		t.Fatalf("buddy %d -> %d nodes, ours %d -> %d", sb.Before, sb.After, so.Before, so.After)
	}
	for i := range so.Count {
		if so.Count[i] != sb.Count[i] {
			t.Fatalf("root %d: ours counts %g, buddy %g", i, so.Count[i], sb.Count[i])
		}
	}
}

func TestBuddyBlocksMustBeRanges(t *testing.T) {
	cfg := Config{Vars: 4, Nodes: 1 << 10, Cache: 1 << 8}
	for _, blocks := range [][][]int{{{0, 2}}, {{1, 0}}, {{0, 1}, {1, 2}}, {{}}} {
		b := NewBuddy(cfg)
		if err := b.SetOrderAndBlocks([]int{0, 1, 2, 3}, blocks); err == nil {
			t.Errorf("blocks %v accepted", blocks)
		}
		b.Close()
	}
	// BuDDy's blocks are index ranges: with the order 1 0 2 3, the
	// block {1, 0} is at consecutive levels but not in index order.
	b := NewBuddy(cfg)
	defer b.Close()
	if err := b.SetOrderAndBlocks([]int{1, 0, 2, 3}, [][]int{{1, 0}}); err == nil {
		t.Error("block {1, 0} accepted")
	}
	// A second call would make bdd_setvarorder fail with blocks present.
	if err := b.SetOrderAndBlocks([]int{0, 1, 2, 3}, nil); err == nil {
		t.Error("a second SetOrderAndBlocks accepted")
	}
}
