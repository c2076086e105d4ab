package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
)

// SlurmWorker runs the tasks of array task index of the plan at
// planPath, with the boolprog binary exe, writing their records into the
// plan's directory and a line per task started and ended to log (the
// array task's output). A task that has a record already is skipped (an
// array task that Slurm requeued). When ctx ends (Slurm's SIGTERM at a
// time limit or a cancellation), the checks are stopped and the ones
// without an answer get no record: the batch judges them by the array
// task's state.
func SlurmWorker(ctx context.Context, planPath string, index int, exe string, log io.Writer) error {
	dir := filepath.Dir(planPath)
	setup, err := readSetup(dir)
	if err != nil {
		return err
	}
	plan, err := readPlan(planPath)
	if err != nil {
		return err
	}
	if index < 0 || index >= len(plan.Tasks) {
		return fmt.Errorf("%s has no array index %d", planPath, index)
	}
	var nums []int
	var tasks []Task
	for _, n := range plan.Tasks[index] {
		if n < 1 || n > len(setup.Tasks) {
			return fmt.Errorf("%s: no task %d", planPath, n)
		}
		if _, err := os.Stat(recordPath(dir, n)); err == nil {
			fmt.Fprintf(log, "boolprog-worker: task %d has a record already: skipped\n", n)
			continue
		}
		nums = append(nums, n)
		tasks = append(tasks, setup.Tasks[n-1])
	}
	r := &Runner{
		Exe: exe, Jobs: plan.Jobs, Timeout: setup.Timeout, Grace: setup.Grace,
		Memory: setup.Memory, Engine: setup.Engine, Flags: setup.Flags,
		started: func(i int) { fmt.Fprintf(log, "%s%d %s\n", workerStart, nums[i], tasks[i].File) },
	}
	_, err = r.Run(ctx, tasks, func(rec *Record) error {
		rec.N = nums[rec.N-1]
		return keepWorkerRecord(dir, rec, log)
	})
	return err
}

// keepWorkerRecord writes the record of a task that a worker ran, unless
// the check did not run to its end: a check interrupted by a signal
// (Slurm's SIGTERM at a cancellation or a time limit) gets no record, and
// the batch judges it by the array task's state (and runs it again on a
// resubmission). That holds whether the worker saw the signal first or
// the check did: scancel signals every process of the job, and a check
// that answered "UNKNOWN: interrupted" before the worker's context ended
// was recorded as that task's final answer (TestBatchSlurmCancel, once).
func keepWorkerRecord(dir string, rec *Record, log io.Writer) error {
	switch {
	case rec.Verdict == Unknown && rec.Reason == "interrupted":
		return nil // Slurm's state says why
	case rec.Verdict == Crash && rec.Signal == "killed":
		// Killed from outside: the kernel's OOM killer in the array
		// task's cgroup, or Slurm. The batch decides with the array
		// task's state; this is the crash it reports otherwise.
		return writeRecordFile(killedPath(dir, rec.N), rec, true)
	}
	err := writeRecord(dir, rec)
	if errors.Is(err, fs.ErrExist) {
		fmt.Fprintf(log, "boolprog-worker: task %d has a record already: kept\n", rec.N)
		err = nil
	}
	if err == nil {
		fmt.Fprintf(log, "%s%d %s\n", workerEnd, rec.N, rec.Verdict)
	}
	return err
}

// killedPath is the file of the crash of task n's check that something
// outside the worker killed.
func killedPath(dir string, n int) string {
	return filepath.Join(dir, recordsName, strconv.Itoa(n)+".killed")
}
