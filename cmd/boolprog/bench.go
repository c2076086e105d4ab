package main

import (
	"cmp"
	"context"
	"fmt"
	"runtime"
	"runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/sema"
	"boolprog/syntax"
)

const benchHead = `usage: boolprog bench [flags]

Runs an engine on the Bebop template T(N) (paper section 4) for several N in
one run, so that the ratios between sizes are taken under the same machine
conditions (absolute times on a shared machine mean little).

By default it checks T(N) for the label reach in main, which the shortest
trace reaches only after descending to the deepest level, the way check does
by default: search, trace construction and replay of the trace in the
interpreter. The table gives each phase's median time: "reach" is the
search alone (the time without a trace), "total" adds the trace and its
replay; "ratio" is total(N) / total(previous N): a linear checker doubles
when N doubles. With --error none|reachable|unreachable it checks T(N)'s
SLIC_ERROR variants instead (--error none: every reachable state).
`

// runBench measures an engine on the Bebop template T(N) for several N in
// one run.
func runBench(ctx context.Context, args []string, s *streams) int {
	c := newCommand("bench", benchHead)
	fs := c.fs
	engineName := fs.String("engine", defaultEngine, "engine: "+engineNames())
	sizes := fs.String("sizes", "100,200,400,800,1600,3200", "comma-separated template sizes N")
	runs := fs.Int("runs", 3, "runs per size; the median time is reported")
	var kind templateErrorFlag
	kindSet := false
	fs.Func("error", "check a SLIC_ERROR variant instead of the label reach: none (all reachable states), reachable or unreachable", func(v string) error {
		kindSet = true
		return kind.Set(v)
	})
	noReplay := fs.Bool("no-replay", false, "do not replay the trace (check's --no-replay)")
	timeout := fs.Duration("timeout", 10*time.Minute, "limit per run")
	var memory memoryFlag
	memory.register(fs)
	hf := defineHardFlags(fs)
	rest, err := c.parse(args, s)
	if err != nil {
		return c.flagError(s, err)
	}
	if len(rest) > 0 {
		return c.usageError(s, "unexpected argument %q", rest[0])
	}
	info, ok := engine.Lookup(*engineName)
	if !ok {
		return c.usageError(s, "unknown engine %q (have %s)", *engineName, engineNames())
	}
	// Once, before any engine runs.
	memory.apply()
	if code, done := hardSetRun(ctx, c, s, info, hf, *timeout); done {
		return code
	}
	var ns []int
	for _, f := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1_000_000 {
			return c.usageError(s, "bad size %q (want whole numbers from 1 to 1000000)", f)
		}
		ns = append(ns, n)
	}
	if *runs < 1 {
		return c.usageError(s, "--runs must be at least 1")
	}
	cfg := benchConfig{kind: kind.e, target: "reach", replay: !*noReplay, timeout: *timeout}
	if kindSet {
		cfg.target = ""
	}

	tw := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "N\tvars\tverdict\tsteps\treach\ttrace\treplay\ttotal\tratio\tpeak heap MB\tpeak BDD nodes\tpath edges\t")
	var prev time.Duration
	totals := make(map[int]time.Duration)
	for _, n := range ns {
		prog, err := templateProgram(n, cfg.kind, cfg.target)
		if err != nil {
			fmt.Fprintf(s.stderr, "boolprog bench: T(%d): %v\n", n, err)
			return exitUsage
		}
		var ms []benchRun
		for r := 0; r < *runs; r++ {
			eng, err := info.New()
			if err != nil {
				fmt.Fprintf(s.stderr, "boolprog bench: engine %s: %v\n", info.Name(), err)
				return exitUsage
			}
			m := measure(ctx, eng, prog, cfg)
			if intr := interruption(ctx); intr != nil {
				tw.Flush()
				fmt.Fprintln(s.stdout, "VERIFICATION UNKNOWN: interrupted")
				return intr.exitCode()
			}
			ms = append(ms, m)
		}
		m := median(ms)
		ratio := "-"
		if prev > 0 {
			ratio = fmt.Sprintf("%.2f", float64(m.total)/float64(prev))
		}
		prev = m.total
		totals[n] = m.total
		c := m.res.Stats.Counters
		fmt.Fprintf(tw, "%d\t%d\t%s\t%d\t%v\t%v\t%v\t%v\t%s\t%.1f\t%d\t%d\t\n", n, numVars(prog), m.res.Verdict, traceLen(m.res.Trace),
			ms3(m.reach), ms3(m.trace), ms3(m.replay), ms3(m.total), ratio,
			float64(m.peak)/(1<<20), c["peak_bdd_nodes"], c["path_edges"])
		if m.res.Verdict == result.Unknown {
			fmt.Fprintf(s.stderr, "T(%d): %s\n", n, m.res.Banner())
		}
		if m.replayErr != nil {
			fmt.Fprintf(s.stderr, "T(%d): the trace does not replay: %v\n", n, m.replayErr)
		}
	}
	tw.Flush()
	// Quadrupling the size is what the target speaks about
	// (T(3200)/T(800) at most 4.5 for a linear checker with noise).
	if last := ns[len(ns)-1]; last%4 == 0 && totals[last/4] > 0 {
		fmt.Fprintf(s.stdout, "total T(%d)/T(%d) = %.2f (a linear checker: about 4)\n", last, last/4, float64(totals[last])/float64(totals[last/4]))
	}
	what := "label reach, trace built and replayed"
	switch {
	case cfg.target == "":
		what = "--error " + kind.String()
	case !cfg.replay:
		what = "label reach, trace built, not replayed"
	}
	fmt.Fprintf(s.stdout, "engine %s, %s, %d run(s) per size (median of total), GOMAXPROCS=%d, %s/%s\n",
		*engineName, what, *runs, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	return exitOK
}

// traceLen is the number of steps of a trace that may be nil.
func traceLen(tr *result.Trace) int {
	if tr == nil {
		return 0
	}
	return tr.Len()
}

// ms3 rounds a duration for the table.
func ms3(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// benchConfig is what one bench run checks.
type benchConfig struct {
	kind    gen.TemplateError
	target  string // the error label; "" for SLIC_ERROR
	replay  bool
	timeout time.Duration
	// firstError: stop at the first error, as check does, whatever the
	// kind (the hard set); otherwise a template without an error
	// computes every reachable state.
	firstError bool
	// all: compute every reachable state whatever the rest says (the
	// hard set's programs without an error site in reach, which check
	// would answer at once: the set measures the search).
	all bool
}

// benchRun is the measurement of one check.
type benchRun struct {
	res                         *result.Result
	reach, trace, replay, total time.Duration
	peak                        uint64
	replayErr                   error
}

// median returns the run with the median total time (the peak heap is the
// largest of all runs).
func median(ms []benchRun) benchRun {
	sorted := slices.Clone(ms)
	slices.SortFunc(sorted, func(a, b benchRun) int { return cmp.Compare(a.total, b.total) })
	m := sorted[len(sorted)/2]
	for _, x := range ms {
		m.peak = max(m.peak, x.peak)
	}
	return m
}

// templateProgram returns T(n) in the given variant, lowered for target.
func templateProgram(n int, kind gen.TemplateError, target string) (*ir.Program, error) {
	src := gen.BebopTemplateWith(n, kind)
	f, err := syntax.ParseFile(fmt.Sprintf("T(%d)", n), []byte(src), syntax.CProver)
	if err != nil {
		return nil, err
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		return nil, errs
	}
	return ir.Lower(f, info, ir.Options{Target: target})
}

// heapMetric is the live heap, read without stopping the world (unlike
// runtime.ReadMemStats, which would perturb the run it samples).
const heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes(s []metrics.Sample) uint64 {
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// measure runs one check the way `boolprog check` does (search, trace,
// replay) after a full GC, and samples the heap every millisecond while it
// runs: the peak is approximate, but taken the same way for every size.
func measure(ctx context.Context, eng engine.Engine, p *ir.Program, cfg benchConfig) benchRun {
	runtime.GC()
	sample := []metrics.Sample{{Name: heapMetric}}
	base := heapBytes(sample)
	var peak atomic.Uint64
	done := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		s := []metrics.Sample{{Name: heapMetric}}
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if h := heapBytes(s); h > peak.Load() {
					peak.Store(h)
				}
			}
		}
	}()
	m := checkTemplate(ctx, eng, p, cfg)
	close(done)
	<-sampled
	m.peak = max(peak.Load(), heapBytes(sample))
	if m.peak > base {
		m.peak -= base
	} else {
		m.peak = 0
	}
	return m
}

// checkTemplate runs one check the way `boolprog check` does: search,
// trace, and (unless cfg says not to) replay of the trace.
func checkTemplate(ctx context.Context, eng engine.Engine, p *ir.Program, cfg benchConfig) benchRun {
	ctx, cancel := context.WithTimeoutCause(ctx, cfg.timeout, engine.ErrTimeout)
	defer cancel()
	var m benchRun
	start := time.Now()
	q := engine.Query{AllReachable: cfg.all || cfg.kind == gen.NoError && cfg.target == "" && !cfg.firstError}
	m.res = engine.Run(ctx, eng, p, q)
	if m.res.Verdict == result.Unsafe && !m.res.TraceCut && cfg.replay { // a cut trace has no steps
		t := time.Now()
		m.replayErr = interp.ReplayContext(ctx, p, m.res.Trace)
		m.replay = time.Since(t)
	}
	m.total = time.Since(start)
	m.reach = phaseTime(&m.res.Stats, result.PhaseReach, "time_reach_ns")
	m.trace = phaseTime(&m.res.Stats, result.PhaseTrace, "time_trace_ns")
	return m
}

// phaseTime returns the time of an engine's phase: from Stats.Phases, or
// from the counter in which engines reported it before phases existed.
func phaseTime(st *result.Stats, phase, counter string) time.Duration {
	if d, ok := st.Phases[phase]; ok {
		return d
	}
	return time.Duration(st.Counters[counter])
}

// numVars counts a program's variables: globals plus every procedure's
// parameters and locals.
func numVars(p *ir.Program) int {
	n := len(p.Globals)
	for _, proc := range p.Procs {
		n += len(proc.Locals)
	}
	return n
}
