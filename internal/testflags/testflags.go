// Package testflags is the one switch between the tiers of the test
// suite, for every package's tests:
//
//   - short (go test -short): the quickest look, a few programs per
//     differential;
//   - default (go test): what a developer runs after each change — every
//     test, the differentials on tens of programs, the conformance suites
//     without their programs at the limits of 63 and 64 variables; the
//     whole module in about a minute and a half on two cores;
//   - long (-long, or BOOLPROG_LONG=1): the 1,000-program differentials,
//     the conformance programs at the limits and the slow benchmarks —
//     what CI runs in its own step, minutes;
//   - full (-full, or BOOLPROG_LONG=full): the long tier with the
//     differentials at their largest (5,000 programs for summary, 1,000
//     concurrent programs), measurements that take hours.
//
// For the whole module use the environment variable (BOOLPROG_LONG=1 go
// test ./...): a package whose tests do not import this one has no -long
// flag. A test asks Long or Full, or sizes its work with N.
package testflags

import (
	"flag"
	"os"
	"testing"
)

var (
	long = flag.Bool("long", false, "run the long tier: the 1,000-program differentials, the conformance programs at the limits and the slow benchmarks (also BOOLPROG_LONG=1)")
	full = flag.Bool("full", false, "run the full tier: the long tier with the differentials at their largest, for hours (also BOOLPROG_LONG=full)")
)

// Long reports whether the long (or the full) tier runs.
func Long() bool {
	env := os.Getenv("BOOLPROG_LONG")
	return *long || *full || env == "1" || env == "full"
}

// Full reports whether the full tier runs.
func Full() bool { return *full || os.Getenv("BOOLPROG_LONG") == "full" }

// N returns the size for the tier that runs: full with Full, long with
// Long, short with -short, def otherwise.
func N(short, def, long, full int) int {
	switch {
	case Full():
		return full
	case Long():
		return long
	case testing.Short():
		return short
	}
	return def
}
