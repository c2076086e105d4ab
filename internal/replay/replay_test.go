package replay

import (
	"context"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	_ "boolprog/engine/explicit"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// TestJudge: a trace that replays keeps its Unsafe verdict; one that does
// not becomes Unknown with an internal error; a context that ends during
// the replay keeps Unsafe with a note naming the time limit or the
// interruption; other results pass untouched.
func TestJudge(t *testing.T) {
	const src = "decl g;\nvoid main() begin g := T; g := !g; g := !g; assert(!g); end\n"
	p := testsuite.Lower(t, "j.bp", src, "")
	info, _ := engine.Lookup("explicit")
	eng, err := info.New()
	if err != nil {
		t.Fatal(err)
	}
	unsafe := engine.Run(context.Background(), eng, p, engine.Query{})
	if unsafe.Verdict != result.Unsafe || len(unsafe.Trace.Steps) < 2 {
		t.Fatalf("explicit: %s", unsafe.Banner())
	}
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()
	interrupted, stop := context.WithCancelCause(context.Background())
	stop(engine.ErrInterrupted)
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		res     *result.Result
		verdict result.Verdict
		reason  string // prefix of the reason
		note    string // prefix of the note
	}{
		{"replayed", context.Background(), unsafe, result.Unsafe, "", ""},
		{"does not replay", context.Background(), &result.Result{Verdict: result.Unsafe, Trace: &result.Trace{Steps: unsafe.Trace.Steps[1:]}}, result.Unknown, engine.InternalErrorPrefix + "the engine's trace does not replay: ", ""},
		{"time limit", expired, unsafe, result.Unsafe, "", "the time limit cut the replay"},
		{"interrupted", interrupted, unsafe, result.Unsafe, "", "the interruption cut the replay"},
		{"safe untouched", expired, &result.Result{Verdict: result.Safe}, result.Safe, "", ""},
		{"cut trace untouched", context.Background(), &result.Result{Verdict: result.Unsafe, TraceCut: true}, result.Unsafe, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, note := Judge(tc.ctx, p, tc.res)
			if got.Verdict != tc.verdict || !strings.HasPrefix(got.Reason, tc.reason) || !strings.HasPrefix(note, tc.note) || (tc.note == "") != (note == "") {
				t.Errorf("verdict %v reason %q note %q, want %v %q %q", got.Verdict, got.Reason, note, tc.verdict, tc.reason, tc.note)
			}
		})
	}
}
