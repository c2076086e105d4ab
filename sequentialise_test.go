package boolprog_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"boolprog"
)

// TestWriteSequentialisation: the sequentialisation checks on its own,
// and what cannot be sequentialised is refused with the error's kind.
func TestWriteSequentialisation(t *testing.T) {
	const concSrc = "decl g;\nvoid t() begin g := T; end\nvoid main() begin start_thread t(); assert(!g); end\n"
	const seqSrc = "decl g;\nvoid main() begin assert(g); end\n"
	for _, tc := range []struct {
		name   string
		src    string
		opts   boolprog.SeqOptions
		head   string // the output's start
		input  string // an *InputError with this text
		option string // an *OptionError with this message
	}{
		{name: "eager", src: concSrc, opts: boolprog.SeqOptions{Rounds: 2}, head: "// The eager sequentialisation of t.bp for 2 round-robin rounds"},
		{name: "lazy", src: concSrc, opts: boolprog.SeqOptions{Rounds: 1, Lazy: true}, head: "// The lazy sequentialisation of t.bp for 1 round-robin rounds"},
		{name: "no rounds", src: concSrc, opts: boolprog.SeqOptions{}, option: "want at least 1 round, not 0"},
		{name: "no rounds, command", src: concSrc, opts: boolprog.SeqOptions{CommandLine: true}, option: "--rounds must be at least 1 and --max-threads not negative"},
		{name: "negative threads", src: concSrc, opts: boolprog.SeqOptions{Rounds: 1, MaxThreads: -1}, option: "negative thread bound -1"},
		{name: "sequential", src: seqSrc, opts: boolprog.SeqOptions{Rounds: 1, CommandLine: true},
			input: "t.bp: the program is sequential: it has no threads to sequentialise (name them with --threads)"},
		{name: "too few threads", src: concSrc, opts: boolprog.SeqOptions{Rounds: 1, MaxThreads: 1},
			input: "t.bp: MaxThreads 1: the program starts with 1 threads and creates 0 more at most"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := boolprog.Options{Filename: "t.bp"}
			src, err := boolprog.Load(context.Background(), func(context.Context) ([]byte, error) { return []byte(tc.src), nil }, opts)
			if err != nil {
				t.Fatal(err)
			}
			p, err := src.Lower("", nil)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			err = boolprog.WriteSequentialisation(&buf, "t.bp", p, tc.opts)
			var in *boolprog.InputError
			var oe *boolprog.OptionError
			switch {
			case tc.input != "":
				if !errors.As(err, &in) || in.Error() != tc.input {
					t.Fatalf("got %v; want the input error %q", err, tc.input)
				}
			case tc.option != "":
				if !errors.As(err, &oe) || oe.Msg != tc.option {
					t.Fatalf("got %v; want the option error %q", err, tc.option)
				}
			case err != nil:
				t.Fatal(err)
			case !strings.HasPrefix(buf.String(), tc.head):
				t.Fatalf("output starts %.100q; want %q", buf.String(), tc.head)
			default:
				// The text checks on its own, as a sequential program.
				res, err := boolprog.Check(context.Background(), buf.Bytes(), boolprog.Options{Filename: "seq.bp"})
				if err != nil || res.Verdict != boolprog.Unsafe {
					t.Fatalf("checking the sequentialisation: %v, %v; want unsafe", res, err)
				}
			}
		})
	}
}
