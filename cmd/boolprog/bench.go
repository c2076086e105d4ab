package main

import (
	"context"
	"flag"
	"fmt"
	"io"
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
	"boolprog/ir"
	"boolprog/result"
	"boolprog/sema"
	"boolprog/syntax"
)

// runBench measures an engine on the Bebop template T(N) for several N in
// one run, so that the ratios between sizes are taken under the same
// machine conditions (absolute times on a shared machine mean little).
func runBench(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	engineName := fs.String("engine", defaultEngine, "engine: "+engineNames())
	sizes := fs.String("sizes", "100,200,400,800,1600,3200", "comma-separated template sizes N")
	runs := fs.Int("runs", 3, "runs per size; the median time is reported")
	var kind templateErrorFlag
	fs.Var(&kind, "error", "template variant: none (all reachable states), reachable or unreachable")
	timeout := fs.Duration("timeout", 10*time.Minute, "limit per run")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: boolprog bench [flags]\n\nRuns an engine on the Bebop template T(N) (paper §4) and prints time, peak\nheap, BDD nodes, path edges and summaries per N, with the time ratio to the\nprevious size: a linear engine doubles when N doubles.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if rest, err := parseInterspersed(fs, args); err != nil || len(rest) > 0 {
		if err == nil {
			fs.Usage()
		}
		return exitUsage
	}
	info, ok := engine.Lookup(*engineName)
	if !ok {
		fmt.Fprintf(stderr, "boolprog bench: unknown engine %q (have %s)\n", *engineName, engineNames())
		return exitUsage
	}
	var ns []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "boolprog bench: bad size %q\n", s)
			return exitUsage
		}
		ns = append(ns, n)
	}
	if *runs < 1 {
		fmt.Fprintln(stderr, "boolprog bench: --runs must be at least 1")
		return exitUsage
	}
	tk := kind.e

	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "N\tvars\tverdict\ttime\tratio\tpeak heap MB\tpeak BDD nodes\tpath edges\tsummaries\t")
	var prev time.Duration
	for _, n := range ns {
		prog, err := templateProgram(n, tk)
		if err != nil {
			fmt.Fprintf(stderr, "boolprog bench: T(%d): %v\n", n, err)
			return exitUsage
		}
		var times []time.Duration
		var res *result.Result
		var peak uint64
		for r := 0; r < *runs; r++ {
			eng, err := info.New()
			if err != nil {
				fmt.Fprintf(stderr, "boolprog bench: engine %s: %v\n", info.Name(), err)
				return exitUsage
			}
			q := engine.Query{AllReachable: tk == gen.NoError}
			var d time.Duration
			var p uint64
			res, d, p = measure(eng, prog, q, *timeout)
			times = append(times, d)
			peak = max(peak, p)
		}
		slices.Sort(times)
		med := times[len(times)/2]
		ratio := "-"
		if prev > 0 {
			ratio = fmt.Sprintf("%.2f", float64(med)/float64(prev))
		}
		prev = med
		c := res.Stats.Counters
		fmt.Fprintf(tw, "%d\t%d\t%s\t%v\t%s\t%.1f\t%d\t%d\t%d\t\n", n, numVars(prog), res.Verdict, med.Round(time.Microsecond), ratio,
			float64(peak)/(1<<20), c["peak_bdd_nodes"], c["path_edges"], c["summaries"])
		if res.Verdict == result.Unknown {
			fmt.Fprintf(stderr, "T(%d): %s\n", n, res.Banner())
		}
	}
	tw.Flush()
	fmt.Fprintf(stdout, "engine %s, %d run(s) per size (median), GOMAXPROCS=%d, %s/%s\n", *engineName, *runs, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	return exitOK
}

func templateProgram(n int, kind gen.TemplateError) (*ir.Program, error) {
	src := gen.BebopTemplateWith(n, kind)
	f, err := syntax.ParseFile(fmt.Sprintf("T(%d)", n), []byte(src), syntax.CProver)
	if err != nil {
		return nil, err
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		return nil, errs
	}
	return ir.Lower(f, info, ir.Options{})
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

// measure runs one check after a full GC and samples the heap every
// millisecond while it runs: the peak is approximate, but taken the same way
// for every size.
func measure(eng engine.Engine, p *ir.Program, q engine.Query, timeout time.Duration) (*result.Result, time.Duration, uint64) {
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
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	res := engine.Run(ctx, eng, p, q)
	d := time.Since(start)
	close(done)
	<-sampled
	pk := max(peak.Load(), heapBytes(sample))
	if pk > base {
		pk -= base
	} else {
		pk = 0
	}
	return res, d, pk
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
