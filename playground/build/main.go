// Command build writes the playground site: the checker compiled to
// WebAssembly, Go's wasm_exec.js, the page and its example programs.
//
//	go run ./playground/build -o DIR
//
// Run it inside the repository (the module's root is found with `go env
// GOMOD`); the SATABS/Boppo examples come from ../shared beside it. Serve
// DIR with any static server (.wasm as application/wasm), or use
// `go run ./playground/serve`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"boolprog/playground"
)

func main() {
	out := flag.String("o", "", "directory to write the site into (required)")
	shared := flag.String("shared", "", "directory holding benchmarks/satabs-boppo (default: ../shared beside the repository)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go run ./playground/build -o DIR [-shared DIR]\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(1)
	}
	if _, err := playground.Build(context.Background(), playground.Config{Out: *out, Shared: *shared, Log: os.Stderr}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
