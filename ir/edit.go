package ir

import (
	"fmt"
	"slices"
)

// Clone returns a copy of p that can be changed without changing p: the
// program, its procedures, locations and edges and their lists are new.
// The operations and expressions are shared: they are values, which no
// transformation changes in place (it replaces an edge's Op instead).
func Clone(p *Program) *Program {
	q := *p
	q.Globals = slices.Clone(p.Globals)
	q.Threads = slices.Clone(p.Threads)
	q.Procs = make([]*Proc, len(p.Procs))
	for i, pr := range p.Procs {
		c := *pr
		c.Locals = slices.Clone(pr.Locals)
		c.Labels = make(map[string][]int, len(pr.Labels))
		for lab, ids := range pr.Labels {
			c.Labels[lab] = slices.Clone(ids)
		}
		c.Locations = make([]*Location, len(pr.Locations))
		for j, l := range pr.Locations {
			x := *l
			x.Labels, x.Out, x.In = slices.Clone(l.Labels), slices.Clone(l.Out), slices.Clone(l.In)
			c.Locations[j] = &x
		}
		c.Edges = make([]*Edge, len(pr.Edges))
		for j, e := range pr.Edges {
			x := *e
			c.Edges[j] = &x
		}
		q.Procs[i] = &c
	}
	return &q
}

// SyntheticOrigin is the Origin of a location or edge that a
// transformation adds to procedure proc (an index of the original
// program, or -1) and that stands for nothing of the original program:
// Loc, Edge, Thread and Round are -1.
func SyntheticOrigin(proc int) Origin {
	return Origin{Proc: proc, Loc: -1, Edge: -1, Thread: -1, Round: -1}
}

// Edit returns a Builder over a copy of p (Clone), for a transformation
// that changes a program rather than building one from nothing: it may
// add globals and procedures as a new program's builder does, and, through
// ProcAt, add locations and edges to p's procedures, give an edge another
// operation (SetOp) or target (Retarget), and move an entry or exit.
// Every location and edge of p keeps its id and origin; the new ones get
// the next ids. Build sets the locations' flags and the procedures'
// Labels again and checks the result with Verify; p is never changed.
func Edit(p *Program) *Builder {
	return &Builder{prog: Clone(p)}
}

// Program returns the program being built, to be read only: its parts
// are changed through the builder.
func (b *Builder) Program() *Program { return b.prog }

// ProcAt returns the builder of procedure i, added before (an edited
// program's own procedures are 0..n-1).
func (b *Builder) ProcAt(i int) *ProcBuilder {
	return &ProcBuilder{b: b, p: b.prog.Procs[i]}
}

// SetOp gives edge e the operation op.
func (pb *ProcBuilder) SetOp(e int, op Op) {
	if !pb.edgeOK(e) {
		return
	}
	pb.p.Edges[e].Op = op
}

// SetText gives edge e the text text, for an edge whose operation SetOp
// changed.
func (pb *ProcBuilder) SetText(e int, text string) {
	if !pb.edgeOK(e) {
		return
	}
	pb.p.Edges[e].Text = text
}

// Retarget makes edge e lead to location to, updating the locations' In
// lists.
func (pb *ProcBuilder) Retarget(e, to int) {
	if !pb.edgeOK(e) {
		return
	}
	x := pb.p.Edges[e]
	if to < 0 || to >= len(pb.p.Locations) {
		pb.b.errs = append(pb.b.errs, fmt.Errorf("%s: edge %d retargeted to location %d, which does not exist", pb.p.Name, e, to))
		return
	}
	old := pb.p.Locations[x.To]
	old.In = slices.DeleteFunc(old.In, func(id int) bool { return id == e })
	x.To = to
	pb.p.Locations[to].In = append(pb.p.Locations[to].In, e)
}

// edgeOK says edge e exists, recording a misuse otherwise.
func (pb *ProcBuilder) edgeOK(e int) bool {
	if e >= 0 && e < len(pb.p.Edges) {
		return true
	}
	pb.b.errs = append(pb.b.errs, fmt.Errorf("%s: no edge %d", pb.p.Name, e))
	return false
}
