package bench

import (
	"bytes"
	"testing"

	"boolprog/bdd"
)

// savedPairs saves, from a manager of 16 variables whose order is not the
// identity and which has blocks, ∨_i (x_i ∧ y_i) for 6 pairs with every x
// above every y (exponential until sifting brings each pair together) and
// a second root sharing its nodes. Variables 12..15 stay out of the
// support, so Save renumbers.
func savedPairs(t *testing.T) (*bdd.Saved, int) {
	t.Helper()
	m := bdd.New(bdd.Config{})
	m.ExtVarNum(16)
	order := []int{15, 14}
	for v := 0; v < 12; v++ {
		order = append(order, 11-v)
	}
	order = append(order, 13, 12)
	if err := m.SetVarOrder(order); err != nil {
		t.Fatal(err)
	}
	// Blocks of two: (11,10), (9,8), ...; (13,12) has no support variable.
	for v := 11; v > 0; v -= 2 {
		if err := m.AddBlock(v, v-1); err != nil {
			t.Fatal(err)
		}
	}
	if err := m.AddBlock(13, 12); err != nil {
		t.Fatal(err)
	}
	f := bdd.False
	for i := 0; i < 6; i++ {
		// x_i = 11-i, y_i = 5-i: the x's sit above the y's.
		f = m.Or(f, m.And(m.Ithvar(11-i), m.Ithvar(5-i)))
	}
	g := m.And(f, m.Ithvar(3))
	var buf bytes.Buffer
	if err := m.Save(&buf, f, g); err != nil {
		t.Fatal(err)
	}
	s, err := bdd.ReadSaved(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return s, m.NodeCount(f, g)
}

func TestSiftSavedOurs(t *testing.T) {
	s, nodes := savedPairs(t)
	if s.Vars != 12 || len(s.Blocks) != 6 {
		t.Fatalf("saved %d variables, %d blocks; want 12 and 6", s.Vars, len(s.Blocks))
	}
	r, err := SiftSaved[bdd.Node](NewOurs(Config{Vars: s.Vars, Nodes: 1 << 10, Cache: 1 << 8}), s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Before != nodes {
		t.Fatalf("%d nodes loaded, %d saved", r.Before, nodes)
	}
	// Blocks of two move as units, and the function's blocks do not
	// pair x_i with y_i, but sifting still shrinks it.
	if r.After >= r.Before {
		t.Fatalf("sifting did not shrink: %d -> %d", r.Before, r.After)
	}
	// f: all 2^12 assignments but the 3^6 with no pair both true; g =
	// f ∧ y_2: 2^11 with y_2 true but the 3^5 with x_2 false and no other
	// pair both true.
	if len(r.Count) != 2 || r.Count[0] != 4096-729 || r.Count[1] != 2048-243 {
		t.Fatalf("counts %v, want [3367 1805]", r.Count)
	}
}

func TestLoadSavedRejects(t *testing.T) {
	o := NewOurs(Config{Vars: 2, Nodes: 1 << 10, Cache: 1 << 8})
	for _, s := range []*bdd.Saved{
		{Vars: 2, Order: []int{0, 1}, Nodes: []bdd.SavedNode{{ID: 2, Var: 1, Low: 0, High: 5}}},
		{Vars: 2, Order: []int{0, 1}, Nodes: []bdd.SavedNode{{ID: 2, Var: 2, Low: 0, High: 1}}},
		{Vars: 2, Order: []int{0, 1}, Nodes: []bdd.SavedNode{{ID: 2, Var: 1, Low: 0, High: 1}, {ID: 2, Var: 0, Low: 0, High: 1}}},
		{Vars: 2, Order: []int{0, 1}, Roots: []int{3}},
		{Vars: 2, Order: []int{0, 1}, Nodes: []bdd.SavedNode{{ID: 2, Var: 1, Low: 0, High: 1}}, Roots: []int{2, 2, 4}},
	} {
		if rs, err := LoadSaved[bdd.Node](o, s); err == nil {
			t.Errorf("loaded %+v: %v", s, rs)
		}
	}
	if n := len(o.refs); n != 0 {
		t.Fatalf("%d references left after the failed loads", n)
	}
}
