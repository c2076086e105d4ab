package concfix

import (
	"fmt"
	"slices"
	"strings"

	"boolprog/conc"
	"boolprog/ir"
	"boolprog/syntax"
)

// SATABS-convention programs (main is thread 0; start_thread f(args) and
// ASYNC_n calls create threads at run time; atomic_begin/atomic_end)
// are rewritten into a program with a fixed set of thread slots that the
// formula handles as it handles the Getafix convention: slot j (1..M,
// M = conc.Model.MaxThreads) is the j-th thread created, as interp
// numbers them. Ghost globals, appended after the program's own, record
// which slots were created (a prefix: created_1..created_n), the start
// kind (procedure) and the argument values of each, and the owner of an
// atomic section (ghost `atomic`, which forbids switches as Getafix's
// global does). A creation sets the first free slot; a creation with
// every slot taken instead goes to an overflow location with no way out,
// which the engine reports (never silently). end_thread leads to a
// location with no way out. The procedures keep their locations and
// edges (ids included; only new ones are appended), so the walk's steps
// are steps of the original program, and the trace is built against it.
// start_thread goto L (a copy of the creator's frame) is not handled.

// dynamic is the rewritten program and its ghosts.
type dynamic struct {
	q       *ir.Program
	slots   int     // M
	kinds   []int   // the procedures threads start in
	created []int   // created[j-1]: global index of slot j's flag
	site    [][]int // site[j-1]: global indices of slot j's kind, most significant bit first
	args    [][]int // args[j-1][k]: global index of slot j's k-th argument
	atomic  int     // global index of the ghost atomic
	// overflow lists the overflow locations (procedure, location).
	overflow [][2]int
}

func gvar(i int) ir.Expr { return &ir.Var{VarRef: ir.VarRef{Global: true, Index: i}} }

func and2(x, y ir.Expr) ir.Expr { return &ir.Bin{Op: syntax.And, X: x, Y: y} }
func or2(x, y ir.Expr) ir.Expr  { return &ir.Bin{Op: syntax.Or, X: x, Y: y} }
func not1(x ir.Expr) ir.Expr    { return &ir.Not{X: x} }

// ite is (c & a) | (!c & b).
func ite(c, a, b ir.Expr) ir.Expr { return or2(and2(c, a), and2(not1(c), b)) }

// newDynamic rewrites p, whose thread model is cm (Dynamic convention).
func newDynamic(p *ir.Program, cm *conc.Model) (*dynamic, error) {
	d := &dynamic{slots: cm.MaxThreads}
	maxArgs := 0
	for _, s := range cm.Sites {
		if s.Op.Goto >= 0 {
			pr := p.Procs[s.Proc]
			return nil, fmt.Errorf("%s (line %d): start_thread goto (a new thread copying the creator's frame) is not supported by conc-fix", pr.Name, pr.Edges[s.Edge].Pos.Line)
		}
		if !slices.Contains(d.kinds, s.Op.Proc) {
			d.kinds = append(d.kinds, s.Op.Proc)
		}
		maxArgs = max(maxArgs, len(s.Op.Args))
	}
	ed := ir.Edit(p)
	ghost := func(name string) int { return ed.Global("conc'" + name).Index }
	kindBits := 0
	for 1<<kindBits < len(d.kinds) {
		kindBits++
	}
	for j := 1; j <= d.slots; j++ {
		d.created = append(d.created, ghost(fmt.Sprintf("created%d", j)))
		var site, args []int
		for b := 0; b < kindBits; b++ {
			site = append(site, ghost(fmt.Sprintf("kind%d_%d", j, b)))
		}
		for k := 0; k < maxArgs; k++ {
			args = append(args, ghost(fmt.Sprintf("arg%d_%d", j, k)))
		}
		d.site = append(d.site, site)
		d.args = append(d.args, args)
	}
	d.atomic = ghost("atomic")
	setAtomic := func(v bool) ir.Op {
		return &ir.Assign{Targets: []ir.VarRef{{Global: true, Index: d.atomic}}, Values: []ir.Expr{&ir.Const{Value: v}}}
	}
	for i, pr := range p.Procs {
		pb := ed.ProcAt(i)
		// stuck adds a location with no way out.
		stuck := func(pos syntax.Pos) int {
			return pb.Loc(ir.Location{Kind: ir.StmtLoc, Pos: pos, Origin: ir.SyntheticOrigin(i)})
		}
		ended := -1
		for id, e := range pr.Edges {
			switch op := e.Op.(type) {
			case *ir.AtomicBegin:
				pb.SetOp(id, setAtomic(true))
			case *ir.AtomicEnd:
				pb.SetOp(id, setAtomic(false))
			case *ir.EndThread:
				if ended < 0 {
					ended = stuck(e.Pos)
				}
				pb.Retarget(id, ended)
				pb.SetOp(id, &ir.Skip{})
			case *ir.StartThread:
				pb.SetOp(id, d.create(op, slices.Index(d.kinds, op.Proc), kindBits))
				ovf := stuck(e.Pos)
				d.overflow = append(d.overflow, [2]int{i, ovf})
				pb.Edge(ir.Edge{From: e.From, To: ovf, Op: &ir.Assume{Cond: gvar(d.created[d.slots-1])}, Pos: e.Pos, Text: e.Text, Origin: e.Origin})
			}
		}
	}
	q, err := ed.Build()
	if err != nil {
		return nil, fmt.Errorf("conc-fix: internal error: the program with thread slots is malformed: %v", err)
	}
	d.q = q
	return d, nil
}

// create is the assignment of a creation: the first free slot j (slots
// 1..j-1 created, j not) becomes created with the kind and the
// arguments; the constrain blocks it when every slot is taken.
func (d *dynamic) create(op *ir.StartThread, kind, kindBits int) ir.Op {
	a := &ir.Assign{Constrain: not1(gvar(d.created[d.slots-1]))}
	set := func(g int, v ir.Expr) {
		a.Targets = append(a.Targets, ir.VarRef{Global: true, Index: g})
		a.Values = append(a.Values, v)
	}
	for j := 1; j <= d.slots; j++ {
		var isNew ir.Expr = not1(gvar(d.created[j-1]))
		if j > 1 {
			isNew = and2(gvar(d.created[j-2]), isNew)
		}
		set(d.created[j-1], or2(gvar(d.created[j-1]), isNew))
		for b, g := range d.site[j-1] {
			bit := kind>>(kindBits-1-b)&1 == 1
			set(g, ite(isNew, &ir.Const{Value: bit}, gvar(g)))
		}
		for k, g := range d.args[j-1] {
			var v ir.Expr = gvar(g)
			if k < len(op.Args) {
				v = ite(isNew, op.Args[k], gvar(g))
			}
			set(g, v)
		}
	}
	return a
}

// threadEntry is the formula "u is the start of thread slot i".
func (d *dynamic) threadEntry(m *model, i int, u string) string {
	q := d.q
	if i == 0 {
		return m.at(u, q.Main)
	}
	field := func(g int) string {
		return u + "." + m.enc.FieldName(m.enc.Slots.Slot(ir.VarRef{Global: true, Index: g}))
	}
	var alts []string
	for s, proc := range d.kinds {
		fs := []string{m.at(u, proc), field(d.created[i-1]) + " = 1"}
		for b, g := range d.site[i-1] {
			fs = append(fs, fmt.Sprintf("%s = %d", field(g), s>>(len(d.site[i-1])-1-b)&1))
		}
		for k := 0; k < q.Procs[proc].Params; k++ {
			fs = append(fs, fmt.Sprintf("%s.%s = %s", u, m.enc.FieldName(m.enc.Slots.Slot(ir.VarRef{Index: k})), field(d.args[i-1][k])))
		}
		alts = append(alts, "("+strings.Join(fs, " & ")+")")
	}
	return "(" + strings.Join(alts, " | ") + ")"
}

// started is the formula "u's ghosts are those of the start": no thread
// created, no atomic section.
func (d *dynamic) started(m *model, u string) string {
	fs := []string{}
	for _, g := range append(slices.Clone(d.created), d.atomic) {
		fs = append(fs, fmt.Sprintf("%s.%s = 0", u, m.enc.FieldName(m.enc.Slots.Slot(ir.VarRef{Global: true, Index: g}))))
	}
	return "(" + strings.Join(fs, " & ") + ")"
}
