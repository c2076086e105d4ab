// Command serve builds the playground into a temporary directory (or takes
// one already built) and serves it over HTTP until SIGINT or SIGTERM, when
// it removes the temporary directory.
//
//	go run ./playground/serve [-addr localhost:8080] [-dir DIR]
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"boolprog/playground"
)

func main() {
	os.Exit(run())
}

func run() int {
	addr := flag.String("addr", "localhost:8080", "address to listen on")
	dir := flag.String("dir", "", "serve this built site instead of building one")
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "boolprog-playground-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer os.RemoveAll(tmp)
		if _, err := playground.Build(ctx, playground.Config{Out: tmp, Log: os.Stderr}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		*dir = tmp
	}
	srv := &http.Server{Addr: *addr, Handler: playground.Handler(*dir)}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Fprintf(os.Stderr, "serving the playground at http://%s/ (Ctrl-C stops)\n", *addr)
	if err := srv.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
