package sema

import (
	"testing"

	"boolprog/syntax"
)

var warnTests = []struct {
	name  string
	src   string
	warns []string
}{
	{
		name: "unused variables of every kind",
		src: `decl used, unused, atomic, super_atomic;
void f(p, q) begin
  decl l, m;
  l := p;
  dead m;
end
void main() begin used := T; f(used, used); end
`,
		warns: []string{
			"t.bp:1:12: global variable unused declared and not used",
			"t.bp:2:11: parameter q declared and not used",
		},
	},
	{
		name: "a shadowed global is unused",
		src: `decl g;
void main() begin decl g; g := T; end
`,
		warns: []string{"t.bp:1:6: global variable g declared and not used"},
	},
	{
		name: "unused decl statement",
		src: `void main() begin
  skip;
  decl t;
end
`,
		warns: []string{"t.bp:3:8: local variable t declared and not used"},
	},
	{
		name: "labelled statements after goto and return",
		src: `void main() begin
  goto B;
  A: skip;
  B: skip;
  return;
  C: skip;
end
`,
		warns: []string{
			"t.bp:3:3: unreachable statement labelled A",
			"t.bp:6:3: unreachable statement labelled C",
		},
	},
	{
		name: "one warning per unreachable run",
		src: `void main() begin
  return;
  skip;
  A: skip;
  B: skip;
  if * then C: skip; fi
  D: skip;
end
`,
		warns: []string{"t.bp:4:3: unreachable statement labelled A"},
	},
	{
		name: "inside an unreachable unlabelled if",
		src: `void main() begin
  return;
  if * then
    skip;
    A: skip;
  else
    B: skip;
  fi
  C: skip;
end
`,
		warns: []string{"t.bp:5:5: unreachable statement labelled A"},
	},
	{
		name: "a label reached only from unreachable code",
		src: `void main() begin
  goto B;
  goto A;
  A: skip;
  B: skip;
end
`,
		warns: []string{"t.bp:4:3: unreachable statement labelled A"},
	},
	{
		name: "reachable labels nothing targets are not warned about",
		src: `decl g;
void main() begin
  g := *;
  SLIC_ERROR: skip;
  if g then ERR: skip; fi
  assume(F);
  after_assume: skip;
  abortif T;
  after_abortif: skip;
end
`,
	},
	{
		name: "loops and nondeterministic gotos",
		src: `void main() begin
  top: while * do
    body: skip;
    goto top, out;
    dead_in_loop: skip;
  od
  after: skip;
  out: skip;
end
`,
		warns: []string{"t.bp:5:5: unreachable statement labelled dead_in_loop"},
	},
	{
		name: "after an infinite goto loop",
		src: `void main() begin
  x: goto x;
  y: skip;
end
`,
		warns: []string{"t.bp:3:3: unreachable statement labelled y"},
	},
	{
		name: "empty loop body and empty branches",
		src: `void main() begin
  while * do od
  if * then else fi
  L: skip;
end
`,
	},
	{
		name: "start_thread goto makes its target reachable",
		src: `void main() begin
  start_thread goto T1;
  end_thread;
  E: skip;
  T1: skip;
end
`,
		warns: []string{"t.bp:4:3: unreachable statement labelled E"},
	},
	{
		name: "elsif chains",
		src: `decl a;
void main() begin
  if a then
    return;
  elsif !a then
    goto out;
  else
    X: skip;
  fi
  Y: skip;
  out: skip;
end
`,
	},
}

func TestWarnings(t *testing.T) {
	for _, tt := range warnTests {
		t.Run(tt.name, func(t *testing.T) {
			checkCase(t, tt.src, nil, tt.warns)
		})
	}
}

// The parser cannot produce `start_thread x := f();`, but a hand-built or
// transformed tree can; sema must reject it rather than pass it on.
func TestStartThreadWithTargets(t *testing.T) {
	f := parse(t, `bool f() begin return T; end
void main() begin decl x; start_thread f(); assert(x); end
`)
	st := f.Procs[1].Body[0].(*syntax.StartThreadStmt)
	call := st.Target.(*syntax.CallStmt)
	x := f.Procs[1].Locals[0].Names[0]
	call.Lhs = []*syntax.Ident{{NamePos: syntax.Pos{Line: 2, Col: 40}, Name: x.Name}}
	_, errs, _ := Check(f)
	want := []string{"t.bp:2:40: start_thread cannot assign the results of f"}
	if got := lines(errs); !same(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
