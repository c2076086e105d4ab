// Command serve builds the playground into a temporary directory (or takes
// one already built) and serves it over HTTP.
//
//	go run ./playground/serve [-addr localhost:8080] [-dir DIR]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"

	"boolprog/playground"
)

func main() {
	addr := flag.String("addr", "localhost:8080", "address to listen on")
	dir := flag.String("dir", "", "serve this built site instead of building one")
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(1)
	}
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "boolprog-playground-")
		if err != nil {
			log.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		if _, err := playground.Build(context.Background(), playground.Config{Out: tmp, Log: os.Stderr}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		*dir = tmp
	}
	fmt.Fprintf(os.Stderr, "serving the playground at http://%s/ (Ctrl-C stops)\n", *addr)
	if err := http.ListenAndServe(*addr, playground.Handler(*dir)); err != nil {
		log.Fatal(err)
	}
}
