package wpds

import (
	"strings"
	"testing"
)

// The EWPDS example of Lal's thesis §3.1 in the gen/kill domain, computed
// by hand. Facts: bit y is "the global y is defined", bit a "the local a of
// the current frame is defined".
//
//	main: 0: a := …      (gen a)        step <0,0> -> <0,1>
//	      1: call f      (kill a: f's a is fresh)   push <0,1> -> <0,10 2>
//	      2: skip                       step <0,2> -> <0,3>
//	f:   10: y := …      (gen y)        step <0,10> -> <0,11>
//	     11: return                     pop <0,11> -> <0,ε>
//
// The merge of the call keeps the caller's locals and takes the globals
// from the callee: after the call a is defined again (EWPDS), whereas the
// plain WPDS lets f's "kill a" leak into main.
const (
	bitY = 1 << 0
	bitA = 1 << 1
)

func localsMerge(caller, callee GenKill) GenKill {
	bv := BitVector{}
	if caller.Bottom || callee.Bottom {
		return bv.Zero()
	}
	z := bv.Extend(caller, callee)
	const globals, locals = bitY, bitA
	return bv.Fn(z.Kill&globals|caller.Kill&locals, z.Gen&globals|caller.Gen&locals)
}

func localsPDS(merge bool) *PDS[GenKill] {
	bv := BitVector{}
	p := New[GenKill](bv, 1)
	p.Step(0, 0, 0, 1, bv.Fn(0, bitA))
	var m Merge[GenKill]
	if merge {
		m = localsMerge
	}
	p.Push(0, 1, 0, 10, 2, bv.Fn(bitA, 0), m)
	p.Step(0, 2, 0, 3, bv.One())
	p.Step(0, 10, 0, 11, bv.Fn(0, bitY))
	p.Pop(0, 11, 0, bv.One())
	return p
}

func TestEWPDSByHand(t *testing.T) {
	bv := BitVector{}
	start := Config{0, []Symbol{0}}
	tests := []struct {
		name  string
		merge bool
		at    Config
		want  GenKill
	}{
		{"EWPDS after the call", true, Config{0, []Symbol{3}}, bv.Fn(0, bitA|bitY)},
		{"WPDS after the call", false, Config{0, []Symbol{3}}, bv.Fn(bitA, bitY)},
		{"EWPDS inside f", true, Config{0, []Symbol{11, 2}}, bv.Fn(bitA, bitY)},
		{"WPDS inside f", false, Config{0, []Symbol{11, 2}}, bv.Fn(bitA, bitY)},
		{"EWPDS at the call", true, Config{0, []Symbol{1}}, bv.Fn(0, bitA)},
		{"EWPDS unreachable", true, Config{0, []Symbol{3, 2}}, bv.Zero()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := localsPDS(tc.merge)
			s := NewSet(1)
			s.AddConfig(start)
			post, err := Poststar(p, s, Options{Witnesses: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := post.Weight(tc.at); !bv.Equal(got, tc.want) {
				t.Errorf("post*: %v = %+v, want %+v", tc.at, got, tc.want)
			}
			target := NewSet(1)
			target.AddConfig(tc.at)
			pre, err := Prestar(p, target, Options{Witnesses: true})
			if err != nil {
				t.Fatal(err)
			}
			if got := pre.Weight(start); !bv.Equal(got, tc.want) {
				t.Errorf("pre*: %v = %+v, want %+v", start, got, tc.want)
			}
			if tc.want.Bottom {
				return
			}
			path, ok, err := post.Trace(tc.at, 100)
			if err != nil || !ok || path.From.String() != start.String() || !bv.Equal(path.Value, tc.want) {
				t.Errorf("post* witness %+v %v %v", path, ok, err)
			}
			if got := bv.Apply(tc.want, 0); tc.merge && tc.at.Stack[0] == 3 && got != bitA|bitY {
				t.Errorf("facts after the call %b, want a and y", got)
			}
		})
	}
}

// Stack-qualified queries: f is called from two sites with different
// costs; the weight at f's body depends on the return site below it.
func TestSummaryStackQualified(t *testing.T) {
	sr := MinPath{}
	p := New[Dist](sr, 1)
	p.Push(0, 0, 0, 10, 1, 1, nil) // main 0: call f, return to 1 (cost 1)
	p.Step(0, 1, 0, 2, 5)          // main 1 -> 2 (cost 5)
	p.Push(0, 2, 0, 10, 3, 1, nil) // main 2: call f, return to 3
	p.Step(0, 10, 0, 11, 1)        // f body
	p.Pop(0, 11, 0, 1)
	s := NewSet(1)
	s.AddConfig(Config{0, []Symbol{0}})
	post, err := Poststar(p, s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(ret Symbol) *Set {
		q := NewSet(1)
		q.AddConfig(Config{0, []Symbol{11, ret}})
		return q
	}
	any11 := NewSet(1)
	if err := any11.Add(0, 11, 0); err == nil {
		t.Fatal("a transition into a control state was accepted")
	}
	n := any11.AddState()
	any11.Add(0, 11, n)
	for _, g := range []Symbol{1, 3} {
		any11.Add(n, g, n)
	}
	any11.SetFinal(n)
	anyTop := NewSet(1)
	if err := anyTop.AddAnyStack(0, 11, p.Symbols()); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		set  *Set
		want Dist
	}{
		{"called from site 0", at(1), 2},
		{"any stack below", anyTop, 2},
		{"called from site 2", at(3), 1 + 1 + 1 + 5 + 1 + 1},
		{"any caller", any11, 2},
		{"nowhere", at(0), Infinity},
	}
	for _, tc := range tests {
		if got := post.Summary(tc.set); got != tc.want {
			t.Errorf("%s: summary %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestBadInput(t *testing.T) {
	p := New[bool](Bool{}, 2)
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"control state out of range", func() error { _, err := p.Add(Rule[bool]{From: 0, Sym: 0, To: 2}); return err }, "control states"},
		{"three symbols", func() error {
			_, err := p.Add(Rule[bool]{From: 0, Sym: 0, To: 1, Out: []Symbol{1, 2, 3}})
			return err
		}, "at most two"},
		{"negative symbol", func() error { _, err := p.Add(Rule[bool]{From: 0, Sym: -1, To: 1}); return err }, "negative"},
		{"merge on a step rule", func() error {
			_, err := p.Add(Rule[bool]{From: 0, Sym: 0, To: 1, Out: []Symbol{1}, Merge: func(a, b bool) bool { return a && b }})
			return err
		}, "merge"},
		{"set transition out of range", func() error { return NewSet(2).Add(0, 0, 7) }, "out of range"},
		{"set transition into a control state", func() error { return NewSet(2).Add(0, 0, 1) }, "control state"},
		{"set final out of range", func() error { return NewSet(2).SetFinal(3) }, "out of range"},
		{"config state out of range", func() error { return NewSet(2).AddConfig(Config{State: 5}) }, "out of range"},
		{"set of another PDS", func() error { _, err := Poststar(p, NewSet(3), Options{}); return err }, "control states"},
		{"witnesses in differential mode", func() error {
			_, err := Prestar(p, NewSet(2), Options{Witnesses: true, Differential: true})
			return err
		}, "differential"},
		{"any stack from a non-control state", func() error { return NewSet(2).AddAnyStack(4, 0, nil) }, "out of range"},
		{"apply a rule that does not fit", func() error {
			id := p.Pop(0, 0, 1, true)
			_, err := p.Apply(Config{1, []Symbol{0}}, []RuleID{id})
			return err
		}, "does not apply"},
		{"unapply a rule that does not fit", func() error {
			id := p.Step(0, 0, 1, 1, true)
			_, err := p.Unapply(Config{1, []Symbol{0}}, []RuleID{id})
			return err
		}, "does not lead"},
	}
	for _, tc := range tests {
		err := tc.err()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestStatsCount(t *testing.T) {
	p := localsPDS(true)
	s := NewSet(1)
	s.AddConfig(Config{0, []Symbol{0}})
	post, _ := Poststar(p, s, Options{})
	st := post.Stats()
	if st.Extends == 0 || st.Combines == 0 || st.Merges == 0 || st.Updates == 0 {
		t.Errorf("post* stats %+v: some counts are zero", st)
	}
	if st.Transitions != len(post.Transitions()) || st.States != post.States() {
		t.Errorf("post* stats %+v disagree with the automaton", st)
	}
	target := NewSet(1)
	target.AddConfig(Config{0, []Symbol{3}})
	pre, _ := Prestar(p, target, Options{})
	if st := pre.Stats(); st.Merges == 0 || st.Extends == 0 {
		t.Errorf("pre* stats %+v: no merge or extend counted", st)
	}
}

// A configuration with 2^60 accepting paths: the query and the witness
// combine per state instead of enumerating paths, and All refuses to
// expand them all.
func TestWitnessManyPaths(t *testing.T) {
	const n = 60
	p := New[Dist](MinPath{}, 1)
	p.Step(0, 1, 0, 0, 1) // for pre*
	p.Step(0, 0, 0, 1, 1) // for post*
	s := NewSet(1)
	prev := []State{0}
	for i := 0; i < n; i++ {
		cur := []State{s.AddState(), s.AddState()}
		for _, x := range prev {
			for _, y := range cur {
				if err := s.Add(x, 0, y); err != nil {
					t.Fatal(err)
				}
			}
		}
		prev = cur
	}
	s.SetFinal(prev[0])
	s.SetFinal(prev[1])
	c := Config{0, make([]Symbol, n)}
	c.Stack[0] = 1
	for _, saturate := range []func(*PDS[Dist], *Set, Options) (*Automaton[Dist], error){Poststar[Dist], Prestar[Dist]} {
		a, err := saturate(p, s, Options{Witnesses: true})
		if err != nil {
			t.Fatal(err)
		}
		w, wit := a.Witness(c)
		if w != 1 || wit == nil {
			t.Fatalf("weight %v, witness %v; want 1", w, wit)
		}
		path, ok, err := a.Trace(c, 10)
		if !ok || err != nil || len(path.Rules) != 1 || path.Value != 1 {
			t.Fatalf("trace %+v %v %v", path, ok, err)
		}
		if _, err := wit.All(1000); err != ErrTooLong {
			t.Fatalf("All on 2^%d paths: %v, want ErrTooLong", n, err)
		}
	}
}
