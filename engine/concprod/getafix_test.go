package concprod_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/engine/concprod"
	"boolprog/engine/explicit"
	"boolprog/fix"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/sema"
	"boolprog/syntax"
)

// The comparison with Getafix's own translation (-full; skipped without
// ../shared/peers). For every 3-thread program of the Getafix convention in
// ../shared/benchmarks, and for random 3-thread programs (gen, Getafix
// style, no recursion, 20–100 globals, 5–75 KB), it writes Getafix's model of the
// program for 4 rounds (peers/bin/getafix with the crossproduct formula),
// solves the model with package fix (what `boolprog mucke` runs: parse,
// check, solve), runs conc-product at rounds:4 on the same program, and
// reports the values (they must be equal wherever both decide) and the
// time ratio, ours / boolprog mucke's.
//
// Where the conventions differ:
//   - Getafix runs the thread procedures in source order (its module
//     numbers: init 0, then the threads as they appear), ours runs main
//     first. The rounds bound depends on the order, so the comparison runs
//     our engine on a copy of the program whose thread list is in source
//     order (sourceOrder); for the fib programs (thread1, thread2, main) the
//     value in our own order is logged beside it.
//   - Getafix's parser does not take every construct of ours, and its
//     translation needs some of its own conventions; gen's programs are
//     written without recursion, `*` values, gotos, dead, constrain,
//     enforce, schoose and assert (the error is the SLIC_ERROR label), and
//     then adjusted (forGetafix): threads thread0..2 are renamed
//     thread1..3 (Getafix's module names), `atomic` is declared first
//     (Getafix's handover tests the first global), init comes first
//     (Getafix numbers its modules in source order), a no-op `atomic := F;`
//     follows every statement of a thread outside its atomic stretches
//     (Getafix switches only at its switch points, around atomic := T and
//     atomic := F, ours at every step while `atomic` is F), each thread
//     ends with `assume(T);`, `!!e` is written e, init's `*` values
//     become constants, init ends at the label endinit, and every void
//     procedure ends with an explicit `return;` (the fork's Exit relation
//     is the pc of return statements). Both tools read the adjusted text.

// peersDir returns ../shared/peers, or skips.
func peersDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(testsuite.ConcBenchDir(t)), "peers")
	if _, err := os.Stat(filepath.Join(dir, "bin", "getafix")); err != nil {
		t.Skipf("no Getafix translator: %v", err)
	}
	return dir
}

// sourceOrder returns p with its threads in source order, as Getafix
// numbers its modules.
func sourceOrder(p *ir.Program) *ir.Program {
	q := *p
	q.Threads = slices.Clone(p.Threads)
	slices.Sort(q.Threads)
	return &q
}

var (
	doubleNot = regexp.MustCompile(`!\s*!`)
	procHead  = regexp.MustCompile(`^(void|bool(<\d+>)?)\s+(\w+)\s*\(`)
)

// forGetafix adjusts a program of gen for Getafix's translator and its
// conventions (see above).
func forGetafix(src string) string {
	// Getafix's formula names its modules 1..3 after the procedures
	// thread1..thread3 (or main): gen's thread0..thread2 move up by one.
	for i := 2; i >= 0; i-- {
		src = regexp.MustCompile(fmt.Sprintf(`\bthread%d\b`, i)).ReplaceAllString(src, fmt.Sprintf("thread%d", i+1))
	}
	for doubleNot.MatchString(src) {
		src = doubleNot.ReplaceAllString(src, "")
	}
	var out []string
	proc, void, atomic := "", false, false
	last := ""
	for _, l := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(l)
		if m := procHead.FindStringSubmatch(l); m != nil {
			proc, void = m[3], m[1] == "void"
		}
		thread := strings.HasPrefix(proc, "thread")
		switch {
		case strings.HasPrefix(l, "decl ") && proc == "":
			// Getafix's handover tests the first global: `atomic`.
			names := strings.Split(strings.TrimSuffix(strings.TrimPrefix(l, "decl "), ";"), ", ")
			names = slices.DeleteFunc(names, func(n string) bool { return n == "atomic" })
			l = "decl " + strings.Join(append([]string{"atomic"}, names...), ", ") + ";"
		case l == "end" && proc != "":
			switch {
			case proc == "init":
				out = append(out, "  endinit: skip;")
			case thread:
				out = append(out, "  assume(T);")
			case void && !strings.HasPrefix(last, "return"):
				out = append(out, "  return;")
			}
			proc = ""
		case proc == "init" && strings.Contains(l, ":="):
			k := 0
			l = regexp.MustCompile(`\*`).ReplaceAllStringFunc(l, func(string) string {
				k++
				if k%2 == 0 {
					return "T"
				}
				return "F"
			})
		}
		out = append(out, l)
		if trimmed != "" && !strings.HasPrefix(trimmed, "//") {
			last = trimmed
		}
		switch {
		case trimmed == "atomic := T;":
			atomic = true
		case trimmed == "atomic := F;":
			atomic = false
		case thread && !atomic && strings.HasSuffix(trimmed, ";") && !strings.HasPrefix(trimmed, "decl "):
			// Getafix switches threads only at its switch points (the
			// start, and around atomic := T and atomic := F); ours at
			// every step while `atomic` is F. A no-op atomic := F after
			// every statement makes every statement boundary one of its
			// switch points too.
			out = append(out, strings.Repeat(" ", len(l)-len(strings.TrimLeft(l, " ")))+"atomic := F;")
		}
	}
	// Getafix numbers its modules in source order, init first.
	if i := slices.Index(out, "void init()"); i >= 0 {
		j := i + slices.Index(out[i:], "end")
		init := slices.Clone(out[i : j+1])
		out = slices.Delete(out, i, j+1)
		k := slices.IndexFunc(out, func(l string) bool { return procHead.MatchString(l) })
		out = slices.Insert(out, k, append(init, "")...)
	}
	return strings.Join(out, "\n")
}

// getafixCase is a program of the comparison.
type getafixCase struct {
	name string
	src  string
}

// getafixRow is one line of the comparison's table.
type getafixRow struct {
	name             string
	kb               int
	mucke, ours      result.Verdict
	muckeT, oursT    time.Duration
	muckeWhy, oursWy string
	ownOrder         string // our value in our own thread order, where it differs
	oracle           result.Verdict
}

var (
	getafixRandom  = flag.Int("getafix-random", 50, "TestGetafixComparison: the number of random programs")
	getafixLarge   = flag.Int("getafix-large", 12, "TestGetafixComparison: the number of large random programs (about 45-75 KB)")
	getafixTimeout = flag.Duration("getafix-timeout", 20*time.Second, "TestGetafixComparison: the time limit of each solver on each program")
)

func TestGetafixComparison(t *testing.T) {
	if !testflags.Full() {
		t.Skip("-full (BOOLPROG_LONG=full): runs Getafix's translator and solves its models, minutes")
	}
	peers := peersDir(t)
	var cases []getafixCase
	bench := filepath.Join(testsuite.ConcBenchDir(t), "getafix")
	files, _ := filepath.Glob(filepath.Join(bench, "*.bp"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := lowerSrc(f, string(src))
		if err != nil || len(p.Threads) != 3 || !strings.Contains(string(src), "SLIC_ERROR") {
			continue // not a 3-thread Getafix-convention program with the label
		}
		cases = append(cases, getafixCase{name: filepath.Base(f), src: string(src)})
	}
	const omit = gen.Recursion | gen.Nondet | gen.Goto | gen.NondetGoto | gen.Dead | gen.Constrain | gen.Enforce | gen.Schoose | gen.Assert
	// add appends n random programs of the sizes that size gives a seed,
	// from seed first on; it returns the next seed.
	add := func(n int, first int64, size func(seed int64) gen.Options) int64 {
		seed := first
		for want := len(cases) + n; len(cases) < want; seed++ {
			o := size(seed)
			o.Procs = 1 // Getafix's crossproduct formula steps over calls with summaries: no switch inside a callee
			o.Omit = omit
			src := forGetafix(gen.RandomConcurrent(seed, gen.ConcOptions{Threads: 3, Style: gen.Getafix, Thread: o}))
			if !strings.Contains(src, "SLIC_ERROR") {
				continue // no error site survived
			}
			cases = append(cases, getafixCase{name: fmt.Sprintf("random-%d (g%d s%d d%d)", seed, o.Globals, o.Stmts, o.Depth), src: src})
		}
		return seed
	}
	// Small to medium (5-26 KB): 20-100 globals, 20-79 top-level
	// statements a thread.
	next := add(*getafixRandom, 1, func(seed int64) gen.Options {
		return gen.Options{Globals: 20 + int(seed*37%81), Stmts: 20 + int(seed*7%60)}
	})
	// Large (about 45-75 KB, the lower end of the sizes of Getafix's own
	// experiment programs): 40-100 globals, up to 12 locals a thread,
	// 120-180 top-level statements nested 3 deep.
	add(*getafixLarge, next, func(seed int64) gen.Options {
		return gen.Options{Globals: 40 + int(seed*37%61), MaxLocals: 12, Stmts: 120 + int(seed*13%61), Depth: 3}
	})
	dir := t.TempDir()
	var rows []getafixRow
	for i, c := range cases {
		r := compareGetafix(t, peers, filepath.Join(dir, fmt.Sprint(i)), c)
		t.Logf("%s: mucke %s in %v, ours %s in %v %s", r.name, r.mucke, r.muckeT.Round(time.Millisecond), r.ours, r.oursT.Round(time.Millisecond), r.muckeWhy+r.oursWy)
		rows = append(rows, r)
	}
	reportGetafix(t, rows)
}

// lowerSrc lowers a Getafix-dialect program, or reports why not.
func lowerSrc(name, src string) (*ir.Program, error) {
	f, err := syntax.ParseFile(name, []byte(src), syntax.Getafix)
	if err != nil {
		return nil, err
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		return nil, errs
	}
	return ir.Lower(f, info, ir.Options{})
}

func compareGetafix(t *testing.T, peers, dir string, c getafixCase) getafixRow {
	t.Helper()
	row := getafixRow{name: c.name, kb: len(c.src) / 1024}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bp := filepath.Join(dir, "p.bp")
	if err := os.WriteFile(bp, []byte(c.src), 0o644); err != nil {
		t.Fatal(err)
	}
	tctx, tcancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer tcancel()
	cmd := exec.CommandContext(tctx, filepath.Join(peers, "bin", "getafix"), "-i", bp, "-c", "4", "-l", "SLIC_ERROR", "-f", filepath.Join(peers, "formulae", "formula-3t_4r_crossproduct_precise.mu"))
	cmd.Dir = dir
	model, err := cmd.Output()
	if err != nil {
		row.muckeWhy = fmt.Sprintf("getafix: %v: %.60s", err, model)
	} else {
		ctx, cancel := context.WithTimeout(context.Background(), *getafixTimeout)
		start := time.Now()
		f, err := fix.ParseFileContext(ctx, "p.mu", model)
		if err == nil {
			err = fix.CheckContext(ctx, f)
		}
		var ans *fix.Answer
		if err == nil {
			ans, err = fix.Solve(ctx, f, fix.Options{})
		}
		row.muckeT = time.Since(start)
		cancel()
		switch {
		case err != nil:
			row.mucke, row.muckeWhy = result.Unknown, err.Error()
		case ans.Value:
			row.mucke = result.Unsafe
		default:
			row.mucke = result.Safe
		}
	}
	p := testsuite.LowerDialect(t, c.name, c.src, syntax.Getafix, "")
	ctx, cancel := context.WithTimeoutCause(context.Background(), *getafixTimeout, engine.ErrTimeout)
	defer cancel()
	start := time.Now()
	res := testsuite.CheckContext(ctx, t, concprod.New(), sourceOrder(p), engine.Query{Bound: rounds(4)})
	row.oursT = time.Since(start)
	row.ours, row.oursWy = res.Verdict, res.Reason
	if !slices.IsSorted(p.Threads) {
		own := testsuite.CheckContext(ctx, t, concprod.New(), p, engine.Query{Bound: rounds(4)})
		row.ownOrder = own.Verdict.String()
	}
	if row.mucke != result.Unknown && row.ours != result.Unknown && row.mucke != row.ours && row.muckeWhy == "" {
		// The explicit oracle decides whether the difference is ours or
		// a difference of conventions (Getafix's switch points).
		ex, err := explicit.NewWithOptions(explicit.Options{MaxStates: 300000})
		if err != nil {
			t.Fatal(err)
		}
		want := testsuite.CheckContext(ctx, t, ex, sourceOrder(p), engine.Query{Bound: rounds(4)})
		row.oracle = want.Verdict
		if want.Verdict != result.Unknown && want.Verdict != row.ours {
			t.Errorf("%s: conc-product says %s, the explicit oracle %s (Getafix's model %s)\n%s", c.name, row.ours, want.Verdict, row.mucke, c.src)
		}
	}
	return row
}

func reportGetafix(t *testing.T, rows []getafixRow) {
	var b strings.Builder
	fmt.Fprintf(&b, "%-34s %5s  %-8s %9s  %-8s %9s  %7s  %s\n", "program", "KB", "mucke", "time", "ours", "time", "ratio", "note")
	var ratios []float64
	equal, both := 0, 0
	for _, r := range rows {
		ratio := ""
		note := r.muckeWhy
		if r.oursWy != "" {
			note += " ours: " + r.oursWy
		}
		if r.ownOrder != "" {
			note += " (ours in main-first order: " + r.ownOrder + ")"
		}
		if r.mucke != result.Unknown && r.ours != result.Unknown && r.muckeWhy == "" {
			both++
			if r.mucke == r.ours {
				equal++
			} else {
				note += " values differ; explicit: " + r.oracle.String()
			}
			x := float64(r.oursT) / float64(r.muckeT)
			ratios = append(ratios, x)
			ratio = fmt.Sprintf("%.2f", x)
		}
		fmt.Fprintf(&b, "%-34s %5d  %-8s %9s  %-8s %9s  %7s  %.100s\n", r.name, r.kb, r.mucke, r.muckeT.Round(time.Millisecond), r.ours, r.oursT.Round(time.Millisecond), ratio, note)
	}
	slices.Sort(ratios)
	if len(ratios) > 0 {
		fmt.Fprintf(&b, "both decided %d of %d, equal values %d; time ours / boolprog mucke: median %.2f, worst %.2f, best %.2f\n",
			both, len(rows), equal, ratios[len(ratios)/2], ratios[len(ratios)-1], ratios[0])
	}
	t.Log("\n" + b.String())
}
