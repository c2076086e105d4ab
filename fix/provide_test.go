package fix

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"boolprog/bdd"
)

const provideSrc = `
enum Node {0..5};
class Pair { Node a; bool b; };
bool Edge(Node x, Node y) x ~+ y;
bool Start(Node x) (x=0);
mu bool Reach(Node x) ( Start(x) | exists Node y. (Reach(y) & Edge(y, x)) );
bool Tagged(Pair p);
(exists Node x. Reach(x) & x=4)
`

// edgeBDD builds the relation {(i, i+1) : i < n} over the bits of Edge's
// parameters, most significant bit first as Bits promises.
// newTestSolver parses src and makes its solver, released when the test
// ends.
func newTestSolver(t *testing.T, src string) *Solver {
	t.Helper()
	f, err := ParseFile("p.mu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sv, err := NewSolver(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(sv.Release)
	return sv
}

func edgeBDD(t *testing.T, sv *Solver, n int) bdd.Node {
	t.Helper()
	m := sv.Manager()
	xb, err := sv.Bits("Edge", "x")
	if err != nil {
		t.Fatal(err)
	}
	yb, err := sv.Bits("Edge", "y")
	if err != nil {
		t.Fatal(err)
	}
	val := func(bits []int, v int) bdd.Node {
		vals := make([]bool, len(bits))
		for i := range bits {
			vals[i] = v>>(len(bits)-1-i)&1 == 1
		}
		return m.Assignment(bits, vals)
	}
	r := bdd.False
	for i := 0; i < n; i++ {
		r = m.Or(r, m.And(val(xb, i), val(yb, i+1)))
	}
	return r
}

func TestProvide(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edges  int  // provide the chain 0 -> 1 -> ... -> edges
		value  bool // the query: is 4 reachable?
		layers int  // rounds that added tuples to Reach
	}{
		{"short chain", 2, false, 3},
		{"long chain", 5, true, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sv := newTestSolver(t, provideSrc)
			if got := strings.Join(sv.Declared(), ","); got != "Edge,Tagged" {
				t.Fatalf("Declared = %s", got)
			}
			if err := sv.Provide("Edge", edgeBDD(t, sv, tc.edges)); err != nil {
				t.Fatal(err)
			}
			pb, err := sv.Bits("Tagged", "p", "b")
			if err != nil || len(pb) != 1 {
				t.Fatalf("Bits(Tagged, p, b) = %v, %v", pb, err)
			}
			if err := sv.Provide("Tagged", sv.Manager().Ithvar(pb[0])); err != nil {
				t.Fatal(err)
			}
			if err := sv.Track("Reach"); err != nil {
				t.Fatal(err)
			}
			ans, err := sv.Solve(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if ans.Value != tc.value {
				t.Errorf("value %v, want %v", ans.Value, tc.value)
			}
			ls := sv.Layers("Reach")
			if len(ls) != tc.layers {
				t.Fatalf("%d layers, want %d", len(ls), tc.layers)
			}
			// Layer i is node i; their union is the value.
			m := sv.Manager()
			xb, _ := sv.Bits("Reach", "x")
			u := bdd.False
			for i, l := range ls {
				if got := m.SatCount(l, m.VarSet(xb...)); got != 1 {
					t.Errorf("layer %d has %v tuples, want 1", i, got)
				}
				u = m.Or(u, l)
			}
			if u != sv.Value("Reach") {
				t.Errorf("the layers' union is not Reach's value")
			}
		})
	}
}

func TestProvideErrors(t *testing.T) {
	sv := newTestSolver(t, provideSrc)
	m := sv.Manager()
	rb, _ := sv.Bits("Reach", "x")
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"mu relation", sv.Provide("Reach", bdd.True), "only plain relations"},
		{"unknown relation", sv.Provide("Nope", bdd.True), "no relation Nope"},
		{"foreign bits", sv.Provide("Start", m.Ithvar(rb[0])), "not a bit of its parameters"},
		{"unknown variable", func() error { _, err := sv.Bits("Edge", "z"); return err }(), "has no variable z"},
		{"not a class", func() error { _, err := sv.Bits("Edge", "x", "f"); return err }(), "is not a class"},
		{"no field", func() error { _, err := sv.Bits("Tagged", "p", "f"); return err }(), "has no field f"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, tc.err, tc.want)
		}
	}
	// Edge and Tagged were not provided.
	_, err := sv.Solve(context.Background())
	if err == nil || !strings.Contains(err.Error(), "p.mu:4:1: relation Edge is declared without a body") {
		t.Errorf("Solve without Edge: %v", err)
	}
	if _, err := sv.Solve(context.Background()); err == nil {
		t.Errorf("a second Solve succeeded")
	}
}

// A plain definition can be replaced; a mu relation cannot go without a
// body.
func TestProvideReplaces(t *testing.T) {
	src := strings.Replace(provideSrc, "bool Edge(Node x, Node y) x ~+ y;", "bool Edge(Node x, Node y) x ~+ y (false);", 1)
	src = strings.Replace(src, "bool Tagged(Pair p);", "", 1)
	f, err := ParseFile("p.mu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ans, err := Solve(context.Background(), f, Options{})
	if err != nil || ans.Value {
		t.Fatalf("as written: %v, %v; want false", ans, err)
	}
	sv, err := NewSolver(f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer sv.Release()
	if err := sv.Provide("Edge", edgeBDD(t, sv, 4)); err != nil {
		t.Fatal(err)
	}
	ans, err = sv.Solve(context.Background())
	if err != nil || !ans.Value {
		t.Fatalf("replaced: %v, %v; want true", ans, err)
	}

	// A mu relation without a body is a forward declaration: Check
	// wants its definition.
	f, err = ParseFile("q.mu", []byte("mu bool R(bool x);\n"))
	if err == nil {
		err = Check(f)
	}
	if err == nil || !strings.Contains(err.Error(), "q.mu:1:1: mu relation R is declared but never defined") {
		t.Errorf("mu relation without a body: %v", err)
	}
}

// TestOnDone checks that OnDone runs once a relation is final, before the
// relations that use it, and that its error stops Solve.
func TestOnDone(t *testing.T) {
	src := `enum N {0..3};
mu bool A(N x) (x = 0 | exists N y. (A(y) & ((y = 0 & x = 1) | (y = 1 & x = 2))));
mu bool B(N x) (A(x) | exists N y. (B(y) & y = 2 & x = 3));
(exists N x. B(x) & x = 3)
`
	f, err := ParseFile("ondone.mu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stop")
	for _, c := range []struct {
		stopAt string
		want   []string
	}{
		{"", []string{"A", "B"}},
		{"A", []string{"A"}},
	} {
		sv, err := NewSolver(f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var seen []string
		for _, name := range []string{"A", "B"} {
			name := name
			if err := sv.OnDone(name, func() error {
				seen = append(seen, name)
				if sv.Value(name) == bdd.Invalid {
					t.Errorf("%s: no value in OnDone", name)
				}
				if name == c.stopAt {
					return stop
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
		ans, err := sv.Solve(context.Background())
		if c.stopAt != "" {
			if !errors.Is(err, stop) {
				t.Errorf("stop at %s: Solve returned %v, want the callback's error", c.stopAt, err)
			}
		} else if err != nil || !ans.Value {
			t.Errorf("Solve: %v, %v; want true", ans, err)
		}
		if !slices.Equal(seen, c.want) {
			t.Errorf("stop at %q: callbacks %v, want %v", c.stopAt, seen, c.want)
		}
		sv.Release()
	}
	sv, _ := NewSolver(f, Options{})
	if err := sv.OnDone("C", func() error { return nil }); err == nil {
		t.Errorf("OnDone of an unknown relation: no error")
	}
	sv.Release()
}
