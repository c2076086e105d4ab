package benchset

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"boolprog/engine"
	"boolprog/internal/procstat"
	"boolprog/interp"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
)

// The Bluetooth set: every concurrent engine on the four configurations
// of examples/bluetooth at 6 context switches, in one run, for the table
// of issue 11 and the Getafix paper's Fig. 3.

// bluetoothDir is where the set's files are, from the module's root.
const bluetoothDir = "examples/bluetooth"

// bluetoothBound is the bound of the Getafix paper's table.
var bluetoothBound = result.Bound{Kind: result.ContextSwitches, K: 6}

// bluetoothConfigs are the models, adders + stoppers.
var bluetoothConfigs = []string{"1_1", "1_2", "2_1", "2_2"}

// concEngines are the engines of concurrent programs, in the table's
// order.
var concEngines = []string{"explicit", "conc-fix", "conc-eager", "conc-lazy"}

// bluetoothProgram reads and lowers one configuration (Getafix dialect,
// target SLIC_ERROR as check's default).
func bluetoothProgram(config string) (*ir.Program, error) {
	path := filepath.Join(bluetoothDir, "bluetooth_"+config+".bp")
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%v (run bench --set bluetooth from the module's root)", err)
	}
	return lower(path, src, syntax.Getafix, "SLIC_ERROR")
}

// concRun is one engine's run on one configuration.
type concRun struct {
	res        *result.Result
	wall       time.Duration
	cpu        time.Duration // -1: not measured
	traceCheck string
}

// runConc runs one engine (with --deepen if deepen) on p at bound b, and
// replays its trace.
func runConc(ctx context.Context, info engine.Info, deepen bool, p *ir.Program, b result.Bound, timeout time.Duration) (concRun, error) {
	fs, build := info.FlagSet()
	if deepen {
		if err := fs.Set("deepen", "true"); err != nil {
			return concRun{}, err
		}
	}
	eng, err := build()
	if err != nil {
		return concRun{}, err
	}
	rctx, cancel := context.WithTimeoutCause(ctx, timeout, engine.ErrTimeout)
	defer cancel()
	cpu0, ok0 := procstat.CPU()
	start := time.Now()
	res := engine.Run(rctx, eng, p, engine.Query{Bound: b})
	r := concRun{res: res, wall: time.Since(start), cpu: -1, traceCheck: "-"}
	if cpu1, ok1 := procstat.CPU(); ok0 && ok1 {
		r.cpu = cpu1 - cpu0
	}
	if res.Verdict == result.Unsafe {
		switch {
		case res.Trace == nil || res.TraceCut:
			r.traceCheck = "cut"
		case interp.Replay(p, res.Trace) != nil:
			r.traceCheck = "REJECTED"
		default:
			r.traceCheck = "replays"
		}
	}
	return r, nil
}

// BluetoothOptions are a run of the Bluetooth set.
type BluetoothOptions struct {
	// Engines are the engines to run (nil: every concurrent engine).
	Engines []string
	// Timeout is the limit of each run.
	Timeout time.Duration
}

// Bluetooth writes on w, for each configuration and each engine (with and
// without --deepen where the engine has it), the verdict, the smallest
// bound at which the error appears (or the bound the answer holds to),
// whether the trace replays, and the time, wall and CPU. A configuration
// that does not load is an *InputError.
func Bluetooth(ctx context.Context, w io.Writer, o BluetoothOptions) error {
	names := concEngines
	if o.Engines != nil {
		names = o.Engines
	}
	var infos []engine.Info
	for _, n := range names {
		info, ok := engine.Lookup(n)
		if !ok {
			return optionError("unknown engine %q", n)
		}
		infos = append(infos, info)
	}
	fmt.Fprintf(w, "Bluetooth models (%s), bound %s, --timeout %v per run\n", bluetoothDir, bluetoothBound, o.Timeout)
	// Rows are printed as they come (a run may take its whole timeout),
	// in fixed columns.
	row := "%-5s  %-19s  %-7s  %-19s  %-8s  %7s  %7s  %s\n"
	fmt.Fprintf(w, row, "model", "engine", "verdict", "bound", "trace", "wall s", "CPU s", "reason")
	for _, config := range bluetoothConfigs {
		p, err := bluetoothProgram(config)
		if err != nil {
			return &InputError{err}
		}
		for _, info := range infos {
			modes := []bool{false}
			if fs, _ := info.FlagSet(); fs.Lookup("deepen") != nil {
				modes = append(modes, true)
			}
			for _, deepen := range modes {
				r, err := runConc(ctx, info, deepen, p, bluetoothBound, o.Timeout)
				if err != nil {
					return fmt.Errorf("%s: %v", info.Name(), err)
				}
				if err := interrupted(ctx); err != nil {
					return err
				}
				name := info.Name()
				if deepen {
					name += " --deepen"
				}
				bound := "-"
				if r.res.Bound.Kind != result.Unbounded {
					bound = r.res.Bound.String()
				}
				reason := r.res.Reason
				if len(reason) > 60 {
					reason = reason[:57] + "..."
				}
				cpu := "-"
				if r.cpu >= 0 {
					cpu = fmt.Sprintf("%.1f", r.cpu.Seconds())
				}
				fmt.Fprintf(w, row, config, name, r.res.Verdict, bound, r.traceCheck, fmt.Sprintf("%.1f", r.wall.Seconds()), cpu, reason)
			}
		}
	}
	return nil
}
