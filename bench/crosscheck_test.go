//go:build libbdd

package bench

import (
	"math/rand"
	"testing"

	"boolprog/bdd"
)

// TestCrossCheckBuddy runs random operation sequences on boolprog/bdd and
// on BuDDy under the same variable order (the identity) and checks that
// every result is the same diagram: neither package uses complement edges,
// so canonical ROBDDs must be isomorphic node for node. The check walks
// both diagrams together (variable, else-child, then-child), and also
// compares node counts and satisfying-assignment counts.
func TestCrossCheckBuddy(t *testing.T) {
	const nv = 14
	compared := 0 // internal nodes compared, to show the test is not vacuous
	for seed := int64(1); seed <= 10; seed++ {
		o := NewOurs(Config{Vars: nv, Nodes: 1 << 10, Cache: 1 << 8})
		b := NewBuddy(Config{Vars: nv, Nodes: 1 << 10, Cache: 1 << 8})
		rng := rand.New(rand.NewSource(seed))
		all := make([]int, nv)
		for i := range all {
			all[i] = i
		}
		setO, setB := o.MakeSet(all), b.MakeSet(all)
		type pair struct {
			o bdd.Node
			b BuddyNode
		}
		var st []pair
		push := func(p pair) {
			checkSame(t, o, b, p.o, p.b)
			if so, sb := o.SatCount(p.o, setO), b.SatCount(p.b, setB); so != sb {
				t.Fatalf("satcount: ours %v buddy %v", so, sb)
			}
			if no, nb := o.NodeCount(p.o), b.NodeCount(p.b); no != nb {
				t.Fatalf("nodecount: ours %d buddy %d", no, nb)
			} else {
				compared += no
			}
			st = append(st, p)
			if len(st) > 12 { // drop an old one: exercises both collectors
				o.Release(st[0].o)
				b.Release(st[0].b)
				st = st[1:]
			}
		}
		pick := func() pair { return st[rng.Intn(len(st))] }
		for i := 0; i < 4; i++ {
			v := rng.Intn(nv)
			push(pair{o.Ithvar(v), b.Ithvar(v)})
		}
		for step := 0; step < 1500; step++ {
			x, y, z := pick(), pick(), pick()
			switch rng.Intn(10) {
			case 0:
				v := rng.Intn(nv)
				if rng.Intn(2) == 0 {
					push(pair{o.Ithvar(v), b.Ithvar(v)})
				} else {
					push(pair{o.NIthvar(v), b.NIthvar(v)})
				}
			case 1:
				push(pair{o.And(x.o, y.o), b.And(x.b, y.b)})
			case 2:
				push(pair{o.Or(x.o, y.o), b.Or(x.b, y.b)})
			case 3:
				push(pair{o.Xor(x.o, y.o), b.Xor(x.b, y.b)})
			case 4:
				push(pair{o.Not(x.o), b.Not(x.b)})
			case 5:
				push(pair{o.Equiv(x.o, y.o), b.Equiv(x.b, y.b)})
			case 6:
				push(pair{o.Ite(x.o, y.o, z.o), b.Ite(x.b, y.b, z.b)})
			case 7, 8:
				vs := rng.Perm(nv)[:1+rng.Intn(4)]
				so, sb := o.MakeSet(vs), b.MakeSet(vs)
				if rng.Intn(2) == 0 {
					push(pair{o.Exists(x.o, so), b.Exists(x.b, sb)})
				} else {
					push(pair{o.AndExists(x.o, y.o, so), b.AndExists(x.b, y.b, sb)})
				}
			case 9:
				perm := rng.Perm(nv) // a full permutation: valid for BuDDy too
				po, pb := o.MakePairs(all, perm), b.MakePairs(all, perm)
				push(pair{o.Replace(x.o, po), b.Replace(x.b, pb)})
			}
		}
		b.Close()
	}
	t.Logf("%d nodes compared", compared)
	if compared < 10000 {
		t.Fatalf("only %d nodes compared: the random programs are too trivial", compared)
	}
}

// checkSame walks both diagrams in lockstep.
func checkSame(t *testing.T, o *Ours, b *Buddy, fo bdd.Node, fb BuddyNode) {
	t.Helper()
	seen := map[bdd.Node]BuddyNode{}
	var walk func(fo bdd.Node, fb BuddyNode)
	walk = func(fo bdd.Node, fb BuddyNode) {
		if fo < 2 || fb < 2 {
			if int(fo) != int(fb) {
				t.Fatalf("terminal mismatch: ours %d buddy %d", fo, fb)
			}
			return
		}
		if prev, ok := seen[fo]; ok {
			if prev != fb {
				t.Fatalf("sharing mismatch at our node %d", fo)
			}
			return
		}
		seen[fo] = fb
		if vo, vb := o.M.Var(fo), b.Var(fb); vo != vb {
			t.Fatalf("variable mismatch: ours x%d buddy x%d", vo, vb)
		}
		walk(o.M.Low(fo), b.Low(fb))
		walk(o.M.High(fo), b.High(fb))
	}
	walk(fo, fb)
}
