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
//     (Getafix's translator places its switch points by the text: before
//     a statement that touches a global, unless an `atomic := T` comes
//     before it in the text with no `atomic := F` between; the no-op ends
//     every such stretch where the run ends it, so in the thread
//     procedures its switch points are ours, every step that may touch a
//     global while `atomic` is F; a called procedure still runs as one
//     step there), each thread ends with `assume(T);`, `!!e` is written e, init's `*` values
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
			// Getafix's translator decides its switch points by the
			// text (before a statement that touches a global, unless it
			// follows an atomic := T in the text); ours at every step
			// that may touch a global while `atomic` is F. A no-op
			// atomic := F after every statement outside the atomic
			// stretches ends each stretch in the text where it ends in
			// the run, so the two agree (but for calls, one step in
			// Getafix's model).
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

// atomicWith is an assignment of constants to `atomic` and one other
// variable, as Getafix's SafeStack experiments write it.
var atomicWith = regexp.MustCompile(`^(\s*)atomic\s*,\s*(\w+)\s*:=\s*([TF])\s*,\s*([TF])\s*;`)

// normalizeForGetafix rewrites a program written for Getafix's translator
// so that its model asks a question close to ours (bench/RESULTS.md, "Why
// Getafix decides its SafeStack programs fast"; calls still run as one
// step there), without changing what the program means to us:
//   - a void procedure that reaches `end` without `return;` gets one:
//     the translator's Exit relation is the pc of return statements, so
//     without it the procedure never returns and its caller's thread
//     blocks at the call;
//   - `atomic, x := T, T;` becomes `atomic := T; x := T;` (constants only,
//     so the two steps equal the one): the translator makes an assignment
//     to `atomic` a switch point (and the start of an atomic stretch) only
//     when `atomic` is its single target, so without the split no switch
//     happens between back-to-back atomic blocks.
func normalizeForGetafix(src string) string {
	lines := strings.Split(src, "\n")
	var out []string
	void, last := false, ""
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		m := procHead.FindStringSubmatch(l)
		switch {
		case m != nil:
			void = m[1] == "void"
		case trimmed == "end" && void:
			if !strings.HasPrefix(last, "return") {
				out = append(out, "    return;")
			}
			void = false
		}
		if a := atomicWith.FindStringSubmatch(l); a != nil {
			l = a[1] + "atomic := " + a[3] + "; " + a[2] + " := " + a[4] + ";" + l[len(a[0]):]
		}
		out = append(out, l)
		if trimmed != "" && !strings.HasPrefix(trimmed, "//") {
			last = trimmed
		}
	}
	return strings.Join(out, "\n")
}

// getafixCase is a program of the comparison.
type getafixCase struct {
	name string
	src  string // what ours reads
	// translated, if not empty, is what Getafix's translator reads
	// instead of src (the same program in its conventions).
	translated string
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
	getafixDir     = flag.String("getafix-dir", "", "TestGetafixComparison: also the 3-thread programs (*.bp) of this directory, such as Getafix's own experiment programs; Getafix's translator reads each as written and normalized (normalizeForGetafix)")
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
	if *getafixDir != "" {
		files, _ := filepath.Glob(filepath.Join(*getafixDir, "*.bp"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := lowerSrc(f, string(src))
			if err != nil || len(p.Threads) != 3 {
				t.Logf("%s: left out (not a 3-thread program of the Getafix convention: %v)", f, err)
				continue
			}
			name := filepath.Base(f)
			cases = append(cases, getafixCase{name: name, src: string(src)})
			if norm := normalizeForGetafix(string(src)); norm != string(src) {
				cases = append(cases, getafixCase{name: name + " (normalized)", src: string(src), translated: norm})
			}
		}
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
	ours := make(map[string]getafixRow) // by src: a normalized case reuses our run
	for i, c := range cases {
		r := compareGetafix(t, peers, filepath.Join(dir, fmt.Sprint(i)), c, ours)
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

// compareGetafix runs both tools on c; ours holds our results by source
// text, to be reused.
func compareGetafix(t *testing.T, peers, dir string, c getafixCase, ours map[string]getafixRow) getafixRow {
	t.Helper()
	row := getafixRow{name: c.name, kb: len(c.src) / 1024}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	bp := filepath.Join(dir, "p.bp")
	translated := c.translated
	if translated == "" {
		translated = c.src
	}
	if err := os.WriteFile(bp, []byte(translated), 0o644); err != nil {
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
	if prev, ok := ours[c.src]; ok {
		row.ours, row.oursT, row.oursWy, row.ownOrder = prev.ours, prev.oursT, prev.oursWy, prev.ownOrder
	} else {
		start := time.Now()
		res := testsuite.CheckContext(ctx, t, concprod.New(), sourceOrder(p), engine.Query{Bound: rounds(4)})
		row.oursT = time.Since(start)
		row.ours, row.oursWy = res.Verdict, res.Reason
		if !slices.IsSorted(p.Threads) {
			own := testsuite.CheckContext(ctx, t, concprod.New(), p, engine.Query{Bound: rounds(4)})
			row.ownOrder = own.Verdict.String()
		}
		ours[c.src] = row
	}
	if row.mucke != result.Unknown && row.ours != result.Unknown && row.mucke != row.ours && row.muckeWhy == "" {
		// The explicit oracle decides whether the difference is ours or
		// a difference of conventions (Getafix's translator runs a call
		// as one step, for one).
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

// TestNormalizeForGetafix checks the two rewrites, and that the rewritten
// program means the same to us (the same answer, at every bound).
func TestNormalizeForGetafix(t *testing.T) {
	const prog = `decl atomic, g;
void init()
begin
  g := F;
  endinit: skip;
end
void thread1()
begin
  decl at;
  atomic, at := T, T;
  g := !g;
  atomic, at := F, F;
  flip();
  if (g) then SLIC_ERROR: skip; fi
end
void thread2()
begin
  decl at;
  atomic, at := T, at;
  atomic, at := F, F;
  flip();
  return;
end
void thread3()
begin
  skip;
end
void flip()
begin
  g := !g;
end
bool b()
begin
  return T;
end
`
	norm := normalizeForGetafix(prog)
	for _, c := range []struct {
		want string
		n    int
	}{
		{"atomic := T; at := T;", 1},
		{"atomic := F; at := F;", 2},
		{"atomic, at := T, at;", 1}, // not constants: left alone
		{"g := !g;\n    return;\nend", 1},
		{"return;\n    return;", 0},   // a procedure that returns is left alone
		{"return T;\n    return;", 0}, // so is a bool procedure
	} {
		if got := strings.Count(norm, c.want); got != c.n {
			t.Errorf("%q occurs %d times, want %d, in\n%s", c.want, got, c.n, norm)
		}
	}
	for k := 1; k <= 3; k++ {
		var verdicts [2]result.Verdict
		for i, src := range []string{prog, norm} {
			p := testsuite.LowerDialect(t, "p.bp", src, syntax.Getafix, "")
			verdicts[i] = testsuite.Check(t, concprod.New(), p, engine.Query{Bound: rounds(k)}).Verdict
		}
		want := result.Unsafe // thread2's flip between thread1's two
		if k == 1 {
			want = result.Safe
		}
		if verdicts[0] != want || verdicts[1] != want {
			t.Errorf("rounds:%d: %s as written, %s normalized, want %s", k, verdicts[0], verdicts[1], want)
		}
	}
}
