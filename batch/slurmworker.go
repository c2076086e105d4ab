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
		switch {
		case ctx.Err() != nil && rec.Verdict == Unknown && rec.Reason == "interrupted":
			return nil // Slurm's state says why
		case rec.Verdict == Crash && rec.Signal == "killed":
			// Killed from outside: the kernel's OOM killer in the
			// array task's cgroup, or Slurm. The batch decides with the
			// array task's state; this is the crash it reports otherwise.
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
	})
	return err
}

// killedPath is the file of the crash of task n's check that something
// outside the worker killed.
func killedPath(dir string, n int) string {
	return filepath.Join(dir, recordsName, strconv.Itoa(n)+".killed")
}
