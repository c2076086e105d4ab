package witness

import (
	"container/heap"
	"context"
	"fmt"
	"strings"

	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// Language is the task language a witness records.
const Language = "boolean_program"

// Specification describes what a check of p looks for.
func Specification(p *ir.Program) string {
	return "no assertion fails and label " + p.Target + " is not reached"
}

// Meta returns the metadata of a witness of the program p read from src
// (file name p.File), produced by the named producer with a configuration
// (e.g. "engine summary"), created at time (RFC 3339).
func Meta(p *ir.Program, src []byte, version, configuration, time string, kind Kind) Metadata {
	hash := Hash(src)
	return Metadata{
		FormatVersion: FormatVersion,
		UUID:          uuidFor(kind.String(), hash, p.Target, configuration, time),
		CreationTime:  time,
		Producer:      Producer{Name: "boolprog", Version: version, Configuration: configuration},
		Task:          Task{InputFile: p.File, InputFileHash: hash, Specification: Specification(p), Language: Language},
	}
}

// FromTrace returns the violation witness of an error trace of p: per
// step, an assumption waypoint with the values the step shows (T if none),
// a branching waypoint where the step chooses a branch, a function_enter
// waypoint at a call; and the target at the last step. Waypoints of a
// concurrent program carry the step's thread.
func FromTrace(p *ir.Program, tr *result.Trace, meta Metadata) (*Witness, error) {
	if tr == nil || len(tr.Steps) == 0 {
		return nil, fmt.Errorf("witness: no trace")
	}
	w := &Witness{Kind: Violation, Metadata: meta}
	add := func(wp Waypoint) { w.Segments = append(w.Segments, Segment{Waypoints: []Waypoint{wp}}) }
	for i, s := range tr.Steps {
		proc := p.Proc(s.Proc)
		if proc == nil || s.Loc < 0 || s.Loc >= len(proc.Locations) {
			return nil, fmt.Errorf("witness: step %d: no location %d in %s", i+1, s.Loc, s.Proc)
		}
		thread := -1
		if p.Concurrent {
			thread = s.Thread
		}
		loc := Location{File: p.File, Line: s.Line, Col: s.Col, Function: s.Proc}
		wp := func(typ, c string) Waypoint {
			return Waypoint{Type: typ, Action: "follow", Location: loc, Constraint: c, Thread: thread}
		}
		add(wp(Assumption, valuesFormula(p, proc, s.Values)))
		if s.Edge != result.NoEdge {
			if s.Edge < 0 || s.Edge >= len(proc.Edges) {
				return nil, fmt.Errorf("witness: step %d: no edge %d in %s", i+1, s.Edge, s.Proc)
			}
			e := proc.Edges[s.Edge]
			if b := branchOf(proc, e); b != "" && s.Choice {
				add(wp(Branching, b))
			}
			if c, ok := e.Op.(*ir.Call); ok {
				add(wp(FunctionEnter, p.Procs[c.Proc].Name))
			}
		}
		if i == len(tr.Steps)-1 {
			add(wp(Target, ""))
		}
	}
	return w, nil
}

// valuesFormula is the conjunction of the values of a step, in the order
// listed. Where a local shadows a global of the same name, only the local
// (the last) is named.
func valuesFormula(p *ir.Program, proc *ir.Proc, vals []result.Value) string {
	last := map[string]int{}
	for i, v := range vals {
		last[v.Name] = i
	}
	var parts []string
	for i, v := range vals {
		if last[v.Name] != i {
			continue
		}
		s := ir.IdentText(v.Name)
		if !v.Value {
			s = "!" + s
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "T"
	}
	return strings.Join(parts, " & ")
}

// branchOf names the branch an edge takes from a branching location: "true"
// or "false" for the two Assume edges of an if, while or assert (the first
// is the condition's), the target's first label for one of several gotos;
// "" if the location does not branch.
func branchOf(proc *ir.Proc, e *ir.Edge) string {
	out := proc.Locations[e.From].Out
	if len(out) < 2 {
		return ""
	}
	switch e.Op.(type) {
	case *ir.Assume:
		if len(out) == 2 {
			if out[0] == e.ID {
				return "true"
			}
			return "false"
		}
	case *ir.Skip:
		if ls := proc.Locations[e.To].Labels; len(ls) > 0 {
			return ls[0]
		}
	}
	return ""
}

// Verdict is the answer of a validation.
type Verdict int

// The verdicts of a validation.
const (
	Unknown   Verdict = iota // the validator could not decide (a limit); Outcome.Reason says why
	Confirmed                // the witness holds
	Rejected                 // the witness does not hold; Outcome.Reason says where and why
)

// String returns "confirmed", "rejected" or "unknown".
func (v Verdict) String() string {
	switch v {
	case Confirmed:
		return "confirmed"
	case Rejected:
		return "rejected"
	}
	return "unknown"
}

// Outcome is the result of a validation.
type Outcome struct {
	Verdict Verdict
	Reason  string
	// Pos is the place in the witness file the reason speaks of, if any.
	Pos syntax.Pos
	// Work is the number of configurations explored (violation), of
	// inductiveness checks made (correctness of a sequential program), or
	// of configurations, thread states and interferences checked
	// (correctness of a concurrent program).
	Work int
	// Malformed marks a Rejected outcome whose reason is a formula that
	// does not parse (at Pos): the witness is malformed, rather than
	// wrong about the program.
	Malformed bool
}

// Options configure a validation.
type Options struct {
	// MaxConfigs bounds the configurations a violation's search explores
	// (0: 1<<20; past it the outcome is Unknown), and the configurations
	// (or thread states) that the invariants of a concurrent program's
	// correctness witness may admit (0: DefaultMaxConfigs; past it the
	// witness is Rejected, with the count).
	MaxConfigs int
	// MaxNodes bounds the BDD nodes of a correctness check (0: the bdd
	// package's default).
	MaxNodes int
}

// Validate checks witness w against the program p, whose source is src:
// the witness must name the program (its hash), and then hold
// (ValidateViolation or ValidateCorrectness).
func Validate(ctx context.Context, p *ir.Program, src []byte, w *Witness, opts Options) *Outcome {
	if h := w.Metadata.Task.InputFileHash; h != "" && !strings.EqualFold(h, Hash(src)) {
		return &Outcome{Verdict: Rejected, Reason: fmt.Sprintf("the witness is for another program: its hash is %s, the program's %s", h, Hash(src))}
	}
	if w.Kind == Violation {
		return ValidateViolation(ctx, p, w, opts)
	}
	return ValidateCorrectness(ctx, p, w, opts)
}

// rejectAt is a Rejected outcome at a place of the witness.
func rejectAt(pos syntax.Pos, format string, args ...any) *Outcome {
	return &Outcome{Verdict: Rejected, Pos: pos, Reason: fmt.Sprintf(format, args...)}
}

// resolveLocation returns the procedure and the locations (statements or
// the exit) at a witness location; a column of 0 matches the whole line.
func resolveLocation(p *ir.Program, l Location) (*ir.Proc, []int, string) {
	proc := p.Proc(l.Function)
	if proc == nil {
		return nil, nil, fmt.Sprintf("the program has no function %q", l.Function)
	}
	var locs []int
	for _, x := range proc.Locations {
		if x.Kind == ir.FailLoc || x.Pos.Line != l.Line || l.Col != 0 && x.Pos.Col != l.Col {
			continue
		}
		locs = append(locs, x.ID)
	}
	if len(locs) == 0 {
		return nil, nil, fmt.Sprintf("%s has no statement at line %d, column %d", proc.Name, l.Line, l.Col)
	}
	return proc, locs, ""
}

// vwaypoint is a waypoint resolved against the program.
type vwaypoint struct {
	Waypoint
	index int
	proc  *ir.Proc
	locs  []int
	f     *formula // assumption
}

func (v *vwaypoint) at(proc int, loc int) bool {
	if v.proc.Index != proc {
		return false
	}
	for _, l := range v.locs {
		if l == loc {
			return true
		}
	}
	return false
}

func (v *vwaypoint) describe() string {
	s := fmt.Sprintf("waypoint %d (%s at %s %d:%d", v.index+1, v.Type, v.Location.Function, v.Location.Line, v.Location.Col)
	if v.Thread >= 0 {
		s += fmt.Sprintf(", thread %d", v.Thread)
	}
	if v.Constraint != "" {
		s += ": " + v.Constraint
	}
	return s + ")"
}

// MalformedError is a witness formula that does not parse: the witness is
// malformed (rather than about another program).
type MalformedError struct{ Err *syntax.Error }

func (e *MalformedError) Error() string { return e.Err.Error() }

// formulaOutcome is the rejection for a formula (written at pos) that does
// not parse or names what the program does not have.
func formulaOutcome(err error, pos syntax.Pos, what string) *Outcome {
	fe := err.(*formulaError)
	o := rejectAt(formulaPos(pos, fe.offset), "%s: %s", what, fe.msg)
	o.Malformed = !fe.unknown
	return o
}

// formulaPos is the position in the witness file of offset off of a
// formula written at pos (quoted in YAML: one more column).
func formulaPos(pos syntax.Pos, off int) syntax.Pos {
	if !pos.IsValid() {
		return pos
	}
	return syntax.Pos{Line: pos.Line, Col: pos.Col + off}
}

// resolveViolation resolves every waypoint, or explains why one does not
// fit the program.
func resolveViolation(p *ir.Program, w *Witness) ([]*vwaypoint, *Outcome) {
	var wps []*vwaypoint
	for _, s := range w.Segments {
		for _, wp := range s.Waypoints {
			v := &vwaypoint{Waypoint: wp, index: len(wps)}
			proc, locs, why := resolveLocation(p, wp.Location)
			if why != "" {
				return nil, rejectAt(wp.Pos, "%s: %s", v.describe(), why)
			}
			v.proc, v.locs = proc, locs
			switch wp.Type {
			case Assumption:
				f, err := parseFormula(wp.Constraint, scope{p: p, proc: proc})
				if err != nil {
					return nil, formulaOutcome(err, wp.ValuePos, v.describe())
				}
				v.f = f
			case Branching:
				ok := false
				for _, l := range locs {
					for _, e := range proc.Locations[l].Out {
						if branchOf(proc, proc.Edges[e]) == wp.Constraint {
							ok = true
						}
					}
				}
				if !ok {
					return nil, rejectAt(wp.ValuePos, "%s: no branch %q there", v.describe(), wp.Constraint)
				}
			case FunctionEnter:
				if p.Proc(wp.Constraint) == nil {
					return nil, rejectAt(wp.ValuePos, "%s: the program has no function %q", v.describe(), wp.Constraint)
				}
			case Target:
				ok := false
				for _, l := range locs {
					if proc.Locations[l].Error {
						ok = true
					}
					for _, e := range proc.Locations[l].Out {
						if proc.Locations[proc.Edges[e].To].Kind == ir.FailLoc {
							ok = true
						}
					}
				}
				if !ok {
					return nil, rejectAt(wp.Pos, "%s: no error there (neither an assertion nor the label %s)", v.describe(), p.Target)
				}
			}
			wps = append(wps, v)
		}
	}
	return wps, nil
}

// vstate is a configuration of the search and the waypoints it has passed.
type vstate struct {
	c    interp.Config
	k    int
	free int // steps that passed no waypoint
}

// vqueue orders states by free steps, then by waypoints passed (most
// first).
type vqueue []vstate

func (q vqueue) Len() int { return len(q) }
func (q vqueue) Less(i, j int) bool {
	if q[i].free != q[j].free {
		return q[i].free < q[j].free
	}
	return q[i].k > q[j].k
}
func (q vqueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *vqueue) Push(x any)   { *q = append(*q, x.(vstate)) }
func (q *vqueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// ValidateViolation searches for an execution of p that follows the
// waypoints of w, in order, to the error at the target waypoint (see the
// package doc). Confirmed means one exists (an execution of the concrete
// interpreter, package interp); Rejected says which waypoint no execution
// gets past, and why.
func ValidateViolation(ctx context.Context, p *ir.Program, w *Witness, opts Options) *Outcome {
	if w.Kind != Violation {
		return &Outcome{Verdict: Rejected, Reason: "not a violation witness"}
	}
	wps, bad := resolveViolation(p, w)
	if bad != nil {
		return bad
	}
	budget := opts.MaxConfigs
	if budget <= 0 {
		budget = 1 << 20
	}
	sr := &vsearch{p: p, wps: wps, best: -1}
	inits, err := sr.initials()
	if err != nil {
		return &Outcome{Verdict: Unknown, Reason: err.Error()}
	}
	// Best first: the executions with the fewest steps that pass no
	// waypoint (a witness with a waypoint at every step is followed
	// without any), then those that have passed the most waypoints. So
	// a step that runs freely (another thread, a loop) never hides an
	// execution that follows the witness more closely.
	q := &vqueue{}
	seen := map[string]bool{}
	push := func(s vstate) {
		key := fmt.Sprintf("%d/%s", s.k, s.c.Key())
		if !seen[key] {
			seen[key] = true
			heap.Push(q, s)
		}
	}
	for _, s := range inits {
		if s.c.AtError(p) && sr.arrive(0, s.c) {
			// The program starts at the error (a target label on main's
			// first statement).
			return &Outcome{Verdict: Confirmed}
		}
		push(s)
	}
	work := 0
	for q.Len() > 0 {
		s := heap.Pop(q).(vstate)
		if work++; work > budget {
			return &Outcome{Verdict: Unknown, Work: work, Reason: fmt.Sprintf("searched %d configurations without following the witness to its end (the furthest: %d of %d waypoints)", budget, sr.best+1, len(wps))}
		}
		if work%256 == 0 && ctx.Err() != nil {
			return &Outcome{Verdict: Unknown, Work: work, Reason: "timeout"}
		}
		trs, err := interp.Successors(p, s.c)
		if err != nil {
			return &Outcome{Verdict: Unknown, Work: work, Reason: err.Error()}
		}
		for _, tr := range trs {
			f := s.c.Threads[tr.Thread]
			k, ok := sr.consume(s.k, s.c, tr.Thread, f, tr.Edge)
			if !ok {
				continue
			}
			// An execution at an error location that is not the
			// witness's target goes on: a thread that starts at a
			// labelled statement is at the error before it runs, and
			// the witness may name a later step as the target.
			if tr.Next.AtError(p) && sr.arrive(k, tr.Next) {
				return &Outcome{Verdict: Confirmed, Work: work}
			}
			free := s.free
			if k == s.k {
				free++
			}
			push(vstate{tr.Next, k, free})
		}
	}
	if sr.best < 0 {
		return &Outcome{Verdict: Rejected, Work: work, Reason: "no execution follows the witness: " + sr.why}
	}
	v := wps[min(sr.best, len(wps)-1)]
	return &Outcome{Verdict: Rejected, Work: work, Pos: v.Pos,
		Reason: fmt.Sprintf("no execution follows the witness past %s: %s", v.describe(), sr.why)}
}

// vsearch holds the waypoints and the furthest failure seen.
type vsearch struct {
	p    *ir.Program
	wps  []*vwaypoint
	best int    // the furthest waypoint at which an execution was cut
	why  string // why
}

// cut records that an execution stopped at waypoint k.
func (sr *vsearch) cut(k int, format string, args ...any) {

	if k > sr.best {
		sr.best, sr.why = k, fmt.Sprintf(format, args...)
	}
}

// evalIn evaluates an assumption in frame f of configuration c.
func evalIn(f *formula, c interp.Config, fr *interp.Frame) bool {
	return f.eval(func(a atom) bool {
		if a.ref.Global {
			return c.Globals[a.ref.Index]
		}
		return fr.Locals[a.ref.Index]
	})
}

// valuesText shows the values of the formula's variables in a frame.
func valuesText(p *ir.Program, f *formula, c interp.Config, fr *interp.Frame) string {
	var parts []string
	seen := map[string]bool{}
	for _, a := range f.atoms {
		if seen[a.name] {
			continue
		}
		seen[a.name] = true
		v := c.Globals
		if !a.ref.Global {
			v = fr.Locals
		}
		b := "0"
		if v[a.ref.Index] {
			b = "1"
		}
		parts = append(parts, a.name+"="+b)
	}
	return strings.Join(parts, " ")
}

// waypoint order within one step.
var stepOrder = map[string]int{Assumption: 0, Branching: 1, FunctionEnter: 2, Target: 3}

// consume passes the waypoints from k on that thread t's step along edge
// from frame f follows (at most one of each type, in the order assumption,
// branching, function_enter, target), and returns the next waypoint, or
// ok=false if the step contradicts one.
func (sr *vsearch) consume(k int, c interp.Config, t int, f *interp.Frame, edge int) (int, bool) {
	proc := sr.p.Procs[f.Proc]
	e := proc.Edges[edge]
	last := -1
	for k < len(sr.wps) {
		v := sr.wps[k]
		if v.Thread >= 0 && v.Thread != t || !v.at(f.Proc, f.Loc) || stepOrder[v.Type] <= last {
			return k, true
		}
		last = stepOrder[v.Type]
		switch v.Type {
		case Assumption:
			if !evalIn(v.f, c, f) {
				sr.cut(k, "%s does not hold (%s)", v.Constraint, valuesText(sr.p, v.f, c, f))
				return k, false
			}
		case Branching:
			if b := branchOf(proc, e); b != v.Constraint {
				sr.cut(k, "the execution takes branch %q", b)
				return k, false
			}
		case FunctionEnter:
			call, ok := e.Op.(*ir.Call)
			if !ok || sr.p.Procs[call.Proc].Name != v.Constraint {
				sr.cut(k, "the step enters no function %s", v.Constraint)
				return k, false
			}
		case Target:
			if proc.Locations[e.To].Kind != ir.FailLoc {
				sr.cut(k, "the assertion holds there")
				return k, false
			}
		}
		k++
	}
	return k, true
}

// arrive handles an execution that has reached an error location: it
// confirms the witness if the waypoints left are those of the arrival
// (an assumption and the target at the labelled statement) and hold.
func (sr *vsearch) arrive(k int, n interp.Config) bool {
	if k == len(sr.wps) {
		return true
	}
	for t, f := range n.Threads {
		if f == nil || !sr.p.Procs[f.Proc].Locations[f.Loc].Error {
			continue
		}
		j := k
		if v := sr.wps[j]; v.Type == Assumption && (v.Thread < 0 || v.Thread == t) && v.at(f.Proc, f.Loc) {
			if !evalIn(v.f, n, f) {
				sr.cut(j, "%s does not hold (%s)", v.Constraint, valuesText(sr.p, v.f, n, f))
				continue
			}
			j++
		}
		if j < len(sr.wps) {
			if v := sr.wps[j]; v.Type == Target && (v.Thread < 0 || v.Thread == t) && v.at(f.Proc, f.Loc) && j == len(sr.wps)-1 {
				return true
			}
		}
	}
	return false
}

// initials returns the initial configurations that the first waypoint
// allows (all of them if it is not an assumption at the start).
func (sr *vsearch) initials() ([]vstate, error) {
	p := sr.p
	ng := len(p.Globals)
	n := ng + interp.StartLocals(p)
	fixed := make([]int, n) // -1 free, 0/1 fixed by the first assumption
	for i := range fixed {
		fixed[i] = -1
	}
	var first *vwaypoint
	if len(sr.wps) > 0 && sr.wps[0].Type == Assumption {
		first = sr.wps[0]
	}
	// The literals conjoined at the top of the first assumption fix
	// values (of the start frame that holds the waypoint's function).
	base := -1
	if first != nil {
		off := ng
		for _, c := range interp.Initial(p, make([]bool, ng), make([]bool, n-ng)).Threads {
			if c != nil && c.Proc == first.proc.Index {
				base = off
				break
			}
			if c != nil {
				off += len(p.Procs[c.Proc].Locals)
			}
		}
		f := first.f
		var lits func(e ir.Expr)
		lits = func(e ir.Expr) {
			val := true
			if n, ok := e.(*ir.Not); ok {
				e, val = n.X, false
			}
			switch e := e.(type) {
			case *ir.Bin:
				if e.Op == syntax.And && val {
					lits(e.X)
					lits(e.Y)
				}
			case *ir.Var:
				a := f.atoms[e.Index]
				if a.kind != atomCur {
					return
				}
				i := a.ref.Index
				if !a.ref.Global {
					if base < 0 {
						return
					}
					i += base
				}
				b := 0
				if val {
					b = 1
				}
				if fixed[i] >= 0 && fixed[i] != b {
					fixed[i] = 2 // contradiction: no initial state
				} else {
					fixed[i] = b
				}
			}
		}
		lits(f.e)
	}
	var free []int
	for i, f := range fixed {
		if f == 2 {
			return nil, nil
		}
		if f < 0 {
			free = append(free, i)
		}
	}
	if len(free) > interp.MaxOmitted {
		return nil, fmt.Errorf("%d initial values are not fixed by the first waypoint: at most %d can be enumerated", len(free), interp.MaxOmitted)
	}
	var out []vstate
	v := make([]bool, n)
	for bits := uint64(0); bits < uint64(1)<<len(free); bits++ {
		for i, f := range fixed {
			v[i] = f == 1
		}
		for j, i := range free {
			v[i] = bits&(uint64(1)<<j) != 0
		}
		c := interp.Initial(p, v[:ng], v[ng:])
		if c.Ended() {
			continue
		}
		out = append(out, vstate{c: c})
	}
	return out, nil
}
