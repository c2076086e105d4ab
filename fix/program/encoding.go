package program

import (
	"fmt"
	"io"
	"math/bits"

	"boolprog/bdd"
	"boolprog/ir"
	"boolprog/symbolic"
)

// Encoding says how a state of a sequential program is a value of the
// formulas' type State: a program counter and one bit per slot.
//
// The program counter numbers every location of every procedure: the
// locations of procedure i are PCBase(i) + loc. The slots are package
// symbolic's (globals, then the locals of the executing procedure, then
// the values being returned), so a state holds only what is in scope: the
// slots of locals the executing procedure does not have, and the slots of
// returned values except at a procedure's exit, are false in every state
// the relations produce.
//
// In formulas, the types are
//
//	enum PC {0..NPC-1};
//	class State { PC pc; bool g0; ...; bool l0; ...; bool r0; ... };
//
// with the slots in Order (an affinity order from package symbolic: slots
// used together sit together); WriteTypes writes them.
type Encoding struct {
	Prog  *ir.Program
	Slots symbolic.Slots
	// Order lists the slots in the order of State's fields (the BDD order).
	Order []int
	// NPC is the number of program counter values; PCBits their width.
	NPC, PCBits int
	base        []int
}

// NewEncoding returns the encoding of p's states.
func NewEncoding(p *ir.Program) *Encoding {
	e := &Encoding{Prog: p, Slots: symbolic.SlotsOf(p), base: make([]int, len(p.Procs))}
	for i, pr := range p.Procs {
		e.base[i] = e.NPC
		e.NPC += len(pr.Locations)
	}
	e.NPC = max(e.NPC, 1)
	e.PCBits = max(bits.Len(uint(e.NPC-1)), 1)
	// The affinity order of package symbolic, read off a layout in a
	// scratch manager (the order depends on the program only).
	e.Order = symbolic.NewLayout(bdd.New(bdd.Config{InitialNodes: 64}), p, symbolic.OrderAffinity).Order()
	return e
}

// PCBase returns the program counter of location 0 of procedure proc.
func (e *Encoding) PCBase(proc int) int { return e.base[proc] }

// PC returns the program counter of location loc of procedure proc.
func (e *Encoding) PC(proc, loc int) int { return e.base[proc] + loc }

// Loc returns the procedure and location of program counter pc.
func (e *Encoding) Loc(pc int) (proc, loc int) {
	for i := len(e.base) - 1; i >= 0; i-- {
		if pc >= e.base[i] {
			return i, pc - e.base[i]
		}
	}
	return 0, pc
}

// FieldName returns the name of slot s's field in State: g<i> for global
// i, l<j> for local slot j, r<i> for returned value i.
func (e *Encoding) FieldName(s int) string {
	switch {
	case e.Slots.IsGlobal(s):
		return fmt.Sprintf("g%d", s)
	case e.Slots.IsLocal(s):
		return fmt.Sprintf("l%d", s-e.Slots.G)
	}
	return fmt.Sprintf("r%d", s-e.Slots.G-e.Slots.L)
}

// WriteTypes writes the declarations of PC and State, with comments that
// name the variables behind the fields.
func (e *Encoding) WriteTypes(w io.Writer) error {
	p := e.Prog
	fmt.Fprintf(w, "// Program %s: %d locations, %d globals, at most %d locals and %d returned values.\n", p.File, e.NPC, e.Slots.G, e.Slots.L, e.Slots.R)
	for i, pr := range p.Procs {
		fmt.Fprintf(w, "// pc %d..%d: %s (entry %d, exit %d)\n", e.base[i], e.base[i]+len(pr.Locations)-1, pr.Name, e.PC(i, pr.Entry), e.PC(i, pr.Exit))
	}
	for i, g := range p.Globals {
		fmt.Fprintf(w, "// g%d is %s\n", i, g)
	}
	fmt.Fprintf(w, "enum PC {0..%d};\n", e.NPC-1)
	fmt.Fprintf(w, "class State {\n  PC pc;\n")
	for _, s := range e.Order {
		fmt.Fprintf(w, "  bool %s;\n", e.FieldName(s))
	}
	_, err := fmt.Fprintf(w, "};\n")
	return err
}

// StateVars are the BDD variables that hold one state: PC the program
// counter's bits, most significant first (the value is Encoding.PC); Slots
// one variable per slot (indexed by slot).
type StateVars struct {
	PC    []int
	Slots []int
}
