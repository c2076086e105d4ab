package boolprog_test

import (
	"context"
	"errors"
	"testing"

	"boolprog"
)

// TestErrorProjection: a projection of a sequential program, and the
// reasons there is none, worded for the command's note.
func TestErrorProjection(t *testing.T) {
	const seqSrc = "decl g;\nvoid main() begin g := *; assert(g); end\n"
	const concSrc = "decl g;\nvoid t() begin g := T; end\nvoid main() begin start_thread t(); assert(!g); end\n"
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		src    string
		reason string // "": a projection
	}{
		{"sequential", context.Background(), seqSrc, ""},
		{"concurrent", context.Background(), concSrc, "the program is concurrent"},
		{"interrupted", cancelled, seqSrc, "interrupted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, err := boolprog.Load(context.Background(), func(context.Context) ([]byte, error) { return []byte(tc.src), nil }, boolprog.Options{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := src.Lower("", nil)
			if err != nil {
				t.Fatal(err)
			}
			proj, err := boolprog.ErrorProjection(tc.ctx, p, 0)
			var ne *boolprog.NoProjectionError
			switch {
			case tc.reason == "" && (err != nil || proj == nil):
				t.Fatalf("got %v; want a projection", err)
			case tc.reason != "" && (!errors.As(err, &ne) || ne.Reason != tc.reason):
				t.Fatalf("got %v; want a *NoProjectionError: %s", err, tc.reason)
			case tc.reason != "" && err.Error() != "no error projection: "+tc.reason:
				t.Fatalf("Error() = %q", err.Error())
			}
		})
	}
}
