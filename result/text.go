package result

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Style selects how a trace is rendered as text.
type Style int

const (
	// Forward prints the steps in execution order, one per line, indented
	// by call depth, with procedure, line, statement text and values:
	//
	//	Line 6 main: h := !g  State g=1 h=0
	//	  Line 20 A: if (a1)  State g=1 a1=1 a2=0
	Forward Style = iota
	// Bebop prints the steps in reverse execution order, indented by call
	// depth, exactly as the Bebop model checker does (Figure 1 of the Bebop
	// paper):
	//
	//	Line 12 State g=1 h=0
	//	  Line 22 State g=1 a1=1 a2=0
	Bebop
)

// ParseStyle maps "forward" and "bebop" to a Style.
func ParseStyle(s string) (Style, bool) {
	switch s {
	case "forward", "":
		return Forward, true
	case "bebop":
		return Bebop, true
	}
	return Forward, false
}

// String returns "forward" or "bebop".
func (s Style) String() string {
	if s == Bebop {
		return "bebop"
	}
	return "forward"
}

// Mode selects which values a rendered trace shows.
type Mode int

const (
	// Full shows every variable in scope at every step.
	Full Mode = iota
	// Changes shows, at each step, only the values that changed since the
	// previous step of the same procedure activation (in execution order),
	// and the whole state at the first step of each activation: the first
	// step of the trace, and the first step inside a callee, which shows
	// the globals and the callee's locals (only the globals for a
	// procedure without locals). A step that changed nothing shows no
	// State.
	Changes
	// None renders no trace at all.
	None
)

// ParseMode maps "full", "changes" and "none" to a Mode.
func ParseMode(s string) (Mode, bool) {
	switch s {
	case "full", "":
		return Full, true
	case "changes":
		return Changes, true
	case "none":
		return None, true
	}
	return Full, false
}

// String returns "full", "changes" or "none".
func (m Mode) String() string {
	switch m {
	case Changes:
		return "changes"
	case None:
		return "none"
	}
	return "full"
}

// Indent is the indentation per call depth.
const Indent = "  "

// DefaultMaxIndent is the call depth past which a step is no longer
// indented further and shows its depth as a number instead: the trace of a
// deep recursion would otherwise be mostly spaces.
const DefaultMaxIndent = 32

// TraceOptions control the text rendering of a trace. The zero value
// renders Forward, Full, unnumbered, unmarked, with indentation capped at
// DefaultMaxIndent levels: the classic output.
type TraceOptions struct {
	Style Style
	Mode  Mode
	// Numbered prefixes each step with its number in execution order,
	// starting at 1 (so that Replay's "step 7" messages can be found).
	Numbered bool
	// MarkChoices prefixes the text of a step whose edge makes a
	// nondeterministic choice (Step.Choice) with "* " in the Forward style.
	MarkChoices bool
	// MaxIndent is the call depth past which indentation stops growing
	// and the depth is printed as "[depth N] " (0: DefaultMaxIndent;
	// negative: no indentation at all, every nonzero depth as a number).
	MaxIndent int
	// Globals is the number of leading values of every step that are
	// globals (len(ir.Program.Globals)). It is used only by Changes, to
	// compare globals with the previous step whatever its activation; when
	// 0, every value is treated as belonging to its activation.
	Globals int
}

func (o TraceOptions) maxIndent() int {
	if o.MaxIndent == 0 {
		return DefaultMaxIndent
	}
	return max(o.MaxIndent, 0)
}

// DisplayName returns a variable's name as the source spells it: braced
// names such as `{p==q}` (kept without their braces in the ir) get their
// braces back, plain identifiers are returned as they are.
func DisplayName(name string) string {
	if isPlainIdent(name) {
		return name
	}
	return "{" + name + "}"
}

// isPlainIdent reports whether name scans as an identifier without braces
// (letters, digits, _, $, and # or - after the first character), other
// than the constants T and F.
func isPlainIdent(name string) bool {
	if name == "" || name == "T" || name == "F" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '$'
		rest := '0' <= c && c <= '9' || c == '#' || c == '-'
		if !letter && (i == 0 || !rest) {
			return false
		}
	}
	return true
}

// ValuesText formats values as "g=1 h=0".
func ValuesText(vals []Value) string {
	var b strings.Builder
	writeValues(&b, vals, nil)
	return b.String()
}

// writeValues writes the values (those with show[i] set, or all if show is
// nil) as "g=1 h=0".
func writeValues(b *strings.Builder, vals []Value, show []bool) {
	first := true
	for i, v := range vals {
		if show != nil && !show[i] {
			continue
		}
		if !first {
			b.WriteByte(' ')
		}
		first = false
		b.WriteString(DisplayName(v.Name))
		if v.Value {
			b.WriteString("=1")
		} else {
			b.WriteString("=0")
		}
	}
}

// StepText formats one step in the given style with full values, without
// a number or a newline.
func StepText(s *Step, style Style) string {
	var b strings.Builder
	formatStep(&b, s, TraceOptions{Style: style}, nil, 0, 0)
	return b.String()
}

// formatStep writes one step: number (n > 0, padded to width), indentation
// or depth, thread, and the style's text, with the values show selects.
func formatStep(b *strings.Builder, s *Step, o TraceOptions, show []bool, n, width int) {
	if o.Numbered && n > 0 {
		num := strconv.Itoa(n)
		b.WriteString(strings.Repeat(" ", max(width-len(num), 0)))
		b.WriteString(num)
		b.WriteString(". ")
	}
	depth := max(s.Depth, 0)
	if limit := o.maxIndent(); depth > limit {
		b.WriteString(strings.Repeat(Indent, limit))
		fmt.Fprintf(b, "[depth %d] ", depth)
	} else {
		b.WriteString(strings.Repeat(Indent, depth))
	}
	if s.Switch {
		b.WriteString("<switch> ")
	}
	if s.Thread != 0 {
		fmt.Fprintf(b, "Thread %d ", s.Thread)
	}
	// A step with no variables in scope, or (in Changes mode) one that
	// changed nothing, shows no State.
	state := len(s.Values) > 0 && (show == nil || slices.Contains(show, true))
	switch o.Style {
	case Bebop:
		fmt.Fprintf(b, "Line %d", s.Line)
		if state {
			b.WriteString(" State ")
			writeValues(b, s.Values, show)
		}
	default:
		fmt.Fprintf(b, "Line %d %s: ", s.Line, s.Proc)
		if o.MarkChoices && s.Choice {
			b.WriteString("* ")
		}
		b.WriteString(s.Text)
		if state {
			b.WriteString("  State ")
			writeValues(b, s.Values, show)
		}
		if s.Note != "" {
			fmt.Fprintf(b, "  (%s)", s.Note)
		}
	}
}

// changeTracker decides, for Changes, which values of each step to show.
// It follows the activations by depth: the last values seen at each depth,
// and whether that record belongs to the current activation.
type changeTracker struct {
	globals int
	frames  []frameRecord // by depth
	last    []Value       // values of the previous step (for the globals)
}

type frameRecord struct {
	proc   string
	thread int
	vals   []Value
	valid  bool
}

// show returns the mask of values of s to print. Steps must be given in
// execution order.
func (c *changeTracker) show(s *Step) []bool {
	d := max(s.Depth, 0)
	for len(c.frames) <= d {
		c.frames = append(c.frames, frameRecord{})
	}
	// A step at depth d ends every activation deeper than d.
	for i := d + 1; i < len(c.frames); i++ {
		c.frames[i].valid = false
	}
	f := &c.frames[d]
	mask := make([]bool, len(s.Values))
	same := f.valid && f.proc == s.Proc && f.thread == s.Thread && len(f.vals) == len(s.Values)
	ng := min(c.globals, len(s.Values))
	for i, v := range s.Values {
		switch {
		case !same:
			// The first step of an activation: the whole state.
			mask[i] = true
		case i < ng && len(c.last) >= ng:
			mask[i] = c.last[i] != v
		default:
			mask[i] = f.vals[i] != v
		}
	}
	*f = frameRecord{proc: s.Proc, thread: s.Thread, vals: s.Values, valid: true}
	if ng > 0 {
		c.last = s.Values
	}
	return mask
}

// TraceWriter writes the steps of a trace as text, one line per step, as
// they come: a trace need not be built in memory to be printed. It renders
// in execution order; the Bebop style's reverse order needs the whole trace
// (WriteTrace).
type TraceWriter struct {
	w     *bufio.Writer
	o     TraceOptions
	n     int
	width int
	ch    *changeTracker
	buf   strings.Builder
}

// NewTraceWriter returns a writer of steps to w. total, if known, is the
// number of steps, used to align step numbers (0: no padding).
func NewTraceWriter(w io.Writer, o TraceOptions, total int) *TraceWriter {
	tw := &TraceWriter{w: bufio.NewWriter(w), o: o}
	if total > 0 {
		tw.width = len(strconv.Itoa(total))
	}
	if o.Mode == Changes {
		tw.ch = &changeTracker{globals: o.Globals}
	}
	return tw
}

// WriteStep writes the next step (in execution order). With Mode None it
// writes nothing.
func (tw *TraceWriter) WriteStep(s *Step) error {
	tw.n++
	if tw.o.Mode == None {
		return nil
	}
	var show []bool
	if tw.ch != nil {
		show = tw.ch.show(s)
	}
	tw.buf.Reset()
	formatStep(&tw.buf, s, tw.o, show, tw.n, tw.width)
	tw.buf.WriteByte('\n')
	_, err := tw.w.WriteString(tw.buf.String())
	return err
}

// Flush writes any buffered output.
func (tw *TraceWriter) Flush() error { return tw.w.Flush() }

// WriteTrace writes the trace as text in the given style with full values
// and no numbers: WriteTraceOptions with TraceOptions{Style: style}.
func WriteTrace(w io.Writer, t *Trace, style Style) error {
	return WriteTraceOptions(w, t, TraceOptions{Style: style})
}

// WriteTraceOptions writes the trace as text, one step per line, as o
// says. A nil trace, or Mode None, writes nothing.
func WriteTraceOptions(w io.Writer, t *Trace, o TraceOptions) error {
	if t == nil || o.Mode == None {
		return nil
	}
	if o.Style != Bebop {
		tw := NewTraceWriter(w, o, len(t.Steps))
		for i := range t.Steps {
			if err := tw.WriteStep(&t.Steps[i]); err != nil {
				return err
			}
		}
		return tw.Flush()
	}
	// Reverse order: decide what each step shows in execution order first.
	var masks [][]bool
	if o.Mode == Changes {
		ch := &changeTracker{globals: o.Globals}
		masks = make([][]bool, len(t.Steps))
		for i := range t.Steps {
			masks[i] = ch.show(&t.Steps[i])
		}
	}
	bw := bufio.NewWriter(w)
	width := len(strconv.Itoa(len(t.Steps)))
	var b strings.Builder
	for k := len(t.Steps) - 1; k >= 0; k-- {
		var show []bool
		if masks != nil {
			show = masks[k]
		}
		b.Reset()
		formatStep(&b, &t.Steps[k], o, show, k+1, width)
		b.WriteByte('\n')
		if _, err := bw.WriteString(b.String()); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// WriteText writes a result as the CLI's text output: the trace (if any) in
// the given style, the note of a cut trace, then exactly one final line,
// the result's banner ("VERIFICATION SUCCESSFUL", "VERIFICATION
// SUCCESSFUL up to 6 context switches", "VERIFICATION FAILED" or
// "VERIFICATION UNKNOWN: <reason>").
func WriteText(w io.Writer, r *Result, style Style) error {
	if err := WriteTrace(w, r.Trace, style); err != nil {
		return err
	}
	if note := r.Note(); note != "" {
		if _, err := fmt.Fprintln(w, "note: "+note); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, r.Banner())
	return err
}
