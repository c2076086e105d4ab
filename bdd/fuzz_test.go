package bdd

import (
	"slices"
	"testing"
)

// FuzzOps interprets bytes as a program over a stack of BDDs on 6
// variables, mirrors every step on 64-bit truth tables, and checks that
// each result has the expected truth table. A tiny node table and limit
// exercise growth, collection at Safepoints and the node-limit path.
func FuzzOps(f *testing.F) {
	f.Add([]byte{0, 1, 2, 10, 3, 11, 4})
	f.Add([]byte{0, 0, 1, 1, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 17, 18})
	f.Add([]byte("the quick brown fox jumps over the lazy dog 0123456789"))
	f.Add([]byte{20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 200, 201, 202})
	f.Fuzz(func(t *testing.T, prog []byte) {
		const nv = 6
		w := &world{t: t, m: New(Config{InitialNodes: 64, MaxNodes: 5000}), nv: nv}
		m := w.m
		type item struct {
			r *Root
			t tt
		}
		var st []item
		push := func(n Node, want tt) {
			if m.Err() != nil {
				return
			}
			w.check("fuzz", n, w.fix(want))
			st = append(st, item{m.Keep(n), want})
		}
		arg := func(k int) item {
			if len(st) == 0 {
				return item{nil, w.newTT()}
			}
			return st[(len(st)-1-k%len(st)+len(st))%len(st)]
		}
		node := func(it item) Node {
			if it.r == nil {
				return False
			}
			return it.r.Node()
		}
		for pc, b := range prog {
			a, c := arg(0), arg(int(b>>5)+1)
			x, y := a.t[0], c.t[0]
			v := int(b>>5) % nv
			switch b % 20 {
			case 0, 1:
				push(m.Ithvar(v), w.varTT(v))
			case 2:
				push(m.And(node(a), node(c)), tt{x & y})
			case 3:
				push(m.Or(node(a), node(c)), tt{x | y})
			case 4:
				push(m.Xor(node(a), node(c)), tt{x ^ y})
			case 5:
				push(m.Not(node(a)), tt{^x})
			case 6:
				push(m.Imp(node(a), node(c)), tt{^x | y})
			case 7:
				push(m.Equiv(node(a), node(c)), tt{^(x ^ y)})
			case 8:
				d := arg(2)
				push(m.Ite(node(a), node(c), node(d)), tt{x&y | ^x&d.t[0]})
			case 9, 10:
				s := m.VarSet(v, (v+pc)%nv)
				ex := w.fromFunc(func(as int) bool {
					for _, u := range []int{0, 1 << v, 1 << ((v + pc) % nv), 1<<v | 1<<((v+pc)%nv)} {
						if (x&y)>>(as&^(1<<v|1<<((v+pc)%nv))|u)&1 != 0 {
							return true
						}
					}
					return false
				})
				push(m.AndExists(node(a), node(c), s), ex)
			case 11:
				u := (v + 1 + pc) % nv
				p := m.NewPairs([]int{v, u}, []int{u, v}) // swap: non-monotone
				push(m.Replace(node(a), p), w.fromFunc(func(as int) bool {
					bs := as &^ (1<<v | 1<<u)
					bs |= (as>>u&1)<<v | (as>>v&1)<<u
					return x>>bs&1 != 0
				}))
			case 12:
				push(m.Compose(node(a), v, node(c)), w.fromFunc(func(as int) bool {
					bs := as &^ (1 << v)
					if y>>as&1 != 0 {
						bs |= 1 << v
					}
					return x>>bs&1 != 0
				}))
			case 13:
				if c.t[0] != 0 {
					r := m.Constrain(node(a), node(c))
					if m.Err() == nil {
						w.check("constrain", m.And(r, node(c)), tt{x & y})
					}
				}
			case 14:
				if c.t[0] != 0 {
					r := m.Restrict(node(a), node(c))
					if m.Err() == nil {
						w.check("restrict", m.And(r, node(c)), tt{x & y})
					}
				}
			case 15:
				all := m.VarSet(0, 1, 2, 3, 4, 5)
				if got := m.SatCount(node(a), all); m.Err() == nil && got != float64(popcount(a.t)) {
					t.Fatalf("satcount %v want %d", got, popcount(a.t))
				}
			case 16:
				if len(st) > 0 {
					st[len(st)-1].r.Release()
					st = st[:len(st)-1]
				}
			case 17:
				m.Safepoint()
			case 18:
				m.GC()
			case 19:
				if got := m.Support(node(a)); m.Err() == nil {
					var want []int
					for u := 0; u < nv; u++ {
						for as := 0; as < 64; as++ {
							if x>>as&1 != x>>(as^1<<u)&1 {
								want = append(want, u)
								break
							}
						}
					}
					if !slices.Equal(got, want) {
						t.Fatalf("support %v want %v", got, want)
					}
				}
			}
			if m.Err() != nil {
				// The node limit is an error value, never a panic.
				m.GC()
				m.ClearErr()
			}
		}
	})
}
