// Package protocol is what the playground's page and its WebAssembly
// checker say to each other: a Request (the program and the options chosen
// on the page) as JSON in, a Response (the command's JSON report and its
// text output) as JSON out. Handle is the whole checker side; it is plain
// Go, so that tests run it natively too and compare with the browser.
package protocol

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"boolprog"
	"boolprog/result"
	"boolprog/syntax"
)

// Request is one check asked by the page.
type Request struct {
	Source      string            `json:"source"`
	Filename    string            `json:"filename,omitempty"` // default boolprog.DefaultFilename
	Target      string            `json:"target,omitempty"`   // default SLIC_ERROR
	Engine      string            `json:"engine,omitempty"`   // default: the command's choice
	EngineFlags map[string]string `json:"engine_flags,omitempty"`
	TimeoutMS   int64             `json:"timeout_ms,omitempty"` // 0: none
	Bound       string            `json:"bound,omitempty"`      // "", "none", "cs:K" or "rounds:K"
	MaxNodes    int               `json:"max_nodes,omitempty"`
	Dialect     string            `json:"dialect,omitempty"` // auto (default), cprover or getafix
	Threads     string            `json:"threads,omitempty"` // e.g. "f,g,g"
	// InterleaveAtomicCalls is the command's --interleave-atomic-calls.
	InterleaveAtomicCalls bool `json:"interleave_atomic_calls,omitempty"`
}

// Response is the answer to a Request.
type Response struct {
	// Report is the command's JSON report (boolprog check --format json):
	// the verdict, reason, bound, property, trace and stats, or the input
	// or usage errors that prevented a verdict.
	Report json.RawMessage `json:"report"`
	// Text is what the command prints with its default flags: warnings
	// and diagnostics (its standard error), then its standard output.
	Text string `json:"text"`
	// ExitCode is the command's: 0 safe, 10 unsafe, 5 unknown, 2 bad
	// input, 1 bad options.
	ExitCode int `json:"exit_code"`
	// CheckMS is the time Handle took, in milliseconds.
	CheckMS float64 `json:"check_ms"`
}

// Checker answers the page's requests and keeps the last result, whose
// HTML report the page may ask for next. Its zero value is ready to use;
// it is not safe for concurrent use (the page sends one request at a
// time).
type Checker struct {
	last *boolprog.Result
}

// Handle is the package's Handle, keeping the result for HTML.
func (c *Checker) Handle(req []byte) []byte {
	return handle(req, &c.last)
}

// HTML returns the last result as `boolprog check --format html` writes
// it (a self-contained page), or nil if the last request gave no verdict.
func (c *Checker) HTML() []byte {
	if c.last == nil {
		return nil
	}
	var b bytes.Buffer
	if err := c.last.WriteHTML(&b); err != nil {
		return nil
	}
	return b.Bytes()
}

// Handle decodes a Request, checks its program and encodes the Response.
// It never fails: a malformed request is answered like a usage error, and
// a panic (a bug outside the engines, whose panics engine.Run already
// turns into Unknown results) as an internal error, so that the
// WebAssembly checker survives it.
func Handle(req []byte) []byte {
	var last *boolprog.Result
	return handle(req, &last)
}

// handle is Handle, setting *last to the result (nil if none).
func handle(req []byte, last **boolprog.Result) []byte {
	start := time.Now()
	*last = nil
	var r Request
	var resp Response
	func() {
		defer func() {
			if p := recover(); p != nil {
				msg := fmt.Sprintf("internal error: %v", p)
				resp = Response{Report: report(result.ErrorReport(r.Filename, result.Message{Message: msg})), Text: msg + "\n", ExitCode: 1}
			}
		}()
		if err := json.Unmarshal(req, &r); err != nil {
			resp = usage("", fmt.Errorf("malformed request: %v", err))
		} else {
			resp, *last = check(context.Background(), &r)
		}
	}()
	resp.CheckMS = float64(time.Since(start).Microseconds()) / 1000
	b, err := json.Marshal(&resp)
	if err != nil { // cannot happen: every field marshals
		return []byte(`{"exit_code":1,"text":"internal error: ` + strings.ReplaceAll(err.Error(), `"`, `'`) + `"}`)
	}
	return b
}

// Check runs the check a Request asks for.
func Check(ctx context.Context, r *Request) Response {
	resp, _ := check(ctx, r)
	return resp
}

// check is Check, also returning the result (nil if there is no verdict).
func check(ctx context.Context, r *Request) (Response, *boolprog.Result) {
	opts, err := r.Options()
	name := opts.Filename
	if name == "" {
		name = boolprog.DefaultFilename
	}
	if err != nil {
		return usage(name, err), nil
	}
	res, err := boolprog.Check(ctx, []byte(r.Source), opts)
	var in *boolprog.InputError
	switch {
	case errors.As(err, &in):
		// The diagnostics as the command prints them.
		var text strings.Builder
		boolprog.WriteErrors(&text, in)
		return Response{Report: report(boolprog.ErrorReport(name, err)), Text: text.String(), ExitCode: 2}, nil
	case err != nil:
		return usage(name, err), nil
	}
	var text strings.Builder
	res.WriteWarnings(&text)
	res.WriteText(&text)
	return Response{Report: report(res.Report()), Text: text.String(), ExitCode: res.ExitCode()}, res
}

// Options converts the request to the API's options.
func (r *Request) Options() (boolprog.Options, error) {
	opts := boolprog.Options{
		Filename:    r.Filename,
		Target:      r.Target,
		Engine:      r.Engine,
		EngineFlags: r.EngineFlags,
		Timeout:     time.Duration(r.TimeoutMS) * time.Millisecond,
		MaxNodes:    r.MaxNodes,

		InterleaveAtomicCalls: r.InterleaveAtomicCalls,
	}
	if r.TimeoutMS < 0 {
		return opts, errors.New("negative timeout")
	}
	if r.Dialect != "" {
		d, ok := syntax.ParseDialect(r.Dialect)
		if !ok {
			return opts, fmt.Errorf("unknown dialect %q (want auto, cprover or getafix)", r.Dialect)
		}
		opts.Dialect = d
	}
	b, err := ParseBound(r.Bound)
	if err != nil {
		return opts, err
	}
	opts.Bound = b
	if t := strings.TrimSpace(r.Threads); t != "" {
		for _, name := range strings.Split(t, ",") {
			opts.Threads = append(opts.Threads, strings.TrimSpace(name))
		}
	}
	return opts, nil
}

// ParseBound reads a bound as the command's --bound does: "" or "none",
// "cs:K" (context switches) or "rounds:K".
func ParseBound(s string) (boolprog.Bound, error) {
	s = strings.Join(strings.Fields(s), "") // "cs : 2" as "cs:2"
	if s == "" {
		return boolprog.Bound{}, nil
	}
	b, err := result.ParseBound(s)
	if err != nil {
		return boolprog.Bound{}, fmt.Errorf("bound: %w", err)
	}
	return b, nil
}

func usage(name string, err error) Response {
	msg := strings.TrimPrefix(err.Error(), "boolprog: ")
	return Response{Report: report(result.ErrorReport(name, result.Message{Message: msg})), Text: msg + "\n", ExitCode: 1}
}

// report encodes a report as the command writes it.
func report(rep *boolprog.Report) json.RawMessage {
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		return json.RawMessage(`null`)
	}
	return buf.Bytes()
}
