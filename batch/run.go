package batch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// maxReport bounds the child's report that the runner keeps: a longer one
// (a trace of millions of steps) is not read, and the task is an ERROR.
const maxReport = 256 << 20

// stderrTail is how much of a child's standard error a record keeps.
const stderrTail = 4 << 10

// Runner runs tasks as child processes of a boolprog binary.
type Runner struct {
	// Exe is the boolprog binary whose `check` each task runs (the
	// command passes its own executable).
	Exe string
	// Env is added to the children's environment (tests use it to make
	// a test binary act as a child).
	Env []string
	// Jobs is the number of tasks run at once; 0 is GOMAXPROCS.
	Jobs int
	// Timeout is the time limit of a task without its own (0: none).
	Timeout time.Duration
	// Grace is how long past its time limit a child may take to give its
	// UNKNOWN answer before it is killed; 0 is 5 s plus a tenth of the
	// limit.
	Grace time.Duration
	// Memory is the limit of a child's resident set size in bytes (0:
	// none); past it the child is killed. It needs Linux's /proc. It is
	// also the child's --memory, its own budget (internal/memlimit).
	Memory int64
	// Poll is how often a child's memory is read; 0 is 20 ms.
	Poll time.Duration
	// Engine is the engine of a task that names none ("": check's
	// default).
	Engine string
	// Flags are check flags for every task, before the task's own (see
	// CheckFlags).
	Flags []string
	// Progress, if not nil, gets a line per finished task: n/total, the
	// task's outcome, and the counts so far; and, when no task has ended
	// for Heartbeat (0: 30 s), a line naming the running tasks and how
	// long they have run.
	Progress  io.Writer
	Heartbeat time.Duration

	// started, if not nil, is called with a task's index as it starts.
	started func(i int)
}

// Args returns the command line (after the binary) of a task's child.
func (r *Runner) Args(t Task) []string {
	a := []string{"check", "--format", "json", "-q"}
	if d := r.timeout(t); d > 0 {
		a = append(a, "--timeout", d.String())
	}
	if e := r.engine(t); e != "" {
		a = append(a, "--engine", e)
	}
	if t.Target != "" {
		a = append(a, "--target", t.Target)
	}
	if r.Memory > 0 {
		// The child's own budget is the task's limit: its BDDs stop
		// growing within it (UNKNOWN: memory limit) before the batch
		// would have to kill it, and its collector works harder near it.
		a = append(a, "--memory", strconv.FormatInt(r.Memory, 10))
	}
	a = append(a, r.Flags...)
	a = append(a, t.Flags...)
	return append(a, "--", t.File)
}

func (r *Runner) timeout(t Task) time.Duration {
	if t.Timeout > 0 {
		return t.Timeout
	}
	return r.Timeout
}

func (r *Runner) engine(t Task) string {
	if t.Engine != "" {
		return t.Engine
	}
	return r.Engine
}

func (r *Runner) grace(limit time.Duration) time.Duration {
	if r.Grace > 0 {
		return r.Grace
	}
	return 5*time.Second + limit/10
}

// Run runs the tasks, r.Jobs at a time, and calls emit (never
// concurrently) with each record as its task ends. It returns the records
// of the tasks that ran, in the tasks' order. When ctx ends, no task is
// started any more and the running children get SIGTERM (they answer
// UNKNOWN: interrupted), then SIGKILL if they have not ended within a
// second; Run then returns what it has with ctx's error.
func (r *Runner) Run(ctx context.Context, tasks []Task, emit func(*Record) error) ([]*Record, error) {
	if r.Memory > 0 && !CanLimitMemory {
		return nil, errors.New("a memory limit needs /proc (Linux)")
	}
	jobs := r.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	recs := make([]*Record, len(tasks))
	next := make(chan int)
	var mu sync.Mutex
	var emitErr error
	counts := map[Score]int{}
	done := 0
	running := map[int]time.Time{} // task index -> start
	lastEnd := time.Now()
	stopBeat := r.heartbeat(&mu, running, &lastEnd, &done, len(tasks), tasks)
	defer stopBeat()
	var wg sync.WaitGroup
	for w := 0; w < jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					continue // handed out as ctx ended: not run, not recorded
				}
				mu.Lock()
				running[i] = time.Now()
				if r.started != nil {
					r.started(i)
				}
				mu.Unlock()
				rec := r.runTask(ctx, tasks[i])
				rec.N = i + 1
				mu.Lock()
				delete(running, i)
				lastEnd = time.Now()
				recs[i] = rec
				done++
				counts[rec.Score]++
				if emit != nil && emitErr == nil {
					emitErr = emit(rec)
				}
				if r.Progress != nil {
					r.progress(rec, done, len(tasks), counts)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range tasks {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	var out []*Record
	for _, rec := range recs {
		if rec != nil {
			out = append(out, rec)
		}
	}
	if emitErr != nil {
		return out, emitErr
	}
	return out, ctx.Err()
}

// progress writes one line for a finished task.
func (r *Runner) progress(rec *Record, done, total int, counts map[Score]int) {
	width := len(fmt.Sprint(total))
	score := string(rec.Score)
	if rec.Score == Wrong {
		score = "WRONG"
	}
	fmt.Fprintf(r.Progress, "[%*d/%d] %-13s %-7s %7.2fs %9s  %s   (so far: correct %d, wrong %d, bounded %d, unscored %d)\n",
		width, done, total, rec.Verdict, score, rec.Wall, FormatBytes(rec.Memory), rec.File,
		counts[Correct], counts[Wrong], counts[Bounded], counts[NoScore])
}

// heartbeat starts, if there is a progress writer, the goroutine that
// names the running tasks when none has ended for a while; it returns the
// function that stops it. All the state it reads is guarded by mu.
func (r *Runner) heartbeat(mu *sync.Mutex, running map[int]time.Time, lastEnd *time.Time, done *int, total int, tasks []Task) func() {
	if r.Progress == nil {
		return func() {}
	}
	every := r.Heartbeat
	if every <= 0 {
		every = 30 * time.Second
	}
	stop := make(chan struct{})
	go func() {
		tick := time.NewTicker(every / 4)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				mu.Lock()
				if now.Sub(*lastEnd) >= every && now.Sub(last) >= every && len(running) > 0 {
					last = now
					idx := make([]int, 0, len(running))
					for i := range running {
						idx = append(idx, i)
					}
					sort.Ints(idx)
					var names []string
					for _, i := range idx {
						names = append(names, fmt.Sprintf("%s (%v)", tasks[i].File, now.Sub(running[i]).Round(time.Second)))
					}
					width := len(fmt.Sprint(total))
					fmt.Fprintf(r.Progress, "[%*d/%d] running: %s\n", width, *done, total, strings.Join(names, ", "))
				}
				mu.Unlock()
			}
		}
	}()
	return func() { close(stop) }
}

// runTask runs one task's child and classifies what it left.
func (r *Runner) runTask(ctx context.Context, t Task) *Record {
	rec := &Record{File: t.File, Source: t.Source, Target: t.Target, Engine: r.engine(t), Expected: t.Expect}
	if ctx.Err() != nil {
		rec.Verdict, rec.Reason = Unknown, "interrupted"
		return rec
	}
	if info, err := os.Stat(t.File); err != nil || info.IsDir() {
		why := "is a directory"
		if err != nil {
			why = unwrapPathError(err)
		}
		rec.Verdict, rec.Reason = Error, "cannot read the program: "+why
		return rec
	}
	c, err := r.runChild(ctx, t)
	if err != nil {
		rec.Verdict, rec.Reason = Error, "cannot start the checker: "+err.Error()
		return rec
	}
	rec.classify(c)
	return rec
}

// runChild runs the child of a task, enforcing its limits, and returns
// what it left behind, or why it could not start.
func (r *Runner) runChild(ctx context.Context, t Task) (*childRun, error) {
	limit := r.timeout(t)
	c := &childRun{timeout: limit, grace: r.grace(limit), memLimit: r.Memory}
	cmd := exec.Command(r.Exe, r.Args(t)...)
	cmd.Env = append(os.Environ(), r.Env...)
	stdout := &capBuffer{max: maxReport}
	stderr := &tailBuffer{max: stderrTail}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	isolate(cmd)
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	waited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(waited)
	}()
	var hard <-chan time.Time
	if limit > 0 {
		tm := time.NewTimer(limit + c.grace)
		defer tm.Stop()
		hard = tm.C
	}
	poll := r.Poll
	if poll <= 0 {
		poll = 20 * time.Millisecond
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	interrupt := ctx.Done()
	var force <-chan time.Time
	for running := true; running; {
		select {
		case <-waited:
			running = false
		case <-hard:
			hard = nil
			if c.killed == notKilled {
				c.killed = killedTime
			}
			cmd.Process.Kill()
		case <-tick.C:
			rss, ok := residentSize(cmd.Process.Pid)
			if !ok {
				continue
			}
			c.peak = max(c.peak, rss)
			if r.Memory > 0 && rss > r.Memory && c.killed == notKilled {
				c.killed = killedMemory
				cmd.Process.Kill()
			}
		case <-interrupt:
			interrupt = nil
			c.interrupted = true
			terminate(cmd.Process)
			force = time.After(time.Second)
		case <-force:
			force = nil
			cmd.Process.Kill()
		}
	}
	c.wall = time.Since(start)
	ps := cmd.ProcessState
	c.cpu = ps.UserTime() + ps.SystemTime()
	c.peak = max(c.peak, peakResident(ps))
	c.exit, c.signal = ps.ExitCode(), exitSignal(ps)
	c.stdout, c.stdoutTruncated = stdout.buf, stdout.truncated
	c.stderr = stderr.String()
	return c, nil
}

// capBuffer keeps the first max bytes written to it.
type capBuffer struct {
	buf       []byte
	max       int
	truncated bool
}

func (b *capBuffer) Write(p []byte) (int, error) {
	if room := b.max - len(b.buf); room < len(p) {
		b.truncated = true
		b.buf = append(b.buf, p[:max(room, 0)]...)
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	return len(p), nil
}

// tailBuffer keeps the last max bytes written to it (about: it trims
// when it holds twice as much).
type tailBuffer struct {
	buf []byte
	max int
	cut bool // the start was dropped
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if len(b.buf) > 2*b.max {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.max:]...)
		b.cut = true
	}
	return len(p), nil
}

// String returns the tail, from the start of a line when it was cut.
func (b *tailBuffer) String() string {
	s := b.buf
	if len(s) > b.max || b.cut {
		s = s[max(len(s)-b.max, 0):]
		if i := strings.IndexByte(string(s), '\n'); i >= 0 {
			s = s[i+1:]
		}
	}
	return string(s)
}
