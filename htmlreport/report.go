// Package htmlreport writes the result of checking one program as a single
// self-contained HTML page: the source with line numbers, the verdict, the
// property and the statistics, the trace stepping over the source (buttons
// and keys, the current line highlighted, the call stack, threads and
// context switches, the values of the variables with the changed ones
// marked), and the control-flow automaton of each procedure drawn as SVG
// by our own layered layout (layout.go), the current step's location
// highlighted in it.
//
// The page needs no network: its CSS, its script and its drawings are
// inline. Everything taken from the program or the result goes through
// html/template, and the trace is embedded as JSON (TraceData) in a
// script element of type application/json, with <, > and & escaped.
//
// Large programs keep the page's size sane: at most Limits.Nodes locations
// are drawn in all (the procedures of the trace first, in the order the
// trace enters them, then the others in source order), no procedure larger
// than Limits.ProcNodes is drawn, and the page says which graphs it left
// out and why.
package htmlreport

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"

	"boolprog/ir"
	"boolprog/result"
)

// Page is everything the report shows about one checked file. Only Result
// is required: a run cut short before the program was read has neither
// Source nor Program, and its page shows the verdict alone.
type Page struct {
	File    string         // the file's name, as diagnostics give it
	Source  []byte         // the program text, or nil
	Program *ir.Program    // the checked program, or nil
	Result  *result.Result // the verdict, its trace and statistics
	// Checked says which errors were checked ("checked: 1 assertion,
	// label R (line 12)").
	Checked string
	// Replayed says the trace is one that interp.Replay accepted: the
	// page says so, or that it was not replayed.
	Replayed bool
	// TraceOmitted says the trace was left out on request (--trace none).
	TraceOmitted bool
	Note         string           // a remark on the verdict (e.g. a limit cut the replay)
	Warnings     []result.Message // the front end's warnings and notes
	Total        time.Duration    // the whole run's time
	Limits       Limits           // a zero field takes its value from DefaultLimits
	// Proof is what a SUCCESSFUL answer rests on (nil: the page shows
	// none).
	Proof *Proof
}

// Proof is the proof information of a SUCCESSFUL page: the certificate
// that check --witness writes (its invariants and contracts), or why
// there is none (a bounded answer is no proof).
type Proof struct {
	// Title names the certificate: "the correctness witness (4
	// invariants and contracts)".
	Title string
	// Note says where the certificate comes from, or why there is none.
	Note  string
	Items []ProofItem
	// Omitted is the number of items left out of a long certificate.
	Omitted int
}

// ProofItem is one invariant or contract of a certificate.
type ProofItem struct {
	Where string // "main 5:3", "contract of f", a tuple of thread stacks
	Line  int    // its line in the source, or 0
	Text  string // the formula: "g & !h", "requires T; ensures \result"
}

// Limits bound the drawing of the control-flow graphs.
type Limits struct {
	Nodes     int // locations drawn in all procedures together
	ProcNodes int // the largest procedure drawn
}

// DefaultLimits keep the page of the Bebop template T(400) (5,206
// locations, a trace of 13,204 steps) at 2.4 MB; a procedure of 400
// locations lays out in a tenth of a second (one of 1,060 takes 0.4 s and
// draws 4,600 x 9,800 pixels, too large to read).
var DefaultLimits = Limits{Nodes: 1500, ProcNodes: 400}

//go:embed page.tmpl
var pageTmpl string

//go:embed page.css
var pageCSS string

//go:embed page.js
var pageJS string

var tmpl = template.Must(template.New("page").Parse(pageTmpl))

// Write writes the page of pg to w. It fails only if pg has no Result or
// w fails.
func Write(w io.Writer, pg *Page) error {
	d, err := build(pg)
	if err != nil {
		return err
	}
	return tmpl.Execute(w, d)
}

// pageData is what the template shows.
type pageData struct {
	File, Banner, VerdictClass, Verdict string
	Proof                               *Proof
	Read                                bool // the program was read: its graphs have a pane
	Engine                              string
	Bound                               string
	Property                            string
	Checked                             string
	Notes                               []string
	Warnings                            []string
	Lines                               []srcLine
	Graphs                              []*procGraph
	GraphNotes                          []string
	Stats                               [][2]string
	HasTrace                            bool
	TraceNote                           string
	Steps                               int
	Threads                             int
	Switches                            int
	Data                                template.JS
	CSS                                 template.CSS
	JS                                  template.JS
}

// srcLine is one line of the source.
type srcLine struct {
	N     int
	Text  string
	Trace bool // some step of the trace is on this line
}

// procGraph is one procedure's drawing.
type procGraph struct {
	Index     int
	Name, Sig string
	G         *Graph
	First     bool   // shown before any step is
	seenLoc   []bool // the locations the trace visits
	seenEdge  []bool // the edges it takes
}

// Seen reports whether the trace visits location loc.
func (g *procGraph) Seen(loc int) bool { return loc < len(g.seenLoc) && g.seenLoc[loc] }

// Taken reports whether the trace takes edge e.
func (g *procGraph) Taken(e int) bool { return e < len(g.seenEdge) && g.seenEdge[e] }

func build(pg *Page) (*pageData, error) {
	res := pg.Result
	if res == nil {
		return nil, fmt.Errorf("htmlreport: no result")
	}
	lim := pg.Limits
	if lim.Nodes <= 0 {
		lim.Nodes = DefaultLimits.Nodes
	}
	if lim.ProcNodes <= 0 {
		lim.ProcNodes = DefaultLimits.ProcNodes
	}
	d := &pageData{
		File:    pg.File,
		Banner:  res.Banner(),
		Engine:  res.Engine,
		Checked: pg.Checked,
		CSS:     template.CSS(pageCSS),
		JS:      template.JS(pageJS),
	}
	switch res.Verdict {
	case result.Unsafe:
		d.Verdict, d.VerdictClass = "FAILED", "failed"
		d.Bound = res.BoundLine() // as the text says it
	case result.Safe:
		d.Verdict, d.VerdictClass = "SUCCESSFUL", "successful"
		if res.Bound.Kind != result.Unbounded {
			d.Bound = "up to " + res.Bound.String() + ": a bounded answer, not a proof for every execution"
		}
		d.Proof = pg.Proof
	default:
		d.Verdict, d.VerdictClass = "UNKNOWN", "unknown"
	}
	if pr := res.Property; pr != nil {
		d.Property = propertyText(pr)
	}
	if pg.Note != "" {
		d.Notes = append(d.Notes, pg.Note)
	}
	if n := res.Note(); n != "" && !strings.HasPrefix(pg.Note, n) {
		d.Notes = append(d.Notes, n)
	}
	for _, m := range pg.Warnings {
		d.Warnings = append(d.Warnings, messageText(m))
	}
	d.Stats = statsRows(res, pg.Total)

	tr := res.Trace
	traceShown := res.Verdict == result.Unsafe && !res.TraceCut && tr != nil && len(tr.Steps) > 0 && !pg.TraceOmitted && pg.Program != nil
	switch {
	case traceShown && pg.Replayed:
		d.TraceNote = "The concrete interpreter replayed this trace: it is a real execution."
	case traceShown:
		d.TraceNote = "This trace was not replayed by the concrete interpreter (--no-replay or a limit)."
	case res.Verdict == result.Unsafe && pg.TraceOmitted:
		d.TraceNote = "The trace was left out (--trace none)."
	case res.Verdict == result.Unsafe:
		d.TraceNote = "No trace to show (see the note above)."
	default:
		d.TraceNote = "No trace: the verdict is " + d.Verdict + "."
	}
	var data *TraceData
	if traceShown {
		data = NewTraceData(pg.Program, tr)
		d.HasTrace = true
		d.Steps = len(tr.Steps)
		d.Threads, d.Switches = threadCounts(tr)
	}
	onTrace := map[int]bool{}
	if data != nil {
		for _, s := range tr.Steps {
			onTrace[s.Line] = true
		}
	}
	if pg.Source != nil {
		text := strings.ReplaceAll(string(pg.Source), "\r\n", "\n")
		text = strings.TrimSuffix(text, "\n")
		for i, l := range strings.Split(text, "\n") {
			d.Lines = append(d.Lines, srcLine{N: i + 1, Text: l, Trace: onTrace[i+1]})
		}
	}
	if pg.Program != nil {
		d.Read = true
		d.Graphs, d.GraphNotes = graphs(pg.Program, tr, traceShown, lim)
	}
	if data == nil {
		data = &TraceData{}
	}
	b, err := json.Marshal(data) // escapes <, > and &: safe inside <script>
	if err != nil {
		return nil, err
	}
	d.Data = template.JS(b)
	return d, nil
}

func messageText(m result.Message) string {
	switch {
	case m.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", m.File, m.Line, m.Col, m.Message)
	case m.File != "":
		return m.File + ": " + m.Message
	}
	return m.Message
}

func statsRows(res *result.Result, total time.Duration) [][2]string {
	var rows [][2]string
	add := func(k, v string) { rows = append(rows, [2]string{k, v}) }
	add("engine", res.Engine)
	if total > 0 {
		add("time", result.RoundDuration(total).String())
	}
	st := &res.Stats
	for _, name := range st.PhaseNames() {
		add("time "+name, result.RoundDuration(st.Phases[name]).String())
	}
	add("states", fmt.Sprint(st.States))
	if res.Trace != nil {
		add("trace steps", fmt.Sprint(res.Trace.Len()))
	}
	for _, name := range st.CounterNames() {
		add(name, fmt.Sprint(st.Counters[name]))
	}
	return rows
}

func threadCounts(tr *result.Trace) (threads, switches int) {
	seen := map[int]bool{}
	for _, s := range tr.Steps {
		seen[s.Thread] = true
	}
	return len(seen), tr.Switches()
}

// graphs lays out the procedures within the limits: those of the trace
// first, in the order the trace enters them, then the rest in source
// order. It returns the drawings (in source order) and the notes on what
// was left out.
func graphs(p *ir.Program, tr *result.Trace, withTrace bool, lim Limits) ([]*procGraph, []string) {
	order := make([]int, 0, len(p.Procs))
	taken := make([]bool, len(p.Procs))
	if withTrace {
		for _, s := range tr.Steps {
			if pr := p.Proc(s.Proc); pr != nil && !taken[pr.Index] {
				taken[pr.Index] = true
				order = append(order, pr.Index)
			}
		}
	}
	if p.Main >= 0 && !taken[p.Main] {
		taken[p.Main] = true
		order = append(order, p.Main)
	}
	for i := range p.Procs {
		if !taken[i] {
			order = append(order, i)
		}
	}
	drawn := make([]bool, len(p.Procs))
	budget := lim.Nodes
	var tooBig, overBudget []string
	total := 0
	for _, i := range order {
		n := len(p.Procs[i].Locations)
		total += n
		switch {
		case n > lim.ProcNodes:
			tooBig = append(tooBig, fmt.Sprintf("%s (%d)", p.Procs[i].Name, n))
		case n > budget:
			overBudget = append(overBudget, p.Procs[i].Name)
		default:
			drawn[i] = true
			budget -= n
		}
	}
	var out []*procGraph
	for i, pr := range p.Procs {
		if drawn[i] {
			out = append(out, &procGraph{Index: i, Name: pr.Name, Sig: signature(pr), G: Layout(p, pr)})
		}
	}
	if withTrace {
		byProc := map[int]*procGraph{}
		for _, g := range out {
			g.seenLoc, g.seenEdge = make([]bool, len(p.Procs[g.Index].Locations)), make([]bool, len(p.Procs[g.Index].Edges))
			byProc[g.Index] = g
		}
		for _, s := range tr.Steps {
			pr := p.Proc(s.Proc)
			if pr == nil || byProc[pr.Index] == nil {
				continue
			}
			g := byProc[pr.Index]
			if s.Loc >= 0 && s.Loc < len(g.seenLoc) {
				g.seenLoc[s.Loc] = true
			}
			if s.Edge >= 0 && s.Edge < len(g.seenEdge) {
				g.seenEdge[s.Edge] = true
				g.seenLoc[pr.Edges[s.Edge].To] = true
			}
		}
	}
	if len(out) > 0 {
		first := out[0]
		for _, g := range out {
			if g.Index == order[0] {
				first = g
			}
		}
		first.First = true
	}
	var notes []string
	if len(tooBig) > 0 {
		notes = append(notes, fmt.Sprintf("Not drawn, larger than %d locations: %s.", lim.ProcNodes, list(tooBig)))
	}
	if len(overBudget) > 0 {
		notes = append(notes, fmt.Sprintf("Not drawn: %d of the %d procedures (%d locations in all; the page draws at most %d, the trace's procedures first): %s. `boolprog graph` writes every graph as DOT.",
			len(overBudget), len(p.Procs), total, lim.Nodes, list(overBudget)))
	}
	return out, notes
}

// list joins names, eliding the middle of a long list.
func list(names []string) string {
	if len(names) > 12 {
		return strings.Join(names[:8], ", ") + fmt.Sprintf(", … (%d more) …, ", len(names)-10) + strings.Join(names[len(names)-2:], ", ")
	}
	return strings.Join(names, ", ")
}

// signature formats "bool<2> f(a, b)".
func signature(proc *ir.Proc) string {
	t := "void"
	switch proc.Returns {
	case 0:
	case 1:
		t = "bool"
	default:
		t = fmt.Sprintf("bool<%d>", proc.Returns)
	}
	params := make([]string, proc.Params)
	for i := range params {
		params[i] = ir.IdentText(proc.Locals[i])
	}
	return t + " " + ir.IdentText(proc.Name) + "(" + strings.Join(params, ", ") + ")"
}

// TraceData is the trace as the page's script reads it (the JSON in the
// element with id "trace-data"): compact, with names and texts in tables.
type TraceData struct {
	Procs []string   `json:"procs"` // procedure names, by index in the program
	Names []string   `json:"names"` // variable names
	Shown []string   `json:"shown"` // the names as the source spells them ({a<b} for a<b)
	Texts []string   `json:"texts"` // statement texts and notes
	Steps []StepData `json:"steps"`
	index map[string]int
}

// StepData is one step of the trace.
type StepData struct {
	Proc    int   `json:"p"`           // procedure index (-1: not in the program)
	Loc     int   `json:"l"`           // location id
	Edge    int   `json:"e"`           // edge id, or result.NoEdge
	Line    int   `json:"n"`           // source line
	Col     int   `json:"c"`           // source column
	Text    int   `json:"t"`           // statement text (index into Texts)
	Depth   int   `json:"d,omitempty"` // call depth
	Thread  int   `json:"h,omitempty"` // thread
	Switch  bool  `json:"s,omitempty"` // a context switch precedes the step
	Choice  bool  `json:"x,omitempty"` // the step makes a nondeterministic choice
	Note    int   `json:"o,omitempty"` // 1 + index into Texts of the engine's note, or 0
	Caller  int   `json:"u"`           // the step that made the call this step runs in, or -1
	Values  []int `json:"v"`           // 4*name + 2*changed + value, in the step's order
	Globals int   `json:"g,omitempty"` // how many of Values are globals (they come first)
}

// NewTraceData encodes tr, a trace of p. A value is marked changed when it
// differs from the same variable's value at the previous step (for a
// global) or at the previous step of the same activation (for a local);
// the values of a fresh activation are not marked.
func NewTraceData(p *ir.Program, tr *result.Trace) *TraceData {
	d := &TraceData{index: map[string]int{}}
	for _, pr := range p.Procs {
		d.Procs = append(d.Procs, pr.Name)
	}
	names := map[string]int{}
	name := func(s string) int {
		i, ok := names[s]
		if !ok {
			i = len(d.Names)
			names[s] = i
			d.Names = append(d.Names, s)
			d.Shown = append(d.Shown, result.DisplayName(s))
		}
		return i
	}
	// Per thread, the last step at each depth: the caller of a step at
	// depth k is the last step at depth k-1; the previous step of the
	// same activation is the last at depth k, if no call since returned
	// to a shallower depth and re-entered.
	type frame struct {
		step  int
		valid bool
	}
	frames := map[int][]frame{}
	lastGlobals := map[string]bool{}
	for i := range tr.Steps {
		s := &tr.Steps[i]
		pi := -1
		var proc *ir.Proc
		if proc = p.Proc(s.Proc); proc != nil {
			pi = proc.Index
		}
		sd := StepData{Proc: pi, Loc: s.Loc, Edge: s.Edge, Line: s.Line, Col: s.Col, Text: d.text(s.Text),
			Depth: s.Depth, Thread: s.Thread, Switch: s.Switch, Choice: s.Choice, Caller: -1}
		if s.Note != "" {
			sd.Note = 1 + d.text(s.Note)
		}
		fs := frames[s.Thread]
		dep := max(s.Depth, 0)
		for len(fs) <= dep {
			fs = append(fs, frame{step: -1})
		}
		if dep > 0 {
			sd.Caller = fs[dep-1].step
		}
		prev := -1
		if f := fs[dep]; f.valid && tr.Steps[f.step].Proc == s.Proc {
			prev = f.step
		}
		for k := dep + 1; k < len(fs); k++ {
			fs[k].valid = false
		}
		fs[dep] = frame{step: i, valid: true}
		frames[s.Thread] = fs

		ng := globalCount(p, s.Values)
		sd.Globals = ng
		for k, v := range s.Values {
			changed := false
			if k < ng {
				old, ok := lastGlobals[v.Name]
				changed = ok && old != v.Value
			} else if prev >= 0 {
				old, ok := localValue(p, &tr.Steps[prev], v.Name)
				changed = ok && old != v.Value
			}
			code := 4 * name(v.Name)
			if changed {
				code += 2
			}
			if v.Value {
				code++
			}
			sd.Values = append(sd.Values, code)
		}
		for _, v := range s.Values[:ng] {
			lastGlobals[v.Name] = v.Value
		}
		d.Steps = append(d.Steps, sd)
	}
	return d
}

func (d *TraceData) text(s string) int {
	i, ok := d.index[s]
	if !ok {
		i = len(d.Texts)
		d.index[s] = i
		d.Texts = append(d.Texts, s)
	}
	return i
}

// globalCount returns how many of a step's values are globals: the values
// list the globals first, in order, each perhaps omitted.
func globalCount(p *ir.Program, vals []result.Value) int {
	i := 0
	for _, g := range p.Globals {
		if i < len(vals) && vals[i].Name == g {
			i++
		}
	}
	return i
}

// localValue returns the value of the local name at step s.
func localValue(p *ir.Program, s *result.Step, name string) (bool, bool) {
	ng := globalCount(p, s.Values)
	for _, v := range s.Values[ng:] {
		if v.Name == name {
			return v.Value, true
		}
	}
	return false, false
}

// Decode returns the steps that d encodes, as the engine gave them (the
// check that the page shows the trace that was replayed).
func (d *TraceData) Decode() []result.Step {
	out := make([]result.Step, 0, len(d.Steps))
	for _, s := range d.Steps {
		rs := result.Step{Loc: s.Loc, Edge: s.Edge, Line: s.Line, Col: s.Col, Text: d.Texts[s.Text],
			Depth: s.Depth, Thread: s.Thread, Switch: s.Switch, Choice: s.Choice, Values: []result.Value{}}
		if s.Proc >= 0 {
			rs.Proc = d.Procs[s.Proc]
		}
		if s.Note > 0 {
			rs.Note = d.Texts[s.Note-1]
		}
		for _, v := range s.Values {
			rs.Values = append(rs.Values, result.Value{Name: d.Names[v/4], Value: v%2 == 1})
		}
		out = append(out, rs)
	}
	return out
}

// Extract returns the trace data embedded in a page written by Write.
func Extract(page []byte) (*TraceData, error) {
	const open = `<script type="application/json" id="trace-data">`
	i := bytes.Index(page, []byte(open))
	if i < 0 {
		return nil, fmt.Errorf("htmlreport: no trace data in the page")
	}
	rest := page[i+len(open):]
	j := bytes.Index(rest, []byte("</script>"))
	if j < 0 {
		return nil, fmt.Errorf("htmlreport: trace data not closed")
	}
	var d TraceData
	if err := json.Unmarshal(rest[:j], &d); err != nil {
		return nil, fmt.Errorf("htmlreport: trace data: %v", err)
	}
	return &d, nil
}

// propertyText says which property the error violates, as the text
// output's error line does: an assertion, the target label, or an observer
// automaton's property (its name, message, state and transition), and
// where.
func propertyText(pr *result.Property) string {
	at := fmt.Sprintf("at line %d, column %d (%s)", pr.Line, pr.Col, pr.Proc)
	switch {
	case pr.Kind == result.PropertyLabel:
		return fmt.Sprintf("label %s reached %s", pr.Label, at)
	case pr.Kind == result.PropertyObserver && pr.Observer != nil:
		v := pr.Observer
		return fmt.Sprintf("property %s violated: %s (observer %s in state %s, at %s; %s:%d) %s",
			v.Property, v.Message, v.Property, v.State, pr.Text, v.Spec, v.SpecLine, at)
	}
	return fmt.Sprintf("assertion %s fails %s", pr.Text, at)
}
