package ir

import (
	"errors"
	"fmt"

	"boolprog/syntax"
)

// A Builder assembles a Program piece by piece: globals, procedures, their
// locals, locations and edges. Lower uses it, and so can a transformation
// that produces a new program from another (a sequentialisation, an
// instrumentation) instead of printing source text and parsing it again.
//
// The builder does the bookkeeping that is easy to get wrong: ids, the In
// and Out lists of locations, the Entry, Exit and Error flags of locations,
// and Proc.Labels. Build then checks the whole program with Verify. Edit
// returns a Builder over a copy of an existing program. A Builder builds
// one program; it must not be used after Build.
type Builder struct {
	prog *Program
	errs []error // misuses found before Build (e.g. an edge to no location)
}

// NewBuilder starts a program read from the named file whose error label is
// target ("" means DefaultTarget). The program has no procedures yet, and
// no main (Main and Init are -1).
func NewBuilder(file, target string) *Builder {
	if target == "" {
		target = DefaultTarget
	}
	return &Builder{prog: &Program{File: file, Target: target, Main: -1, Init: -1}}
}

// Global adds a global variable and returns its reference.
func (b *Builder) Global(name string) VarRef {
	b.prog.Globals = append(b.prog.Globals, name)
	return VarRef{Global: true, Index: len(b.prog.Globals) - 1}
}

// Proc adds a procedure with the given parameters (its first locals, in
// order) and number of returned values; pos is the position of its
// definition. The procedure's index (Call.Proc) is the number of procedures
// added before it. Entry and Exit must be set before Build.
func (b *Builder) Proc(name string, pos syntax.Pos, params []string, returns int) *ProcBuilder {
	p := &Proc{
		Name:    name,
		Index:   len(b.prog.Procs),
		Pos:     pos,
		Params:  len(params),
		Locals:  append([]string(nil), params...),
		Returns: returns,
		Entry:   -1,
		Exit:    -1,
	}
	b.prog.Procs = append(b.prog.Procs, p)
	return &ProcBuilder{b: b, p: p}
}

// SetMain makes procedure proc the program's main (-1: none).
func (b *Builder) SetMain(proc int) { b.prog.Main = proc }

// SetThreads sets the Getafix thread convention: init (or -1) runs first,
// then the threads (see Program.Init). A program with threads is
// Concurrent; say why with SetConcurrent.
func (b *Builder) SetThreads(init int, threads []int) {
	b.prog.Init = init
	b.prog.Threads = append([]int(nil), threads...)
}

// SetConcurrent marks the program Concurrent because of the construct at
// pos, described by why. Of several calls, the earliest position in the
// source is kept (see Program.ConcurrentPos).
func (b *Builder) SetConcurrent(pos syntax.Pos, why string) {
	p := b.prog
	if !p.Concurrent || pos.IsValid() && (!p.ConcurrentPos.IsValid() || pos.Offset < p.ConcurrentPos.Offset) {
		p.ConcurrentPos, p.ConcurrentWhy = pos, why
	}
	p.Concurrent = true
}

// Build finishes the program: it sets each location's Entry, Exit and
// Error flags (Error for every failure location and every location that
// carries the target label, besides those already marked) and each
// procedure's Labels, then checks the result with Verify. It returns the
// program, or every problem found.
func (b *Builder) Build() (*Program, error) {
	p := b.prog
	for _, pr := range p.Procs {
		pr.Labels = make(map[string][]int)
		for _, l := range pr.Locations {
			l.Entry = l.ID == pr.Entry
			l.Exit = l.ID == pr.Exit
			if l.Kind == FailLoc {
				l.Error = true
			}
			for _, lab := range l.Labels {
				if lab == p.Target {
					l.Error = true
				}
				if ids := pr.Labels[lab]; len(ids) == 0 || ids[len(ids)-1] != l.ID {
					pr.Labels[lab] = append(ids, l.ID)
				}
			}
		}
	}
	errs := append([]error(nil), b.errs...)
	if err := Verify(p); err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return p, nil
}

// A ProcBuilder adds the parts of one procedure; Builder.Proc returns it.
type ProcBuilder struct {
	b *Builder
	p *Proc
}

// Index returns the procedure's index in Program.Procs.
func (pb *ProcBuilder) Index() int { return pb.p.Index }

// Local adds a local variable (after the parameters and the locals added
// before) and returns its reference.
func (pb *ProcBuilder) Local(name string) VarRef {
	pb.p.Locals = append(pb.p.Locals, name)
	return VarRef{Index: len(pb.p.Locals) - 1}
}

// Loc adds a location and returns its id. Of l, the builder sets ID, Out,
// In, Entry and Exit itself; Kind, Pos, Text, Labels, Error (for an error
// location of another kind than FailLoc) and Origin are taken as given.
func (pb *ProcBuilder) Loc(l Location) int {
	l.ID = len(pb.p.Locations)
	l.Out, l.In = nil, nil
	l.Labels = append([]string(nil), l.Labels...)
	pb.p.Locations = append(pb.p.Locations, &l)
	return l.ID
}

// Edge adds an edge from location e.From to location e.To and returns its
// id; the builder sets ID and the locations' Out and In. Op, Pos, Text and
// Origin are taken as given.
func (pb *ProcBuilder) Edge(e Edge) int {
	e.ID = len(pb.p.Edges)
	pb.p.Edges = append(pb.p.Edges, &e)
	n := len(pb.p.Locations)
	if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
		pb.b.errs = append(pb.b.errs, fmt.Errorf("%s: edge %d from location %d to %d, which do not both exist", pb.p.Name, e.ID, e.From, e.To))
		return e.ID
	}
	pb.p.Locations[e.From].Out = append(pb.p.Locations[e.From].Out, e.ID)
	pb.p.Locations[e.To].In = append(pb.p.Locations[e.To].In, e.ID)
	return e.ID
}

// SetEntry makes location loc the procedure's Entry: where a call starts.
func (pb *ProcBuilder) SetEntry(loc int) { pb.p.Entry = loc }

// SetExit makes location loc the procedure's Exit: where a call returns.
func (pb *ProcBuilder) SetExit(loc int) { pb.p.Exit = loc }

// SetEnforce records the procedure's enforce condition (Proc.Enforce: for
// display only; the edges must already carry its meaning).
func (pb *ProcBuilder) SetEnforce(e Expr) { pb.p.Enforce = e }
