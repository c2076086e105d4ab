package batch

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func TestParseSqueue(t *testing.T) {
	out := "0|COMPLETED|None\n3|FAILED|NonZeroExitCode\n1|OUT_OF_MEMORY|OutOfMemory\n2|TIMEOUT|TimeLimit\n4|PENDING|Resources\nbad line\n"
	want := map[int]arrayState{
		0: {"COMPLETED", ""}, 3: {"FAILED", "NonZeroExitCode"}, 1: {"OUT_OF_MEMORY", "OutOfMemory"},
		2: {"TIMEOUT", "TimeLimit"}, 4: {"PENDING", "Resources"},
	}
	got := parseSqueue(out)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if n := countActive(got); n != 1 {
		t.Errorf("%d active, want 1", n)
	}
}

func TestParseSacct(t *testing.T) {
	out := "12_0|COMPLETED|None\n12_1|CANCELLED by 1000|None\n12_2|NODE_FAIL|None\n12_[4-6,9%2]|PENDING|JobArrayTaskLimit\n13_0|TIMEOUT|None\n"
	want := map[int]arrayState{
		0: {"COMPLETED", ""}, 1: {"CANCELLED", ""}, 2: {"NODE_FAIL", ""},
		4: {"PENDING", "JobArrayTaskLimit"}, 5: {"PENDING", "JobArrayTaskLimit"}, 6: {"PENDING", "JobArrayTaskLimit"}, 9: {"PENDING", "JobArrayTaskLimit"},
	}
	if got := parseSacct(out, "12"); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestOutputState(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      arrayState
	}{
		{"nothing", "boolprog-worker: start 1 a.bp\nboolprog-worker: end 1 safe\n", arrayState{}},
		{"OverMemoryKill", "boolprog-worker: start 4 fib.bp\n" +
			"slurmstepd-vm: error: StepId=21.batch exceeded memory limit (304848896 > 301989888), being killed\n" +
			"slurmstepd-vm: error: Exceeded job memory limit\n" +
			"slurmstepd-vm: error: *** JOB 21 ON vm CANCELLED AT 2026-11-27T23:20:19 ***\n",
			arrayState{"OUT_OF_MEMORY", "StepId=21.batch exceeded memory limit (304848896 > 301989888), being killed"}},
		{"cgroup", "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=7.batch. Some of your processes may have been killed by the cgroup out-of-memory handler.\n",
			arrayState{"OUT_OF_MEMORY", "Detected 1 oom-kill event(s) in StepId=7.batch. Some of your processes may have been killed by the cgroup out-of-memory handler."}},
		{"time", "slurmstepd-vm: error: *** JOB 4 ON vm CANCELLED AT 2026-11-27T23:21:45 DUE TO TIME LIMIT ***\nTerminated\n",
			arrayState{"TIMEOUT", "*** JOB 4 ON vm CANCELLED AT 2026-11-27T23:21:45 DUE TO TIME LIMIT ***"}},
		{"node", "slurmstepd: error: *** JOB 9 ON n3 CANCELLED AT 2026-11-27T23:21:45 DUE TO NODE FAILURE ***\n",
			arrayState{"NODE_FAIL", "*** JOB 9 ON n3 CANCELLED AT 2026-11-27T23:21:45 DUE TO NODE FAILURE ***"}},
		{"preempted", "slurmstepd: error: *** JOB 9 ON n3 CANCELLED AT 2026-11-27T23:21:45 DUE TO PREEMPTION ***\n",
			arrayState{"PREEMPTED", "*** JOB 9 ON n3 CANCELLED AT 2026-11-27T23:21:45 DUE TO PREEMPTION ***"}},
		{"scancel", "slurmstepd-vm: error: *** JOB 6 ON vm CANCELLED AT 2026-11-27T23:20:34 ***\n",
			arrayState{"CANCELLED", "*** JOB 6 ON vm CANCELLED AT 2026-11-27T23:20:34 ***"}},
	} {
		if got := outputState(tc.out); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestMergeState(t *testing.T) {
	oomOut := arrayState{"OUT_OF_MEMORY", "exceeded memory limit"}
	for _, tc := range []struct {
		name  string
		ctl   arrayState
		known bool
		out   arrayState
		want  arrayState
	}{
		{"forgotten: the output", arrayState{}, false, oomOut, oomOut},
		{"FAILED by OverMemoryKill", arrayState{"FAILED", "JobLaunchFailure"}, true, oomOut, oomOut},
		{"slurmctld's TIMEOUT", arrayState{"TIMEOUT", "TimeLimit"}, true, arrayState{"TIMEOUT", "*** ... DUE TO TIME LIMIT ***"}, arrayState{"TIMEOUT", "TimeLimit"}},
		{"sacct without a reason", arrayState{"NODE_FAIL", ""}, true, arrayState{"NODE_FAIL", "*** DUE TO NODE FAILURE ***"}, arrayState{"NODE_FAIL", "*** DUE TO NODE FAILURE ***"}},
		{"a plain failure", arrayState{"FAILED", "NonZeroExitCode"}, true, arrayState{}, arrayState{"FAILED", "NonZeroExitCode"}},
	} {
		if got := mergeState(tc.ctl, tc.known, tc.out); got != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestStartedTasks(t *testing.T) {
	out := workerStart + "3 a.bp\n" + workerEnd + "3 safe\n" + workerStart + "4 b.bp\n" + workerStart + "7 c d.bp\nslurmstepd: error: x\n"
	if got, want := startedTasks(out), []int{4, 7}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestChunks(t *testing.T) {
	if got, want := chunks([]int{1, 2, 4, 5, 6}, 2), [][]int{{1, 2}, {4, 5}, {6}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, want := chunks([]int{1, 2}, 0), [][]int{{1}, {2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestSlurmLimits(t *testing.T) {
	tasks := []Task{{File: "a.bp"}, {File: "b.bp", Timeout: 10 * time.Minute}, {File: "c.bp"}}
	for _, tc := range []struct {
		name    string
		setup   slurmSetup
		plan    slurmPlan
		mem     int64
		minutes int
	}{
		// 1 min + (5 s + 6 s grace) + 1 s, up to the minute.
		{"one task", slurmSetup{Timeout: time.Minute, Memory: 1 << 30}, slurmPlan{Jobs: 1, Tasks: [][]int{{1}, {3}}}, 1024 + 32, 3},
		// The longest array task: 1 min + 11 s, 10 min + 65 s, 1 s, 1 min: 13 min 17 s.
		{"chunk with its own limit", slurmSetup{Timeout: time.Minute, Memory: 1 << 30}, slurmPlan{Jobs: 1, Tasks: [][]int{{1, 2}, {3}}}, 1024 + 32, 14},
		{"two at a time", slurmSetup{Timeout: time.Minute, Memory: 512 << 20}, slurmPlan{Jobs: 2, Tasks: [][]int{{1, 3}}}, 1024 + 32, 3},
		{"no limits", slurmSetup{}, slurmPlan{Jobs: 1, Tasks: [][]int{{1}}}, 0, 0},
	} {
		tc.setup.Tasks = tasks
		mem, minutes := slurmLimits(&tc.setup, &tc.plan)
		if mem != tc.mem || minutes != tc.minutes {
			t.Errorf("%s: --mem %dM --time %d, want %dM %d", tc.name, mem, minutes, tc.mem, tc.minutes)
		}
	}
}

// TestSlurmScript compares the sbatch script with its golden file (the
// directories replaced by names).
func TestSlurmScript(t *testing.T) {
	dir := t.TempDir()
	s := &Slurm{Runner: Runner{Exe: "/shared/bin/boolprog", Jobs: 2, Timeout: 30 * time.Second, Memory: 1 << 30}, Dir: dir}
	tasks := []Task{{File: "a.bp"}, {File: "b.bp"}, {File: "c.bp"}}
	plan := &slurmPlan{Jobs: 2, Tasks: chunks([]int{1, 2, 3}, 2)}
	got, err := s.script(3, plan, setupOf(&s.Runner, tasks))
	if err != nil {
		t.Fatal(err)
	}
	cwd, _ := os.Getwd()
	got = strings.ReplaceAll(strings.ReplaceAll(got, dir, "$DIR"), cwd, "$CWD")
	golden := filepath.Join("testdata", "slurm-submit.sh")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("script:\n%s\nwant (%s):\n%s", got, golden, want)
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/a/b-c_d.e": "/a/b-c_d.e", "/a b": "'/a b'", "it's": `'it'\''s'`, "": "''", "$HOME": "'$HOME'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestWriteRecordOnce(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, recordsName), 0o755)
	if err := writeRecord(dir, &Record{N: 1, File: "a.bp", Verdict: Safe}); err != nil {
		t.Fatal(err)
	}
	if err := writeRecord(dir, &Record{N: 1, File: "a.bp", Verdict: Unsafe}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second record: %v, want fs.ErrExist", err)
	}
	recs, err := readRecords(dir, 1, nil)
	if err != nil || len(recs) != 1 || recs[1].Verdict != Safe {
		t.Errorf("records %v, %v", recs, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, recordsName)); len(ents) != 1 {
		t.Errorf("%d files left, want the record alone", len(ents))
	}
}

// TestKeepWorkerRecord: a worker records what its checks answered, except
// a check interrupted by a signal (whoever saw it first) and a check
// killed from outside, which the batch judges by Slurm's state.
func TestKeepWorkerRecord(t *testing.T) {
	for _, c := range []struct {
		name          string
		rec           Record
		record, crash bool
	}{
		{"answered", Record{N: 1, File: "a.bp", Verdict: Safe}, true, false},
		{"unknown for a time limit", Record{N: 1, File: "a.bp", Verdict: Unknown, Reason: "timeout (5s)"}, true, false},
		{"interrupted", Record{N: 1, File: "a.bp", Verdict: Unknown, Reason: "interrupted"}, false, false},
		{"killed from outside", Record{N: 1, File: "a.bp", Verdict: Crash, Signal: "killed"}, false, true},
	} {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, recordsName), 0o755)
		var log strings.Builder
		if err := keepWorkerRecord(dir, &c.rec, &log); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err := os.Stat(recordPath(dir, 1))
		if got := err == nil; got != c.record {
			t.Errorf("%s: recorded %v, want %v", c.name, got, c.record)
		}
		if got := strings.Contains(log.String(), workerEnd+"1 "); got != c.record {
			t.Errorf("%s: logged its end %v, want %v (%q)", c.name, got, c.record, log.String())
		}
		_, err = os.Stat(killedPath(dir, 1))
		if got := err == nil; got != c.crash {
			t.Errorf("%s: crash file %v, want %v", c.name, got, c.crash)
		}
	}
}

func TestNoSlurm(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	s := &Slurm{Runner: Runner{Exe: "/bin/true"}, Dir: t.TempDir()}
	_, err := s.Submit(context.Background(), []Task{{File: "a.bp"}})
	if err == nil || !strings.Contains(err.Error(), "Slurm's sbatch is not on PATH") {
		t.Errorf("Submit without Slurm: %v", err)
	}
}

// slurmDir makes a results directory with tasks and one submission (plan
// 1 as job 42) whose array tasks left the given outputs.
func slurmDir(t *testing.T, tasks []Task, plan *slurmPlan, outputs map[int]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, d := range []string{recordsName, logsName} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeJSONFile(filepath.Join(dir, setupName), &slurmSetup{Tasks: tasks, Memory: 1 << 30}); err != nil {
		t.Fatal(err)
	}
	if err := writeJSONFile(planPath(dir, 1), plan); err != nil {
		t.Fatal(err)
	}
	if err := appendJob(dir, 1, "42"); err != nil {
		t.Fatal(err)
	}
	for i, out := range outputs {
		if err := os.WriteFile(logPath(dir, "42", i), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// fakeSlurm puts on PATH an sbatch, a scancel and a squeue that knows no
// job, as slurmctld answers once it has forgotten a job; there is no
// sacct, as on a cluster without accounting.
func fakeSlurm(t *testing.T) {
	bin := t.TempDir()
	for name, script := range map[string]string{
		"sbatch":  "#!/bin/sh\necho 42\n",
		"scancel": "#!/bin/sh\nexit 0\n",
		"squeue":  "#!/bin/sh\necho 'slurm_load_jobs error: Invalid job id specified' >&2\nexit 1\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
}

// TestSlurmJudge judges the tasks left without a record by what their
// array tasks' outputs say (slurmctld has forgotten the job, and there is
// no accounting).
func TestSlurmJudge(t *testing.T) {
	fakeSlurm(t)
	var tasks []Task
	for _, f := range []string{"done.bp", "time.bp", "after.bp", "mem.bp", "node.bp", "cancelled.bp", "pending.bp", "killed.bp", "oomkilled.bp"} {
		tasks = append(tasks, Task{File: f, Expect: ExpectSafe})
	}
	plan := &slurmPlan{Jobs: 1, Tasks: [][]int{{1, 2, 3}, {4}, {5}, {6}, {7}, {8}, {9}}}
	dir := slurmDir(t, tasks, plan, map[int]string{
		0: workerStart + "1 done.bp\n" + workerEnd + "1 safe\n" + workerStart + "2 time.bp\n" +
			"slurmstepd: error: *** JOB 43 ON n1 CANCELLED AT 2026-11-27T23:21:45 DUE TO TIME LIMIT ***\n",
		1: workerStart + "4 mem.bp\nslurmstepd: error: Detected 1 oom-kill event(s) in StepId=44.batch.\n",
		2: workerStart + "5 node.bp\nslurmstepd: error: *** JOB 45 ON n1 CANCELLED AT 2026-11-27T23:21:45 DUE TO NODE FAILURE ***\n",
		3: workerStart + "6 cancelled.bp\nslurmstepd: error: *** JOB 46 ON n1 CANCELLED AT 2026-11-27T23:21:45 ***\n",
		5: workerStart + "8 killed.bp\n",
		6: workerStart + "9 oomkilled.bp\nslurmstepd: error: Detected 1 oom-kill event(s) in StepId=49.batch.\n",
	})
	if err := writeRecord(dir, &Record{N: 1, File: "done.bp", Verdict: Safe, Expected: ExpectSafe, Score: Correct}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{8, 9} {
		crash := &Record{N: n, File: tasks[n-1].File, Verdict: Crash, Reason: "killed by signal killed", Signal: "killed", Exit: -1, Memory: 900 << 20, Wall: 3}
		if err := writeRecordFile(killedPath(dir, n), crash, true); err != nil {
			t.Fatal(err)
		}
	}
	var emitted []string
	var progress bytes.Buffer
	s := &Slurm{Dir: dir, Runner: Runner{Progress: &progress}}
	res, err := s.Wait(context.Background(), func(r *Record) error {
		emitted = append(emitted, r.File)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		verdict Verdict
		reason  string
		kept    bool
	}{
		{Safe, "", true},
		{Timeout, "Slurm: TIMEOUT (array task 42_0): *** JOB 43 ON n1 CANCELLED AT 2026-11-27T23:21:45 DUE TO TIME LIMIT ***", true},
		{Unknown, "Slurm: TIMEOUT (array task 42_0): *** JOB 43 ON n1 CANCELLED AT 2026-11-27T23:21:45 DUE TO TIME LIMIT ***: not started", false},
		{OutOfMemory, "Slurm: OUT_OF_MEMORY (array task 42_1): Detected 1 oom-kill event(s) in StepId=44.batch.", true},
		{Unknown, "Slurm: NODE_FAIL (array task 42_2): *** JOB 45 ON n1 CANCELLED AT 2026-11-27T23:21:45 DUE TO NODE FAILURE ***: not run to its end", false},
		{Unknown, "Slurm: CANCELLED (array task 42_3): *** JOB 46 ON n1 CANCELLED AT 2026-11-27T23:21:45 ***: not run to its end", false},
		{Unknown, "Slurm: state unknown (array task 42_4): not started", false},
		{Crash, "killed by signal killed", true},
		{OutOfMemory, "Slurm: OUT_OF_MEMORY (array task 42_6): Detected 1 oom-kill event(s) in StepId=49.batch.", true},
	}
	if len(res.Records) != len(want) || res.Total != len(want) || res.Again != 4 {
		t.Fatalf("%d records of %d, %d again", len(res.Records), res.Total, res.Again)
	}
	for i, w := range want {
		r := res.Records[i]
		if r.N != i+1 || r.Verdict != w.verdict || r.Reason != w.reason {
			t.Errorf("task %d: %d %s %q, want %s %q", i+1, r.N, r.Verdict, r.Reason, w.verdict, w.reason)
		}
		_, err := os.Stat(recordPath(dir, i+1))
		if kept := err == nil; kept != w.kept {
			t.Errorf("task %d recorded: %v, want %v", i+1, kept, w.kept)
		}
	}
	if r := res.Records[8]; r.Memory != 900<<20 || r.Wall != 3 {
		t.Errorf("the OOM-killed check's measures: %+v", r)
	}
	if len(emitted) != len(want) || emitted[0] != "done.bp" {
		t.Errorf("emitted %v", emitted)
	}
	if !strings.HasPrefix(progress.String(), "1 of 9 tasks already have records in "+dir+"\n") || strings.Count(progress.String(), "\n") != 9 {
		t.Errorf("progress:\n%s", progress.String())
	}
}

// TestSlurmWorker runs an array task's worker with this test binary as
// the checker (see fakeChild): the records are written once, a check
// killed from outside leaves its crash for the batch to judge, and a
// second run of the same array task (Slurm's requeue) skips the tasks
// with a record.
func TestSlurmWorker(t *testing.T) {
	r, progs := fakeRunner(t)
	t.Setenv(fakeChildEnv, "1")
	var tasks []Task
	for _, name := range []string{"safe", "unsafe", "signal", "input"} {
		tasks = append(tasks, Task{File: touch(t, progs, name+".bp")})
	}
	plan := &slurmPlan{Jobs: 2, Tasks: [][]int{{4}, {1, 2, 3}}}
	dir := slurmDir(t, tasks, plan, nil)
	var log bytes.Buffer
	if err := SlurmWorker(context.Background(), planPath(dir, 1), 1, r.Exe, &log); err != nil {
		t.Fatal(err)
	}
	recs, err := readRecords(dir, len(tasks), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].Verdict != Safe || recs[2].Verdict != Unsafe || recs[1].N != 1 || recs[2].N != 2 {
		t.Errorf("records %v", recs)
	}
	if k, err := readRecordFile(killedPath(dir, 3)); err != nil || k.Verdict != Crash || k.Signal != "killed" {
		t.Errorf("killed check: %+v %v", k, err)
	}
	if got := startedTasks(log.String()); !reflect.DeepEqual(got, []int{3}) {
		t.Errorf("started and not ended: %v\n%s", got, log.String())
	}
	log.Reset()
	if err := SlurmWorker(context.Background(), planPath(dir, 1), 1, r.Exe, &log); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"task 1 has a record already: skipped", "task 2 has a record already: skipped", workerStart + "3 "} {
		if !strings.Contains(log.String(), s) {
			t.Errorf("second run's log lacks %q:\n%s", s, log.String())
		}
	}
	if err := SlurmWorker(context.Background(), planPath(dir, 1), 2, r.Exe, &log); err == nil {
		t.Error("an index outside the plan: no error")
	}
}

func TestCheckSbatch(t *testing.T) {
	for _, tc := range []struct {
		opts string
		bad  bool
	}{
		{"--partition=short --account proj --time=10 --mem=4G -c 2", false},
		{"--array=0-3", true}, {"-a 0-3", true}, {"-o x.out", true}, {"--error=x", true},
		{"-D /tmp", true}, {"--chdir /tmp", true}, {"--wrap=true", true}, {"-p short", false},
	} {
		if err := CheckSbatch(strings.Fields(tc.opts)); (err != nil) != tc.bad {
			t.Errorf("%q: %v", tc.opts, err)
		}
	}
}
