package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"boolprog/batch"
)

// slurmFlags are batch's flags for running the tasks on a Slurm cluster.
type slurmFlags struct {
	dir, collect, worker, sbatch string
	chunk                        int
	noWait                       bool
}

func addSlurmFlags(fs *flag.FlagSet) *slurmFlags {
	f := &slurmFlags{}
	fs.StringVar(&f.dir, "slurm", "", "run the tasks on Slurm as one array job, their records in this `DIR` (on a filesystem the nodes share, as must be this binary, the working directory and the programs); -j is then the tasks at once per array task, default 1; run again with the same DIR to run the tasks without a record")
	fs.IntVar(&f.chunk, "chunk", 1, "with --slurm: tasks per array task")
	fs.StringVar(&f.sbatch, "sbatch", "", "with --slurm: more sbatch options, blank-separated (e.g. \"--partition short --account proj\")")
	fs.BoolVar(&f.noWait, "no-wait", false, "with --slurm: submit, print the job id and exit; gather later with --collect DIR")
	fs.StringVar(&f.collect, "collect", "", "wait for the Slurm batch in `DIR` (of --slurm DIR) and gather its records; no task arguments")
	fs.StringVar(&f.worker, "slurm-worker", "", "run one array task of a `PLAN` (what the sbatch script of --slurm runs)")
	return f
}

// usage returns the usage error of the Slurm flags, or "".
func (f *slurmFlags) usage(set map[string]bool, paths []string) string {
	switch {
	case f.dir == "" && (set["chunk"] || set["sbatch"] || set["no-wait"]):
		return "--chunk, --sbatch and --no-wait need --slurm DIR"
	case f.chunk < 1:
		return "--chunk must be at least 1"
	case f.dir != "" && set["emit-benchexec"]:
		return "--slurm runs the tasks, --emit-benchexec writes them: not both"
	case batch.CheckSbatch(strings.Fields(f.sbatch)) != nil:
		return "--sbatch: " + batch.CheckSbatch(strings.Fields(f.sbatch)).Error()
	case f.noWait && set["out"]:
		return "--no-wait writes no records: --out would have no effect"
	case f.collect != "" && f.dir != "":
		return "--collect gathers an earlier --slurm DIR: not both"
	case f.collect != "" && len(paths) > 0:
		return "--collect takes its tasks from DIR, not from arguments"
	case f.collect != "":
		for _, name := range []string{"j", "timeout", "memory", "engine", "check-flags", "emit-benchexec"} {
			if set[name] {
				dash := "--"
				if len(name) == 1 {
					dash = "-"
				}
				return "--collect gathers what ran: " + dash + name + " would have no effect"
			}
		}
	}
	return ""
}

// runBatchSlurm submits the tasks to Slurm (unless collect) and, unless
// --no-wait, waits for them and writes the records and the summary as a
// local batch does.
func runBatchSlurm(ctx context.Context, c *command, s *streams, f *slurmFlags, r *batch.Runner, tasks []batch.Task, out string, quiet bool) int {
	sl := &batch.Slurm{Runner: *r, Dir: f.dir, Chunk: f.chunk, Sbatch: strings.Fields(f.sbatch), Cancel: true}
	if f.collect != "" {
		sl.Dir, sl.Cancel = f.collect, false
		if !quiet {
			sl.Runner.Progress = s.stderr
		}
		if err := batch.CheckSlurm(); err != nil {
			fmt.Fprintf(s.stderr, "boolprog batch: %v\n", err)
			return exitUsage
		}
		if _, err := batch.TasksOf(sl.Dir); err != nil {
			fmt.Fprintf(s.stderr, "boolprog batch: %v\n", err)
			return exitUsage
		}
	} else {
		job, err := sl.Submit(ctx, tasks)
		if err != nil {
			fmt.Fprintf(s.stderr, "boolprog batch: %v\n", err)
			return exitUsage
		}
		switch {
		case job == nil:
			fmt.Fprintf(s.stderr, "boolprog batch: every task has a record in %s: nothing to submit\n", f.dir)
		case f.noWait:
			fmt.Fprintf(s.stdout, "%s\n", job.ID)
			if quiet {
				return exitOK
			}
			fmt.Fprintf(s.stderr, "boolprog batch: submitted Slurm job %s: %d tasks in %d array tasks (%s); gather with: boolprog batch --collect %s\n", job.ID, job.Tasks, job.Indices, job.Script, f.dir)
			return exitOK
		case !quiet:
			fmt.Fprintf(s.stderr, "boolprog batch: submitted Slurm job %s: %d tasks in %d array tasks (%s)\n", job.ID, job.Tasks, job.Indices, job.Script)
		}
	}
	return batchOutput(ctx, c, s, out, quiet, func(o batch.Output) (*batch.Summary, error) { return sl.WaitAll(ctx, o) })
}
