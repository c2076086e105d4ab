package batch

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A results directory of a Slurm batch holds:
//
//	batch.json        the tasks and their settings (slurmSetup)
//	jobs              one line per submission: "K JOBID"
//	plan-K.json       submission K's tasks per array index (slurmPlan)
//	submit-K.sh       submission K's sbatch script
//	records/N.json    task N's record, written once, atomically
//	logs/J_I.out      array task J_I's output: the worker's "start N" and
//	                  "end N" lines and slurmstepd's messages
const (
	setupName   = "batch.json"
	jobsName    = "jobs"
	recordsName = "records"
	logsName    = "logs"
)

// slurmSetup is what every submission to a results directory shares: the
// tasks and the settings their records depend on. A resubmission must
// give the same, so that the records of one directory are of one batch.
type slurmSetup struct {
	Tasks   []Task        `json:"tasks"`
	Timeout time.Duration `json:"timeout_ns"`
	Grace   time.Duration `json:"grace_ns"`
	Memory  int64         `json:"memory_bytes"`
	Engine  string        `json:"engine,omitempty"`
	Flags   []string      `json:"flags,omitempty"`
}

// slurmPlan is one submission: the array indices' tasks (numbers from 1
// into the setup's tasks) and how many of them an array task runs at once.
type slurmPlan struct {
	Jobs  int     `json:"jobs"`
	Tasks [][]int `json:"tasks"`
}

// setupOf returns the setup of r's run of tasks.
func setupOf(r *Runner, tasks []Task) *slurmSetup {
	return &slurmSetup{Tasks: tasks, Timeout: r.Timeout, Grace: r.Grace, Memory: r.Memory, Engine: r.Engine, Flags: r.Flags}
}

// sameSetup compares two setups as their JSON forms (nil and empty lists
// alike).
func sameSetup(a, b *slurmSetup) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	var x, y any
	json.Unmarshal(ja, &x)
	json.Unmarshal(jb, &y)
	return reflect.DeepEqual(x, y)
}

// readSetup reads the setup of results directory dir.
func readSetup(dir string) (*slurmSetup, error) {
	b, err := os.ReadFile(filepath.Join(dir, setupName))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%s is not the results directory of a Slurm batch (no %s)", dir, setupName)
		}
		return nil, err
	}
	var s slurmSetup
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, setupName), err)
	}
	return &s, nil
}

// writeJSONFile writes v as indented JSON to path, atomically.
func writeJSONFile(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "\t")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(b, '\n'), true)
}

// writeFileAtomic writes b to path through a temporary file beside it, so
// that a reader on any node sees the whole file or none. With replace
// false an existing path is left alone and fs.ErrExist returned: the file
// is linked into place, which fails if it exists (on a filesystem without
// hard links it is renamed, after a check).
func writeFileAtomic(path string, b []byte, replace bool) error {
	host, _ := os.Hostname()
	tmp := fmt.Sprintf("%s.tmp-%s-%d", path, host, os.Getpid())
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	defer os.Remove(tmp)
	if replace {
		return os.Rename(tmp, path)
	}
	if err := os.Link(tmp, path); err == nil || errors.Is(err, fs.ErrExist) {
		return err
	}
	if _, err := os.Lstat(path); err == nil {
		return fs.ErrExist
	}
	return os.Rename(tmp, path)
}

// recordPath is the file of task n's record.
func recordPath(dir string, n int) string {
	return filepath.Join(dir, recordsName, strconv.Itoa(n)+".json")
}

// writeRecord stores rec as its task's record; a task that has one keeps
// it (fs.ErrExist).
func writeRecord(dir string, rec *Record) error {
	return writeRecordFile(recordPath(dir, rec.N), rec, false)
}

// writeRecordFile writes rec to path atomically (see writeFileAtomic).
func writeRecordFile(path string, rec *Record, replace bool) error {
	var b bytes.Buffer
	if err := rec.WriteJSON(&b); err != nil {
		return err
	}
	return writeFileAtomic(path, b.Bytes(), replace)
}

// readRecords reads the records in dir that are not in have, keyed by
// task number; numbers outside 1..total are ignored, and so are files
// being written.
func readRecords(dir string, total int, have map[int]*Record) (map[int]*Record, error) {
	ents, err := os.ReadDir(filepath.Join(dir, recordsName))
	if err != nil {
		return nil, err
	}
	out := map[int]*Record{}
	for _, e := range ents {
		num, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok {
			continue
		}
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 || n > total || have[n] != nil {
			continue
		}
		r, err := readRecordFile(filepath.Join(dir, recordsName, e.Name()))
		if err != nil {
			return nil, err
		}
		r.N = n
		out[n] = r
	}
	return out, nil
}

// submission is one line of the jobs file: plan K was submitted as job ID.
type submission struct {
	K  int
	ID string
}

// readJobs reads the submissions of dir, oldest first.
func readJobs(dir string) ([]submission, error) {
	b, err := os.ReadFile(filepath.Join(dir, jobsName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []submission
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		k, err := strconv.Atoi(f[0])
		if len(f) != 2 || err != nil {
			return nil, fmt.Errorf("%s:%d: want K JOBID, not %q", filepath.Join(dir, jobsName), i+1, line)
		}
		out = append(out, submission{K: k, ID: f[1]})
	}
	return out, nil
}

// appendJob records that plan k was submitted as job id.
func appendJob(dir string, k int, id string) error {
	f, err := os.OpenFile(filepath.Join(dir, jobsName), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, "%d %s\n", k, id)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// planPath is the file of plan k.
func planPath(dir string, k int) string {
	return filepath.Join(dir, fmt.Sprintf("plan-%d.json", k))
}

// readPlan reads a plan file.
func readPlan(path string) (*slurmPlan, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p slurmPlan
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &p, nil
}

// nextPlan returns the number of the next plan of dir: one more than the
// largest plan file's.
func nextPlan(dir string) (int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	k := 0
	for _, e := range ents {
		if s, ok := strings.CutPrefix(e.Name(), "plan-"); ok {
			if n, err := strconv.Atoi(strings.TrimSuffix(s, ".json")); err == nil {
				k = max(k, n)
			}
		}
	}
	return k + 1, nil
}

// chunks splits the task numbers into array indices of at most size
// tasks each.
func chunks(numbers []int, size int) [][]int {
	size = max(size, 1)
	var out [][]int
	for len(numbers) > 0 {
		n := min(size, len(numbers))
		out = append(out, numbers[:n:n])
		numbers = numbers[n:]
	}
	return out
}

// logPath is the output file of array task id_index.
func logPath(dir, id string, index int) string {
	return filepath.Join(dir, logsName, fmt.Sprintf("%s_%d.out", id, index))
}

// The worker's lines in its array task's output, which say which tasks
// it started and ended.
const (
	workerStart = "boolprog-worker: start "
	workerEnd   = "boolprog-worker: end "
)

// startedTasks reads the task numbers that an array task's output says
// were started and not ended. A missing output says nothing.
func startedTasks(out string) []int {
	open := map[int]bool{}
	for _, line := range strings.Split(out, "\n") {
		if s, ok := strings.CutPrefix(line, workerStart); ok {
			if n, err := strconv.Atoi(strings.Fields(s + " x")[0]); err == nil {
				open[n] = true
			}
		}
		if s, ok := strings.CutPrefix(line, workerEnd); ok {
			if n, err := strconv.Atoi(strings.Fields(s + " x")[0]); err == nil {
				delete(open, n)
			}
		}
	}
	var ns []int
	for n := range open {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	return ns
}

// readRecordFile reads one record file.
func readRecordFile(path string) (*Record, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &r, nil
}
