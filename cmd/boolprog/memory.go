package main

import (
	"flag"

	"boolprog/internal/memlimit"
)

// memoryDoc is the help of --memory of the commands that run engines.
const memoryDoc = "memory the run may use, e.g. 512M, 1.5G (0: no limit); the Go collector's soft limit is 80% of it, the BDD node tables' budget 55% and the explicit engine's (its states in the Go heap) 70%: past them, UNKNOWN: memory limit (default: the smallest of the address-space limit (ulimit -v), the cgroup's limit and the physical memory)"

// memoryFlag is --memory: the process's memory limit, applied once before
// any engine runs (internal/memlimit).
type memoryFlag struct{ memlimit.Flag }

func (m *memoryFlag) register(fs *flag.FlagSet) { fs.Var(&m.Flag, "memory", memoryDoc) }

// apply applies the limit given, or the detected one.
func (m *memoryFlag) apply() { m.Apply() }
