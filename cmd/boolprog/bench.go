package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"boolprog/benchset"
	"boolprog/engine"
	"boolprog/internal/interrupt"
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

// runBench measures an engine on a benchmark set (package benchset): by
// default the Bebop template T(N) for several N in one run.
func runBench(ctx context.Context, args []string, s *streams) int {
	c := newCommand("bench", benchHead)
	fs := c.fs
	engineName := fs.String("engine", defaultEngine, "engine: "+engineNames())
	sizes := fs.String("sizes", "100,200,400,800,1600,3200", "comma-separated template sizes N")
	runs := fs.Int("runs", 3, "runs per size; the median time is reported")
	var kind templateErrorFlag
	fs.Var(&kind, "error", "check a SLIC_ERROR variant instead of the label reach: none (all reachable states), reachable or unreachable")
	noReplay := fs.Bool("no-replay", false, "do not replay the trace (check's --no-replay)")
	timeout := fs.Duration("timeout", 10*time.Minute, "limit per run")
	var memory memoryFlag
	memory.register(fs)
	set := fs.String("set", "template", "benchmark set: template (T(N) for --sizes), hard (gen.HardSet: 20 random programs with 18 to 36 variables in scope, recursion; --timeout defaults to 30s) or bluetooth (every concurrent engine on examples/bluetooth at cs:6, with and without --deepen; --timeout defaults to 1m), or mucke (Getafix-translated models of generated programs, boolprog mucke beside Mucke; --timeout, for ours, defaults to 1m)")
	modes := fs.String("reorder", "", "with --set hard: comma-separated BDD reordering modes to run each program with (off, sift, auto; default off,auto), for an engine that has --reorder")
	only := fs.String("only", "", "with --set hard or mucke: run only the programs (models) whose name contains this string")
	cpu := fs.Bool("cpu", false, "with --set hard: --timeout limits the CPU time of each run instead of its wall time (on a loaded machine the wall time measures the load)")
	order := fs.String("order", "", "with --set hard: the initial BDD variable order (the engine's --order: force, affinity or declaration)")
	var mucke benchset.MuckeOptions
	fs.StringVar(&mucke.Dir, "dir", "", "with --set mucke: where the models are written and reused (default: the user cache directory's boolprog/mucke-set)")
	fs.DurationVar(&mucke.MuckeTimeout, "mucke-timeout", 200*time.Second, "with --set mucke: Mucke's CPU time limit per model")
	fs.BoolVar(&mucke.NoMucke, "no-mucke", false, "with --set mucke: do not run Mucke")
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
	given := setFlags(fs)
	refuse := func(flags []string, format string) (int, bool) {
		for _, f := range flags {
			if given[f] {
				return c.usageError(s, format, f), true
			}
		}
		return 0, false
	}
	var runErr error
	switch *set {
	case "template":
		if code, bad := refuse([]string{"reorder", "only", "order", "cpu"}, "--%s is for --set hard"); bad {
			return code
		}
		o := benchset.TemplateOptions{Engine: info, EngineName: *engineName, Runs: *runs, NoReplay: *noReplay, Timeout: *timeout}
		if given["error"] {
			o.Variant = &kind.e
		}
		if o.Sizes, runErr = benchset.ParseSizes(*sizes); runErr == nil {
			runErr = benchset.Template(ctx, s.stdout, s.stderr, o)
		}
	case "hard":
		if code, bad := refuse([]string{"sizes", "runs", "error", "no-replay"}, "--%s is for --set template"); bad {
			return code
		}
		o := benchset.HardOptions{Engine: info, Order: *order, Only: *only, CPU: *cpu, Timeout: *timeout}
		if !given["timeout"] {
			o.Timeout = 30 * time.Second
		}
		if *modes != "" {
			o.Modes = strings.Split(*modes, ",")
		}
		runErr = benchset.Hard(ctx, s.stdout, s.stderr, o)
	case "bluetooth":
		if code, bad := refuse([]string{"sizes", "runs", "error", "no-replay", "reorder", "only"}, "--%s is not for --set bluetooth"); bad {
			return code
		}
		o := benchset.BluetoothOptions{Timeout: *timeout}
		if !given["timeout"] {
			o.Timeout = time.Minute
		}
		if given["engine"] {
			o.Engines = []string{*engineName}
		}
		runErr = benchset.Bluetooth(ctx, s.stdout, o)
	case "mucke":
		mucke.Only, mucke.Timeout = *only, *timeout
		if !given["timeout"] {
			mucke.Timeout = 60 * time.Second
		}
		runErr = benchset.Mucke(ctx, s.stdout, s.stderr, mucke)
	default:
		return c.usageError(s, "unknown set %q (want template, hard, bluetooth or mucke)", *set)
	}
	var oe *benchset.OptionError
	var ie *benchset.InputError
	intr := interrupt.Of(ctx)
	switch {
	case runErr == nil:
		return exitOK
	case intr != nil && errors.Is(runErr, engine.ErrInterrupted):
		fmt.Fprintln(s.stdout, "VERIFICATION UNKNOWN: interrupted")
		return intr.ExitCode()
	case errors.Is(runErr, benchset.ErrDifferentValues):
		return exitUnknown
	case errors.As(runErr, &oe):
		return c.usageError(s, "%s", oe.Msg)
	case errors.As(runErr, &ie):
		fmt.Fprintf(s.stderr, "boolprog bench: %v\n", ie)
		return exitInput
	}
	fmt.Fprintf(s.stderr, "boolprog bench: %v\n", runErr)
	return exitUsage
}
