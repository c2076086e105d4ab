// Package testflags is the one switch between the tiers of the test
// suite, for every package's tests:
//
//   - short (go test -short): the quickest look, a few programs per
//     differential;
//   - default (go test): what a developer runs after each change — every
//     test, the differentials on tens of programs, the conformance
//     suites without their programs at the limits of 63 and 64 variables;
//     the whole module in about a minute on two cores;
//   - long (go test ./pkg -long, or BOOLPROG_LONG=1 go test ./... for
//     the whole module, since a package that does not import this one has
//     no -long flag): the full differentials (1,000 and more random
//     programs), the programs at the limits, the slow benchmarks; CI runs
//     it in its own step.
//
// A test asks Long, or sizes its work with N.
package testflags

import (
	"flag"
	"os"
	"testing"
)

var long = flag.Bool("long", false, "run the long tier: the full differentials, the conformance programs at the limits and the slow benchmarks (also BOOLPROG_LONG=1)")

// Long reports whether the long tier runs: -long or BOOLPROG_LONG=1.
func Long() bool { return *long || os.Getenv("BOOLPROG_LONG") == "1" }

// N returns the size for the tier that runs: long with Long, short with
// -short (and not Long), def otherwise.
func N(short, def, long int) int {
	switch {
	case Long():
		return long
	case testing.Short():
		return short
	}
	return def
}
