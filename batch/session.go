package batch

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"
)

// Exit codes of a finished batch, beyond check's (README "Exit codes").
const (
	// ExitWrong: an answer contradicts its expected verdict.
	ExitWrong = 3
	// ExitTaskError: no answer is wrong but a task ended ERROR (bad
	// input, a missing program, a bad flag): a CI run must not pass on a
	// task that was never checked.
	ExitTaskError = 4
)

// ExitCode is a finished batch's exit code, local or on Slurm: a wrong
// answer before a task that ended ERROR before success (0).
func (s *Summary) ExitCode() int {
	switch {
	case len(s.Wrong()) > 0:
		return ExitWrong
	case len(s.Errors()) > 0:
		return ExitTaskError
	}
	return 0
}

// Output is where a batch writes as its tasks end: each record as a JSON
// line on Lines, and at the end the summary on Summary, after a blank
// line unless Quiet.
type Output struct {
	Lines, Summary io.Writer
	Quiet          bool
}

// summarize writes the summary of the records.
func (o Output) summarize(ctx context.Context, recs []*Record, total, jobs int, start time.Time) *Summary {
	sum := &Summary{Records: recs, Total: total, Jobs: jobs, Elapsed: time.Since(start), Interrupted: ctx.Err() != nil}
	if !o.Quiet {
		fmt.Fprintln(o.Summary)
	}
	sum.Write(o.Summary)
	return sum
}

// RunAll runs the tasks (Run), writes their records and then their
// summary on out, and returns the summary with Run's error. A batch that
// ctx ended is summarised as interrupted.
func (r *Runner) RunAll(ctx context.Context, tasks []Task, out Output) (*Summary, error) {
	start := time.Now()
	recs, err := r.Run(ctx, tasks, func(rec *Record) error { return rec.WriteJSON(out.Lines) })
	return out.summarize(ctx, recs, len(tasks), r.Jobs, start), err
}

// WaitAll waits for the Slurm batch (Wait), writes its records and then
// its summary on out, with a line on the tasks Slurm did not run to their
// end, and returns the summary with Wait's error. Without a summary (the
// batch could not be read) it returns nil and the error.
func (s *Slurm) WaitAll(ctx context.Context, out Output) (*Summary, error) {
	start := time.Now()
	res, err := s.Wait(ctx, func(rec *Record) error { return rec.WriteJSON(out.Lines) })
	if res == nil {
		return nil, err
	}
	sum := out.summarize(ctx, res.Records, res.Total, res.Jobs, start)
	if res.Again > 0 {
		fmt.Fprintf(out.Summary, "%d task%s not run to the end by Slurm (UNKNOWN above): run the same command again to run them\n", res.Again, plural(res.Again))
	}
	return sum, err
}

// WriteBenchExec writes the tasks as a BenchExec benchmark (the package
// function WriteBenchExec) as r would run them: with r's engine for a task
// that names none, r's flags before a task's own, and r's time and memory
// limits.
func (r *Runner) WriteBenchExec(dir string, tasks []Task) ([]string, error) {
	for i := range tasks {
		tasks[i].Engine = r.engine(tasks[i])
		tasks[i].Flags = append(append([]string(nil), r.Flags...), tasks[i].Flags...)
	}
	return WriteBenchExec(dir, tasks, r.Timeout, r.Memory)
}

// SlurmWorkerEnv runs the array task of the plan that Slurm's
// SLURM_ARRAY_TASK_ID names (SlurmWorker), with this process's executable.
func SlurmWorkerEnv(ctx context.Context, planPath string, log io.Writer) error {
	index, err := strconv.Atoi(os.Getenv("SLURM_ARRAY_TASK_ID"))
	if err != nil {
		return fmt.Errorf("--slurm-worker runs in a Slurm array task (SLURM_ARRAY_TASK_ID is %q)", os.Getenv("SLURM_ARRAY_TASK_ID"))
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return SlurmWorker(ctx, planPath, index, exe, log)
}
