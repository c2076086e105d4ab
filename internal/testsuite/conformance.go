package testsuite

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/internal/jsonschema"
	"boolprog/internal/testflags"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
)

// Config describes the engine a conformance run checks and what it
// promises.
type Config struct {
	// New returns the engine under test. It is called for every check, so
	// an engine with state per run is fine.
	New func() engine.Engine
	// Oracle, if set, returns the reference engine (the explicit engine)
	// that the random programs are compared against wherever both answer
	// Safe or Unsafe. The explicit engine's own run leaves it nil.
	Oracle func() engine.Engine
	// Root is the module root relative to the test's package directory,
	// e.g. "../..": where examples/ is found.
	Root string
	// Shortest says that the engine promises shortest traces: Figure 1's
	// trace must be the paper's, the Shortest cases must have their
	// length, and a random program's trace the oracle's length.
	Shortest bool
	// Concurrent says that the engine decides concurrent programs: the
	// golden suite's concurrent cases must then get their verdicts (else
	// Unknown).
	Concurrent bool
	// DecidesWide says that the engine must decide the programs at the
	// limits with known verdicts (LimitCases: 64 returned values, 63 and
	// 64 variables in scope) rather than answer Unknown, as symbolic
	// engines should.
	DecidesWide bool
	// Random is the number of random programs (0: 30, 10 with -short, 200
	// with -long; negative: none). With -long, a fortieth as many (at
	// least 2) are generated at each of the limits.
	Random int
}

// Conformance runs the conformance suite on an engine, one subtest per
// part: Golden (the satabs-boppo verdicts), Figure1, Shortest, Random
// (programs from package gen against the oracle), Limits (programs at the
// width limits, with known verdicts) and Dialect (the programs of
// DialectDir, as written and as printed). Every check runs through
// engine.Run; an internal error fails the test with its stack, and every
// trace of an Unsafe answer must be accepted by interp.Replay and name the
// error it reaches (Result.Property).
func Conformance(t *testing.T, c Config) {
	t.Run("Golden", func(t *testing.T) { golden(t, c) })
	t.Run("Figure1", func(t *testing.T) { figure1(t, c) })
	t.Run("Shortest", func(t *testing.T) { shortest(t, c) })
	t.Run("Random", func(t *testing.T) { random(t, c) })
	t.Run("Limits", func(t *testing.T) { limits(t, c) })
	t.Run("Dialect", func(t *testing.T) { dialect(t, c) })
}

// Check runs eng on p through engine.Run and judges the answer: no
// internal error, no trace unless Unsafe, an Unsafe trace that
// interp.Replay accepts (unless cut) and whose Property is set, and a JSON
// report that satisfies result/report.schema.json.
func Check(t testing.TB, eng engine.Engine, p *ir.Program, q engine.Query) *result.Result {
	t.Helper()
	return CheckContext(context.Background(), t, eng, p, q)
}

// CheckContext is Check with a context: a cut trace is then allowed once
// the context has ended.
func CheckContext(ctx context.Context, t testing.TB, eng engine.Engine, p *ir.Program, q engine.Query) *result.Result {
	t.Helper()
	res := engine.Run(ctx, eng, p, q)
	if strings.HasPrefix(res.Reason, engine.InternalErrorPrefix) {
		t.Fatalf("%s: %s\n%s", eng.Name(), res.Reason, res.Debug)
	}
	switch {
	case res.Verdict == result.Unsafe && res.TraceCut:
		if ctx.Err() == nil {
			t.Errorf("%s: trace cut without a time limit: %s", eng.Name(), res.Reason)
		}
	case res.Verdict == result.Unsafe:
		if err := interp.Replay(p, res.Trace); err != nil {
			t.Fatalf("%s: the trace does not replay: %v\n%s", eng.Name(), err, TraceText(res.Trace))
		}
		if res.Property == nil {
			t.Errorf("%s: an unsafe answer without its property", eng.Name())
		}
	case res.Trace != nil:
		t.Errorf("%s: %s answer with a trace", eng.Name(), res.Verdict)
	}
	if err := validReport(res, p); err != nil {
		t.Errorf("%s: the JSON report breaks result/report.schema.json: %v", eng.Name(), err)
	}
	return res
}

var reportSchema = sync.OnceValues(func() (*jsonschema.Schema, error) { return jsonschema.Parse(result.ReportSchema) })

// validReport checks the JSON report of res against the report schema.
func validReport(res *result.Result, p *ir.Program) error {
	schema, err := reportSchema()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := result.NewReport(res, p.File, p.Target).WriteJSON(&b); err != nil {
		return err
	}
	return schema.Validate(b.Bytes())
}

// TraceText renders a trace for failure messages.
func TraceText(tr *result.Trace) string {
	var b bytes.Buffer
	result.WriteTraceOptions(&b, tr, result.TraceOptions{Numbered: true})
	return b.String()
}

// SatabsBoppoOrSkip returns the cases of the satabs-boppo suite, or skips
// the test saying where the suite was expected; when the environment
// variable CI is "true", a missing suite fails the test instead, so that CI
// never passes by skipping.
func SatabsBoppoOrSkip(t testing.TB) []Case {
	t.Helper()
	cases, err := SatabsBoppo()
	if err != nil {
		t.Fatal(err)
	}
	if cases == nil {
		wd, _ := os.Getwd()
		msg := fmt.Sprintf("shared benchmarks not found: no %s in %s or any parent directory (the repository must sit beside shared/, which tests see as ../shared)",
			filepath.FromSlash(SatabsBoppoDir), wd)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return cases
}

// SlowConcurrent says the test of the satabs-boppo suite is one of the
// slow ConcBenchmarks.
func SlowConcurrent(name string) bool {
	for _, b := range ConcBenchmarks {
		if b.Name == name && strings.HasPrefix(b.File, "satabs-boppo/") {
			return b.Slow
		}
	}
	return false
}

func golden(t *testing.T, c Config) {
	sequential := 0
	for _, d := range SatabsBoppoOrSkip(t) {
		t.Run(d.Name, func(t *testing.T) {
			p := LowerFile(t, d.File, d.Target)
			if p.Concurrent && c.Concurrent && SlowConcurrent(d.Name) && !testflags.Long() {
				t.Skip("a slow concurrent benchmark (ConcBenches): the long tier's")
			}
			res := Check(t, c.New(), p, engine.Query{})
			if p.Concurrent && !c.Concurrent {
				if res.Verdict != result.Unknown {
					t.Errorf("concurrent program: %s, want Unknown", res.Verdict)
				}
				return
			}
			if !p.Concurrent {
				sequential++
			}
			want := result.Safe
			if d.Failed {
				want = result.Unsafe
			}
			if res.Verdict != want {
				t.Errorf("verdict %s (%s), want %s", res.Verdict, res.Reason, want)
			}
			if d.Target != "" && res.Verdict == result.Unsafe {
				if pr := res.Property; pr == nil || pr.Kind != result.PropertyLabel || pr.Label != d.Target {
					t.Errorf("the trace reaches %+v, not label %s", pr, d.Target)
				}
			}
		})
	}
	if sequential != 23 {
		t.Errorf("%d sequential benchmarks, want 23", sequential)
	}
}

func figure1(t *testing.T, c Config) {
	p := LowerFile(t, filepath.Join(c.Root, Figure1File), "R")
	// The engine tells Query.Progress when it searches and when it builds
	// the trace (the CLI's progress line shows it).
	var phases []string
	q := engine.Query{Target: "R", Progress: func(phase, _ string) {
		if len(phases) == 0 || phases[len(phases)-1] != phase {
			phases = append(phases, phase)
		}
	}}
	res := Check(t, c.New(), p, q)
	if res.Verdict != result.Unsafe {
		t.Fatalf("verdict %s (%s), want unsafe", res.Verdict, res.Reason)
	}
	if want := []string{result.PhaseReach, result.PhaseTrace}; !slices.Equal(phases, want) {
		t.Errorf("progress phases %q, want %q", phases, want)
	}
	if pr := res.Property; pr.Kind != result.PropertyLabel || pr.Label != "R" || pr.Line != 12 {
		t.Errorf("property %+v, want label R at line 12", pr)
	}
	if !c.Shortest {
		return
	}
	var lines []int
	for _, s := range res.Trace.Steps {
		lines = append(lines, s.Line)
	}
	if !slices.Equal(lines, Figure1Lines) {
		t.Errorf("lines %v\nwant  %v", lines, Figure1Lines)
	}
	var b bytes.Buffer
	if err := result.WriteTrace(&b, res.Trace, result.Bebop); err != nil {
		t.Fatal(err)
	}
	if b.String() != Figure1Bebop {
		t.Errorf("Bebop trace:\n%s\nwant:\n%s", b.String(), Figure1Bebop)
	}
}

func shortest(t *testing.T, c Config) {
	for _, sc := range Shortest {
		t.Run(sc.Name, func(t *testing.T) {
			p := Lower(t, "s.bp", sc.Src, "")
			res := Check(t, c.New(), p, engine.Query{})
			if res.Verdict != result.Unsafe {
				t.Fatalf("verdict %s (%s), want unsafe", res.Verdict, res.Reason)
			}
			if n := res.Trace.Len(); c.Shortest && n != sc.Steps {
				t.Errorf("%d steps, want %d:\n%s", n, sc.Steps, TraceText(res.Trace))
			}
		})
	}
}

// LimitsOptions are the generator options of the random programs at the
// limits: exactly 63 and 64 variables in scope, and procedures returning
// 64 values. Random relations over 64 variables can exceed any engine's
// resources, so these programs are checked with LimitsQuery and
// LimitsTimeout, and an Unknown answer is accepted: what matters is that
// no answer is wrong and every trace replays.
var LimitsOptions = []gen.Options{
	{Globals: 63, MaxLocals: -1},
	{Globals: 64, MaxLocals: -1},
	{Globals: 6, MaxReturns: 64},
}

// LimitsQuery and LimitsTimeout bound each check of a random program at
// the limits.
var (
	LimitsQuery   = engine.Query{MaxNodes: 1 << 20}
	LimitsTimeout = 20 * time.Second
)

func random(t *testing.T, c Config) {
	n := c.Random
	switch {
	case n < 0:
		t.Skip("no random programs asked for")
	case n == 0:
		n = testflags.N(10, 30, 200, 200)
	}
	type run struct {
		name   string
		opt    gen.Options
		n      int
		limits bool
	}
	runs := []run{{"default", gen.Options{}, n, false}}
	// The programs at the limits run into their timeouts: the long tier's.
	for i, o := range LimitsOptions {
		if !testflags.Long() {
			break
		}
		runs = append(runs, run{fmt.Sprintf("limits%d", i), o, max(n/40, 2), true})
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			var decided, compared int
			for seed := int64(1); seed <= int64(r.n); seed++ {
				src := gen.Random(seed, r.opt)
				p := Lower(t, fmt.Sprintf("seed%d.bp", seed), src, "")
				ctx, q := context.Background(), engine.Query{}
				if r.limits {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, LimitsTimeout)
					defer cancel()
					q = LimitsQuery
				}
				res := CheckContext(ctx, t, c.New(), p, q)
				if res.Verdict != result.Unknown {
					decided++
				} else if !r.limits {
					t.Errorf("seed %d: %s %s on a small program", seed, res.Verdict, res.Reason)
				}
				if c.Oracle == nil {
					continue
				}
				ex := CheckContext(ctx, t, c.Oracle(), p, q)
				if ex.Verdict == result.Unknown || res.Verdict == result.Unknown {
					continue
				}
				compared++
				if res.Verdict != ex.Verdict {
					t.Fatalf("seed %d: %s, the oracle says %s\n%s", seed, res.Verdict, ex.Verdict, src)
				}
				if c.Shortest && res.Verdict == result.Unsafe && !res.TraceCut && !ex.TraceCut && res.Trace.Len() != ex.Trace.Len() {
					t.Errorf("seed %d: %d steps, the oracle's shortest trace has %d\n%s", seed, res.Trace.Len(), ex.Trace.Len(), src)
				}
			}
			t.Logf("%d programs (%+v): %d decided, %d compared with the oracle", r.n, r.opt, decided, compared)
		})
	}
}

// A LimitCase is a program at the width limits with a known verdict.
type LimitCase struct {
	Name, Src string
	Unsafe    bool
}

// decls returns "decl g0, ..., g<n-1>;\n" (nothing for n = 0).
func decls(n int) string {
	if n == 0 {
		return ""
	}
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("g%d", i)
	}
	return "decl " + strings.Join(names, ", ") + ";\n"
}

// conj returns "g0 & g1 & ... & g<n-1>".
func conj(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("g%d", i)
	}
	return strings.Join(names, " & ")
}

// repeat returns n copies of s joined by ", ".
func repeat(s string, n int) string {
	return strings.TrimSuffix(strings.Repeat(s+", ", n), ", ")
}

// LimitCases returns the programs at the limits with known verdicts: a
// procedure returning 64 values (falling off its end, or returning them),
// and 63 and 64 variables in scope. They are generated here, not committed.
func LimitCases() []LimitCase {
	var cs []LimitCase
	for _, n := range []int{63, 64} {
		cs = append(cs,
			LimitCase{fmt.Sprintf("%d globals, assert(F)", n), decls(n) + "void main() begin assert(F); end\n", true},
			LimitCase{fmt.Sprintf("%d globals all true initially", n), decls(n) + "void main() begin assert(!(" + conj(n) + ")); end\n", true},
			LimitCase{fmt.Sprintf("%d globals, safe", n), decls(n) + fmt.Sprintf("void main() begin g%d := T; assert(g%d); end\n", n-1, n-1), false},
			LimitCase{fmt.Sprintf("%d in scope with a local", n), decls(n-1) + fmt.Sprintf("void main() begin decl l; l := g0; assert(l = g0); if (%s & l) then SLIC_ERROR: skip; fi end\n", conj(n-1)), true},
		)
	}
	targets := "r, " + repeat("_", 63)
	cs = append(cs,
		LimitCase{"64 returned values, falling off the end", "void main() begin f(); assert(F); end\nbool<64> f() begin skip; end\n", true},
		LimitCase{"64 returned values, the last one false", "decl r, s;\nvoid main() begin " + repeat("_", 63) + ", r := f(); assert(r); end\nbool<64> f() begin return " + repeat("T", 63) + ", F; end\n", true},
		LimitCase{"64 returned values, the first one true", "decl r;\nvoid main() begin " + targets + " := f(); assert(r); end\nbool<64> f() begin return T, " + repeat("*", 63) + "; end\n", false},
		LimitCase{"64 returned values, chosen", "decl r;\nvoid main() begin " + targets + " := f(); assert(r); end\nbool<64> f() begin return " + repeat("*", 64) + "; end\n", true},
	)
	return cs
}

func limits(t *testing.T, c Config) {
	for _, lc := range LimitCases() {
		t.Run(lc.Name, func(t *testing.T) {
			p := Lower(t, "limits.bp", lc.Src, "")
			res := Check(t, c.New(), p, engine.Query{})
			want := result.Safe
			if lc.Unsafe {
				want = result.Unsafe
			}
			switch {
			case res.Verdict == result.Unknown && !c.DecidesWide:
			case res.Verdict != want:
				t.Errorf("%s (%s), want %s", res.Verdict, res.Reason, want)
			}
		})
	}
}
