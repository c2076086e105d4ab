// Package batch runs many verification tasks, each a `boolprog check` of
// one program, in parallel and in isolation, and scores their answers
// against expected verdicts: what `boolprog batch` does.
//
// # Tasks
//
// A task is one program with its question (the target label; failing
// assertions are always errors), optionally the expected verdict, the
// engine, a time limit and more check flags. Tasks come from a task list
// ([ParseList]), from a directory ([FromDir]: every .bp file below it, with
// the expected verdicts the benchmark collections record), or from a .bp
// file named alone.
//
// A task list is a text file with one task per line; blank lines and
// lines whose first token starts with '#' are ignored, and '#' at the
// start of a later token begins a comment to the end of the line:
//
//	# PROGRAM [KEY=VALUE ...] [-- CHECK-FLAG ...]
//	examples/bebop-fig1.bp target=R expect=unsafe
//	big.bp expect=safe engine=explicit timeout=10s -- --max-vars 30
//	"dir with spaces/p.bp" expect=safe
//	{"file": "conc.bp", "expect": "safe", "flags": ["--bound", "cs:2"]}
//
// The keys are target (alias label: the error label), expect (safe or
// unsafe; also successful/failed, true/false), engine, and timeout (a Go
// duration that replaces the batch's limit for this task). A token that
// starts with a double quote is a Go string literal. After "--" come flags
// of `boolprog check` for this task, passed on unchanged, except the ones
// the batch sets itself (--format, --timeout, --engine, --target/-l,
// --trace-file, -q, -v). A line that starts with '{' is the same task as a
// JSON object with the keys file, target, expect, engine, timeout and flags
// (an array of strings). Relative program paths are relative to the
// directory of the task list. A malformed line is an error at its
// file:line:col; the list is then not run at all.
//
// # Isolation
//
// Each task runs as a child process (the boolprog binary itself, `check
// --format json`), so that a crash or an exhausted memory of one task is
// recorded as such and the batch goes on. The child gets the time limit as
// its own --timeout, so that it answers UNKNOWN with the statistics so
// far; if it has not ended a grace period after the limit, it is killed
// and the task is a TIMEOUT all the same. Memory is limited by watching
// the child's resident set size in /proc (Linux) every few milliseconds
// and killing it past the limit (OUT OF MEMORY); the child's GOMEMLIMIT is
// set to 90% of the limit so that its garbage collector works harder
// before the watcher steps in. A child that ends without a report (a
// panic, a signal) is a CRASH, with its exit status and the tail of its
// standard error.
//
// # Records
//
// Every task gives one [Record], written as one JSON line: the task's
// program, target, engine, verdict, bound, reason, expected verdict, score
// (correct, wrong, or bounded for a bounded SUCCESSFUL where a violation
// was expected), wall and CPU time, peak memory, the child's exit status.
// Verdicts in lower case are the checker's answers (safe, unsafe,
// unknown); in upper case, as BenchExec writes them, a run that gave no
// answer: TIMEOUT, OUT OF MEMORY, CRASH, ERROR (bad input or a program
// file that cannot be read: the task's reason says which).
// [Summary] tabulates the records, wrong answers first.
//
// # Slurm
//
// [Slurm] runs the same tasks on a Slurm cluster as one array job: each
// array task runs a chunk of them with the same binary (`boolprog batch
// --slurm-worker`, which uses a [Runner]) and writes one record per task
// into a results directory on the shared filesystem, atomically and
// once; waiting for the job gives the same records and summary as a local
// run, with the tasks that Slurm itself ended (its time or memory limit,
// a node failure, a cancellation) judged by their array tasks' states.
package batch
