//go:build !unix

package main

// cpuSeconds cannot tell the process's CPU time here: -1.
func cpuSeconds() float64 { return -1 }
