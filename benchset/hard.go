package benchset

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/internal/procstat"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// HardOptions are a run of the hard set (gen.HardSet).
type HardOptions struct {
	Engine engine.Info
	// Modes are the BDD reordering modes each program runs with (the
	// engine's --reorder; nil: off and auto, or one run in mode "-" for
	// an engine without reordering).
	Modes []string
	// Order is the engine's initial BDD variable order (its --order), if
	// set.
	Order string
	// Only runs the programs whose name contains it.
	Only string
	// CPU makes Timeout a limit of each run's CPU time instead of its
	// wall time (on a loaded machine the wall time measures the load).
	CPU     bool
	Timeout time.Duration
}

// Hard checks every program of the hard set with every reordering mode,
// once each, and writes a row per run on w (decided within the time limit
// or not, the time, the peak BDD nodes and the reorderings), a line per
// mode and one naming the setting; on errw a line per run as it ends.
func Hard(ctx context.Context, w, errw io.Writer, o HardOptions) error {
	if o.CPU {
		if _, ok := procstat.CPU(); !ok {
			return optionError("--cpu: the CPU time is not measured on this system")
		}
	}
	modes := []string{"off", "auto"}
	if len(o.Modes) > 0 {
		modes = o.Modes
	}
	if fs, _ := o.Engine.FlagSet(); fs.Lookup("reorder") == nil {
		// An engine without reordering (ef, pre*, cpa, ...) runs each
		// program once, in the mode column "-".
		if len(o.Modes) > 0 {
			return optionError("the %s engine has no --reorder flag", o.Engine.Name())
		}
		modes = []string{"-"}
	}
	for _, md := range modes {
		if _, err := o.engine(md); err != nil {
			return err
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "program\tin scope\treorder\tverdict\tdecided\ttime\tCPU\tpeak BDD nodes\treorders\treorder time\tnodes after last\t")
	decided := make(map[string]int)
	wall := make(map[string]time.Duration)
	cpuSum := make(map[string]time.Duration)
	ran := 0
	for _, h := range gen.HardSet() {
		if o.Only != "" && !strings.Contains(h.Name, o.Only) {
			continue
		}
		ran++
		p, err := hardProgram(h)
		if err != nil {
			return fmt.Errorf("%s: %v", h.Name, err)
		}
		// A program whose error sites main cannot reach even in the
		// control-flow graph (the generator leaves out error sites in one
		// program of ten) is answered by check at once; the set measures
		// what the engine's search costs, so these compute every
		// reachable state, as an unreachable error site would make them.
		_, errorSite := p.ErrorReachableInCFG()
		for _, md := range modes {
			eng, _ := o.engine(md)
			cpu0, cpuOK := procstat.CPU()
			runCtx, wallLimit, stop := ctx, o.Timeout, func() {}
			if o.CPU {
				runCtx, stop = cpuLimit(ctx, cpu0, o.Timeout)
				wallLimit = 1000 * o.Timeout
			}
			m := measure(runCtx, eng, p, config{replay: true, timeout: wallLimit, firstError: true, all: !errorSite})
			stop()
			cpu1, _ := procstat.CPU()
			cpu := "-"
			if cpuOK {
				cpu = round(cpu1 - cpu0).String()
				cpuSum[md] += cpu1 - cpu0
			}
			wall[md] += m.total
			if err := interrupted(ctx); err != nil {
				tw.Flush()
				return err
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
			fmt.Fprintf(errw, "%s %s: %s in %v\n", h.Name, md, verdict, round(m.total))
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%v\t%s\t%d\t%d\t%v\t%d\t\n", h.Name, inScope(p), md, verdict, dec,
				round(m.total), cpu, c["peak_bdd_nodes"], c["bdd_reorders"], round(time.Duration(c["time_reorder_ns"])), c["bdd_nodes_after_last_reorder"])
			if m.replayErr != nil {
				fmt.Fprintf(errw, "%s: the trace does not replay: %v\n", h.Name, m.replayErr)
			}
		}
	}
	tw.Flush()
	for _, md := range modes {
		limit := o.Timeout.String()
		if o.CPU {
			limit += " of CPU"
		}
		fmt.Fprintf(w, "reorder %s: %d of %d decided within %s; total time %v, CPU %v\n", md, decided[md], ran, limit, round(wall[md]), round(cpuSum[md]))
	}
	fmt.Fprintf(w, "engine %s, hard set (gen.HardSet; `boolprog gen random` flags in bench/README.md), one run each, %s\n", o.Engine.Name(), machine())
	return nil
}

// engine builds the engine for reordering mode md ("-": the engine's
// default) with the order of o.
func (o *HardOptions) engine(md string) (engine.Engine, error) {
	fs, build := o.Engine.FlagSet()
	if md != "-" {
		if err := fs.Set("reorder", md); err != nil {
			return nil, optionError("--reorder %q: %v", md, err)
		}
	}
	if o.Order != "" {
		if fs.Lookup("order") == nil {
			return nil, optionError("the %s engine has no --order flag", o.Engine.Name())
		}
		if err := fs.Set("order", o.Order); err != nil {
			return nil, optionError("--order %q: %v", o.Order, err)
		}
	}
	eng, err := build()
	if err != nil {
		return nil, optionError("engine %s: %v", o.Engine.Name(), err)
	}
	return eng, nil
}

// hardProgram generates, parses and lowers a program of the hard set.
func hardProgram(h gen.HardProgram) (*ir.Program, error) {
	return lower(h.Name+".bp", []byte(h.Source()), syntax.CProver, "")
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
				if now, _ := procstat.CPU(); now-start >= limit {
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
