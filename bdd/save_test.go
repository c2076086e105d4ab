package bdd

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// evalVars evaluates f under the assignment val (indexed by variable) by
// walking the BDD.
func evalVars(m *Manager, f Node, val func(v int) bool) bool {
	for f >= 2 {
		if val(m.Var(f)) {
			f = m.High(f)
		} else {
			f = m.Low(f)
		}
	}
	return f == True
}

// supportByLevel is the union of the supports of fs, sorted by level:
// saved variable i is the i-th of them.
func supportByLevel(m *Manager, fs []Node) []int {
	var vs []int
	for _, f := range fs {
		vs = append(vs, m.Support(f)...)
	}
	slices.Sort(vs)
	vs = slices.Compact(vs)
	slices.SortFunc(vs, func(a, b int) int { return m.Level(a) - m.Level(b) })
	return vs
}

func TestSaveLoadRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		// build makes the BDDs to save in m (over 12 variables).
		build func(w *world, rng *rand.Rand) []Node
		// setup runs before build: order, blocks.
		setup func(m *Manager) error
		// after runs between build and Save (e.g. sifting).
		after func(m *Manager)
		// load configures the manager the BDDs are loaded into.
		load Config
	}{
		{
			name:  "constants",
			build: func(*world, *rand.Rand) []Node { return []Node{True, False, True} },
		},
		{
			name:  "one literal of a high variable",
			build: func(w *world, _ *rand.Rand) []Node { return []Node{w.m.NIthvar(9)} },
		},
		{
			name: "random functions, identity order",
			build: func(w *world, rng *rand.Rand) []Node {
				return []Node{w.randFunc(rng, 6).n, w.randFunc(rng, 6).n}
			},
		},
		{
			name: "shared roots, permuted order, blocks with variables outside the support",
			setup: func(m *Manager) error {
				if err := m.SetVarOrder([]int{11, 3, 7, 0, 1, 2, 10, 9, 8, 4, 5, 6}); err != nil {
					return err
				}
				if err := m.AddBlock(7, 0, 1); err != nil {
					return err
				}
				return m.AddBlock(9, 8)
			},
			build: func(w *world, _ *rand.Rand) []Node {
				m := w.m
				// Variables 11 and 8 are not in the support: block {9,8}
				// keeps 9 alone, and 11 is not saved.
				f := m.Or(m.And(m.Ithvar(3), m.Ithvar(7)), m.And(m.Ithvar(0), m.Ithvar(9)))
				g := m.Xor(f, m.Ithvar(5))
				return []Node{f, g, f, m.Not(g)}
			},
		},
		{
			name: "after sifting with blocks",
			setup: func(m *Manager) error {
				for v := 0; v < 12; v += 3 {
					if err := m.AddBlock(v, v+1); err != nil {
						return err
					}
				}
				return nil
			},
			build: func(w *world, _ *rand.Rand) []Node {
				m := w.m
				f := False
				for i := 0; i < 6; i++ {
					f = m.Or(f, m.And(m.Ithvar(i), m.Ithvar(11-i)))
				}
				return []Node{f}
			},
			after: func(m *Manager) { m.Reorder() },
		},
		{
			name: "loaded under stress reordering (nodes built by if-then-else)",
			build: func(w *world, rng *rand.Rand) []Node {
				return []Node{w.randFunc(rng, 7).n, w.randFunc(rng, 7).n}
			},
			load: Config{Reorder: ReorderStress, InitialNodes: 256},
		},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const nv = 12
			m := New(Config{})
			m.ExtVarNum(nv)
			if tc.setup != nil {
				if err := tc.setup(m); err != nil {
					t.Fatal(err)
				}
			}
			w := &world{t: t, m: m, nv: nv}
			fs := tc.build(w, rand.New(rand.NewSource(int64(i+1))))
			var keep []*Root
			for _, f := range fs {
				keep = append(keep, m.Keep(f))
			}
			m.GC()
			if tc.after != nil {
				tc.after(m)
			}
			var buf bytes.Buffer
			if err := m.Save(&buf, fs...); err != nil {
				t.Fatal(err)
			}
			text := buf.String()
			s, err := ReadSaved(strings.NewReader(text))
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}

			// The saved variables: the support, renumbered by level.
			supp := supportByLevel(m, fs)
			if s.Vars != len(supp) || !slices.Equal(s.Order, seq(len(supp))) {
				t.Fatalf("saved %d variables in order %v, want the identity on %d", s.Vars, s.Order, len(supp))
			}
			saved := map[int]int{} // manager variable -> saved variable
			for i, v := range supp {
				saved[v] = i
			}
			// Blocks: m's blocks restricted to the support.
			var wantBlocks [][]int
			for _, b := range m.blocks {
				var nb []int
				for _, v := range b.vars {
					if sv, ok := saved[int(v)]; ok {
						nb = append(nb, sv)
					}
				}
				slices.Sort(nb)
				if len(nb) > 0 {
					wantBlocks = append(wantBlocks, nb)
				}
			}
			slices.SortFunc(wantBlocks, func(a, b []int) int { return a[0] - b[0] })
			if !slices.EqualFunc(s.Blocks, wantBlocks, slices.Equal[[]int]) {
				t.Fatalf("blocks %v, want %v", s.Blocks, wantBlocks)
			}

			m2 := New(tc.load)
			gs, err := m2.Load(s)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range gs {
				m2.Keep(g)
			}
			if len(gs) != len(fs) {
				t.Fatalf("%d roots loaded, %d saved", len(gs), len(fs))
			}
			all := m.VarSet(supp...)
			all2 := m2.VarSet(seq(len(supp))...)
			rng := rand.New(rand.NewSource(7))
			for k, f := range fs {
				g := gs[k]
				if a, b := m.SatCount(f, all), m2.SatCount(g, all2); a != b {
					t.Errorf("root %d: SatCount %g, loaded %g", k, a, b)
				}
				if f < 2 && g != f {
					t.Errorf("root %d: constant %d loaded as %d", k, f, g)
				}
				// Every assignment of the support when it is small,
				// random ones otherwise.
				n := len(supp)
				for a := 0; a < 1<<min(n, 10); a++ {
					x := a
					if n > 10 {
						x = rng.Intn(1 << n)
					}
					v1 := evalVars(m, f, func(v int) bool { return x>>saved[v]&1 != 0 })
					v2 := evalVars(m2, g, func(v int) bool { return x>>v&1 != 0 })
					if v1 != v2 {
						t.Fatalf("root %d differs under assignment %b", k, x)
					}
				}
			}
			if tc.load.Reorder == ReorderStress {
				return // the order moved: sizes and the file differ
			}
			if a, b := m.NodeCount(fs...), m2.NodeCount(gs...); a != b {
				t.Errorf("NodeCount %d, loaded %d", a, b)
			}
			for l := 0; l < m2.VarNum(); l++ {
				if m2.VarAtLevel(l) != l {
					t.Fatalf("loaded order %v is not the saved identity", m2.level2var)
				}
			}
			// Saving the loaded BDDs again gives the same file: order,
			// blocks and diagrams all kept.
			var again bytes.Buffer
			if err := m2.Save(&again, gs...); err != nil {
				t.Fatal(err)
			}
			if again.String() != text {
				t.Fatalf("saved again:\n%s\nfirst:\n%s", again.String(), text)
			}
			for _, r := range keep {
				r.Release()
			}
		})
	}
}

// TestSaveFormat pins the text of a small file, so that a change of the
// format is a deliberate one (the bench module and saved files depend on
// it).
func TestSaveFormat(t *testing.T) {
	m := New(Config{})
	m.ExtVarNum(5)
	if err := m.SetVarOrder([]int{4, 0, 3, 1, 2}); err != nil {
		t.Fatal(err)
	}
	if err := m.AddBlock(3, 1); err != nil {
		t.Fatal(err)
	}
	// x0 ∧ (x3 ∨ x2), and x2: variables 4 and 1 are not in the support.
	f := m.And(m.Ithvar(0), m.Or(m.Ithvar(3), m.Ithvar(2)))
	var buf bytes.Buffer
	if err := m.Save(&buf, f, m.Ithvar(2), False); err != nil {
		t.Fatal(err)
	}
	const want = `boolprog-bdd 1
vars 3
order 0 1 2
blocks 1
1
nodes 3
2 2 0 1
3 1 2 1
4 0 0 3
roots 3
4 2 0
`
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
	if err := m.Save(&buf, f, Invalid); err == nil {
		t.Fatal("Save of Invalid accepted")
	}
}

func TestReadSavedRejects(t *testing.T) {
	// ok is a valid file; each case breaks one thing.
	const ok = "boolprog-bdd 1\nvars 3\norder 0 1 2\nblocks 1\n0 1\nnodes 3\n2 2 0 1\n3 1 2 1\n4 0 0 3\nroots 1\n4\n"
	if _, err := ReadSaved(strings.NewReader(ok)); err != nil {
		t.Fatalf("the valid file: %v", err)
	}
	tests := []struct {
		name, text, want string
	}{
		{"empty", "", "unexpected end"},
		{"other format", "boolprog-bdd 2\n", "not saved BDDs"},
		{"no vars", "boolprog-bdd 1\norder 0\n", `want "vars"`},
		{"negative vars", "boolprog-bdd 1\nvars -1\n", "bad number"},
		{"vars not a number", "boolprog-bdd 1\nvars x\n", "bad number"},
		{"vars overflow", "boolprog-bdd 1\nvars 99999999999999999999999\n", "bad number"},
		{"too many vars", "boolprog-bdd 1\nvars 2000000000\norder\n", "at most"},
		{"short order", strings.Replace(ok, "order 0 1 2", "order 0 1", 1), "lists 2 variables"},
		{"order repeats", strings.Replace(ok, "order 0 1 2", "order 0 1 1", 1), "not a permutation"},
		{"order out of range", strings.Replace(ok, "order 0 1 2", "order 0 1 3", 1), "not a permutation"},
		{"order missing", strings.Replace(ok, "order 0 1 2\n", "", 1), `want "order"`},
		{"block lines missing", strings.Replace(ok, "blocks 1\n0 1\n", "blocks 2\n0 1\n", 1), `bad number "nodes"`},
		{"empty block", strings.Replace(ok, "blocks 1\n0 1\n", "blocks 1\n\n", 1), "block 0 is empty"},
		{"block variable out of range", strings.Replace(ok, "blocks 1\n0 1\n", "blocks 1\n2 3\n", 1), "no variable 3"},
		{"variable in two blocks", strings.Replace(ok, "blocks 1\n0 1\n", "blocks 2\n0 1\n1 2\n", 1), "in two blocks"},
		{"block not consecutive", strings.Replace(ok, "blocks 1\n0 1\n", "blocks 1\n0 2\n", 1), "consecutive"},
		{"block not in level order", strings.Replace(ok, "blocks 1\n0 1\n", "blocks 1\n1 0\n", 1), "consecutive"},
		{"node id 1", strings.Replace(ok, "2 2 0 1\n3 1 2 1", "1 2 0 1\n3 1 1 1", 1), "node id 1"},
		{"node defined twice", strings.Replace(ok, "3 1 2 1", "2 1 0 1", 1), "defined twice"},
		{"node variable out of range", strings.Replace(ok, "2 2 0 1", "2 5 0 1", 1), "no variable 5"},
		{"forward reference", strings.Replace(ok, "3 1 2 1", "3 1 4 1", 1), "not defined before"},
		{"child above its parent", strings.Replace(ok, "3 1 2 1", "3 2 2 1", 1), "not below"},
		{"three fields", strings.Replace(ok, "2 2 0 1", "2 2 0", 1), "want a node"},
		{"negative child", strings.Replace(ok, "2 2 0 1", "2 2 0 -1", 1), "bad number"},
		{"fewer nodes than counted", strings.Replace(ok, "nodes 3", "nodes 4", 1), "want a node"},
		{"huge node count", "boolprog-bdd 1\nvars 1\norder 0\nblocks 0\nnodes 999999999999\n2 0 0 1\n", "unexpected end"},
		{"root undefined", strings.Replace(ok, "roots 1\n4\n", "roots 1\n5\n", 1), "root 5"},
		{"root count", strings.Replace(ok, "roots 1\n4\n", "roots 2\n4\n", 1), "the count says 2"},
		{"roots line missing", strings.Replace(ok, "roots 1\n4\n", "roots 1\n", 1), "unexpected end"},
		{"trailing text", ok + "4\n", "text after the roots"},
		{"trailing blank line", ok + "\n", "text after the roots"},
		{"blank line", strings.Replace(ok, "vars 3\n", "\nvars 3\n", 1), `want "vars"`},
		{"comment", strings.Replace(ok, "vars 3\n", "# c\nvars 3\n", 1), `want "vars"`},
	}
	defer func(n int) { maxSavedLine = n }(maxSavedLine)
	maxSavedLine = 1 << 10
	tests = append(tests, struct{ name, text, want string }{
		"line too long", "boolprog-bdd 1\nvars 1\norder " + strings.Repeat("0", 2<<10) + "\n", "too long"})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ReadSaved(strings.NewReader(tc.text))
			if err == nil {
				t.Fatalf("accepted: %+v", s)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestLoadRejects(t *testing.T) {
	good := func() *Saved {
		return &Saved{Vars: 2, Order: []int{1, 0}, Blocks: [][]int{{1, 0}},
			Nodes: []SavedNode{{ID: 7, Var: 0, Low: 0, High: 1}, {ID: 9, Var: 1, Low: 7, High: 1}}, Roots: []int{9, 7, 1}}
	}
	if _, err := New(Config{}).Load(good()); err != nil {
		t.Fatalf("the valid set: %v", err)
	}
	tests := []struct {
		name   string
		change func(s *Saved)
		prep   func(m *Manager)
		want   string
	}{
		{"negative vars", func(s *Saved) { s.Vars = -1 }, nil, "bad number of variables"},
		{"too many vars", func(s *Saved) { s.Vars = 1 << 40 }, nil, "bad number of variables"},
		{"order too short", func(s *Saved) { s.Order = []int{0} }, nil, "lists 1"},
		{"negative variable in the order", func(s *Saved) { s.Order = []int{-1, 0} }, nil, "not a permutation"},
		{"block out of order", func(s *Saved) { s.Blocks = [][]int{{0, 1}} }, nil, "consecutive"},
		{"negative block variable", func(s *Saved) { s.Blocks = [][]int{{-3}} }, nil, "no variable -3"},
		{"negative node id", func(s *Saved) { s.Nodes[0].ID = -4 }, nil, "node id -4"},
		{"negative child", func(s *Saved) { s.Nodes[1].Low = -1 }, nil, "not defined before"},
		{"unordered", func(s *Saved) { s.Order = []int{0, 1}; s.Blocks = nil }, nil, "not below"},
		{"negative root", func(s *Saved) { s.Roots = []int{-1} }, nil, "root -1"},
		{"manager with more variables", nil, func(m *Manager) { m.ExtVarNum(3) }, "has 3 variables"},
		{"block clashes with the manager's", nil, func(m *Manager) { m.AddBlock(0) }, "already in a block"},
		{"manager in error", nil, func(m *Manager) { m.err = ErrNodeLimit }, "node limit"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := good()
			if tc.change != nil {
				tc.change(s)
			}
			m := New(Config{})
			if tc.prep != nil {
				tc.prep(m)
			}
			rs, err := m.Load(s)
			if err == nil {
				t.Fatalf("loaded: %v", rs)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestLoadNodeLimit(t *testing.T) {
	// A chain of 200 nodes does not fit in a table of 64.
	s := &Saved{Vars: 200, Order: seq(200)}
	prev := 1
	for v := 199; v >= 0; v-- {
		id := len(s.Nodes) + 2
		s.Nodes = append(s.Nodes, SavedNode{ID: id, Var: v, Low: 0, High: prev})
		prev = id
	}
	s.Roots = []int{prev}
	if _, err := New(Config{InitialNodes: 64, MaxNodes: 64}).Load(s); err != ErrNodeLimit {
		t.Fatalf("error %v, want ErrNodeLimit", err)
	}
	m := New(Config{InitialNodes: 64})
	rs, err := m.Load(s)
	if err != nil || m.NodeCount(rs[0]) != 200 || m.SatCount(rs[0], m.VarSet(seq(200)...)) != 1 {
		t.Fatalf("error %v, %d nodes", err, m.NodeCount(rs...))
	}
}

// FuzzReadSaved checks that no input makes ReadSaved or Load panic, and
// that whatever is accepted loads and saves again.
func FuzzReadSaved(f *testing.F) {
	f.Add("boolprog-bdd 1\nvars 3\norder 0 1 2\nblocks 1\n0 1\nnodes 3\n2 2 0 1\n3 1 2 1\n4 0 0 3\nroots 1\n4\n")
	f.Add("boolprog-bdd 1\nvars 2\norder 1 0\nblocks 0\nnodes 2\n5 0 1 1\n6 1 5 0\nroots 2\n6 5\n")
	f.Add("boolprog-bdd 1\nvars 0\norder\nblocks 0\nnodes 0\nroots 0\n\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ReadSaved(strings.NewReader(text))
		if err != nil {
			return
		}
		m := New(Config{InitialNodes: 64, MaxNodes: 1 << 16})
		rs, err := m.Load(s)
		if err != nil {
			if err == ErrNodeLimit {
				return
			}
			t.Fatalf("accepted but not loaded: %v", err)
		}
		var buf bytes.Buffer
		if err := m.Save(&buf, rs...); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadSaved(&buf); err != nil {
			t.Fatalf("saved again but not read: %v", err)
		}
	})
}
