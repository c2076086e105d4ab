package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boolprog/batch"
)

// requireSlurmEnv, set to 1 (as .ci/run does, after .ci/slurm-up), turns
// the skip of the Slurm tests on a machine without a cluster into a
// failure.
const requireSlurmEnv = "BOOLPROG_REQUIRE_SLURM"

// needSlurm skips the test, or fails it under BOOLPROG_REQUIRE_SLURM=1,
// unless Slurm's commands are on PATH and a node answers.
func needSlurm(t *testing.T) {
	t.Helper()
	why := slurmMissing()
	if why == "" {
		return
	}
	if os.Getenv(requireSlurmEnv) == "1" {
		t.Fatalf("%s=1 but there is no Slurm cluster: %s (start one with .ci/slurm-up)", requireSlurmEnv, why)
	}
	t.Skipf("no Slurm cluster here (%s): start one with .ci/slurm-up (as root), or set %s=1 to make this a failure", why, requireSlurmEnv)
}

// slurmMissing says why there is no usable Slurm cluster ("" if there is
// one), asked once per test binary: with Slurm's commands installed but no
// controller running, sinfo takes seconds to give up.
var slurmMissing = sync.OnceValue(func() string {
	if err := batch.CheckSlurm(); err != nil {
		return err.Error()
	}
	out, err := exec.Command("sinfo", "-h", "-o", "%t").CombinedOutput()
	if err != nil {
		return fmt.Sprintf("sinfo: %v: %s", err, out)
	}
	if !regexp.MustCompile(`(?m)^(idle|mix|alloc)`).Match(out) {
		return fmt.Sprintf("no Slurm node is up (sinfo: %q)", strings.TrimSpace(string(out)))
	}
	return ""
})

// slurmRun runs the command and returns its exit code and outputs.
func slurmRun(t *testing.T, bin string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		t.Fatalf("%v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// parseRecords reads JSON lines, in task order.
func parseRecords(t *testing.T, text string) []*batch.Record {
	t.Helper()
	path := filepath.Join(t.TempDir(), "records.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(text) == "" {
		return nil
	}
	return readRecords(t, path)
}

// summaryTables returns the part of a summary that must not depend on
// where the tasks ran: the verdict table without its times, the table of
// expected against actual verdicts, and the result line.
func summaryTables(sum string) string {
	var keep []string
	times := regexp.MustCompile(`\s+[0-9]+\.[0-9]+\s+[0-9]+\.[0-9]+$`)
	in := false
	for _, line := range strings.Split(sum, "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "verdict ") || strings.HasPrefix(strings.TrimSpace(line), "expected \\ got"):
			in = true
		case strings.HasPrefix(line, "result: "):
			keep = append(keep, line)
		case strings.TrimSpace(line) == "":
			in = false
		}
		if in {
			keep = append(keep, times.ReplaceAllString(line, ""))
		}
	}
	return strings.Join(keep, "\n")
}

// TestBatchSlurm runs batch --slurm on a real Slurm cluster (.ci/slurm-up
// starts a single-node one) over ../shared/benchmarks, a directory with a
// malformed program and a task list with an endless program under a 2 s
// limit, with a memory limit that two of the benchmarks pass: the
// records' verdicts and scores and the summary's tables equal a local
// batch's (the worker keeps the tasks to their limits as a local batch
// does: see TestBatchSlurmKilled for the tasks that Slurm ends).
func TestBatchSlurm(t *testing.T) {
	bin, bench := slurmSetup(t)
	bad, lists := t.TempDir(), t.TempDir()
	writeFiles(t, bad, map[string]string{"bad.bp": "void main() begin\n  skip;\n  if (\nend\n"})
	writeFiles(t, lists, map[string]string{
		"endless.bp": endlessProgram(),
		"hungry.bp":  blowupProgram(),
		"tasks.txt":  "endless.bp timeout=2s -- --reorder off\n",
		"hungry.txt": "hungry.bp -- --reorder off\n",
	})
	args := []string{"batch", "--timeout", "60s", "--memory", "256MiB", "-j", "1", bench, bad, filepath.Join(lists, "tasks.txt")}

	code, local, localSum := slurmRun(t, bin, args...)
	if code != batch.ExitTaskError { // bad.bp is an ERROR
		t.Fatalf("local batch: exit %d\n%s", code, localSum)
	}
	results := filepath.Join(t.TempDir(), "results")
	code, remote, remoteSum := slurmRun(t, bin, append([]string{args[0], "--slurm", results}, args[1:]...)...)
	if code != batch.ExitTaskError {
		t.Fatalf("batch --slurm: exit %d\n%s", code, remoteSum)
	}
	lr, sr := parseRecords(t, local), parseRecords(t, remote)
	if len(lr) != len(sr) || len(lr) < 50 {
		t.Fatalf("%d local records, %d on Slurm", len(lr), len(sr))
	}
	for i := range lr {
		l, s := lr[i], sr[i]
		if l.File != s.File || l.Verdict != s.Verdict || l.Score != s.Score || l.Expected != s.Expected || l.Target != s.Target {
			t.Errorf("task %d: local %s %s %s, on Slurm %s %s %s (%s)", i+1, l.File, l.Verdict, l.Score, s.File, s.Verdict, s.Score, s.Reason)
		}
		if s.Verdict == batch.OutOfMemory && !strings.HasPrefix(s.Reason, "memory limit 256.0MiB exceeded") {
			t.Errorf("task %d (%s): reason %q, want the worker's kill at the limit", i+1, s.File, s.Reason)
		}
		if s.File == filepath.Join(bad, "bad.bp") && (s.Verdict != batch.Error || !strings.Contains(s.Reason, ":4:1: expected expression")) {
			t.Errorf("the malformed program: %s %q", s.Verdict, s.Reason)
		}
		if s.File == filepath.Join(lists, "endless.bp") && (s.Verdict != batch.Timeout || s.Reason != "timeout (2s)") {
			t.Errorf("the endless program: %s %q", s.Verdict, s.Reason)
		}
	}
	// A memory-hungry program under a small --memory: the check's own
	// budget (the batch passes --memory on) ends it with UNKNOWN, or the
	// batch kills it at the limit (OUT OF MEMORY); the same on Slurm.
	hargs := []string{"batch", "--timeout", "60s", "--memory", "64MiB", "-j", "1", filepath.Join(lists, "hungry.txt")}
	_, hl, _ := slurmRun(t, bin, hargs...)
	_, hs, hsSum := slurmRun(t, bin, append([]string{hargs[0], "--slurm", filepath.Join(t.TempDir(), "hungry")}, hargs[1:]...)...)
	hlr, hsr := parseRecords(t, hl), parseRecords(t, hs)
	if len(hlr) != 1 || len(hsr) != 1 {
		t.Fatalf("the memory-hungry program: %d local records, %d on Slurm\n%s", len(hlr), len(hsr), hsSum)
	}
	for _, r := range []*batch.Record{hlr[0], hsr[0]} {
		if !(r.Verdict == batch.Unknown && strings.HasPrefix(r.Reason, "memory limit (")) && !(r.Verdict == batch.OutOfMemory && strings.HasPrefix(r.Reason, "memory limit 64.0MiB exceeded")) {
			t.Errorf("the memory-hungry program: %s %q, want a memory limit", r.Verdict, r.Reason)
		}
	}
	if hlr[0].Verdict != hsr[0].Verdict {
		t.Errorf("the memory-hungry program: %s locally, %s on Slurm", hlr[0].Verdict, hsr[0].Verdict)
	}
	if a, b := summaryTables(localSum), summaryTables(remoteSum); a != b {
		t.Errorf("summaries differ:\nlocal:\n%s\non Slurm:\n%s", a, b)
	}
	if t.Failed() {
		t.Logf("local summary:\n%s\nSlurm summary:\n%s", localSum, remoteSum)
	}
	// A second submission to the same directory runs nothing and gives
	// the same records.
	code, again, againSum := slurmRun(t, bin, append([]string{args[0], "--slurm", results}, args[1:]...)...)
	if code != batch.ExitTaskError || !strings.Contains(againSum, "nothing to submit") || len(parseRecords(t, again)) != len(sr) {
		t.Errorf("resubmission of a complete batch: exit %d\n%s", code, againSum)
	}
}

// TestBatchSlurmUsage: the Slurm flags' usage errors, and Slurm's absence,
// need no cluster.
func TestBatchSlurmUsage(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", dir) // no Slurm
	runCases(t, []cliCase{
		{name: "no Slurm", args: []string{"batch", "--slurm", filepath.Join(dir, "r"), fig1}, code: exitUsage,
			stderr: []string{"boolprog batch: Slurm's sbatch is not on PATH (batch --slurm drives Slurm through its commands"}},
		{name: "collect without Slurm", args: []string{"batch", "--collect", dir}, code: exitUsage, stderr: []string{"Slurm's sbatch is not on PATH"}},
		{name: "chunk without slurm", args: []string{"batch", "--chunk", "4", fig1}, code: exitUsage, stderr: []string{"--chunk, --sbatch and --no-wait need --slurm DIR"}},
		{name: "bad chunk", args: []string{"batch", "--slurm", dir, "--chunk", "0", fig1}, code: exitUsage, stderr: []string{"--chunk must be at least 1"}},
		{name: "slurm and emit", args: []string{"batch", "--slurm", dir, "--emit-benchexec", dir, fig1}, code: exitUsage, stderr: []string{"not both"}},
		{name: "sbatch --array", args: []string{"batch", "--slurm", dir, "--sbatch", "-p short --array=1-4", fig1}, code: exitUsage,
			stderr: []string{"--sbatch: --array=1-4 is set by the batch (an array index per chunk of tasks)"}},
		{name: "no-wait and out", args: []string{"batch", "--slurm", dir, "--no-wait", "--out", "x", fig1}, code: exitUsage, stderr: []string{"--out would have no effect"}},
		{name: "collect with tasks", args: []string{"batch", "--collect", dir, fig1}, code: exitUsage, stderr: []string{"--collect takes its tasks from DIR"}},
		{name: "collect with a limit", args: []string{"batch", "--collect", dir, "--timeout", "5s"}, code: exitUsage, stderr: []string{"--collect gathers what ran: --timeout would have no effect"}},
		{name: "worker outside Slurm", args: []string{"batch", "--slurm-worker", filepath.Join(dir, "plan-1.json")}, code: exitUsage, stderr: []string{"--slurm-worker runs in a Slurm array task"}},
	})
}

// slurmSetup skips the test where it cannot run (or fails it where it
// must), and returns the built command and ../shared/benchmarks.
func slurmSetup(t *testing.T) (bin, bench string) {
	if testing.Short() {
		t.Skip("runs batches on Slurm for a minute or more")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the memory limit of the local batch needs Linux's /proc")
	}
	needSlurm(t)
	bench = "../../../shared/benchmarks"
	if _, err := os.Stat(bench); err != nil {
		if os.Getenv(requireSlurmEnv) == "1" {
			t.Fatalf("%s: %v", bench, err)
		}
		t.Skip("../shared/benchmarks is not beside the repository")
	}
	return buildCommand(t), bench
}

// writeFiles writes files into dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// countRecords counts the records in a results directory.
func countRecords(dir string) int {
	m, _ := filepath.Glob(filepath.Join(dir, "records", "*.json"))
	return len(m)
}

// waitRecords waits until dir holds at least n records.
func waitRecords(t *testing.T, dir string, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for countRecords(dir) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d records after 5 minutes, want %d", dir, countRecords(dir), n)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// workerLines counts, over all array tasks' outputs in dir, the worker's
// lines per task: prefix "start " or "end ".
func workerLines(t *testing.T, dir, prefix string) map[string]int {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*.out"))
	n := map[string]int{}
	for _, p := range logs {
		for _, line := range strings.Split(readFile(t, p), "\n") {
			if s, ok := strings.CutPrefix(line, "boolprog-worker: "+prefix); ok {
				n[strings.Fields(s)[0]]++
			}
		}
	}
	return n
}

// TestBatchSlurmCancel cancels a batch with scancel mid-way, collects
// it, resubmits it, interrupts that with SIGINT (Ctrl-C: batch cancels
// the job), and resubmits again: at the end every task has its record,
// and no task was run to its end twice or started again once it had a
// record.
func TestBatchSlurmCancel(t *testing.T) {
	bin, bench := slurmSetup(t)
	dir := t.TempDir()
	var list strings.Builder
	const tasks = 12
	fib, err := filepath.Abs(filepath.Join(bench, "getafix", "fib_3_unsafe.bp"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < tasks; i++ {
		fmt.Fprintf(&list, "%s expect=unsafe\n", fib)
	}
	writeFiles(t, dir, map[string]string{"tasks.txt": list.String()})
	results := filepath.Join(dir, "results")
	args := []string{"batch", "--slurm", results, "--timeout", "2m", "--memory", "512MiB", filepath.Join(dir, "tasks.txt")}

	code, out, errs := slurmRun(t, bin, append(args, "--no-wait")...)
	id := strings.TrimSpace(out)
	if code != exitOK || !regexp.MustCompile(`^[0-9]+$`).MatchString(id) || !strings.Contains(errs, "gather with: boolprog batch --collect "+results) {
		t.Fatalf("--no-wait: exit %d, stdout %q\n%s", code, out, errs)
	}
	waitRecords(t, results, 2)
	if out, err := exec.Command("scancel", id).CombinedOutput(); err != nil {
		t.Fatalf("scancel %s: %v %s", id, err, out)
	}
	code, out, errs = slurmRun(t, bin, "batch", "--collect", results)
	recs := parseRecords(t, out)
	cancelled := 0
	for _, r := range recs {
		if r.Verdict == batch.Unknown {
			cancelled++
			if !strings.HasPrefix(r.Reason, "Slurm: CANCELLED (array task "+id+"_") {
				t.Errorf("cancelled task %d: %q", r.N, r.Reason)
			}
		}
	}
	done := countRecords(results)
	if code != exitOK || len(recs) != tasks || cancelled == 0 || done+cancelled != tasks ||
		!strings.Contains(errs, fmt.Sprintf("%d tasks not run to the end by Slurm", cancelled)) {
		t.Fatalf("collect after scancel: exit %d, %d records, %d cancelled, %d recorded\n%s", code, len(recs), cancelled, done, errs)
	}
	recordedBefore := map[string]bool{}
	for n := range workerLines(t, results, "end ") {
		recordedBefore[n] = true
	}

	// Resubmitted, then interrupted as by Ctrl-C once a task more ends.
	cmd := exec.Command(bin, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitRecords(t, results, done+1)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "boolprog batch: cancelled Slurm job ") ||
		!strings.Contains(stderr.String(), fmt.Sprintf("boolprog batch: %d tasks, INTERRUPTED after ", tasks)) {
		t.Errorf("interrupted resubmission: exit %d\n%s", code, stderr.String())
	}

	// Resubmitted again: complete.
	code, out, errs = slurmRun(t, bin, args...)
	recs = parseRecords(t, out)
	if code != exitOK || len(recs) != tasks {
		t.Fatalf("last resubmission: exit %d, %d records\n%s", code, len(recs), errs)
	}
	for _, r := range recs {
		if r.Verdict != batch.Unsafe || r.Score != batch.Correct {
			t.Errorf("task %d: %s %s %q", r.N, r.Verdict, r.Score, r.Reason)
		}
	}
	ends, starts := workerLines(t, results, "end "), workerLines(t, results, "start ")
	var ns []string
	for n, k := range ends {
		if k != 1 {
			t.Errorf("task %s run to its end %d times", n, k)
		}
		if recordedBefore[n] && starts[n] != 1 {
			t.Errorf("task %s, recorded before the resubmissions, started %d times", n, starts[n])
		}
		ns = append(ns, n)
	}
	sort.Strings(ns)
	if len(ends) != tasks {
		t.Errorf("tasks run to their end: %v, want %d", ns, tasks)
	}
}

// TestBatchSlurmKilled runs tasks that Slurm ends, under sbatch options
// that override the script's limits. Under --mem=100M the two Getafix
// programs that need more are OUT OF MEMORY with Slurm's reason. Thirty
// tasks of 4 s (endlessProgram, which no time limit decides) in one
// array task under --time=1 (a minute):
// Slurm ends the array task 60 to 95 s in (slurmctld looks at the time
// limits every 30 s), during one task, which is TIMEOUT with Slurm's
// reason; the tasks before have their own records, the ones after were
// not started (UNKNOWN, not recorded: a resubmission would run them).
func TestBatchSlurmKilled(t *testing.T) {
	bin, bench := slurmSetup(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"hungry1.bp": blowupProgram(), "hungry2.bp": blowupProgram()})
	code, out, errs := slurmRun(t, bin, "batch", "--slurm", filepath.Join(dir, "mem"), "--sbatch", "--mem=100M", "--memory", "1GiB", "--timeout", "5m",
		filepath.Join(dir, "hungry1.bp"), filepath.Join(dir, "hungry2.bp"), filepath.Join(bench, "getafix", "example.bp"))
	recs := parseRecords(t, out)
	if code != exitOK || len(recs) != 3 {
		t.Fatalf("exit %d, %d records\n%s", code, len(recs), errs)
	}
	for _, r := range recs[:2] {
		if r.Verdict != batch.OutOfMemory || !strings.HasPrefix(r.Reason, "Slurm: OUT_OF_MEMORY (array task ") {
			t.Errorf("%s: %s %q, want Slurm's OUT_OF_MEMORY", r.File, r.Verdict, r.Reason)
		}
	}
	if r := recs[2]; r.Verdict != batch.Unsafe {
		t.Errorf("%s: %s %q", r.File, r.Verdict, r.Reason)
	}

	var list strings.Builder
	writeFiles(t, dir, map[string]string{"endless.bp": endlessProgram()})
	const tasks = 30
	for i := 0; i < tasks; i++ {
		fmt.Fprintf(&list, "endless.bp timeout=4s -- --reorder off\n")
	}
	writeFiles(t, dir, map[string]string{"tasks.txt": list.String()})
	code, out, errs = slurmRun(t, bin, "batch", "--slurm", filepath.Join(dir, "time"), "--chunk", fmt.Sprint(tasks), "--sbatch", "--time=1", "--memory", "0", filepath.Join(dir, "tasks.txt"))
	recs = parseRecords(t, out)
	if code != exitOK || len(recs) != tasks {
		t.Fatalf("exit %d, %d records\n%s", code, len(recs), errs)
	}
	var kinds []string
	for _, r := range recs {
		switch {
		case r.Verdict == batch.Timeout && r.Reason == "timeout (4s)":
			kinds = append(kinds, "own")
		case r.Verdict == batch.Timeout && strings.HasPrefix(r.Reason, "Slurm: TIMEOUT (array task "):
			kinds = append(kinds, "slurm")
		case r.Verdict == batch.Unknown && strings.HasSuffix(r.Reason, ": not started"):
			kinds = append(kinds, "later")
		default:
			kinds = append(kinds, fmt.Sprintf("%s %q", r.Verdict, r.Reason))
		}
	}
	got := strings.Join(kinds, " ")
	if !regexp.MustCompile(`^(own )+slurm( later)*$`).MatchString(got) {
		t.Errorf("tasks: %s\n%s", got, errs)
	}
}
