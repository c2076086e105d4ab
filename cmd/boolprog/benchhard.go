package main

import (
	"context"
	"flag"
	"fmt"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/sema"
	"boolprog/syntax"
)

// hardFlags are bench's flags for the hard set (--set hard).
type hardFlags struct {
	set   *string
	modes *string
	only  *string
	order *string
	cpu   *bool
	mucke muckeFlags
}

func defineHardFlags(fs *flag.FlagSet) hardFlags {
	return hardFlags{
		set:   fs.String("set", "template", "benchmark set: template (T(N) for --sizes), hard (gen.HardSet: 20 random programs with 18 to 36 variables in scope, recursion; --timeout defaults to 30s) or bluetooth (every concurrent engine on examples/bluetooth at cs:6, with and without --deepen; --timeout defaults to 1m), or mucke (Getafix-translated models of generated programs, boolprog mucke beside Mucke; --timeout, for ours, defaults to 1m)"),
		modes: fs.String("reorder", "", "with --set hard: comma-separated BDD reordering modes to run each program with (off, sift, auto; default off,auto), for an engine that has --reorder"),
		only:  fs.String("only", "", "with --set hard or mucke: run only the programs (models) whose name contains this string"),
		cpu:   fs.Bool("cpu", false, "with --set hard: --timeout limits the CPU time of each run instead of its wall time (on a loaded machine the wall time measures the load)"),
		order: fs.String("order", "", "with --set hard: the initial BDD variable order (the engine's --order: force, affinity or declaration)"),
		mucke: defineMuckeFlags(fs),
	}
}

// runHardSet checks every program of the hard set with every reordering
// mode asked, once each, and prints one row per run: decided within the
// time limit or not, the time, the peak BDD nodes and the reorderings.
func runHardSet(ctx context.Context, c *command, s *streams, info engine.Info, hf hardFlags, timeout time.Duration) int {
	modes := []string{"off", "auto"}
	if *hf.modes != "" {
		modes = strings.Split(*hf.modes, ",")
	}
	if fs, _ := info.FlagSet(); fs.Lookup("reorder") == nil {
		// An engine without reordering (ef, pre*, cpa, ...) runs each
		// program once, in the mode column "-".
		if *hf.modes != "" {
			return c.usageError(s, "the %s engine has no --reorder flag", info.Name())
		}
		modes = []string{"-"}
	}
	for _, md := range modes {
		fs, build := info.FlagSet()
		if md != "-" {
			if err := fs.Set("reorder", md); err != nil {
				return c.usageError(s, "--reorder %q: %v", md, err)
			}
		}
		if *hf.order != "" {
			if fs.Lookup("order") == nil {
				return c.usageError(s, "the %s engine has no --order flag", info.Name())
			}
			if err := fs.Set("order", *hf.order); err != nil {
				return c.usageError(s, "--order %q: %v", *hf.order, err)
			}
		}
		if _, err := build(); err != nil {
			return c.usageError(s, "engine %s: %v", info.Name(), err)
		}
	}
	tw := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "program\tin scope\treorder\tverdict\tdecided\ttime\tCPU\tpeak BDD nodes\treorders\treorder time\tnodes after last\t")
	decided := make(map[string]int)
	wall := make(map[string]time.Duration)
	cpuSum := make(map[string]time.Duration)
	ran := 0
	for _, h := range gen.HardSet() {
		if *hf.only != "" && !strings.Contains(h.Name, *hf.only) {
			continue
		}
		ran++
		p, err := hardProgram(h)
		if err != nil {
			fmt.Fprintf(s.stderr, "boolprog bench: %s: %v\n", h.Name, err)
			return exitUsage
		}
		// A program whose error sites main cannot reach even in the
		// control-flow graph (the generator leaves out error sites in one
		// program of ten) is answered by check at once; the set measures
		// what the engine's search costs, so these compute every
		// reachable state, as an unreachable error site would make them.
		_, errorSite := p.ErrorReachableInCFG()
		for _, md := range modes {
			fs, build := info.FlagSet()
			if md != "-" {
				fs.Set("reorder", md)
			}
			if *hf.order != "" {
				fs.Set("order", *hf.order)
			}
			eng, _ := build()
			cpu0, cpuOK := processCPU()
			runCtx, wallLimit, stop := ctx, timeout, func() {}
			if *hf.cpu {
				runCtx, stop = cpuLimit(ctx, cpu0, timeout)
				wallLimit = 1000 * timeout
			}
			m := measure(runCtx, eng, p, benchConfig{replay: true, timeout: wallLimit, firstError: true, all: !errorSite})
			stop()
			cpu1, _ := processCPU()
			cpu := "-"
			if cpuOK {
				cpu = ms3(cpu1 - cpu0).String()
				cpuSum[md] += cpu1 - cpu0
			}
			wall[md] += m.total
			if intr := interruption(ctx); intr != nil {
				tw.Flush()
				fmt.Fprintln(s.stdout, "VERIFICATION UNKNOWN: interrupted")
				return intr.exitCode()
			}
			c := m.res.Stats.Counters
			dec := "no"
			if m.res.Verdict != result.Unknown {
				dec = "yes"
				decided[md]++
			}
			verdict := m.res.Verdict.String()
			if !errorSite {
				verdict += " (all states: no error site)"
			}
			if m.res.TraceCut {
				verdict += " (no trace: " + m.res.Reason + ")"
			} else if v, ok := c["trace_shortest"]; ok && v == 0 {
				verdict += " (trace not shortest)"
			}
			fmt.Fprintf(s.stderr, "%s %s: %s in %v\n", h.Name, md, verdict, ms3(m.total))
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%v\t%s\t%d\t%d\t%v\t%d\t\n", h.Name, inScope(p), md, verdict, dec,
				ms3(m.total), cpu, c["peak_bdd_nodes"], c["bdd_reorders"], ms3(time.Duration(c["time_reorder_ns"])), c["bdd_nodes_after_last_reorder"])
			if m.replayErr != nil {
				fmt.Fprintf(s.stderr, "%s: the trace does not replay: %v\n", h.Name, m.replayErr)
			}
		}
	}
	tw.Flush()
	for _, md := range modes {
		limit := timeout.String()
		if *hf.cpu {
			limit += " of CPU"
		}
		fmt.Fprintf(s.stdout, "reorder %s: %d of %d decided within %s; total time %v, CPU %v\n", md, decided[md], ran, limit, ms3(wall[md]), ms3(cpuSum[md]))
	}
	fmt.Fprintf(s.stdout, "engine %s, hard set (gen.HardSet; `boolprog gen random` flags in bench/README.md), one run each, GOMAXPROCS=%d, %s/%s\n",
		info.Name(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH)
	return exitOK
}

// hardProgram generates, parses and lowers a program of the hard set.
func hardProgram(h gen.HardProgram) (*ir.Program, error) {
	f, err := syntax.ParseFile(h.Name+".bp", []byte(h.Source()), syntax.CProver)
	if err != nil {
		return nil, err
	}
	info, errs, _ := sema.Check(f)
	if len(errs) > 0 {
		return nil, errs
	}
	return ir.Lower(f, info, ir.Options{})
}

// inScope is the most variables in scope in one procedure of p: the
// globals plus its parameters and locals.
func inScope(p *ir.Program) int {
	most := 0
	for _, proc := range p.Procs {
		most = max(most, len(proc.Locals))
	}
	return len(p.Globals) + most
}

// hardSetRun runs the hard set if --set asks for it (done), and refuses
// flags of the other set.
func hardSetRun(ctx context.Context, c *command, s *streams, info engine.Info, hf hardFlags, timeout time.Duration) (code int, done bool) {
	set := setFlags(c.fs)
	switch *hf.set {
	case "template":
		for _, f := range []string{"reorder", "only", "order", "cpu"} {
			if set[f] {
				return c.usageError(s, "--%s is for --set hard", f), true
			}
		}
		return 0, false
	case "hard":
		for _, f := range []string{"sizes", "runs", "error", "no-replay"} {
			if set[f] {
				return c.usageError(s, "--%s is for --set template", f), true
			}
		}
		if !set["timeout"] {
			timeout = 30 * time.Second
		}
		if *hf.cpu {
			if _, ok := processCPU(); !ok {
				return c.usageError(s, "--cpu: the CPU time is not measured on this system"), true
			}
		}
		return runHardSet(ctx, c, s, info, hf, timeout), true
	case "bluetooth":
		return runBluetoothSet(ctx, c, s, timeout), true
	case "mucke":
		if !set["timeout"] {
			timeout = 60 * time.Second
		}
		return runMuckeSet(ctx, c, s, hf.mucke, *hf.only, timeout), true
	}
	return c.usageError(s, "unknown set %q (want template, hard, bluetooth or mucke)", *hf.set), true
}

// cpuLimit returns a context that ends, with the cause engine.ErrTimeout,
// once the process has used limit CPU time since it had used start
// (polled every 10ms), and the function that releases it.
func cpuLimit(ctx context.Context, start, limit time.Duration) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				if now, _ := processCPU(); now-start >= limit {
					cancel(engine.ErrTimeout)
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}
