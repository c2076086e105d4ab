package batch

import (
	"regexp"
	"strconv"
	"strings"
)

// arrayState is what Slurm says about one array task: its job state
// (PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT, OUT_OF_MEMORY,
// NODE_FAIL, CANCELLED, PREEMPTED, ...) and a detail (a reason or a
// message of slurmstepd's).
type arrayState struct {
	State  string
	Detail string
}

// activeStates are the job states of an array task that has not ended.
var activeStates = map[string]bool{
	"PENDING": true, "RUNNING": true, "CONFIGURING": true, "COMPLETING": true,
	"SUSPENDED": true, "REQUEUED": true, "REQUEUE_FED": true, "REQUEUE_HOLD": true,
	"RESIZING": true, "SIGNALING": true, "STAGE_OUT": true, "STOPPED": true,
}

// taskOutcome says what an ended array task's state means for a task of
// it that was running when the array task ended (started) and has no
// record: the verdict and whether that verdict is the task's outcome
// (kept, so a resubmission does not run it again) or the cluster's
// accident (CANCELLED, NODE_FAIL, PREEMPTED...: reported as UNKNOWN and
// run again by a resubmission).
func taskOutcome(state string) (Verdict, bool) {
	switch state {
	case "TIMEOUT", "DEADLINE":
		return Timeout, true
	case "OUT_OF_MEMORY":
		return OutOfMemory, true
	}
	return Unknown, false
}

// parseSqueue reads `squeue -h -r -t all -j ID -o %K|%T|%r`: an array
// task's index, state and reason per line.
func parseSqueue(out string) map[int]arrayState {
	states := map[int]arrayState{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(strings.TrimSpace(line), "|")
		if len(f) < 2 {
			continue
		}
		i, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		st := arrayState{State: f[1]}
		if len(f) > 2 && f[2] != "None" {
			st.Detail = f[2]
		}
		states[i] = st
	}
	return states
}

// sacctRange matches a pending array's JobID in sacct: 12_[3-5,7%2].
var sacctRange = regexp.MustCompile(`^\d+_\[([0-9,\-]+)(%\d+)?\]$`)

// parseSacct reads `sacct -n -P -X -j ID -o JobID,State,Reason`: the
// array tasks' states. A State such as "CANCELLED by 1000" keeps its
// first word; a pending range stands for each of its indices.
func parseSacct(out, id string) map[int]arrayState {
	states := map[int]arrayState{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(strings.TrimSpace(line), "|")
		if len(f) < 2 || !strings.HasPrefix(f[0], id+"_") {
			continue
		}
		st := arrayState{State: strings.Fields(f[1] + " ?")[0]}
		if len(f) > 2 && f[2] != "None" {
			st.Detail = f[2]
		}
		if m := sacctRange.FindStringSubmatch(f[0]); m != nil {
			for _, part := range strings.Split(m[1], ",") {
				lo, hi, ok := strings.Cut(part, "-")
				if !ok {
					hi = lo
				}
				a, err1 := strconv.Atoi(lo)
				b, err2 := strconv.Atoi(hi)
				for i := a; err1 == nil && err2 == nil && i <= b; i++ {
					states[i] = st
				}
			}
			continue
		}
		if i, err := strconv.Atoi(strings.TrimPrefix(f[0], id+"_")); err == nil {
			states[i] = st
		}
	}
	return states
}

// outputState reads the messages that slurmstepd writes into an array
// task's output when it ends the task: the memory limit (jobacct_gather's
// OverMemoryKill, whose job state is only FAILED, or the cgroup's OOM
// killer), the time limit, a node failure, a preemption, a cancellation.
// It is how the states are known on a cluster without accounting once
// slurmctld has forgotten the job, and it names the memory limit. It
// returns "" when the output says none of these.
func outputState(out string) arrayState {
	var st arrayState
	for _, line := range strings.Split(out, "\n") {
		if !strings.HasPrefix(line, "slurmstepd") {
			continue
		}
		msg := line
		if i := strings.Index(line, "error: "); i >= 0 {
			msg = line[i+len("error: "):]
		}
		msg = strings.TrimSpace(msg)
		switch {
		case strings.Contains(msg, "exceeded memory limit") || strings.Contains(msg, "oom-kill event") || strings.Contains(msg, "oom_kill event"):
			if st.State != "OUT_OF_MEMORY" || st.Detail == "" {
				st = arrayState{"OUT_OF_MEMORY", msg}
			}
		case strings.Contains(msg, "Exceeded job memory limit") || strings.Contains(msg, "Exceeded step memory limit"):
			if st.State != "OUT_OF_MEMORY" {
				st = arrayState{"OUT_OF_MEMORY", msg}
			}
		case st.State == "OUT_OF_MEMORY":
			// the kill that follows the memory message says CANCELLED
		case strings.Contains(msg, "DUE TO TIME LIMIT"):
			st = arrayState{"TIMEOUT", msg}
		case strings.Contains(msg, "DUE TO NODE FAILURE"):
			st = arrayState{"NODE_FAIL", msg}
		case strings.Contains(msg, "DUE TO PREEMPTION"):
			st = arrayState{"PREEMPTED", msg}
		case strings.Contains(msg, " CANCELLED AT "):
			st = arrayState{"CANCELLED", msg}
		}
	}
	return st
}

// mergeState combines what slurmctld (or the accounting) says about an
// ended array task with what its output says: the output names the
// memory limit behind a FAILED state, and is all there is once the job
// is forgotten.
func mergeState(ctl arrayState, known bool, out arrayState) arrayState {
	switch {
	case !known || ctl.State == "":
		return out
	case out.State == "OUT_OF_MEMORY" && (ctl.State == "FAILED" || ctl.State == "OUT_OF_MEMORY" || ctl.State == "CANCELLED"):
		return out
	case out.State != "" && out.State == ctl.State && ctl.Detail == "":
		return out
	}
	return ctl
}
