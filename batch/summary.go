package batch

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"boolprog/result"
)

// Summary tabulates the records of a batch.
type Summary struct {
	// Records are the records of the tasks that ran, in the tasks' order.
	Records []*Record
	// Total is the number of tasks given: more than len(Records) when the
	// batch was interrupted.
	Total int
	// Jobs is the number of tasks run at once, Elapsed the batch's time.
	Jobs    int
	Elapsed time.Duration
	// Interrupted says that the batch was stopped before its end.
	Interrupted bool
}

// Wrong returns the records with a wrong answer.
func (s *Summary) Wrong() []*Record {
	var out []*Record
	for _, r := range s.Records {
		if r.Score == Wrong {
			out = append(out, r)
		}
	}
	return out
}

// Errors returns the records of the tasks that ended ERROR: bad input, a
// missing program, a bad flag.
func (s *Summary) Errors() []*Record {
	var out []*Record
	for _, r := range s.Records {
		if r.Verdict == Error {
			out = append(out, r)
		}
	}
	return out
}

// Write writes the summary: the wrong answers first and loudly, then the
// tasks without an answer with their reasons, then the table of verdicts
// with their scores, the table of expected against actual verdicts, and
// the totals of time and the peak memory.
func (s *Summary) Write(w io.Writer) error {
	var b strings.Builder
	if wrong := s.Wrong(); len(wrong) > 0 {
		fmt.Fprintf(&b, "!!! %d WRONG ANSWER%s !!!\n", len(wrong), strings.ToUpper(plural(len(wrong))))
		for _, r := range wrong {
			fmt.Fprintf(&b, "  WRONG  %s: expected %s, got %s%s  (%s, %.2fs)%s\n", r.File, r.Expected, r.Verdict, boundText(r), r.Engine, r.Wall, sourceText(r))
		}
		b.WriteString("\n")
	}
	var unanswered []*Record
	for _, r := range s.Records {
		if !r.Verdict.Answered() {
			unanswered = append(unanswered, r)
		}
	}
	if len(unanswered) > 0 {
		b.WriteString("without an answer:\n")
		for _, r := range unanswered {
			what := r.File + ": " + r.Reason
			if strings.HasPrefix(r.Reason, r.File+":") {
				what = r.Reason // an input error at file:line:col
			}
			fmt.Fprintf(&b, "  %-13s  %s%s\n", r.Verdict, what, sourceText(r))
		}
		b.WriteString("\n")
	}

	fmt.Fprintf(&b, "boolprog batch: %d task%s", s.Total, plural(s.Total))
	if s.Interrupted {
		fmt.Fprintf(&b, ", INTERRUPTED after %d", len(s.Records))
	}
	fmt.Fprintf(&b, ", %d job%s, elapsed %v\n\n", s.Jobs, plural(s.Jobs), s.Elapsed.Round(time.Millisecond))

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "verdict       \ttasks\tcorrect\twrong\tbounded\tno expectation\twall s\tcpu s\t\n")
	byVerdict := map[Verdict][]*Record{}
	for _, r := range s.Records {
		byVerdict[r.Verdict] = append(byVerdict[r.Verdict], r)
	}
	var wall, cpu float64
	for _, v := range Verdicts {
		rs := byVerdict[v]
		n := map[Score]int{}
		var vw, vc float64
		for _, r := range rs {
			n[r.Score]++
			vw += r.Wall
			vc += r.CPU
		}
		wall, cpu = wall+vw, cpu+vc
		noExp := 0
		for _, r := range rs {
			if r.Expected == ExpectNone {
				noExp++
			}
		}
		if !v.Answered() {
			fmt.Fprintf(tw, "%-14s\t%d\t\t\t\t%d\t%.2f\t%.2f\t\n", v, len(rs), noExp, vw, vc)
			continue
		}
		fmt.Fprintf(tw, "%-14s\t%d\t%d\t%d\t%d\t%d\t%.2f\t%.2f\t\n", v, len(rs), n[Correct], n[Wrong], n[Bounded], noExp, vw, vc)
	}
	fmt.Fprintf(tw, "total         \t%d\t\t\t\t\t%.2f\t%.2f\t\n", len(s.Records), wall, cpu)
	tw.Flush()
	b.WriteString("\n")

	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "expected \\ got")
	for _, v := range Verdicts {
		fmt.Fprintf(tw, "\t%s", v)
	}
	fmt.Fprint(tw, "\t\n")
	for _, e := range []Expect{ExpectSafe, ExpectUnsafe, ExpectNone} {
		name := string(e)
		if e == ExpectNone {
			name = "none"
		}
		fmt.Fprintf(tw, "%-14s", name)
		for _, v := range Verdicts {
			n := 0
			for _, r := range byVerdict[v] {
				if r.Expected == e {
					n++
				}
			}
			fmt.Fprintf(tw, "\t%d", n)
		}
		fmt.Fprint(tw, "\t\n")
	}
	tw.Flush()
	b.WriteString("\n")

	var peak *Record
	for _, r := range s.Records {
		if peak == nil || r.Memory > peak.Memory {
			peak = r
		}
	}
	fmt.Fprintf(&b, "time: wall %.2fs, cpu %.2fs (sums over the tasks)", wall, cpu)
	if peak != nil {
		fmt.Fprintf(&b, "; peak memory %s (%s)", FormatBytes(peak.Memory), peak.File)
	}
	b.WriteString("\n")
	n := map[Score]int{}
	for _, r := range s.Records {
		n[r.Score]++
	}
	fmt.Fprintf(&b, "result: %d correct, %d wrong, %d bounded, %d without an answer, %d answered without an expectation\n",
		n[Correct], n[Wrong], n[Bounded], len(unanswered), n[NoScore]-len(unanswered))
	_, err := io.WriteString(w, b.String())
	return err
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func boundText(r *Record) string {
	if r.Bound.Kind == result.Unbounded {
		return ""
	}
	return " up to " + r.Bound.String()
}

func sourceText(r *Record) string {
	if r.Source == "" || strings.HasPrefix(r.File, r.Source) {
		return "" // a file named alone, or found in a directory named
	}
	return "  [" + r.Source + "]"
}
