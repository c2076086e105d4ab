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
}

func defineHardFlags(fs *flag.FlagSet) hardFlags {
	return hardFlags{
		set:   fs.String("set", "template", "benchmark set: template (T(N) for --sizes), hard (gen.HardSet: 20 random programs with 18 to 36 variables in scope, recursion; --timeout defaults to 30s) or bluetooth (every concurrent engine on examples/bluetooth at cs:6, with and without --deepen; --timeout defaults to 1m)"),
		modes: fs.String("reorder", "", "with --set hard: comma-separated BDD reordering modes to run each program with (off, sift, auto; default off,auto), for an engine that has --reorder"),
		only:  fs.String("only", "", "with --set hard: run only the programs whose name contains this string"),
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
	for _, md := range modes {
		fs, build := info.FlagSet()
		if fs.Lookup("reorder") == nil {
			return c.usageError(s, "the %s engine has no --reorder flag", info.Name())
		}
		if err := fs.Set("reorder", md); err != nil {
			return c.usageError(s, "--reorder %q: %v", md, err)
		}
		if _, err := build(); err != nil {
			return c.usageError(s, "engine %s: %v", info.Name(), err)
		}
	}
	tw := tabwriter.NewWriter(s.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "program\tin scope\treorder\tverdict\tdecided\ttime\tpeak BDD nodes\treorders\treorder time\tnodes after last\t")
	decided := make(map[string]int)
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
		for _, md := range modes {
			fs, build := info.FlagSet()
			fs.Set("reorder", md)
			eng, _ := build()
			m := measure(ctx, eng, p, benchConfig{replay: true, timeout: timeout})
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
			if m.res.TraceCut {
				verdict += " (no trace: " + m.res.Reason + ")"
			}
			fmt.Fprintf(s.stderr, "%s %s: %s in %v\n", h.Name, md, verdict, ms3(m.total))
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%v\t%d\t%d\t%v\t%d\t\n", h.Name, inScope(p), md, verdict, dec,
				ms3(m.total), c["peak_bdd_nodes"], c["bdd_reorders"], ms3(time.Duration(c["time_reorder_ns"])), c["bdd_nodes_after_last_reorder"])
			if m.replayErr != nil {
				fmt.Fprintf(s.stderr, "%s: the trace does not replay: %v\n", h.Name, m.replayErr)
			}
		}
	}
	tw.Flush()
	for _, md := range modes {
		fmt.Fprintf(s.stdout, "reorder %s: %d of %d decided within %v\n", md, decided[md], ran, timeout)
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
		for _, f := range []string{"reorder", "only"} {
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
		return runHardSet(ctx, c, s, info, hf, timeout), true
	case "bluetooth":
		return runBluetoothSet(ctx, c, s, timeout), true
	}
	return c.usageError(s, "unknown set %q (want template, hard or bluetooth)", *hf.set), true
}
