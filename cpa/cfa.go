package cpa

import (
	"fmt"

	"boolprog/analysis"
	"boolprog/ir"
)

// Node is a program location: a location of a procedure.
type Node struct {
	Proc int // index in ir.Program.Procs
	Loc  int // location id in the procedure
}

// EdgeKind distinguishes the edges of the interprocedural view.
type EdgeKind int

// The kinds of edges. An ir.Call edge of a caller becomes three edges: a
// Call edge into the callee's entry, a Return edge from the callee's exit
// back to the call's return point, and a CallToReturn edge from the call to
// its return point that an interprocedural analysis uses to keep the
// caller's frame (the summary wrapper applies block summaries along it).
const (
	Intra        EdgeKind = iota // an edge of one procedure's CFA (not a call)
	Call                         // from a call's location into the callee's entry
	Return                       // from the callee's exit to the call's return point
	CallToReturn                 // from a call's location to its return point
)

var kindNames = [...]string{Intra: "intra", Call: "call", Return: "return", CallToReturn: "call-to-return"}

// String returns "intra", "call", "return" or "call-to-return".
func (k EdgeKind) String() string { return kindNames[k] }

// Edge is an edge of the interprocedural view of a program.
type Edge struct {
	Kind     EdgeKind
	From, To Node
	// IR is the ir edge: the edge itself for Intra; for Call, Return and
	// CallToReturn, the caller's ir.Call edge (in procedure Caller).
	IR     *ir.Edge
	Caller int // the procedure of IR
}

// CallOp returns the call operation of a Call, Return or CallToReturn
// edge.
func (e *Edge) CallOp() *ir.Call { return e.IR.Op.(*ir.Call) }

// String describes the edge for messages, e.g. "main:3 -call-> f:0".
func (e *Edge) String() string {
	return fmt.Sprintf("%d:%d -%s-> %d:%d", e.From.Proc, e.From.Loc, e.Kind, e.To.Proc, e.To.Loc)
}

// CFA is the interprocedural edge view of a program: the CFAs of its
// procedures with every ir.Call split into Call, Return and CallToReturn
// edges. It is immutable once built and shared by every analysis of one
// run.
type CFA struct {
	Prog *ir.Program
	out  [][][]*Edge // [proc][loc] -> edges leaving
	in   [][][]*Edge // [proc][loc] -> edges entering
	// callOf maps a Return or CallToReturn edge to its Call edge.
	callOf map[*Edge]*Edge
	retOf  map[*Edge]*Edge // Call edge -> its Return edge
	rpo    [][]int32       // [proc][loc] -> reverse-postorder number within the procedure (analysis.RPO)
}

// NewCFA builds the interprocedural view of p. Thread operations are kept
// as Intra edges; analyses refuse concurrent programs before they run. c
// is the cache of p's analyses that the check shares (engine.Query's
// Analyses), from which the CFA takes the reverse postorder; with nil, or
// a cache of another program, it makes its own.
func NewCFA(p *ir.Program, c *analysis.Cache) *CFA {
	cfa := newCFA(p)
	cfa.rpo = analysis.Of(analysis.CacheFor(c, p), analysis.RPO).Rank
	return cfa
}

func newCFA(p *ir.Program) *CFA {
	c := &CFA{Prog: p, callOf: make(map[*Edge]*Edge), retOf: make(map[*Edge]*Edge)}
	c.out = make([][][]*Edge, len(p.Procs))
	c.in = make([][][]*Edge, len(p.Procs))
	for i, pr := range p.Procs {
		c.out[i] = make([][]*Edge, len(pr.Locations))
		c.in[i] = make([][]*Edge, len(pr.Locations))
	}
	add := func(e *Edge) {
		c.out[e.From.Proc][e.From.Loc] = append(c.out[e.From.Proc][e.From.Loc], e)
		c.in[e.To.Proc][e.To.Loc] = append(c.in[e.To.Proc][e.To.Loc], e)
	}
	for i, pr := range p.Procs {
		for _, ie := range pr.Edges {
			from, to := Node{i, ie.From}, Node{i, ie.To}
			call, ok := ie.Op.(*ir.Call)
			if !ok {
				add(&Edge{Kind: Intra, From: from, To: to, IR: ie, Caller: i})
				continue
			}
			callee := p.Procs[call.Proc]
			ce := &Edge{Kind: Call, From: from, To: Node{call.Proc, callee.Entry}, IR: ie, Caller: i}
			re := &Edge{Kind: Return, From: Node{call.Proc, callee.Exit}, To: to, IR: ie, Caller: i}
			cr := &Edge{Kind: CallToReturn, From: from, To: to, IR: ie, Caller: i}
			add(ce)
			add(cr)
			add(re)
			c.callOf[re] = ce
			c.callOf[cr] = ce
			c.retOf[ce] = re
		}
	}
	return c
}

// Out returns the edges leaving n (all kinds).
func (c *CFA) Out(n Node) []*Edge { return c.out[n.Proc][n.Loc] }

// In returns the edges entering n (all kinds).
func (c *CFA) In(n Node) []*Edge { return c.in[n.Proc][n.Loc] }

// CallEdge returns the Call edge of a Return or CallToReturn edge.
func (c *CFA) CallEdge(e *Edge) *Edge { return c.callOf[e] }

// ReturnEdge returns the Return edge of a Call edge.
func (c *CFA) ReturnEdge(call *Edge) *Edge {
	return c.retOf[call]
}

// RPO returns the reverse-postorder number of n within its procedure
// (entry first); unreachable locations come last.
func (c *CFA) RPO(n Node) int { return int(c.rpo[n.Proc][n.Loc]) }

// Location returns the ir location of n.
func (c *CFA) Location(n Node) *ir.Location { return c.Prog.Procs[n.Proc].Locations[n.Loc] }

// IsError reports whether n is an error location.
func (c *CFA) IsError(n Node) bool { return c.Location(n).Error }
