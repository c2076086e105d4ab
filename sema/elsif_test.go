package sema

import (
	"testing"

	"boolprog/syntax"
)

// TestLongElsifChain checks a flat chain of 100,000 elsif branches, built
// as the parser builds it (an elsif is an Else holding one IfStmt with
// Elsif set): every walker of sema follows the chain in a loop, so this
// neither overflows the stack nor takes quadratic time. The last branch
// holds an unreachable labelled statement, which must still be found.
func TestLongElsifChain(t *testing.T) {
	const n = 100000
	pos := func(line, col int) syntax.Pos { return syntax.Pos{Offset: line*100 + col, Line: line, Col: col} }
	var top, cur *syntax.IfStmt
	for i := 0; i < n; i++ {
		line := i + 3
		s := &syntax.IfStmt{
			Keyword: pos(line, 1),
			Elsif:   i > 0,
			Cond:    &syntax.VarRef{TickPos: pos(line, 7), Name: &syntax.Ident{NamePos: pos(line, 7), Name: "a"}},
			Then:    []syntax.Stmt{&syntax.SkipStmt{Keyword: pos(line, 14)}},
		}
		if top == nil {
			top = s
		} else {
			cur.Else = []syntax.Stmt{s}
		}
		cur = s
	}
	// The last branch: return; X: skip;
	cur.Then = []syntax.Stmt{
		&syntax.ReturnStmt{Keyword: pos(n+2, 14)},
		&syntax.SkipStmt{Labels: syntax.Labels{Labels: []*syntax.Ident{{NamePos: pos(n+2, 22), Name: "X"}}}, Keyword: pos(n+2, 25)},
	}
	f := &syntax.File{
		Name:    "elsif.bp",
		Globals: []*syntax.Decl{{DeclPos: pos(1, 1), Names: []*syntax.Ident{{NamePos: pos(1, 6), Name: "a"}}}},
		Procs: []*syntax.Proc{{
			TypePos: pos(2, 1),
			Name:    &syntax.Ident{NamePos: pos(2, 6), Name: "main"},
			Body:    []syntax.Stmt{top},
			End:     pos(n+4, 1),
		}},
	}
	info, errs, warns := Check(f)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []string{"elsif.bp:100002:22: unreachable statement labelled X"}
	if got := lines(warns); !same(got, want) {
		t.Errorf("warnings %q, want %q", got, want)
	}
	if len(info.Main.Labels["X"]) != 1 {
		t.Errorf("label X: %v", info.Main.Labels["X"])
	}
}

func TestElsif(t *testing.T) {
	f := parse(t, "decl a; void main() begin if a then skip; elsif !a then skip; else if a then skip; fi fi end")
	s := f.Procs[0].Body[0].(*syntax.IfStmt)
	e := Elsif(s)
	if e == nil || !e.Elsif {
		t.Fatalf("Elsif of the if: %v", e)
	}
	if Elsif(e) != nil {
		t.Errorf("an else holding a plain if is no elsif")
	}
	if Elsif(e.Else[0].(*syntax.IfStmt)) != nil {
		t.Errorf("an if without else has no elsif")
	}
}
