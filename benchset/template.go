package benchset

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// TemplateOptions are a run of the Bebop template T(N) at several sizes.
type TemplateOptions struct {
	Engine engine.Info
	// EngineName is the engine as the user named it, for the last line.
	EngineName string
	Sizes      []int
	// Runs is the runs per size; the median is reported.
	Runs int
	// Variant, when set, checks T(N)'s SLIC_ERROR variant instead of the
	// label reach (NoError: every reachable state).
	Variant *gen.TemplateError
	// NoReplay does not replay the trace.
	NoReplay bool
	Timeout  time.Duration
}

// Template checks T(N) for every size of o, o.Runs times each, and writes
// on w a row per size (the median run's phases, the ratio to the previous
// size, the peak heap and BDD nodes) and a line naming the run's setting;
// on errw, what went wrong with a size. The ratios between sizes are
// taken under the same machine conditions.
// Fewer than one run is an *OptionError.
func Template(ctx context.Context, w, errw io.Writer, o TemplateOptions) error {
	if o.Runs < 1 {
		return optionError("--runs must be at least 1")
	}
	cfg := config{target: "reach", replay: !o.NoReplay, timeout: o.Timeout}
	if o.Variant != nil {
		cfg.kind, cfg.target = *o.Variant, ""
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "N\tvars\tverdict\tsteps\treach\ttrace\treplay\ttotal\tratio\tpeak heap MB\tpeak BDD nodes\tpath edges\t")
	var prev time.Duration
	totals := make(map[int]time.Duration)
	for _, n := range o.Sizes {
		prog, err := TemplateProgram(n, cfg.kind, cfg.target)
		if err != nil {
			return fmt.Errorf("T(%d): %v", n, err)
		}
		var ms []measurement
		for r := 0; r < o.Runs; r++ {
			eng, err := o.Engine.New()
			if err != nil {
				return fmt.Errorf("engine %s: %v", o.Engine.Name(), err)
			}
			m := measure(ctx, eng, prog, cfg)
			if err := interrupted(ctx); err != nil {
				tw.Flush()
				return err
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
			round(m.reach), round(m.trace), round(m.replay), round(m.total), ratio,
			float64(m.peak)/(1<<20), c["peak_bdd_nodes"], c["path_edges"])
		if m.res.Verdict == result.Unknown {
			fmt.Fprintf(errw, "T(%d): %s\n", n, m.res.Banner())
		}
		if m.replayErr != nil {
			fmt.Fprintf(errw, "T(%d): the trace does not replay: %v\n", n, m.replayErr)
		}
	}
	tw.Flush()
	// Quadrupling the size is what the target speaks about
	// (T(3200)/T(800) at most 4.5 for a linear checker with noise).
	if last := o.Sizes[len(o.Sizes)-1]; last%4 == 0 && totals[last/4] > 0 {
		fmt.Fprintf(w, "total T(%d)/T(%d) = %.2f (a linear checker: about 4)\n", last, last/4, float64(totals[last])/float64(totals[last/4]))
	}
	what := "label reach, trace built and replayed"
	switch {
	case o.Variant != nil:
		what = "--error " + o.Variant.String()
	case o.NoReplay:
		what = "label reach, trace built, not replayed"
	}
	fmt.Fprintf(w, "engine %s, %s, %d run(s) per size (median of total), %s\n", o.EngineName, what, o.Runs, machine())
	return nil
}

// ParseSizes reads the comma-separated sizes of T(N) (`bench --sizes`),
// each a whole number from 1 to 1,000,000; another is an *OptionError.
func ParseSizes(list string) ([]int, error) {
	var sizes []int
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 1_000_000 {
			return nil, optionError("bad size %q (want whole numbers from 1 to 1000000)", f)
		}
		sizes = append(sizes, n)
	}
	return sizes, nil
}

// TemplateProgram returns T(n) in the given variant, lowered for target.
func TemplateProgram(n int, kind gen.TemplateError, target string) (*ir.Program, error) {
	return lower(fmt.Sprintf("T(%d)", n), []byte(gen.BebopTemplateWith(n, kind)), syntax.CProver, target)
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
