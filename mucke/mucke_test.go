package mucke

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"boolprog/bdd"
	"boolprog/engine"
	"boolprog/fix"
)

// TestEvaluate: the query's value, a file without a query, input errors,
// and the wording of unknown outcomes.
func TestEvaluate(t *testing.T) {
	const reach = "enum N {0..3};\nmu bool R(N x) ( x = 0 | exists N y. (R(y) & x = 1) );\n"
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	readErr := errors.New("no such file")
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		src     string
		read    error
		opts    Options
		value   bool // the query's value when decided
		noQuery bool
		reason  string // prefix of the reason when unknown
		errText string // the error's text when refused
	}{
		{name: "true", src: reach + "R(1);\n", value: true},
		{name: "false", src: reach + "R(2);\n", value: false},
		{name: "no query", src: "bool R(bool x) ( x );\n", noQuery: true},
		{name: "type error", src: "bool R(bool x) ( y );\n", errText: "t.mu:1:18: undefined: y"},
		{name: "unreadable", read: readErr, errText: "no such file"},
		{name: "no fixed point", src: "mu bool A(bool x) (!A(x));\nA(0);\n", reason: "A: no fixed point: its values repeat"},
		{name: "negative limit", src: reach, opts: Options{MaxNodes: -1}, errText: "limits must not be negative"},
		{name: "interrupted", ctx: cancelled, src: reach + "R(1);\n", reason: "interrupted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			read := func(context.Context) ([]byte, error) { return []byte(tc.src), tc.read }
			out, err := Evaluate(ctx, "t.mu", read, tc.opts)
			switch {
			case tc.errText != "":
				if err == nil || err.Error() != tc.errText {
					t.Fatalf("got %+v, %v; want the error %q", out, err, tc.errText)
				}
				return
			case err != nil:
				t.Fatalf("error %v", err)
			case tc.reason != "":
				if out.Decided() || !strings.HasPrefix(out.Reason, tc.reason) {
					t.Fatalf("reason %q; want %q...", out.Reason, tc.reason)
				}
				return
			case !out.Decided():
				t.Fatalf("unknown: %s", out.Reason)
			case out.Answer.HasQuery == tc.noQuery:
				t.Fatalf("HasQuery %v", out.Answer.HasQuery)
			case !tc.noQuery && out.Answer.Value != tc.value:
				t.Fatalf("value %v; want %v", out.Answer.Value, tc.value)
			}
		})
	}
}

// TestReason: the limits' wording, as `boolprog mucke` prints it after
// "UNKNOWN: ".
func TestReason(t *testing.T) {
	timedOut, cancel := context.WithDeadlineCause(context.Background(), time.Now(), engine.ErrTimeout)
	defer cancel()
	<-timedOut.Done()
	bg := context.Background()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		opts Options
		want string
	}{
		{"timeout", timedOut, context.DeadlineExceeded, Options{Timeout: 5 * time.Second}, "timeout (5s)"},
		{"built-in node limit", bg, bdd.ErrNodeLimit, Options{}, "BDD node limit reached (the built-in limit)"},
		{"node limit", bg, bdd.ErrNodeLimit, Options{MaxNodes: 1000}, "BDD node limit reached (1000 nodes)"},
		{"no fixed point", bg, fix.ErrNoFixedPoint, Options{}, "no fixed point"},
		{"internal", bg, errors.New("boom"), Options{}, "internal error: boom"},
	} {
		if got := reason(tc.ctx, tc.err, tc.opts); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
