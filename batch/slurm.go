package batch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// slurmMemAllowance is added to an array task's --mem for the worker
// process that runs its checks (a boolprog that only waits: about 10 MiB
// resident), since Slurm counts every process of the array task.
const slurmMemAllowance = 32 << 20

// slurmStartup is added to an array task's --time for its start on the
// node and the worker's.
const slurmStartup = time.Minute

// Slurm runs a batch's tasks on a Slurm cluster as one array job, driving
// Slurm through its commands (sbatch, squeue, scancel; sacct where the
// cluster keeps accounting): nothing of Slurm is linked.
//
// Each array task runs a chunk of the tasks with the boolprog binary
// Runner.Exe (`boolprog batch --slurm-worker PLAN`, which runs each task's
// `boolprog check --format json` as a local batch does, Runner.Jobs at a
// time) and writes each task's record to Dir/records/N.json, atomically
// and once. The binary, Dir, the working directory and the programs must
// be on a filesystem that the compute nodes share.
//
// Slurm's limits are the batch's: --time is the longest array task's
// tasks' time limits and grace periods (Jobs at a time, plus a minute for
// the start, in Slurm's whole minutes), --mem is Jobs times
// Runner.Memory plus a small allowance for the worker, --cpus-per-task is
// Jobs; sbatch options given in Sbatch override them. Within them the
// worker keeps each task to its own limits exactly as a local batch does
// (the check's own --timeout, a kill after the grace period, the resident
// size watched every 20 ms), so that a task gets the same verdict on the
// cluster as on a workstation: Slurm's sampling of memory (every
// JobAcctGatherFrequency seconds on a cluster without cgroups) can miss a
// peak that the worker sees. Slurm's limits bound the array task as a
// whole, and a task that Slurm ends (its time, its memory, a cgroup's OOM
// killer) is TIMEOUT or OUT OF MEMORY with Slurm's reason.
//
// A task without a record when its array task ends is judged by the array
// task's state (sacct where the cluster keeps accounting, squeue
// otherwise, and the messages slurmstepd writes into the array task's
// output, Dir/logs/J_I.out): TIMEOUT and OUT_OF_MEMORY of the task that
// was running are its outcome, recorded as TIMEOUT and OUT OF MEMORY with
// Slurm's reason; NODE_FAIL, CANCELLED, PREEMPTED and the like are the
// cluster's, reported as UNKNOWN with that reason but not recorded, so
// that submitting the same batch to the same Dir again runs exactly the
// tasks without a record.
type Slurm struct {
	// Runner holds what a local batch would: the binary (Exe), tasks at
	// once per array task (Jobs), the limits, engine and flags, and the
	// progress writer and heartbeat.
	Runner Runner
	// Dir is the results directory (on the shared filesystem).
	Dir string
	// Chunk is the number of tasks of an array task; 0 is 1.
	Chunk int
	// Sbatch are more sbatch options (a partition, an account), given on
	// sbatch's command line, where they override the script's.
	Sbatch []string
	// Interval is how often the records and squeue are read while
	// waiting; 0 is 5 s.
	Interval time.Duration
	// Cancel makes an interrupted Wait cancel the array job (scancel): the
	// submitter's Ctrl-C. A collector only stops waiting.
	Cancel bool

	before map[int]bool // the tasks recorded before this process's submission
}

// SlurmJob is a submitted array job.
type SlurmJob struct {
	// ID is Slurm's job id; Tasks the number of tasks submitted (those
	// without a record), in Indices array tasks; Script the sbatch script.
	ID      string
	Tasks   int
	Indices int
	Script  string
}

// SlurmResult is what a Slurm batch gave.
type SlurmResult struct {
	// Records are the tasks' records, in the tasks' order; Total is the
	// number of tasks of the batch; Jobs the tasks at once per array task.
	Records []*Record
	Total   int
	Jobs    int
	// Again counts the tasks that Slurm did not run to their end
	// (cancelled, a node failure, never started): reported as UNKNOWN,
	// not recorded, run by a resubmission.
	Again int
}

// slurmCommand runs one of Slurm's commands and returns its standard
// output; a missing command and a failure are errors that say so.
func slurmCommand(ctx context.Context, name string, args ...string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("Slurm's %s is not on PATH (batch --slurm drives Slurm through its commands: run it where sbatch, squeue and scancel work)", name)
	}
	cmd := exec.CommandContext(ctx, path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return stdout.String(), fmt.Errorf("%s %s: %s", name, strings.Join(args, " "), msg)
	}
	return stdout.String(), nil
}

// CheckSlurm reports whether Slurm's commands are on PATH.
func CheckSlurm() error {
	for _, name := range []string{"sbatch", "squeue", "scancel"} {
		if _, err := exec.LookPath(name); err != nil {
			return fmt.Errorf("Slurm's %s is not on PATH (batch --slurm drives Slurm through its commands: run it where sbatch, squeue and scancel work)", name)
		}
	}
	return nil
}

// sbatchReserved are the sbatch options that the batch sets itself and
// that would break it if overridden, with the reason.
var sbatchReserved = map[string]string{
	"array": "an array index per chunk of tasks", "a": "an array index per chunk of tasks",
	"output": "the array tasks' output goes to DIR/logs", "o": "the array tasks' output goes to DIR/logs",
	"error": "slurmstepd's messages must reach DIR/logs", "e": "slurmstepd's messages must reach DIR/logs",
	"chdir": "the tasks' paths are relative to this working directory", "D": "the tasks' paths are relative to this working directory",
	"wrap": "the batch writes the script",
}

// CheckSbatch refuses sbatch options that the batch sets itself (--array,
// --output, --error, --chdir, --wrap); the limits (--time, --mem,
// --cpus-per-task) may be overridden.
func CheckSbatch(opts []string) error {
	for _, o := range opts {
		if !strings.HasPrefix(o, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(o, "-"), "=")
		if !strings.HasPrefix(o, "--") && len(name) > 1 {
			name = name[:1] // -a1-3
		}
		if why, ok := sbatchReserved[name]; ok {
			return fmt.Errorf("%s is set by the batch (%s)", o, why)
		}
	}
	return nil
}

// Submit submits the tasks that have no record in s.Dir as one array job
// and returns it, or nil if every task has a record. The directory is
// made if needed; if it holds records already, they must be of the same
// tasks with the same limits, engine and flags.
func (s *Slurm) Submit(ctx context.Context, tasks []Task) (*SlurmJob, error) {
	if err := CheckSlurm(); err != nil {
		return nil, err
	}
	if s.Runner.Exe == "" {
		return nil, errors.New("no boolprog binary to run the tasks")
	}
	if err := CheckSbatch(s.Sbatch); err != nil {
		return nil, err
	}
	for _, d := range []string{s.Dir, filepath.Join(s.Dir, recordsName), filepath.Join(s.Dir, logsName)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	setup := setupOf(&s.Runner, tasks)
	if _, err := os.Stat(filepath.Join(s.Dir, setupName)); err == nil {
		old, err := readSetup(s.Dir)
		if err != nil {
			return nil, err
		}
		if !sameSetup(old, setup) {
			return nil, fmt.Errorf("%s holds the records of other tasks, or of other limits, engine or flags: use another directory, or gather it with --collect", s.Dir)
		}
	} else if err := writeJSONFile(filepath.Join(s.Dir, setupName), setup); err != nil {
		return nil, err
	}
	subs, err := readJobs(s.Dir)
	if err != nil {
		return nil, err
	}
	if len(subs) > 0 {
		last := subs[len(subs)-1].ID
		states, _, err := squeueStates(ctx, last)
		if err != nil {
			return nil, err
		}
		if n := countActive(states); n > 0 {
			return nil, fmt.Errorf("job %s of %s has %d array tasks still pending or running: wait for it (boolprog batch --collect %s) or cancel it (scancel %s) first", last, s.Dir, n, s.Dir, last)
		}
	}
	have, err := readRecords(s.Dir, len(tasks), nil)
	if err != nil {
		return nil, err
	}
	s.before = map[int]bool{}
	var pending []int
	for n := 1; n <= len(tasks); n++ {
		if have[n] != nil {
			s.before[n] = true
		} else {
			pending = append(pending, n)
		}
	}
	if len(pending) == 0 {
		return nil, nil
	}
	k, err := nextPlan(s.Dir)
	if err != nil {
		return nil, err
	}
	plan := &slurmPlan{Jobs: max(s.Runner.Jobs, 1), Tasks: chunks(pending, s.Chunk)}
	if err := writeJSONFile(planPath(s.Dir, k), plan); err != nil {
		return nil, err
	}
	script, err := s.script(k, plan, setup)
	if err != nil {
		return nil, err
	}
	scriptPath := filepath.Join(s.Dir, fmt.Sprintf("submit-%d.sh", k))
	if err := os.WriteFile(scriptPath, []byte(script), 0o755); err != nil {
		return nil, err
	}
	args := append([]string{"--parsable"}, s.Sbatch...)
	out, err := slurmCommand(ctx, "sbatch", append(args, scriptPath)...)
	if err != nil {
		return nil, err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(out), ";") // "ID;CLUSTER" on a federation
	if _, err := strconv.Atoi(id); err != nil {
		return nil, fmt.Errorf("sbatch answered %q, not a job id", strings.TrimSpace(out))
	}
	if err := appendJob(s.Dir, k, id); err != nil {
		return nil, fmt.Errorf("job %s submitted, but: %v", id, err)
	}
	return &SlurmJob{ID: id, Tasks: len(pending), Indices: len(plan.Tasks), Script: scriptPath}, nil
}

// script writes the sbatch script of plan k.
func (s *Slurm) script(k int, plan *slurmPlan, setup *slurmSetup) (string, error) {
	dir, err := filepath.Abs(s.Dir)
	if err != nil {
		return "", err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	n := 0
	for _, idx := range plan.Tasks {
		n += len(idx)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/sh\n")
	fmt.Fprintf(&b, "# Written by boolprog batch --slurm: submission %d of the batch in %s,\n", k, dir)
	fmt.Fprintf(&b, "# %d task%s in %d array task%s. Each array task runs its tasks' checks\n", n, plural(n), len(plan.Tasks), plural(len(plan.Tasks)))
	fmt.Fprintf(&b, "# (boolprog check --format json, %d at a time) and writes their records\n", plan.Jobs)
	fmt.Fprintf(&b, "# to records/ there. The binary, that directory, the working directory\n")
	fmt.Fprintf(&b, "# and the programs must be on a filesystem that the nodes share.\n")
	opt := func(name, val string) { fmt.Fprintf(&b, "#SBATCH --%s=%s\n", name, sbatchValue(val)) }
	opt("job-name", "boolprog-batch")
	opt("array", fmt.Sprintf("0-%d", len(plan.Tasks)-1))
	opt("output", filepath.Join(dir, logsName, "%A_%a.out"))
	opt("chdir", cwd)
	opt("cpus-per-task", strconv.Itoa(plan.Jobs))
	mem, minutes := slurmLimits(setup, plan)
	if mem > 0 {
		opt("mem", fmt.Sprintf("%dM", mem))
	}
	if minutes > 0 {
		opt("time", strconv.Itoa(minutes))
	}
	fmt.Fprintf(&b, "exec %s batch --slurm-worker %s\n", shellQuote(s.Runner.Exe), shellQuote(planPath(dir, k)))
	return b.String(), nil
}

// slurmLimits returns an array task's --mem in MiB (0: none) and --time in
// minutes (0: none). The memory is Jobs tasks' limits and the worker's
// allowance; the time is the longest array task's: its tasks' limits and
// grace periods, Jobs at a time, and the start (none if a task has no
// limit).
func slurmLimits(setup *slurmSetup, plan *slurmPlan) (memMiB int64, minutes int) {
	if setup.Memory > 0 {
		memMiB = (int64(plan.Jobs)*setup.Memory + slurmMemAllowance + 1<<20 - 1) >> 20
	}
	r := &Runner{Timeout: setup.Timeout, Grace: setup.Grace}
	var longest time.Duration
	for _, idx := range plan.Tasks {
		var sum time.Duration
		for _, n := range idx {
			limit := r.timeout(setup.Tasks[n-1])
			if limit <= 0 {
				return memMiB, 0
			}
			sum += limit + r.grace(limit)
		}
		longest = max(longest, sum/time.Duration(plan.Jobs)+time.Second)
	}
	t := longest + slurmStartup
	return memMiB, int((t + time.Minute - 1) / time.Minute)
}

// sbatchValue quotes an #SBATCH value that has blanks.
func sbatchValue(v string) string {
	if strings.ContainsAny(v, " \t\"") {
		return strconv.Quote(v)
	}
	return v
}

// shellQuote quotes a word for sh.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// squeueStates asks squeue for the states of job id's array tasks;
// known is false when slurmctld no longer knows the job.
func squeueStates(ctx context.Context, id string) (states map[int]arrayState, known bool, err error) {
	out, err := slurmCommand(ctx, "squeue", "-h", "-r", "-t", "all", "-j", id, "-o", "%K|%T|%r")
	if err != nil {
		if strings.Contains(err.Error(), "Invalid job id") {
			return nil, false, nil
		}
		return nil, false, err
	}
	states = parseSqueue(out)
	return states, len(states) > 0, nil
}

// countActive counts the array tasks that have not ended.
func countActive(states map[int]arrayState) int {
	n := 0
	for _, st := range states {
		if activeStates[st.State] {
			n++
		}
	}
	return n
}

// finalStates returns the states of job id's ended array tasks: the
// accounting's (sacct) where the cluster keeps it, otherwise slurmctld's
// (squeue, while it remembers the job), each merged with what the array
// task's output says.
func finalStates(ctx context.Context, dir, id string, indices int) map[int]arrayState {
	var ctl map[int]arrayState
	known := false
	if out, err := slurmCommand(ctx, "sacct", "-n", "-P", "-X", "-j", id, "-o", "JobID,State,Reason"); err == nil {
		ctl = parseSacct(out, id)
		known = len(ctl) > 0
	}
	if !known {
		ctl, known, _ = squeueStates(ctx, id)
	}
	states := map[int]arrayState{}
	for i := 0; i < indices; i++ {
		out, _ := os.ReadFile(logPath(dir, id, i))
		st, ok := ctl[i]
		states[i] = mergeState(st, known && ok, outputState(string(out)))
	}
	return states
}

// TasksOf returns the tasks of the Slurm batch in dir.
func TasksOf(dir string) ([]Task, error) {
	setup, err := readSetup(dir)
	if err != nil {
		return nil, err
	}
	return setup.Tasks, nil
}

// Wait waits for the last array job submitted to s.Dir, calling emit with
// each task's record as it appears (the records there before are given
// first), and then judges the tasks left without a record by their array
// tasks' states. A line of progress goes to s.Runner.Progress per record,
// and while none comes, one every heartbeat with the array's pending and
// running tasks. When ctx ends, the job is cancelled if s.Cancel, and Wait
// returns the records there are with ctx's error.
func (s *Slurm) Wait(ctx context.Context, emit func(*Record) error) (*SlurmResult, error) {
	setup, err := readSetup(s.Dir)
	if err != nil {
		return nil, err
	}
	subs, err := readJobs(s.Dir)
	if err != nil {
		return nil, err
	}
	total := len(setup.Tasks)
	res := &SlurmResult{Total: total, Jobs: 1}
	var job *submission
	var plan *slurmPlan
	if len(subs) > 0 {
		job = &subs[len(subs)-1]
		if plan, err = readPlan(planPath(s.Dir, job.K)); err != nil {
			return nil, err
		}
		res.Jobs = plan.Jobs
		if err := CheckSlurm(); err != nil {
			return nil, err
		}
	}
	prog := &s.Runner
	w := &waiter{s: s, emit: emit, have: map[int]*Record{}, counts: map[Score]int{}, total: total}
	// The records there before this submission (or this collection).
	if err := w.read(func(n int) bool { return s.before == nil || s.before[n] }); err != nil {
		return nil, err
	}
	if len(w.have) > 0 && prog.Progress != nil {
		fmt.Fprintf(prog.Progress, "%d of %d tasks already have records in %s\n", len(w.have), total, s.Dir)
	}
	every := s.Interval
	if every <= 0 {
		every = 5 * time.Second
	}
	beat := prog.Heartbeat
	if beat <= 0 {
		beat = 30 * time.Second
	}
	lastNews, lastBeat := time.Now(), time.Now()
	tick := time.NewTicker(every)
	defer tick.Stop()
	for job != nil {
		n := len(w.have)
		if err := w.read(nil); err != nil {
			return nil, err
		}
		if len(w.have) > n {
			lastNews = time.Now()
		}
		states, _, err := squeueStates(ctx, job.ID)
		if err != nil && ctx.Err() == nil && prog.Progress != nil {
			fmt.Fprintf(prog.Progress, "boolprog batch: %v (trying again)\n", err)
		}
		if err == nil && countActive(states) == 0 {
			break
		}
		if now := time.Now(); prog.Progress != nil && now.Sub(lastNews) >= beat && now.Sub(lastBeat) >= beat {
			lastBeat = now
			pend, run := 0, 0
			for _, st := range states {
				switch {
				case st.State == "PENDING":
					pend++
				case activeStates[st.State]:
					run++
				}
			}
			width := len(fmt.Sprint(total))
			fmt.Fprintf(prog.Progress, "[%*d/%d] Slurm job %s: %d array tasks pending, %d running\n", width, len(w.have), total, job.ID, pend, run)
		}
		select {
		case <-ctx.Done():
			if s.Cancel {
				s.cancel(job.ID, every)
			}
			if err := w.read(nil); err != nil {
				return nil, err
			}
			res.Records = w.records()
			return res, ctx.Err()
		case <-tick.C:
		}
	}
	if err := w.read(nil); err != nil {
		return nil, err
	}
	if w.emitErr != nil {
		return nil, w.emitErr
	}
	res.Again = w.judge(ctx, setup, job, plan)
	res.Records = w.records()
	return res, w.emitErr
}

// cancel cancels job id and waits, a few minutes at most, for its array
// tasks to end (their workers record the answers they have).
func (s *Slurm) cancel(id string, every time.Duration) {
	ctx, stop := context.WithTimeout(context.Background(), 3*time.Minute)
	defer stop()
	if _, err := slurmCommand(ctx, "scancel", id); err != nil && s.Runner.Progress != nil {
		fmt.Fprintf(s.Runner.Progress, "boolprog batch: %v\n", err)
		return
	}
	if s.Runner.Progress != nil {
		fmt.Fprintf(s.Runner.Progress, "boolprog batch: cancelled Slurm job %s\n", id)
	}
	for ctx.Err() == nil {
		states, _, err := squeueStates(ctx, id)
		if err == nil && countActive(states) == 0 {
			return
		}
		time.Sleep(every)
	}
}

// waiter gathers the records of a Slurm batch as they appear.
type waiter struct {
	s       *Slurm
	emit    func(*Record) error
	emitErr error
	have    map[int]*Record
	counts  map[Score]int
	total   int
}

// read takes in the new records of the directory, in task order; those
// for which quiet says so get no progress line.
func (w *waiter) read(quiet func(n int) bool) error {
	recs, err := readRecords(w.s.Dir, w.total, w.have)
	if err != nil {
		return err
	}
	ns := make([]int, 0, len(recs))
	for n := range recs {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	for _, n := range ns {
		w.add(recs[n], quiet != nil && quiet(n))
	}
	return nil
}

// add takes in one record.
func (w *waiter) add(rec *Record, quiet bool) {
	w.have[rec.N] = rec
	w.counts[rec.Score]++
	if w.emit != nil && w.emitErr == nil {
		w.emitErr = w.emit(rec)
	}
	if !quiet && w.s.Runner.Progress != nil {
		w.s.Runner.progress(rec, len(w.have), w.total, w.counts)
	}
}

// records returns the records in task order.
func (w *waiter) records() []*Record {
	out := make([]*Record, 0, len(w.have))
	for _, r := range w.have {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].N < out[j].N })
	return out
}

// judge gives the tasks without a record, once the job has ended, the
// outcome its array tasks' states say, and returns how many of them a
// resubmission would run.
func (w *waiter) judge(ctx context.Context, setup *slurmSetup, job *submission, plan *slurmPlan) int {
	r := &Runner{Engine: setup.Engine}
	index := map[int]int{} // task -> array index in the last plan
	var states map[int]arrayState
	if plan != nil {
		for i, idx := range plan.Tasks {
			for _, n := range idx {
				index[n] = i
			}
		}
		states = finalStates(ctx, w.s.Dir, job.ID, len(plan.Tasks))
	}
	started := map[int]bool{}
	if plan != nil {
		for i := range plan.Tasks {
			out, _ := os.ReadFile(logPath(w.s.Dir, job.ID, i))
			for _, n := range startedTasks(string(out)) {
				started[n] = true
			}
		}
	}
	again := 0
	for n := 1; n <= w.total; n++ {
		if w.have[n] != nil {
			continue
		}
		t := setup.Tasks[n-1]
		rec := &Record{N: n, File: t.File, Source: t.Source, Target: t.Target, Engine: r.engine(t), Expected: t.Expect, Exit: -1}
		i, planned := index[n]
		var st arrayState
		if planned {
			st = states[i]
		}
		where := ""
		if job != nil {
			where = fmt.Sprintf("array task %s_%d", job.ID, i)
		}
		state := st.State
		if state == "" {
			state = "state unknown"
		}
		detail := ""
		if st.Detail != "" {
			detail = ": " + st.Detail
		}
		verdict, outcome := taskOutcome(st.State)
		killed, _ := readRecordFile(killedPath(w.s.Dir, n))
		switch {
		case killed != nil && verdict == OutOfMemory:
			// The OOM killer of the array task's cgroup ended the check.
			rec = killed
			rec.N, rec.Verdict = n, OutOfMemory
			rec.Reason = fmt.Sprintf("Slurm: %s (%s)%s", st.State, where, detail)
		case killed != nil:
			rec = killed // a crash, as a local batch reports it
			rec.N = n
		case !planned:
			rec.Verdict, rec.Reason = Unknown, "not submitted to Slurm"
		case started[n] && outcome:
			rec.Verdict = verdict
			rec.Reason = fmt.Sprintf("Slurm: %s (%s)%s", st.State, where, detail)
		case started[n]:
			rec.Verdict = Unknown
			rec.Reason = fmt.Sprintf("Slurm: %s (%s)%s: not run to its end", state, where, detail)
		default:
			rec.Verdict = Unknown
			rec.Reason = fmt.Sprintf("Slurm: %s (%s)%s: not started", state, where, detail)
		}
		if rec.Verdict == Unknown {
			again++
		} else if err := writeRecord(w.s.Dir, rec); err != nil && !errors.Is(err, fs.ErrExist) && w.emitErr == nil {
			w.emitErr = err
		}
		rec.Score = scoreOf(rec.Verdict, rec.Bound, rec.Expected)
		w.add(rec, false)
	}
	return again
}
