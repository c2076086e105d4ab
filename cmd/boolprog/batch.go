package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"boolprog"
	"boolprog/batch"
	"boolprog/engine"
	"boolprog/internal/bytesize"
	"boolprog/internal/interrupt"
	"boolprog/syntax"
)

const batchHead = `usage: boolprog batch [flags] TASKS|DIR|FILE.bp...

Runs many checks in parallel, each as a child process ("boolprog check
--format json") under a time and a memory limit, and scores the answers
against the expected verdicts. The arguments are task lists (one task per
line: PROGRAM [target=L] [expect=safe|unsafe] [engine=E] [timeout=D]
[-- CHECK-FLAG...], or a JSON object per line; see 'go doc boolprog/batch'),
directories (every .bp file below, with the expected verdicts of test.desc
files and of _safe/_unsafe file names), or .bp files.

Writes one JSON line per task to standard output (or --out FILE) as the
tasks end, a progress line per task on standard error, and at the end a
summary (on standard error, or on standard output with --out): wrong
answers first, the tasks without an answer and why, the verdicts against
the expectations, the total times and the peak memory.

A task is TIMEOUT, OUT OF MEMORY, CRASH (the child ended without a
report) or ERROR (bad input, a missing program) rather than a verdict;
the batch goes on. Exit: 0 no wrong answer and no ERROR, 3 a wrong
answer, 4 no wrong answer but a task ended ERROR, 2 a malformed task list
(nothing runs), 1 bad usage, 130/143 interrupted (SIGINT/SIGTERM: the
children are stopped, the summary covers what ran).

With --slurm DIR the tasks run on a Slurm cluster as one array job, under
Slurm's limits (--time, --mem, --cpus-per-task from --timeout, --memory,
-j), with one record per task in DIR; the records, summary and exit code
are a local run's. See 'go doc boolprog/batch.Slurm' and the README's "Running on a cluster".
`

func runBatch(ctx context.Context, args []string, s *streams) int {
	c := newCommand("batch", batchHead)
	fs := c.fs
	jobs := fs.Int("j", runtime.GOMAXPROCS(0), "tasks run at once")
	timeout := fs.Duration("timeout", time.Minute, "time limit of a task (wall clock), unless its line sets timeout=; 0: none")
	var memory limitFlag
	if batch.CanLimitMemory {
		memory.Size = 1 << 30
	}
	fs.Var(&memory, "memory", "memory limit of a task (resident set size, e.g. 512MiB, 2GiB), killed past it; also the task's check --memory, so that its BDDs stop within it (UNKNOWN: memory limit); 0 or none: no limit")
	out := fs.String("out", "", "write the JSON lines to this file (the summary then goes to standard output)")
	engineName := fs.String("engine", "", "engine of the tasks that name none (default: check's)")
	checkFlags := fs.String("check-flags", "", "more flags of 'boolprog check' for every task, blank-separated (e.g. \"--bound cs:2\"), before a task's own")
	quiet := fs.Bool("q", false, "no progress lines")
	slurm := addSlurmFlags(fs)
	emit := fs.String("emit-benchexec", "", "run nothing: write the tasks into this directory as a BenchExec benchmark (task-definition files, a property file, boolprog.xml with --timeout and --memory as its limits)")
	paths, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	set := setFlags(fs)
	switch msg := slurm.usage(set, paths); {
	case msg != "":
		return c.usageError(s, "%s", msg)
	case slurm.worker != "":
		err := batch.SlurmWorkerEnv(ctx, slurm.worker, s.stdout)
		if intr := interrupt.Of(ctx); intr != nil {
			return intr.ExitCode()
		}
		if err != nil {
			fmt.Fprintf(s.stderr, "boolprog batch: %v\n", err)
			return exitUsage
		}
		return exitOK
	case slurm.collect != "":
		return runBatchSlurm(ctx, c, s, slurm, &batch.Runner{}, nil, *out, *quiet)
	}
	switch {
	case len(paths) == 0:
		return c.usageError(s, "no TASKS, DIR or FILE.bp to run")
	case *jobs < 1:
		return c.usageError(s, "-j must be at least 1")
	case *timeout < 0 || memory.Size < 0:
		return c.usageError(s, "limits must not be negative")
	case *emit != "" && (set["j"] || set["out"] || set["q"]):
		return c.usageError(s, "--emit-benchexec runs nothing: -j, --out and -q would have no effect")
	case memory.Size > 0 && !batch.CanLimitMemory && *emit == "" && slurm.dir == "":
		return c.usageError(s, "--memory needs Linux's /proc; use --memory 0")
	}
	checkEngine := func(name string) error {
		if _, ok := engine.Lookup(name); !ok {
			return fmt.Errorf("unknown engine %q (want %s)", name, engineNames())
		}
		return nil
	}
	if *engineName != "" {
		if err := checkEngine(*engineName); err != nil {
			return c.usageError(s, "%v", err)
		}
	}
	allFlags := strings.Fields(*checkFlags)
	if err := batch.CheckFlags(allFlags); err != nil {
		return c.usageError(s, "--check-flags: %v", err)
	}
	tasks, err := batch.Load(paths, s.stdin, batch.ListOptions{Engine: checkEngine})
	if err != nil {
		var list syntax.ErrorList
		if errors.As(err, &list) {
			boolprog.WriteErrors(s.stderr, list)
		} else {
			fmt.Fprintf(s.stderr, "boolprog batch: %v\n", err)
		}
		return exitInput
	}
	if len(tasks) == 0 {
		fmt.Fprintf(s.stderr, "boolprog batch: no task in %v\n", paths)
		return exitInput
	}
	r := &batch.Runner{Jobs: *jobs, Timeout: *timeout, Memory: int64(memory.Size), Engine: *engineName, Flags: allFlags}
	if *emit != "" {
		notes, err := r.WriteBenchExec(*emit, tasks)
		if err != nil {
			fmt.Fprintf(s.stderr, "boolprog batch: %v\n", err)
			return exitUsage
		}
		for _, n := range notes {
			fmt.Fprintf(s.stderr, "note: %s\n", n)
		}
		fmt.Fprintf(s.stdout, "wrote %d task definitions, unreach-label.prp and boolprog.xml to %s; run: benchexec %s\n",
			len(tasks), *emit, filepath.Join(*emit, "boolprog.xml"))
		return exitOK
	}
	if r.Exe, err = os.Executable(); err != nil {
		fmt.Fprintf(s.stderr, "boolprog batch: cannot find the boolprog binary to run the tasks: %v\n", err)
		return exitUsage
	}
	if !*quiet {
		r.Progress = s.stderr
	}
	if slurm.dir != "" {
		if !set["j"] {
			r.Jobs = 1 // a task per allocated CPU, not the submitting machine's
		}
		return runBatchSlurm(ctx, c, s, slurm, r, tasks, *out, *quiet)
	}
	return batchOutput(ctx, c, s, *out, *quiet, func(o batch.Output) (*batch.Summary, error) { return r.RunAll(ctx, tasks, o) })
}

// batchOutput runs a batch with its records written on standard output,
// or on the file out (the summary then going to standard output instead
// of standard error), and returns the exit code.
func batchOutput(ctx context.Context, c *command, s *streams, out string, quiet bool, run func(batch.Output) (*batch.Summary, error)) int {
	o := batch.Output{Lines: s.stdout, Summary: s.stderr, Quiet: quiet}
	var file *os.File
	if out != "" {
		var err error
		if file, err = os.Create(out); err != nil {
			return c.usageError(s, "%v", err)
		}
		o.Lines, o.Summary = file, s.stdout
	}
	sum, err := run(o)
	if file != nil {
		if cerr := file.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}
	switch intr := interrupt.Of(ctx); {
	case sum == nil:
		fmt.Fprintf(s.stderr, "boolprog batch: %v\n", err)
		return exitUsage
	case intr != nil:
		return intr.ExitCode()
	case err != nil && !errors.Is(err, context.Canceled):
		fmt.Fprintf(s.stderr, "boolprog batch: %v\n", err)
		return exitUsage
	}
	return sum.ExitCode()
}

// limitFlag is a size that may also be 0 or "none": no limit.
type limitFlag struct{ bytesize.Size }

func (f *limitFlag) String() string {
	if f.Size == 0 {
		return "none"
	}
	return f.Size.String()
}

func (f *limitFlag) Set(s string) error {
	if s == "0" || s == "none" {
		f.Size = 0
		return nil
	}
	return f.Size.Set(s)
}
