package result

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Style selects how WriteTrace renders a trace as text.
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

// Indent is the indentation per call depth used by WriteTrace.
const Indent = "  "

// ValuesText formats values as "g=1 h=0".
func ValuesText(vals []Value) string {
	var b strings.Builder
	for i, v := range vals {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(v.Name)
		if v.Value {
			b.WriteString("=1")
		} else {
			b.WriteString("=0")
		}
	}
	return b.String()
}

// StepText formats one step in the given style, without a newline.
func StepText(s *Step, style Style) string {
	var b strings.Builder
	b.WriteString(strings.Repeat(Indent, max(s.Depth, 0)))
	if s.Thread != 0 {
		fmt.Fprintf(&b, "Thread %d ", s.Thread)
	}
	switch style {
	case Bebop:
		fmt.Fprintf(&b, "Line %d State %s", s.Line, ValuesText(s.Values))
	default:
		fmt.Fprintf(&b, "Line %d %s: %s  State %s", s.Line, s.Proc, s.Text, ValuesText(s.Values))
		if s.Note != "" {
			fmt.Fprintf(&b, "  (%s)", s.Note)
		}
	}
	return b.String()
}

// WriteTrace writes the trace as text, one step per line, in the given
// style. A nil trace writes nothing.
func WriteTrace(w io.Writer, t *Trace, style Style) error {
	if t == nil {
		return nil
	}
	bw := bufio.NewWriter(w)
	n := len(t.Steps)
	for i := range t.Steps {
		k := i
		if style == Bebop {
			k = n - 1 - i
		}
		bw.WriteString(StepText(&t.Steps[k], style))
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// WriteText writes a result as the CLI's text output: the trace (if any) in
// the given style, then exactly one final line, the verdict's banner
// ("VERIFICATION SUCCESSFUL", "VERIFICATION FAILED" or
// "VERIFICATION UNKNOWN: <reason>").
func WriteText(w io.Writer, r *Result, style Style) error {
	if err := WriteTrace(w, r.Trace, style); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, r.Banner())
	return err
}
