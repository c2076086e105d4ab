package boolprog_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"boolprog"
	"boolprog/gen"
	"boolprog/internal/jsonschema"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

// slow are the suite's programs that the default choice takes over 10 s
// to decide (the explicit search gives up, conc-eager deepens): checked
// only with -full; engine/conc's tests check them on their own.
var slow = map[string]bool{"Threads5": true}

// TestSatabsSuite checks every program of the SATABS/Boppo suite with
// several engines against the suite's verdicts: a sequential engine must
// decide every sequential program and answer Unknown on the concurrent
// ones; the default choice (no engine named) and explicit decide all. Every
// Unsafe answer comes with a replayed trace whose last step is the
// property's place.
func TestSatabsSuite(t *testing.T) {
	engines := []struct {
		name       string
		flags      map[string]string
		concurrent bool // decides concurrent programs too
	}{
		{"", nil, true}, // the command's choice
		{"summary", nil, false},
		// Two of the suite's programs create threads without end, which
		// the interleaving search refuses (checked below); the default
		// choice hands them to conc-eager.
		{"explicit", nil, true},
		{"post*", nil, false},
		{"ef", nil, false},
		{"cpa", nil, false},
	}
	cases := testsuite.SatabsBoppoOrSkip(t)
	for _, e := range engines {
		name := e.name
		if name == "" {
			name = "default"
		}
		t.Run(name, func(t *testing.T) {
			for _, c := range cases {
				if e.name == "" && slow[c.Name] && !testflags.Full() {
					t.Logf("%s: skipped without -long", c.Name)
					continue
				}
				res, err := boolprog.CheckFile(context.Background(), c.File, boolprog.Options{Target: c.Target, Engine: e.name, EngineFlags: e.flags, Timeout: time.Minute})
				if err != nil {
					t.Errorf("%s: %v", c.Name, err)
					continue
				}
				want := boolprog.Safe
				if c.Failed {
					want = boolprog.Unsafe
				}
				if res.Concurrent && !e.concurrent {
					want = boolprog.Unknown
				}
				if e.name == "explicit" && res.Verdict == boolprog.Unknown && strings.Contains(res.Reason, "but the program can create more") {
					continue
				}
				if res.Verdict != want {
					t.Errorf("%s: %s (%s), want %s", c.Name, res.Verdict, res.Reason, want)
					continue
				}
				if want == boolprog.Unknown && res.ConcurrentAt.Line == 0 {
					t.Errorf("%s: an Unknown answer on a concurrent program does not say where the threads come from", c.Name)
				}
				if res.Verdict == boolprog.Unsafe {
					checkTrace(t, c.Name, res)
				}
			}
		})
	}
}

// checkTrace checks the promises of an Unsafe result.
func checkTrace(t *testing.T, name string, res *boolprog.Result) {
	t.Helper()
	if !res.Replayed || len(res.Trace) == 0 || res.TraceCut {
		t.Errorf("%s: unsafe with %d steps, replayed %v, cut %v", name, len(res.Trace), res.Replayed, res.TraceCut)
		return
	}
	last := res.Trace[len(res.Trace)-1]
	if res.Property == nil || res.Property.Line == 0 || res.Property.Proc != last.Proc {
		t.Errorf("%s: property %+v, last step in %s", name, res.Property, last.Proc)
	}
	if !strings.HasPrefix(res.ErrorLine(), res.File+":") {
		t.Errorf("%s: error line %q does not name the file", name, res.ErrorLine())
	}
	if _, ok := res.Stats.Phases[result.PhaseReplay]; !ok {
		t.Errorf("%s: no replay phase in the stats", name)
	}
}

// TestTextGolden pins the text rendering (the command's standard output,
// which is written by the same Result.Write) against golden files made
// with the command line in the table. A concurrent program is not here:
// the portfolio's trace is its winner's.
func TestTextGolden(t *testing.T) {
	tests := []struct {
		golden string // boolprog check ARGS > testdata/GOLDEN
		file   string
		opts   boolprog.Options
		trace  *boolprog.TraceOptions
	}{
		{golden: "fig1-R.txt", file: "examples/bebop-fig1.bp", opts: boolprog.Options{Target: "R"}}, // -l R
		{golden: "fig1-R-bebop.txt", file: "examples/bebop-fig1.bp", opts: boolprog.Options{Target: "R"}, // --trace-style bebop -l R
			trace: &boolprog.TraceOptions{Style: boolprog.StyleBebop}},
		{golden: "fig1-R-changes.txt", file: "examples/bebop-fig1.bp", opts: boolprog.Options{Target: "R"}, // --trace changes -l R
			trace: &boolprog.TraceOptions{Mode: boolprog.TraceChanges, Numbered: true, MarkChoices: true}},
		{golden: "locking-spec.txt", file: "examples/locking.bp", opts: boolprog.Options{Spec: "examples/locking.spec"}}, // --spec examples/locking.spec
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join("testdata", tt.golden))
			if err != nil {
				t.Fatal(err)
			}
			res, err := boolprog.CheckFile(context.Background(), tt.file, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if tt.trace != nil {
				err = res.WriteTextOptions(&got, *tt.trace)
			} else {
				err = res.WriteText(&got)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != string(want) {
				t.Errorf("text differs from the golden file:\n--- got\n%s--- want\n%s", got.String(), want)
			}
			if tt.trace == nil && res.String() != got.String() {
				t.Errorf("String differs from WriteText")
			}
		})
	}
}

// TestJSONReport checks that the report is the command's (statistics
// aside) and satisfies the report's JSON Schema, for a verdict and for an
// input error.
func TestJSONReport(t *testing.T) {
	schema, err := jsonschema.Parse(result.ReportSchema)
	if err != nil {
		t.Fatal(err)
	}
	res, err := boolprog.CheckFile(context.Background(), "examples/bebop-fig1.bp", boolprog.Options{Target: "R"})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := res.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(buf.Bytes()); err != nil {
		t.Errorf("report does not satisfy the schema: %v", err)
	}
	want, err := os.ReadFile("testdata/fig1-R.json") // boolprog check -l R --format json examples/bebop-fig1.bp
	if err != nil {
		t.Fatal(err)
	}
	if g, w := withoutStats(t, buf.Bytes()), withoutStats(t, want); g != w {
		t.Errorf("report differs from the command's:\n--- got\n%s\n--- want\n%s", g, w)
	}

	_, err = boolprog.Check(context.Background(), []byte("main() begin x := T; end"), boolprog.Options{Filename: "bad.bp"})
	buf.Reset()
	if err := boolprog.ErrorReport("bad.bp", err).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(buf.Bytes()); err != nil {
		t.Errorf("error report does not satisfy the schema: %v\n%s", err, buf.Bytes())
	}
	if !strings.Contains(buf.String(), `"line": 1`) || !strings.Contains(buf.String(), "undeclared variable x") {
		t.Errorf("error report without the position or message:\n%s", buf.Bytes())
	}
}

// withoutStats re-encodes a report without its stats (times differ).
func withoutStats(t *testing.T, doc []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "stats")
	b, err := json.MarshalIndent(m, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestInputErrors checks that bad input is an *InputError whose
// diagnostics say where, and never a panic or a verdict.
func TestInputErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		opts boolprog.Options
		want []string // the diagnostics, as strings
	}{
		{"syntax", "main() begin skip end end\n", boolprog.Options{}, []string{"input.bp:1:"}},
		{"undeclared", "decl g;\nmain() begin\n  x := g;\nend\n", boolprog.Options{Filename: "u.bp"}, []string{"u.bp:3:3: undeclared variable x"}},
		{"several", "main() begin\n  x := T;\n  y := T;\nend\n", boolprog.Options{}, []string{"input.bp:2:3: undeclared variable x", "input.bp:3:3: undeclared variable y"}},
		{"unknown target", "main() begin L: skip; end\n", boolprog.Options{Target: "M"}, []string{"input.bp: target label M occurs nowhere; the program's labels, closest first: L"}},
		{"bad threads", "void f() begin skip; end\nmain() begin skip; end\n", boolprog.Options{Threads: []string{"f", "nope"}}, []string{"input.bp:"}},
		{"too large", "main() begin skip; end\n", boolprog.Options{MaxInput: 5}, []string{"input.bp: input larger than 5 bytes"}},
		{"C", "int main(void) { return 0; }\n", boolprog.Options{}, []string{"input.bp:1:"}},
		{"empty", "", boolprog.Options{}, []string{"input.bp"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// CheckReader, so that MaxInput applies.
			res, err := boolprog.CheckReader(context.Background(), strings.NewReader(tt.src), tt.opts)
			var in *boolprog.InputError
			if !errors.As(err, &in) {
				t.Fatalf("got %v, %v; want an *InputError", res, err)
			}
			if len(in.Diagnostics) < len(tt.want) {
				t.Fatalf("%d diagnostics, want %d:\n%v", len(in.Diagnostics), len(tt.want), in)
			}
			for i, w := range tt.want {
				if got := in.Diagnostics[i].String(); !strings.HasPrefix(got, w) {
					t.Errorf("diagnostic %d: %q, want it to start with %q", i, got, w)
				}
			}
			if in.Error() != joinDiagnostics(in.Diagnostics) {
				t.Errorf("Error() = %q", in.Error())
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		_, err := boolprog.CheckFile(context.Background(), "testdata/no-such-file.bp", boolprog.Options{})
		var in *boolprog.InputError
		if !errors.As(err, &in) || in.Error() != "testdata/no-such-file.bp: open: no such file or directory" {
			t.Errorf("got %v", err)
		}
	})
	t.Run("directory", func(t *testing.T) {
		_, err := boolprog.CheckFile(context.Background(), "testdata", boolprog.Options{})
		var in *boolprog.InputError
		if !errors.As(err, &in) || in.Error() != "testdata: is a directory" {
			t.Errorf("got %v", err)
		}
	})
}

func joinDiagnostics(ds []boolprog.Diagnostic) string {
	var lines []string
	for _, d := range ds {
		lines = append(lines, d.String())
	}
	return strings.Join(lines, "\n")
}

// TestOptionErrors checks that options that cannot be honoured are
// refused, naming the option, rather than ignored.
func TestOptionErrors(t *testing.T) {
	src := []byte("decl g;\nmain() begin assert(g); end\n")
	conc := []byte("decl g;\nvoid t() begin g := T; end\nvoid main() begin start_thread t(); assert(!g); end\n")
	tests := []struct {
		name   string
		opts   boolprog.Options
		option string
		msg    string
		src    []byte // default: src
	}{
		{"unknown engine", boolprog.Options{Engine: "nope"}, "Engine", `unknown engine "nope"`, nil},
		{"flag of another engine", boolprog.Options{Engine: "summary", EngineFlags: map[string]string{"max-vars": "8"}}, "EngineFlags", `"max-vars" is not an option of the summary engine`, nil},
		{"bad flag value", boolprog.Options{Engine: "explicit", EngineFlags: map[string]string{"max-vars": "65"}}, "EngineFlags", "engine explicit:", nil},
		{"max nodes without BDDs", boolprog.Options{Engine: "explicit", MaxNodes: 1000}, "MaxNodes", "uses no BDDs", nil},
		{"all reachable, ignored", boolprog.Options{Engine: "explicit", AllReachable: true}, "AllReachable", "stops at the first error", nil},
		{"negative timeout", boolprog.Options{Timeout: -time.Second}, "Timeout", "negative", nil},
		{"negative max nodes", boolprog.Options{MaxNodes: -1}, "MaxNodes", "negative", nil},
		{"bad bound", boolprog.Options{Bound: boolprog.Bound{Kind: boolprog.ContextSwitches, K: -1}}, "Bound", "negative", nil},
		{"bad dialect", boolprog.Options{Dialect: 42}, "Dialect", "unknown dialect", nil},
		// The default engine of a concurrent program is known only once
		// the program is read; the limit must not be dropped then.
		{"all reachable, concurrent default", boolprog.Options{AllReachable: true}, "AllReachable", "stop at the first error", conc},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := src
			if tt.src != nil {
				in = tt.src
			}
			res, err := boolprog.Check(context.Background(), in, tt.opts)
			var oe *boolprog.OptionError
			if !errors.As(err, &oe) {
				t.Fatalf("got %v, %v; want an *OptionError", res, err)
			}
			if oe.Option != tt.option || !strings.Contains(oe.Msg, tt.msg) {
				t.Errorf("got %s: %q; want %s: ...%s...", oe.Option, oe.Msg, tt.option, tt.msg)
			}
		})
	}
}

// TestLimits checks that limits give Unknown results with their reason,
// not errors, and that an engine's own flags take effect.
func TestLimits(t *testing.T) {
	// g20l12-s3 is undecided in 30 s by every reordering mode
	// (bench/RESULTS.md).
	var hard string
	for _, h := range gen.HardSet() {
		if h.Name == "g20l12-s3" {
			hard = h.Source()
		}
	}
	if hard == "" {
		t.Fatal("no program g20l12-s3 in gen.HardSet")
	}
	wide := testsuite.LimitCases()
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		src    string
		opts   boolprog.Options
		reason string // Unknown with a reason that starts so
	}{
		{"timeout", context.Background(), hard, boolprog.Options{Timeout: 50 * time.Millisecond}, "timeout (50ms)"},
		{"interrupted", cancelled, hard, boolprog.Options{}, "interrupted"},
		{"node limit", context.Background(), hard, boolprog.Options{MaxNodes: 2000}, ""},
		{"explicit's own budget", context.Background(), wide[len(wide)-1].Src, boolprog.Options{Engine: "explicit", EngineFlags: map[string]string{"max-vars": "8"}}, ""},
		{"bound on a sequential engine", context.Background(), "decl g;\nmain() begin assert(g); end\n", boolprog.Options{Bound: boolprog.Bound{Kind: boolprog.ContextSwitches, K: 2}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := boolprog.Check(tt.ctx, []byte(tt.src), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != boolprog.Unknown || res.Reason == "" || !strings.HasPrefix(res.Reason, tt.reason) {
				t.Fatalf("%s (%s), want unknown (%s...)", res.Verdict, res.Reason, tt.reason)
			}
			if !strings.HasPrefix(res.Banner(), "VERIFICATION UNKNOWN: ") || res.ExitCode() != 5 {
				t.Errorf("banner %q, exit %d", res.Banner(), res.ExitCode())
			}
			if strings.HasPrefix(res.Reason, "internal error") {
				t.Errorf("reason %q", res.Reason)
			}
		})
	}
}

// TestOptions checks options that change the question: the dialect, the
// threads named, a bounded answer, AllReachable, NoReplay.
func TestOptions(t *testing.T) {
	threads := "decl g;\nvoid main() begin skip; end\nvoid f() begin g := T; end\nvoid h() begin assert(!g); end\n"
	tests := []struct {
		name  string
		src   string
		opts  boolprog.Options
		want  boolprog.Verdict
		check func(t *testing.T, res *boolprog.Result)
	}{
		// cprover reads `a & b = c` as (a & b) = c, getafix as a & (b = c).
		{"cprover", "decl a, b, c;\nmain() begin a, b, c := F, F, F; assert(a & b = c); end\n", boolprog.Options{Dialect: boolprog.DialectCProver}, boolprog.Safe, nil},
		{"getafix", "decl a, b, c;\nmain() begin a, b, c := F, F, F; assert(a & b = c); end\n", boolprog.Options{Dialect: boolprog.DialectGetafix}, boolprog.Unsafe, func(t *testing.T, res *boolprog.Result) {
			if len(res.Warnings) == 0 {
				t.Errorf("no warning about the ambiguous expression")
			}
		}},
		{"threads", threads, boolprog.Options{Threads: []string{"f", "h"}}, boolprog.Unsafe, func(t *testing.T, res *boolprog.Result) {
			if !res.Concurrent || !slices.ContainsFunc(res.Trace, func(s boolprog.Step) bool { return s.Thread == 1 }) {
				t.Errorf("no step of thread 1 in the trace")
			}
		}},
		{"bounded", threads, boolprog.Options{Threads: []string{"f", "h"}, Engine: "conc-eager", Bound: boolprog.Bound{Kind: boolprog.ContextSwitches, K: 1}}, boolprog.Unsafe, nil},
		{"bounded safe", "decl g;\nvoid main() begin skip; end\nvoid f() begin g := F; end\nvoid h() begin g := F; assert(!g); end\n", boolprog.Options{Threads: []string{"f", "h"}, Engine: "conc-eager", Bound: boolprog.Bound{Kind: boolprog.ContextSwitches, K: 1}}, boolprog.Safe, func(t *testing.T, res *boolprog.Result) {
			if res.Bound.Kind == boolprog.Unbounded || !strings.HasPrefix(res.Banner(), "VERIFICATION SUCCESSFUL up to ") {
				t.Errorf("a bounded answer presented as a proof: %q", res.Banner())
			}
		}},
		{"all reachable", "decl g;\nmain() begin g := *; assert(g); end\n", boolprog.Options{AllReachable: true}, boolprog.Unsafe, nil},
		{"no replay", "decl g;\nmain() begin g := *; assert(g); end\n", boolprog.Options{NoReplay: true}, boolprog.Unsafe, func(t *testing.T, res *boolprog.Result) {
			if res.Replayed {
				t.Errorf("replayed with NoReplay")
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := boolprog.Check(context.Background(), []byte(tt.src), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != tt.want {
				t.Fatalf("%s (%s), want %s", res.Verdict, res.Reason, tt.want)
			}
			if res.Verdict == boolprog.Unsafe && !tt.opts.NoReplay {
				checkTrace(t, tt.name, res)
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}

// TestEngines checks the engine list against what Check accepts.
func TestEngines(t *testing.T) {
	engines := boolprog.Engines()
	byName := map[string]boolprog.EngineInfo{}
	defaults := 0
	for _, e := range engines {
		byName[e.Name] = e
		if e.Default {
			defaults++
		}
	}
	if defaults != 1 || !byName[boolprog.DefaultEngine].Default {
		t.Errorf("%d default engines; want %s alone", defaults, boolprog.DefaultEngine)
	}
	for _, name := range []string{"summary", "explicit", "post*", "pre*", "cpa", "ef", "efopt", "conc-eager", "conc-lazy", "conc-fix"} {
		if _, ok := byName[name]; !ok {
			t.Errorf("engine %s not listed", name)
		}
	}
	if !slices.Contains(byName["summary"].Aliases, "bebop") || !byName["summary"].NodeLimited || byName["explicit"].NodeLimited {
		t.Errorf("summary %+v, explicit %+v", byName["summary"], byName["explicit"])
	}
	if !slices.ContainsFunc(byName["explicit"].Flags, func(f boolprog.EngineFlag) bool { return f.Name == "max-vars" && f.Default == "20" }) {
		t.Errorf("explicit's flags: %+v", byName["explicit"].Flags)
	}
	// Every engine listed can be named, by its name and its aliases.
	for _, e := range engines {
		for _, name := range append([]string{e.Name}, e.Aliases...) {
			res, err := boolprog.Check(context.Background(), []byte("decl g;\nmain() begin g := T; assert(g); end\n"), boolprog.Options{Engine: name})
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			if res.Verdict == boolprog.Unsafe {
				t.Errorf("%s: %s", name, res.Verdict)
			}
		}
	}
}

// TestUnreachableErrorAtOnce: a program whose assertions main cannot reach
// even in the control-flow graph is proved without a search by every
// sequential engine that checks only error locations. The program is the
// hard set's g24l4-s1 (no error site), whose reachable states the summary
// engine does not compute within 30 s, with an assertion added in a
// procedure nobody calls; the limit below is far from what each engine
// takes, so only a search would reach it.
func TestUnreachableErrorAtOnce(t *testing.T) {
	var src string
	for _, h := range gen.HardSet() {
		if h.Name == "g24l4-s1" {
			src = h.Source() + "\nvoid uncalled() begin assert(F); end\n"
		}
	}
	if src == "" {
		t.Fatal("g24l4-s1 is not in the hard set")
	}
	for _, name := range []string{"summary", "ef", "efopt", "pre*", "post*", "explicit"} {
		res, err := boolprog.Check(context.Background(), []byte(src), boolprog.Options{Engine: name, Timeout: 20 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if res.Verdict != boolprog.Safe || res.Stats.Counters["cfg_unreachable_error"] != 1 {
			t.Errorf("%s: %s (%s), counters %v; want a proof without a search", name, res.Verdict, res.Reason, res.Stats.Counters)
		}
	}
}

// TestConcurrentPortfolio: without an engine named, a concurrent program
// is checked by the portfolio (package internal/portfolio), whose verdict
// does not depend on which member wins; the trace is the winner's,
// replayed, and Result.Engine names it. A node limit is shared by its BDD
// engines.
func TestConcurrentPortfolio(t *testing.T) {
	const unsafe = "decl g;\nvoid t() begin g := T; end\nvoid main() begin start_thread t(); assert(!g); end\n"
	const safe = "decl g;\nvoid t() begin g := g; end\nvoid main() begin g := F; start_thread t(); assert(!g); end\n"
	for _, tc := range []struct {
		name string
		src  string
		opts boolprog.Options
		want boolprog.Verdict
	}{
		{"unsafe", unsafe, boolprog.Options{}, boolprog.Unsafe},
		{"unsafe, node limit", unsafe, boolprog.Options{MaxNodes: 1000}, boolprog.Unsafe},
		{"safe: explicit's proof, not a bounded answer", safe, boolprog.Options{}, boolprog.Safe},
		{"safe within a bound", safe, boolprog.Options{Bound: boolprog.Bound{Kind: boolprog.ContextSwitches, K: 1}}, boolprog.Safe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 5 {
				res, err := boolprog.Check(context.Background(), []byte(tc.src), tc.opts)
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != tc.want || (res.Engine != "explicit" && res.Engine != "conc-eager" && res.Engine != "conc-product") {
					t.Fatalf("%s by %s (%s), want %s by a member of the portfolio", res.Verdict, res.Engine, res.Reason, tc.want)
				}
				if res.Verdict == boolprog.Unsafe && !res.Replayed {
					t.Errorf("the winner's trace was not replayed")
				}
				if res.Verdict == boolprog.Safe && res.Bound != tc.opts.Bound {
					t.Errorf("safe up to %v, want %v (an unbounded query has a proof)", res.Bound, tc.opts.Bound)
				}
			}
		})
	}
}
