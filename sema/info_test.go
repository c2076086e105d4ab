package sema

import (
	"slices"
	"testing"

	"boolprog/syntax"
)

func TestInfo(t *testing.T) {
	f := parse(t, `decl g, x;
bool<2> f(a, x) begin
  decl l;
  L: l := a & x & g;
  decl m;
  m := 'l constrain T;
  return l, m;
end
void main() begin
  decl r;
  r, _ := f(g, x);
  start_thread f(T, r);
  if r then E: skip; fi
end
`)
	// The statement `m := 'l constrain T` is an error (prime outside
	// constrain); Info is still filled in.
	info, errs, _ := Check(f)
	if len(errs) != 1 {
		t.Fatalf("want exactly the prime error, got %v", errs)
	}

	if len(info.Globals) != 2 || info.Globals[0].Name != "g" || info.Globals[1].Name != "x" ||
		info.Globals[1].Index != 1 || !info.Globals[1].Global || info.Globals[1].Proc != nil {
		t.Fatalf("globals: %+v", info.Globals)
	}
	if len(info.Procs) != 2 || info.Procs[0].Name != "f" || info.Procs[1].Index != 1 || info.Main != info.Procs[1] {
		t.Fatalf("procs: %+v", info.Procs)
	}
	pf := info.Proc("f")
	if pf.Returns != 2 || pf.Proc != f.Procs[0] {
		t.Errorf("f: %+v", pf)
	}
	var names []string
	for i, v := range pf.Vars {
		names = append(names, v.Name)
		if v.Index != i || v.Global || v.Proc != f.Procs[0] || v.Param != (i < 2) {
			t.Errorf("var %d: %+v", i, v)
		}
	}
	if !same(names, []string{"a", "x", "l", "m"}) || len(pf.Params) != 2 || len(pf.Locals) != 2 || pf.Locals[1].Name != "m" {
		t.Errorf("vars of f: %v, params %v, locals %v", names, pf.Params, pf.Locals)
	}
	if !slices.Equal(pf.Labels["L"], []syntax.Stmt{f.Procs[0].Body[0]}) || len(info.Main.Labels["E"]) != 1 {
		t.Errorf("labels: %v %v", pf.Labels, info.Main.Labels)
	}

	// Every variable occurrence resolves: locals shadow globals.
	assign := f.Procs[0].Body[0].(*syntax.AssignStmt)
	and := assign.Rhs[0].(*syntax.Binary) // (a & x) & g
	x := and.X.(*syntax.Binary).Y.(*syntax.VarRef).Name
	g := and.Y.(*syntax.VarRef).Name
	if v := info.Uses[x]; v != pf.Var("x") || v.Global {
		t.Errorf("x in f resolves to %+v", v)
	}
	if v := info.Uses[g]; v != info.Global("g") {
		t.Errorf("g in f resolves to %+v", v)
	}
	if v := info.Uses[assign.Lhs[0]]; v != pf.Var("l") {
		t.Errorf("target l resolves to %+v", v)
	}
	if info.Defs[f.Procs[0].Params[1]] != pf.Var("x") || info.Defs[f.Globals[0].Names[1]] != info.Global("x") {
		t.Errorf("defs wrong")
	}
	if info.Lookup(pf, "x") != pf.Var("x") || info.Lookup(info.Main, "x") != info.Global("x") || info.Lookup(nil, "r") != nil {
		t.Errorf("Lookup wrong")
	}

	call := f.Procs[1].Body[0].(*syntax.CallStmt)
	if info.Calls[call] != pf {
		t.Errorf("call not resolved")
	}
	if _, ok := info.Uses[call.Lhs[1]]; ok {
		t.Errorf("_ has a use entry")
	}
	if v := info.Uses[call.Args[1].(*syntax.VarRef).Name]; v != info.Global("x") {
		t.Errorf("argument x in main resolves to %+v", v)
	}
	thread := f.Procs[1].Body[1].(*syntax.StartThreadStmt).Target.(*syntax.CallStmt)
	if info.Calls[thread] != pf {
		t.Errorf("start_thread call not resolved")
	}
	if s := info.Global("x").String(); s != "x" {
		t.Errorf("String = %q", s)
	}
}

func TestInfoBracedName(t *testing.T) {
	f := parse(t, "decl {a b};\nvoid main() begin {a b} := T; end\n")
	info, errs, warns := Check(f)
	if len(errs)+len(warns) != 0 {
		t.Fatal(errs, warns)
	}
	if v := info.Global("a b"); v == nil || v.String() != "{a b}" {
		t.Errorf("braced global: %+v", v)
	}
}

func TestInfoJumps(t *testing.T) {
	f := parse(t, `void main() begin
  goto A, B;
  A: skip;
  B: start_thread goto A;
  R: skip;
  if * then R: skip; fi
end
`)
	info, errs, _ := Check(f)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	body := f.Procs[0].Body
	g := body[0].(*syntax.GotoStmt)
	st := body[2].(*syntax.StartThreadStmt).Target.(*syntax.GotoStmt)
	if info.Jumps[g.Targets[0]] != body[1] || info.Jumps[g.Targets[1]] != body[2] || info.Jumps[st.Targets[0]] != body[1] || len(info.Jumps) != 3 {
		t.Errorf("jumps: %v", info.Jumps)
	}
	if r := info.Main.Labels["R"]; len(r) != 2 || r[0] != body[3] || r[1] != body[4].(*syntax.IfStmt).Then[0] {
		t.Errorf("occurrences of R: %v", r)
	}
	if info.Errors != 0 {
		t.Errorf("Errors = %d", info.Errors)
	}
}
