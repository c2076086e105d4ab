package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"boolprog/result"
)

// fakeChildEnv makes the test binary act as a child of the batch: instead
// of `boolprog check`, it does what the program file's base name says
// (see fakeChild). This is the test hook for crashes, hangs and memory
// hogs that a correct checker does not produce on purpose.
const fakeChildEnv = "BOOLPROG_BATCH_FAKE_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(fakeChildEnv) == "1" {
		os.Exit(fakeChild(os.Args[len(os.Args)-1]))
	}
	os.Exit(m.Run())
}

// fakeChild plays a checker on the file path and returns its exit code.
func fakeChild(path string) int {
	report := func(v result.Verdict, reason string, b result.Bound) {
		res := &result.Result{Verdict: v, Engine: "fake", Reason: reason, Bound: b}
		result.NewReport(res, path, "SLIC_ERROR").WriteJSON(os.Stdout)
	}
	switch strings.TrimSuffix(filepath.Base(path), ".bp") {
	case "safe":
		report(result.Safe, "", result.Bound{})
		return 0
	case "unsafe":
		report(result.Unsafe, "", result.Bound{})
		return 10
	case "bounded":
		report(result.Safe, "", result.Bound{Kind: result.Rounds, K: 2})
		return 0
	case "slow": // the checker's own time limit
		report(result.Unknown, "timeout (1s)", result.Bound{})
		return 5
	case "nodes": // an engine's own limit stays UNKNOWN
		report(result.Unknown, "BDD node limit (1000) reached", result.Bound{})
		return 5
	case "input":
		result.ErrorReport(path, result.Message{File: path, Line: 3, Col: 4, Message: "syntax error"}).WriteJSON(os.Stdout)
		return 2
	case "crash":
		panic("fake crash")
	case "signal":
		if p, err := os.FindProcess(os.Getpid()); err == nil {
			p.Kill() // SIGKILL
		}
		time.Sleep(time.Minute)
	case "hang": // ignores SIGTERM and never answers
		signal.Ignore(syscall.SIGTERM)
		time.Sleep(time.Minute)
	case "hog": // live memory grows until the batch kills it
		var keep [][]byte
		for {
			b := make([]byte, 4<<20)
			for i := 0; i < len(b); i += 512 {
				b[i] = byte(i) // resident, not just reserved
			}
			keep = append(keep, b)
		}
	case "interrupt": // answers SIGTERM as check does
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, syscall.SIGTERM)
		select {
		case <-ch:
			report(result.Unknown, "interrupted", result.Bound{})
			return 143
		case <-time.After(time.Minute):
		}
	}
	return 99
}

// fakeRunner returns a runner whose children are this test binary acting
// as fakeChild, and a directory in which to make the programs.
func fakeRunner(t *testing.T) (*Runner, string) {
	if runtime.GOOS != "linux" {
		t.Skip("the runner's limits and signals are tested on Linux")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Runner{Exe: exe, Env: []string{fakeChildEnv + "=1"}, Jobs: 3}, t.TempDir()
}

func touch(t *testing.T, dir, name string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestRun(t *testing.T) {
	r, dir := fakeRunner(t)
	r.Timeout = 2 * time.Second
	r.Grace = 500 * time.Millisecond
	r.Memory = 64 << 20
	var progress bytes.Buffer
	r.Progress = &progress
	type want struct {
		verdict Verdict
		score   Score
		reason  string // a substring
		stderr  string // a substring
	}
	cases := []struct {
		task Task
		want want
	}{
		{Task{File: "safe.bp", Expect: ExpectSafe}, want{verdict: Safe, score: Correct}},
		{Task{File: "unsafe.bp", Expect: ExpectSafe}, want{verdict: Unsafe, score: Wrong}},
		{Task{File: "unsafe.bp"}, want{verdict: Unsafe}},
		{Task{File: "bounded.bp", Expect: ExpectUnsafe}, want{verdict: Safe, score: Bounded}},
		{Task{File: "bounded.bp", Expect: ExpectSafe}, want{verdict: Safe, score: Correct}},
		{Task{File: "slow.bp", Expect: ExpectSafe}, want{verdict: Timeout, reason: "timeout (1s)"}},
		{Task{File: "nodes.bp", Expect: ExpectSafe}, want{verdict: Unknown, reason: "BDD node limit"}},
		{Task{File: "input.bp"}, want{verdict: Error, reason: "input.bp:3:4: syntax error"}},
		{Task{File: "crash.bp", Expect: ExpectUnsafe}, want{verdict: Crash, reason: "exit status 2 without a report: panic: fake crash", stderr: "goroutine 1"}},
		{Task{File: "signal.bp"}, want{verdict: Crash, reason: "killed by signal killed"}},
		{Task{File: "hang.bp", Timeout: 300 * time.Millisecond}, want{verdict: Timeout, reason: "no answer 500ms after the time limit (300ms): killed"}},
		{Task{File: "hog.bp", Timeout: time.Minute}, want{verdict: OutOfMemory, reason: "memory limit 64.0MiB exceeded"}},
		{Task{File: "missing.bp", Expect: ExpectSafe}, want{verdict: Error, reason: "cannot read the program: no such file or directory"}},
	}
	var tasks []Task
	for _, c := range cases {
		task := c.task
		if task.File != "missing.bp" {
			task.File = touch(t, dir, task.File)
		} else {
			task.File = filepath.Join(dir, task.File)
		}
		tasks = append(tasks, task)
	}
	var lines bytes.Buffer
	recs, err := r.Run(context.Background(), tasks, func(rec *Record) error { return rec.WriteJSON(&lines) })
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(cases) {
		t.Fatalf("%d records for %d tasks", len(recs), len(cases))
	}
	for i, rec := range recs {
		w := cases[i].want
		if rec.N != i+1 || rec.File != tasks[i].File || rec.Expected != tasks[i].Expect {
			t.Errorf("record %d is not its task's: %+v", i+1, rec)
		}
		if rec.Verdict != w.verdict || rec.Score != w.score || !strings.Contains(rec.Reason, w.reason) || !strings.Contains(rec.Stderr, w.stderr) {
			t.Errorf("%s: got %s/%q reason %q stderr %q, want %s/%q reason %q... stderr ...%q...",
				cases[i].task.File, rec.Verdict, rec.Score, rec.Reason, rec.Stderr, w.verdict, w.score, w.reason, w.stderr)
		}
	}
	hog := recs[11]
	if hog.Memory <= 64<<20 || hog.Exit != -1 || hog.Signal != "killed" {
		t.Errorf("hog: memory %d, exit %d, signal %q", hog.Memory, hog.Exit, hog.Signal)
	}
	if safe := recs[0]; safe.Engine != "fake" || safe.Target != "SLIC_ERROR" || safe.Exit != 0 || safe.Memory == 0 || safe.Wall <= 0 {
		t.Errorf("safe record: %+v", safe)
	}

	// The JSON lines: one per task, in the order the tasks ended, each a
	// record.
	var fromJSON []*Record
	for _, line := range strings.Split(strings.TrimSuffix(lines.String(), "\n"), "\n") {
		var rec Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("JSON line %q: %v", line, err)
		}
		fromJSON = append(fromJSON, &rec)
	}
	if len(fromJSON) != len(recs) {
		t.Fatalf("%d JSON lines for %d records", len(fromJSON), len(recs))
	}
	for _, rec := range fromJSON {
		if !reflect.DeepEqual(rec, recs[rec.N-1]) {
			t.Errorf("JSON line %+v\n  record %+v", rec, recs[rec.N-1])
		}
	}
	if !strings.Contains(lines.String(), `"verdict":"OUT OF MEMORY"`) || !strings.Contains(lines.String(), `"bound":{"kind":"rounds","k":2}`) {
		t.Errorf("JSON lines:\n%s", lines.String())
	}
	if n := strings.Count(progress.String(), "\n"); n != len(tasks) || !strings.Contains(progress.String(), "/13] ") || !strings.Contains(progress.String(), "WRONG") {
		t.Errorf("progress:\n%s", progress.String())
	}

	// The summary: the wrong answer first, then the tasks without an
	// answer, the tables and the totals.
	var out bytes.Buffer
	(&Summary{Records: recs, Total: len(tasks), Jobs: 3, Elapsed: time.Second}).Write(&out)
	sum := out.String()
	for _, want := range []string{
		"!!! 1 WRONG ANSWER !!!\n  WRONG  " + tasks[1].File + ": expected safe, got unsafe  (fake, ",
		"without an answer:\n",
		"  ERROR          " + tasks[7].File + ":3:4: syntax error\n",
		"  CRASH          " + tasks[8].File + ": exit status 2 without a report: panic: fake crash\n",
		"  OUT OF MEMORY  " + tasks[11].File + ": memory limit 64.0MiB exceeded",
		"boolprog batch: 13 tasks, 3 jobs, elapsed 1s\n",
		"result: 2 correct, 1 wrong, 1 bounded, 8 without an answer, 1 answered without an expectation\n",
	} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if strings.Index(sum, "WRONG  ") > strings.Index(sum, "without an answer") {
		t.Errorf("wrong answers are not first:\n%s", sum)
	}
	// verdict, tasks, correct, wrong, bounded, no expectation.
	for _, row := range [][]string{
		{"safe", "3", "2", "0", "1", "0"},
		{"unsafe", "2", "0", "1", "0", "1"},
		{"TIMEOUT", "2", "1"},
		{"OUT", "OF", "MEMORY", "1", "1"},
		{"CRASH", "2", "1"},
		{"ERROR", "2", "1"},
		{"total", "13"},
		{"safe", "2", "1", "1", "1", "0", "0", "1"},   // expected safe: got safe, unsafe, unknown, TIMEOUT, ...
		{"unsafe", "1", "0", "0", "0", "0", "1", "0"}, // expected unsafe
		{"none", "0", "1", "0", "1", "1", "1", "1"},
	} {
		if !hasRow(sum, row) {
			t.Errorf("summary lacks the row %v:\n%s", row, sum)
		}
	}
}

// hasRow reports whether a line of text starts with the fields of row.
func hasRow(text string, row []string) bool {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) >= len(row) && reflect.DeepEqual(f[:len(row)], row) {
			return true
		}
	}
	return false
}

func TestRunInterrupted(t *testing.T) {
	r, dir := fakeRunner(t)
	r.Jobs = 1
	var progress syncBuffer
	r.Progress, r.Heartbeat = &progress, 100*time.Millisecond
	var tasks []Task
	for i := 0; i < 3; i++ {
		tasks = append(tasks, Task{File: touch(t, dir, "interrupt.bp")})
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(500*time.Millisecond, cancel)
	recs, err := r.Run(ctx, tasks, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if len(recs) != 1 {
		t.Fatalf("%d records of %d tasks after an interruption at the first, want 1", len(recs), len(tasks))
	}
	if !strings.Contains(progress.String(), "[0/3] running: "+tasks[0].File+" (") {
		t.Errorf("no heartbeat naming the running task:\n%s", progress.String())
	}
	for _, rec := range recs {
		if rec.Verdict != Unknown || rec.Reason != "interrupted" {
			t.Errorf("record %+v", rec)
		}
	}
}

func TestRunNoChecker(t *testing.T) {
	dir := t.TempDir()
	r := &Runner{Exe: filepath.Join(dir, "no-such-boolprog")}
	recs, err := r.Run(context.Background(), []Task{{File: touch(t, dir, "a.bp")}}, nil)
	if err != nil || len(recs) != 1 || recs[0].Verdict != Error || !strings.HasPrefix(recs[0].Reason, "cannot start the checker: ") {
		t.Errorf("records %+v, error %v", recs, err)
	}
}

func TestArgs(t *testing.T) {
	r := &Runner{Timeout: time.Minute, Engine: "summary", Flags: []string{"--reorder", "off"}}
	got := r.Args(Task{File: "-x.bp", Target: "R", Timeout: 2 * time.Second, Flags: []string{"--all"}})
	want := []string{"check", "--format", "json", "-q", "--timeout", "2s", "--engine", "summary", "--target", "R", "--reorder", "off", "--all", "--", "-x.bp"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("args %q, want %q", got, want)
	}
	got = (&Runner{Memory: 1 << 30}).Args(Task{File: "a.bp", Engine: "explicit"})
	want = []string{"check", "--format", "json", "-q", "--engine", "explicit", "--memory", "1073741824", "--", "a.bp"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("args %q, want %q", got, want)
	}
}

// syncBuffer is a bytes.Buffer safe for the runner's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func TestCheckFlags(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		err   string
	}{
		{[]string{"--bound", "cs:2", "--max-nodes=1000"}, ""},
		{[]string{"--format=json"}, "--format=json is set by the batch (the batch reads check's JSON report)"},
		{[]string{"-l", "R"}, "-l is set by the batch (use target=LABEL)"},
		{[]string{"--all", "--", "x.bp"}, "-- has no place among check flags"},
	} {
		err := CheckFlags(tc.flags)
		if (err == nil) != (tc.err == "") || err != nil && err.Error() != tc.err {
			t.Errorf("CheckFlags(%q) = %v, want %q", tc.flags, err, tc.err)
		}
	}
}
