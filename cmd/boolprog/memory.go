package main

import (
	"flag"

	"boolprog/internal/memlimit"
)

// memoryDoc is the help of --memory of the commands that run engines.
const memoryDoc = "memory the run may use, e.g. 512M, 1.5G (0: no limit); the Go collector's soft limit is 80% of it and the BDD node tables' budget 55%: past it, UNKNOWN: memory limit (default: the smallest of the address-space limit (ulimit -v), the cgroup's limit and the physical memory)"

// memoryFlag is --memory: the process's memory limit, applied once before
// any engine runs (internal/memlimit).
type memoryFlag struct {
	limit memlimit.Limit
	set   bool
}

func (m *memoryFlag) register(fs *flag.FlagSet) { fs.Var(m, "memory", memoryDoc) }

func (m *memoryFlag) String() string {
	if !m.set {
		return ""
	}
	return m.limit.String()
}

func (m *memoryFlag) Set(v string) error {
	n, err := memlimit.ParseSize(v)
	if err != nil {
		return err
	}
	m.limit, m.set = memlimit.Limit{Bytes: n, Source: "--memory"}, true
	return nil
}

// apply makes the flag's limit, or without the flag the one the machine
// and the process's limits give (memlimit.Detect), the process's memory
// limit.
func (m *memoryFlag) apply() {
	l := m.limit
	if !m.set {
		l = memlimit.Detect()
	}
	memlimit.Apply(l)
}
