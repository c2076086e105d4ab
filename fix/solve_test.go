package fix

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"boolprog/bdd"
)

func solveSrc(t *testing.T, src string) *Answer {
	t.Helper()
	f, err := ParseFile("t.mu", []byte(src))
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	if err := Check(f); err != nil {
		t.Fatalf("check: %v\n%s", err, src)
	}
	a, err := Solve(context.Background(), f, Options{})
	if err != nil {
		t.Fatalf("solve: %v", err)
	}
	if !a.HasQuery {
		t.Fatalf("no query")
	}
	return a
}

// graph is a small directed graph: the edges of node i.
const graphDecls = `
enum N {0..5};
bool E(N x, N y) x ~+ y (
  (x=0 & y=1) | (x=1 & y=2) | (x=2 & y=0) | (x=3 & y=4) | (x=5 & y=5) | (x=4 & y=3) | (x=1 & y=3)
);
mu bool Reach(N x) ( x=0 | exists N y. (Reach(y) & E(y, x)) );
mu bool Path(N x, N y) x ~+ y ( E(x, y) | exists N z. (Path(x, z) & E(z, y)) );
nu bool Inf(N x) ( exists N y. (E(x, y) & Inf(y)) );
mu bool Even(N x) ( x=0 | exists N y. (Odd(y) & E(y, x)) );
mu bool Odd(N x) ( exists N y. (Even(y) & E(y, x)) );
`

func TestSolveSmall(t *testing.T) {
	tests := []struct {
		name  string
		decls string
		query string
		want  bool
	}{
		{"const true", "", "true", true},
		{"const false", "", "false | !true", false},
		{"implication", "", "false -> false", true},
		{"iff", "", "(true <-> false) <-> false", true},
		{"imp right assoc", "", "true -> false -> false", true},
		{"precedence and over or", "", "true | false & false", true},
		{"reach 2", graphDecls, "Reach(2)", true},
		{"reach 3 via 1", graphDecls, "Reach(3)", true},
		{"reach 5", graphDecls, "Reach(5)", false},
		{"exists unreachable", graphDecls, "exists N x. (!Reach(x) & x != 5)", false},
		{"path swap", graphDecls, "forall N x, y. (Path(x, y) & Path(y, x) -> Path(x, x))", true},
		{"path 3 to 0", graphDecls, "Path(3, 0)", false},
		{"path 0 to 4", graphDecls, "Path(0, 4)", true},
		{"path self arg", graphDecls, "exists N x. (Path(x, x) & x = 3)", true},
		{"inf everywhere", graphDecls, "forall N x. Inf(x)", true},
		{"even 2", graphDecls, "Even(2)", true},
		{"odd 2", graphDecls, "Odd(2)", true}, // 0-1-2 and 0-1-2-0-1-2 ... 2 at distance 2 and 5
		{"even 1", graphDecls, "Even(1)", true},
		{"odd 5", graphDecls, "Odd(5)", false},
		{"enum domain", "enum E {0..4};", "forall E x. (x=0 | x=1 | x=2 | x=3 | x=4)", true},
		{"enum domain exists", "enum E {0..4};", "exists E x, y. (x != y)", true},
		{"enum names", "enum C {red, green, blue};", "forall C x. (x=red | x=green | x=blue)", true},
		{"enum names distinct", "enum C {red, green, blue}; bool Is(C c) (c=green);", "Is(green) & !Is(blue)", true},
		{"record eq", "class P { bool a; bool b; };", "forall P x, y. (x = y <-> (x.a = y.a & x.b = y.b))", true},
		{"record swap", "class P { bool a; bool b; }; bool Sw(P x, P y) x ~+ y (x.a = y.b & x.b = y.a);",
			"forall P x. exists P y. (Sw(x, y) & Sw(y, x) & (x = y -> x.a = x.b))", true},
		{"nested record", "enum E {0..2}; class In { E e; bool f; }; class Out { In i; In j; } i ~+ j;",
			"exists Out o. (o.i.e = 2 & o.j.e = 1 & o.i = o.j)", false},
		{"nested record eq fields", "enum E {0..2}; class In { E e; bool f; }; class Out { In i; In j; } i ~+ j;",
			"exists Out o. (o.i.e = 2 & o.i = o.j & o.j.e = 2 & o.j.f & !o.i.f)", false},
		{"bool 0/1", "bool Id(bool x, bool y) (x = y);", "Id(1, true) & !Id(0, 1) & Id(false, 0)", true},
		{"duplicate args", "enum E {0..3}; bool Lt(E x, E y) ((x=0 & y!=0) | (x=1 & (y=2|y=3)) | (x=2 & y=3));", "!(exists E x. Lt(x, x))", true},
		// Self-applications whose arguments are the relation's own
		// parameters, repeated or swapped.
		{"self diag", "enum E {0..3}; mu bool D(E x, E y) ((x=1 & y=2) | (x=2 & y=1) | (x=3 & y=3) | D(y, x) & D(y, y));",
			"D(2, 1) & D(1, 2) & D(3, 3) & !D(1, 1) & !D(2, 2) & !D(0, 0)", true},
		{"self dup", "enum E {0..3}; mu bool D(E x, E y) x ~+ y ((x=1 & y=2) | (x=0 & y=0) | exists E z. (D(y, y) & z = x & x = 3));",
			"D(3, 0) & !D(3, 1) & D(1, 2) & !D(3, 2)", true},
		{"nu greatest", "enum E {0..3}; nu bool G(E x) ( G(x) );", "forall E x. G(x)", true},
		{"mu least", "enum E {0..3}; mu bool L(E x) ( L(x) );", "exists E x. L(x)", false},
		{"forall tautology", "enum E {0..2};", "forall E x. (x != 2 | x = 2)", true},
		// G = nu G. mu L. G = full, L = mu L. nu G. L = empty: each member
		// is the outer fixed point of its own evaluation (paper §3).
		{"mixed mu nu", "enum N {0..3}; nu bool G(N x) ( L(x) ); mu bool L(N x) ( G(x) );", "forall N x. (G(x) & !L(x))", true},
		// Non-monotone: evaluated by the nested rounds, A = {0,1}, B = {1}.
		{"negated mutual", "mu bool A(bool x) (x | !B(x)); mu bool B(bool x) (A(x) & x);", "A(0) & A(1) & B(1) & !B(0)", true},
		{"later definition", "bool A(bool x) (B(x)); bool B(bool y) (y);", "A(1) & !A(0)", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := solveSrc(t, tc.decls+"\n"+tc.query+";")
			if a.Value != tc.want {
				t.Errorf("%s = %v, want %v", tc.query, a.Value, tc.want)
			}
		})
	}
}

// TestReachRandom checks reachability, transitive closure and the nodes
// with an infinite path in random graphs against a direct computation.
func TestReachRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for round := 0; round < 12; round++ {
		n := 2 + rng.Intn(11)
		adj := make([][]bool, n)
		var edges []string
		for i := range adj {
			adj[i] = make([]bool, n)
			for j := range adj[i] {
				if rng.Intn(n) < 2 {
					adj[i][j] = true
					edges = append(edges, fmt.Sprintf("(x=%d & y=%d)", i, j))
				}
			}
		}
		body := "false"
		if len(edges) > 0 {
			body = strings.Join(edges, " | ")
		}
		// Reachable from 0 and nodes on or before a cycle, computed directly.
		reach := make([]bool, n)
		reach[0] = true
		for changed := true; changed; {
			changed = false
			for i := 0; i < n; i++ {
				for j := 0; j < n; j++ {
					if reach[i] && adj[i][j] && !reach[j] {
						reach[j], changed = true, true
					}
				}
			}
		}
		inf := make([]bool, n)
		for i := range inf {
			inf[i] = true
		}
		for changed := true; changed; {
			changed = false
			for i := 0; i < n; i++ {
				if !inf[i] {
					continue
				}
				succ := false
				for j := 0; j < n; j++ {
					succ = succ || adj[i][j] && inf[j]
				}
				if !succ {
					inf[i], changed = false, true
				}
			}
		}
		decls := fmt.Sprintf(`enum N {0..%d};
bool E(N x, N y) x < y (%s);
mu bool Reach(N x) ( x=0 | exists N y. (Reach(y) & E(y, x)) );
nu bool Inf(N x) ( exists N y. (E(x, y) & Inf(y)) );
#size Reach;
#size Inf;
`, n-1, body)
		for i := 0; i < n; i++ {
			a := solveSrc(t, decls+fmt.Sprintf("Reach(%d) & !Inf(%d) | !Reach(%d) & Inf(%d);", i, i, i, i))
			want := reach[i] != inf[i]
			if a.Value != want {
				t.Fatalf("round %d node %d: got %v, want reach=%v inf=%v\n%s", round, i, a.Value, reach[i], inf[i], decls)
			}
			if i == 0 {
				count := func(b []bool) (c int) {
					for _, x := range b {
						if x {
							c++
						}
					}
					return
				}
				if got := a.Sizes[0].Tuples; int(got) != count(reach) {
					t.Errorf("round %d: #size Reach = %v tuples, want %d", round, got, count(reach))
				}
				if got := a.Sizes[1].Tuples; int(got) != count(inf) {
					t.Errorf("round %d: #size Inf = %v tuples, want %d", round, got, count(inf))
				}
			}
		}
	}
}

func TestStats(t *testing.T) {
	a := solveSrc(t, graphDecls+"Reach(2);")
	byName := map[string]RelStats{}
	for _, r := range a.Relations {
		byName[r.Name] = r
	}
	if e := byName["E"]; e.Iterations != 1 || e.Kind != Plain {
		t.Errorf("E: %+v, want one iteration of a plain relation", e)
	}
	// Reach from 0 gains 1, then 2 and 3, then 4, then nothing: 5 rounds.
	if r := byName["Reach"]; r.Iterations != 5 || r.Kind != Least || r.Nodes == 0 {
		t.Errorf("Reach: %+v, want 5 iterations", r)
	}
	if len(a.Relations) != 6 {
		t.Errorf("%d relation stats, want 6", len(a.Relations))
	}
}

func TestWriteStats(t *testing.T) {
	a := solveSrc(t, graphDecls+"#size Reach;\nReach(2);")
	var b strings.Builder
	if err := a.WriteStats(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"#size Reach:", "5 tuples", "relation", "Reach", "mu", "total"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats lack %q:\n%s", want, out)
		}
	}
}

func TestSolveCancel(t *testing.T) {
	f, err := ParseFile("t.mu", []byte(graphDecls+"Reach(1);"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Solve(ctx, f, Options{})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

// TestSolveTimeout stops the fib model with a deadline that expires
// during the evaluation.
func TestSolveTimeout(t *testing.T) {
	src := readBench(t, "fib_3_unsafe.mu")
	f, err := ParseFile("fib_3_unsafe.mu", src)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	_, err = Solve(ctx, f, Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want the deadline", err)
	}
}

func TestSolveNoFixedPoint(t *testing.T) {
	for _, src := range []string{
		"mu bool A(bool x) (!A(x));\nA(0);",
		"enum N {0..2}; mu bool A(N x) ((x=0 & !A(2)) | (x=1 & A(0)) | (x=2 & A(1)));\nA(0);",
		"mu bool A(bool x) (!B(x)); mu bool B(bool x) (A(x));\nA(0);",
	} {
		f, err := ParseFile("t.mu", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Solve(context.Background(), f, Options{})
		if !errors.Is(err, ErrNoFixedPoint) {
			t.Errorf("%s: err = %v, want ErrNoFixedPoint", src, err)
		}
	}
}

func TestSolveNodeLimit(t *testing.T) {
	// Equality of two 24-bit records laid out one after the other needs
	// about 2^24 nodes.
	var fields strings.Builder
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&fields, "bool f%d; ", i)
	}
	src := fmt.Sprintf("class W { %s };\nbool Eq(W x, W y) x < y (x = y);\nexists W x. Eq(x, x);", fields.String())
	f, err := ParseFile("t.mu", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Solve(context.Background(), f, Options{MaxNodes: 1 << 15})
	if !errors.Is(err, bdd.ErrNodeLimit) {
		t.Errorf("err = %v, want the node limit", err)
	}
}
