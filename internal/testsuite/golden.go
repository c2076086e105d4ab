package testsuite

// Figure1File is the Bebop paper's Figure 1 program, relative to the
// module root; its target label is R.
const Figure1File = "examples/bebop-fig1.bp"

// Figure1Lines are the source lines a shortest trace of Figure 1 visits,
// in execution order: the paper's trace.
var Figure1Lines = []int{6, 7, 20, 21, 20, 24, 22, 8, 9, 20, 21, 20, 24, 22, 10, 11, 12}

// Figure1Bebop is the paper's output for Figure 1 (reverse execution
// order, indented by call depth), except the last line: Bebop omits h at
// line 6, where it is unconstrained, and our engines list every variable.
const Figure1Bebop = `Line 12 State g=1 h=0
Line 11 State g=1 h=0
Line 10 State g=1 h=0
  Line 22 State g=1 a1=1 a2=0
    Line 24 State g=1 a1=0 a2=1
    Line 20 State g=1 a1=0 a2=1
  Line 21 State g=1 a1=1 a2=0
  Line 20 State g=1 a1=1 a2=0
Line 9 State g=1 h=0
Line 8 State g=1 h=0
  Line 22 State g=1 a1=1 a2=0
    Line 24 State g=1 a1=0 a2=1
    Line 20 State g=1 a1=0 a2=1
  Line 21 State g=1 a1=1 a2=0
  Line 20 State g=1 a1=1 a2=0
Line 7 State g=1 h=0
Line 6 State g=1 h=0
`

// ShortestCase is a program whose shortest error trace has Steps steps (one
// per edge taken, calls expanded, the final error step included).
type ShortestCase struct {
	Name, Src string
	Steps     int
}

// Shortest are programs whose shortest trace must look through calls: an
// engine must not prefer a path with fewer top-level steps but a long
// callee.
var Shortest = []ShortestCase{
	{"short call wins", `decl g;
void long() begin skip; skip; skip; skip; g := T; end
void short() begin g := T; end
void main() begin
  if (*) then long(); else short(); fi
  assert(!g);
end`, 4}, // if, short(), g := T, assert
	{"inline path beats call", `decl g;
void long() begin skip; skip; skip; skip; g := T; end
void main() begin
  if (*) then long(); else skip; skip; g := T; fi
  assert(!g);
end`, 5},
	{"label at callee entry", `void f() begin SLIC_ERROR: skip; end
void main() begin skip; f(); end`, 3},
	{"error in recursion", `decl g;
void r(a) begin
  if (a) then r(F); else g := T; fi
end
void main() begin
  g := F;
  r(T);
  assert(!g);
end`, 7},
}
