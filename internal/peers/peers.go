// Package peers runs the reference tools of ../shared/peers (Mucke, the
// BDD-based mu-calculus checker Getafix used; Getafix's translator) for
// differential tests and side-by-side benchmarks. Nothing of the tools
// is part of boolprog: where they are missing, Find says so and callers
// skip.
package peers

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Find returns the path of the tool name (mucke, getafix) in
// shared/peers/bin beside the repository that contains dir (the
// repository sits beside shared/, see README), or "" when there is none.
func Find(dir, name string) string {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(dir, "..", "shared", "peers", "bin", name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return filepath.Clean(p)
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// Answer is what Mucke said about a model.
type Answer struct {
	Value   bool          // the last query's value
	CPU     time.Duration // user + system time of the process
	PeakRSS int64         // bytes
	Wall    time.Duration
	// Complaint is Mucke's first "***" line, when it answered all the
	// same (it warns "no definition for prototype" when a #size reaches
	// a relation declared but not yet defined, and goes on).
	Complaint string
}

// ErrNoAnswer is returned when Mucke ends without a value (a syntax or
// type error, a crash): the message is in the error.
var ErrNoAnswer = errors.New("mucke gave no answer")

// ErrCPULimit is returned when Mucke used up the CPU time it was given.
var ErrCPULimit = errors.New("mucke: CPU time limit")

// Mucke runs the Mucke binary bin on the model file and returns the
// value of its last query. ctx bounds the run (its error is returned
// when it ends the run); a positive cpu limits the process's CPU time
// instead (the shell's ulimit -t, in whole seconds), which on a loaded
// machine is the fair limit.
func Mucke(ctx context.Context, bin, model string, cpu time.Duration) (*Answer, error) {
	cmd := exec.CommandContext(ctx, bin, "-res", model)
	if cpu > 0 {
		secs := int64((cpu + time.Second - 1) / time.Second)
		cmd = exec.CommandContext(ctx, "/bin/sh", "-c", fmt.Sprintf(`ulimit -t %d && exec "$0" -res "$1"`, secs), bin, model)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	t0 := time.Now()
	err := cmd.Run()
	a := &Answer{Wall: time.Since(t0)}
	a.CPU, a.PeakRSS = Usage(cmd.ProcessState)
	if ctx.Err() != nil {
		return a, ctx.Err()
	}
	if cpu > 0 && a.CPU >= cpu*9/10 && err != nil { // killed at the limit (SIGXCPU), as accounted
		return a, ErrCPULimit
	}
	value, found, complaint := parse(out.Bytes())
	if !found {
		if complaint == "" && err != nil {
			complaint = err.Error()
		}
		return a, fmt.Errorf("%w: %s", ErrNoAnswer, complaint)
	}
	a.Value, a.Complaint = value, complaint
	return a, nil
}

// parse reads Mucke's output: the value follows a line ": is"; errors
// start with "***".
func parse(out []byte) (value, found bool, complaint string) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	next := false
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "***") && complaint == "" {
			complaint = line
		}
		if next {
			v := strings.TrimSpace(strings.TrimPrefix(line, ":"))
			if v == "true" || v == "false" {
				value, found = v == "true", true
			}
			next = false
			continue
		}
		next = line == ": is"
	}
	return value, found, complaint
}
