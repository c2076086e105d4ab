package batch

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"boolprog/result"
)

// Verdict is a task's outcome: the checker's answer in lower case, or in
// upper case (BenchExec's words) the reason there was none.
type Verdict string

// The outcomes of a task.
const (
	Safe        Verdict = "safe"          // VERIFICATION SUCCESSFUL (possibly up to a bound)
	Unsafe      Verdict = "unsafe"        // VERIFICATION FAILED, trace replayed by the child
	Unknown     Verdict = "unknown"       // VERIFICATION UNKNOWN: the checker's own reason
	Timeout     Verdict = "TIMEOUT"       // the time limit ended the run
	OutOfMemory Verdict = "OUT OF MEMORY" // the memory limit, or the runtime's allocator, ended it
	Crash       Verdict = "CRASH"         // the child ended without a report (panic, signal)
	Error       Verdict = "ERROR"         // bad input, a missing program, a bad flag: no check ran
)

// Verdicts lists every outcome in the summary's order.
var Verdicts = []Verdict{Safe, Unsafe, Unknown, Timeout, OutOfMemory, Crash, Error}

// Answered reports whether v is an answer of the checker (safe or unsafe).
func (v Verdict) Answered() bool { return v == Safe || v == Unsafe }

// Score judges an answer against the expected verdict.
type Score string

// The scores. A task without an expected verdict, or without an answer,
// has no score.
const (
	NoScore Score = ""
	Correct Score = "correct"
	Wrong   Score = "wrong"
	// Bounded is a SUCCESSFUL answer up to a bound where a violation is
	// expected: not wrong (no error exists within the bound, which is all
	// the answer claims), not the expected answer either.
	Bounded Score = "bounded"
)

// scoreOf scores verdict v with bound b against expectation e.
func scoreOf(v Verdict, b result.Bound, e Expect) Score {
	if e == ExpectNone || !v.Answered() {
		return NoScore
	}
	switch {
	case string(v) == string(e):
		return Correct
	case v == Safe && b.Kind != result.Unbounded:
		return Bounded
	}
	return Wrong
}

// Record is the outcome of one task: one JSON line of the batch's output.
type Record struct {
	// N numbers the tasks from 1 in the order they were given.
	N      int    `json:"n"`
	File   string `json:"file"`
	Source string `json:"source,omitempty"` // the task list line, or the argument, that gave the task
	Target string `json:"target,omitempty"`
	// Engine is the engine that answered (the child's report), or the one
	// asked for when there was no report.
	Engine   string       `json:"engine,omitempty"`
	Verdict  Verdict      `json:"verdict"`
	Bound    result.Bound `json:"bound"`
	Reason   string       `json:"reason,omitempty"`
	Expected Expect       `json:"expected,omitempty"`
	Score    Score        `json:"score,omitempty"`
	// Wall and CPU are the child's elapsed and CPU (user + system) time
	// in seconds; Memory its peak resident set size in bytes.
	Wall   float64 `json:"wall_s"`
	CPU    float64 `json:"cpu_s"`
	Memory int64   `json:"mem_bytes"`
	// Exit is the child's exit code (-1 when a signal ended it, named by
	// Signal).
	Exit   int    `json:"exit"`
	Signal string `json:"signal,omitempty"`
	// Stderr is the end of the child's standard error, for a CRASH or an
	// ERROR without a report.
	Stderr string `json:"stderr,omitempty"`
}

// WriteJSON writes r as one line of JSON, without HTML escaping.
func (r *Record) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// killReason is why the runner ended a child itself.
type killReason int

const (
	notKilled killReason = iota
	killedTime
	killedMemory
)

// childRun is what one child process left behind.
type childRun struct {
	stdout          []byte
	stdoutTruncated bool
	stderr          string // the tail
	exit            int    // -1: a signal
	signal          string
	killed          killReason
	interrupted     bool // the batch was interrupted while the child ran
	peak            int64
	wall, cpu       time.Duration
	timeout, grace  time.Duration
	memLimit        int64
}

// classify fills the verdict, reason, bound, engine and target of r from
// what its child left behind.
func (r *Record) classify(c *childRun) {
	r.Wall, r.CPU, r.Memory = seconds(c.wall), seconds(c.cpu), c.peak
	r.Exit, r.Signal = c.exit, c.signal
	rep := parseReport(c.stdout)
	if rep != nil {
		if rep.Engine != "" {
			r.Engine = rep.Engine
		}
		if rep.Target != "" {
			r.Target = rep.Target
		}
	}
	switch {
	case c.killed == killedMemory:
		r.Verdict = OutOfMemory
		r.Reason = fmt.Sprintf("memory limit %s exceeded (resident %s): killed", FormatBytes(c.memLimit), FormatBytes(c.peak))
	case c.killed == killedTime && (rep == nil || rep.Verdict == nil):
		r.Verdict = Timeout
		r.Reason = fmt.Sprintf("no answer %v after the time limit (%v): killed", c.grace, c.timeout)
	case rep != nil && rep.Verdict != nil:
		r.Bound, r.Reason = rep.Bound, rep.Reason
		switch *rep.Verdict {
		case result.Safe:
			r.Verdict = Safe
		case result.Unsafe:
			r.Verdict = Unsafe
		default:
			r.Verdict = Unknown
			if strings.HasPrefix(rep.Reason, "timeout") {
				r.Verdict = Timeout
			}
		}
	case rep != nil && len(rep.Errors) > 0:
		r.Verdict = Error
		var msgs []string
		for _, m := range rep.Errors {
			msgs = append(msgs, messageText(m))
		}
		r.Reason = strings.Join(msgs, "; ")
	case outOfMemoryText(c.stderr):
		r.Verdict = OutOfMemory
		r.Reason = "the Go runtime ran out of memory"
		r.Stderr = c.stderr
	case c.stdoutTruncated:
		r.Verdict = Error
		r.Reason = fmt.Sprintf("the report was longer than %s: not read", FormatBytes(maxReport))
	default:
		r.Verdict = Crash
		r.Reason = crashReason(c)
		r.Stderr = c.stderr
	}
	if c.interrupted && !r.Verdict.Answered() && r.Verdict != Error {
		r.Verdict, r.Reason = Unknown, "interrupted"
	}
	r.Score = scoreOf(r.Verdict, r.Bound, r.Expected)
}

// parseReport decodes check's JSON report, or returns nil.
func parseReport(b []byte) *result.Report {
	if len(b) == 0 {
		return nil
	}
	rep, err := result.ReadReport(strings.NewReader(string(b)))
	if err != nil || rep.Schema != result.ReportSchemaID {
		return nil
	}
	return rep
}

func messageText(m result.Message) string {
	switch {
	case m.File != "" && m.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", m.File, m.Line, m.Col, m.Message)
	case m.File != "" && !strings.HasPrefix(m.Message, m.File):
		return m.File + ": " + m.Message
	}
	return m.Message
}

// outOfMemoryText reports whether a child's standard error says that the
// Go runtime could not get memory.
func outOfMemoryText(stderr string) bool {
	return strings.Contains(stderr, "fatal error: runtime: out of memory") ||
		strings.Contains(stderr, "runtime: cannot allocate memory")
}

// crashReason summarises a crash: the exit status and the panic or fatal
// error line, if the standard error has one.
func crashReason(c *childRun) string {
	why := fmt.Sprintf("exit status %d without a report", c.exit)
	if c.exit < 0 {
		why = "killed by signal " + c.signal
	}
	for _, line := range strings.Split(c.stderr, "\n") {
		if strings.HasPrefix(line, "panic: ") || strings.HasPrefix(line, "fatal error: ") {
			return why + ": " + line
		}
	}
	return why
}

// seconds rounds d to milliseconds, in seconds.
func seconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond)) / float64(time.Second)
}

// FormatBytes writes a size as 512B, 1.5KiB, 12.0MiB or 1.02GiB.
func FormatBytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%dB", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1fKiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1fMiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.2fGiB", float64(n)/(1<<30))
}
