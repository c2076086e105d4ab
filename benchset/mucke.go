package benchset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"boolprog/gen"
	"boolprog/internal/peers"
)

// The Mucke set: models of the fixed-point calculus
// that Getafix's translator (../shared/peers/bin/getafix) writes for
// generated programs, one of Getafix's formula files each, solved by
// boolprog mucke and, where ../shared/peers/bin/mucke exists, by Mucke,
// in one run, values compared. The set is generator commands, not files:
// the models are written on the first run into --dir and reused.

// muckeModel is one model of the set: a program (a generator) and the
// formula file of ../shared/peers/formulae the translator joins to it.
type muckeModel struct {
	name    string
	formula string // file name in shared/peers/formulae
	label   string // the translator's -l
	// program writes the program (Getafix's convention) into file.
	program func(file string) error
}

// The formula files the set uses.
const (
	fPrecise  = "formula-3t_4r_crossproduct_precise.mu"
	fFrontier = "formula-3t_4r_crossproduct_precise_frontier.mu"
	fOrder2   = "formula-3t_4r_crossproduct_precise_order2.mu"
	fSplit    = "formula-3t_4r_split_threads.mu"
	fThread   = "formula-3t_4r_crossproduct_precise_thread.mu"
	fAbstract = "formula-3t_4r_crossproduct_abstract_ver1.mu"
)

// muckeSet lists the models, from small to several MB (38).
func muckeSet(root, peerDir string) []muckeModel {
	var set []muckeModel
	// The Bebop template T(N), a sequential program, wrapped in the
	// translator's 3-thread convention by seq2getafix.py.
	template := func(n int) func(string) error {
		return func(file string) error {
			seq := file + ".seq.bp"
			if err := os.WriteFile(seq, []byte(gen.BebopTemplate(n)), 0o644); err != nil {
				return err
			}
			out, err := exec.Command("python3", filepath.Join(peerDir, "seq2getafix.py"), seq).Output()
			if err != nil {
				return fmt.Errorf("seq2getafix.py: %w", err)
			}
			return os.WriteFile(file, out, 0o644)
		}
	}
	for _, n := range []int{25, 50, 100, 200, 400, 800} {
		set = append(set, muckeModel{fmt.Sprintf("T(%d)", n), fPrecise, "reach", template(n)})
	}
	for _, f := range []string{fFrontier, fOrder2, fSplit, fThread, fAbstract} {
		set = append(set, muckeModel{"T(100)", f, "reach", template(100)})
	}
	copyFile := func(src string) func(string) error {
		return func(file string) error {
			b, err := os.ReadFile(src)
			if err != nil {
				return err
			}
			return os.WriteFile(file, b, 0o644)
		}
	}
	// The Bluetooth configurations with three threads, their assertion
	// made the label the translator looks for.
	for _, cfg := range []string{"1_2", "2_1"} {
		src := filepath.Join(root, bluetoothDir, "bluetooth_"+cfg+".bp")
		program := func(file string) error {
			b, err := os.ReadFile(src)
			if err != nil {
				return err
			}
			text := assertion.ReplaceAllString(string(b), "if (!($1)) then SLIC_ERROR: skip; fi")
			return os.WriteFile(file, []byte(translatorConvention(text)), 0o644)
		}
		for _, f := range []string{fPrecise, fSplit, fFrontier, fOrder2} {
			set = append(set, muckeModel{"bluetooth_" + cfg, f, "SLIC_ERROR", program})
		}
	}
	for _, fib := range []string{"fib_3_safe", "fib_3_unsafe", "fib_4_unsafe", "fib_5_unsafe"} {
		src := filepath.Join(root, "..", "shared", "benchmarks", "getafix", fib+".bp")
		set = append(set, muckeModel{fib, fPrecise, "SLIC_ERROR", copyFile(src)})
	}
	// Random 3-thread programs (gen.RandomConcurrent, Getafix style,
	// without the constructs the translator does not read), from small
	// to large.
	random := func(seed int64, stmts, procs, globals int) func(string) error {
		return func(file string) error {
			// The first of seed, seed+1000, ... whose program has the
			// label the translator looks for.
			var src string
			for k := int64(0); !strings.Contains(src, "SLIC_ERROR:"); k++ {
				src = gen.RandomConcurrent(seed+1000*k, gen.ConcOptions{Threads: 3, Style: gen.Getafix, Thread: gen.Options{
					Globals: globals, MaxLocals: 4, Procs: procs, Stmts: stmts, Depth: 2, Omit: translatorOmits}})
			}
			return os.WriteFile(file, []byte(translatorConvention(src)), 0o644)
		}
	}
	for i, sz := range []struct{ stmts, procs, globals int }{
		{6, 3, 3}, {6, 3, 4}, {8, 3, 4}, {10, 4, 4}, {12, 4, 5}, {16, 5, 5},
		{20, 5, 6}, {24, 6, 6}, {30, 6, 8}, {40, 8, 8}, {60, 10, 10}, {80, 12, 12},
		// More globals: larger states rather than longer programs.
		{20, 5, 16}, {30, 6, 20}, {40, 6, 24},
	} {
		seed := int64(i + 1)
		set = append(set, muckeModel{fmt.Sprintf("random%d(s%d,p%d,g%d)", seed, sz.stmts, sz.procs, sz.globals),
			fPrecise, "SLIC_ERROR", random(seed, sz.stmts, sz.procs, sz.globals)})
	}
	return set
}

// translatorOmits are the generator's features Getafix's translator does
// not read (its grammar: no recursion in its summaries' convention, no
// goto, constrain, schoose in conditions, nondeterminism only as a whole
// condition, enforce, dead, multiple return values, elsif).
const translatorOmits = gen.Recursion | gen.Goto | gen.NondetGoto | gen.Constrain | gen.Schoose |
	gen.Nondet | gen.Enforce | gen.Dead | gen.MultiReturn | gen.Elsif

var (
	procStart   = regexp.MustCompile(`^(void|bool(<\d+>)?)\s+(\w+)\s*\(`)
	nondetValue = regexp.MustCompile(`([:,=]\s*)\*`)
	assertion   = regexp.MustCompile(`assert\((.*)\);`)
)

// translatorConvention rewrites a generated Getafix-style program into
// the convention of the translator in ../shared/peers: init first,
// ending at the label endinit; then the threads in order; then the other
// procedures, void ones ending with an explicit return (the translator's
// Exit relation is the pc of return statements). A nondeterministic value
// in an assignment becomes schoose[F,F] and a double negation goes (the
// translator reads neither).
func translatorConvention(src string) string {
	var head []string
	type proc struct {
		name  string
		lines []string
	}
	var procs []proc
	var cur *proc
	for _, line := range strings.Split(src, "\n") {
		line = nondetValue.ReplaceAllString(strings.ReplaceAll(line, "!!", ""), "${1}schoose[F,F]")
		if cur == nil {
			if m := procStart.FindStringSubmatch(line); m != nil {
				procs = append(procs, proc{name: m[3], lines: []string{line}})
				cur = &procs[len(procs)-1]
				continue
			}
			head = append(head, line)
			continue
		}
		cur.lines = append(cur.lines, line)
		if strings.TrimSpace(line) == "end" {
			cur = nil
		}
	}
	rank := func(p proc) int {
		switch {
		case p.name == "init":
			return 0
		case strings.HasPrefix(p.name, "thread"):
			return 1
		}
		return 2
	}
	slices.SortStableFunc(procs, func(a, b proc) int { return rank(a) - rank(b) })
	out := head
	for _, p := range procs {
		body := p.lines
		last := len(body) - 1
		switch {
		case p.name == "init":
			body = append(body[:last:last], "  endinit: skip;", body[last])
		case rank(p) == 2 && strings.HasPrefix(body[0], "void"):
			prev := ""
			for i := last - 1; i > 0; i-- {
				if t := strings.TrimSpace(body[i]); t != "" {
					prev = t
					break
				}
			}
			if !strings.HasPrefix(prev, "return") {
				body = append(body[:last:last], "  return;", body[last])
			}
		}
		out = append(append(out, body...), "")
	}
	return strings.Join(out, "\n")
}

// MuckeOptions are a run of the Mucke set.
type MuckeOptions struct {
	// Dir is where the models are written and reused ("": the user cache
	// directory's boolprog/mucke-set).
	Dir string
	// Only runs the models whose name or formula contains it.
	Only string
	// Timeout limits each of our runs; MuckeTimeout Mucke's CPU time.
	Timeout, MuckeTimeout time.Duration
	// NoMucke does not run Mucke.
	NoMucke bool
	// Self is the boolprog binary whose mucke command solves the models
	// ("": this process's executable).
	Self string
}

// ErrDifferentValues is what Mucke returns when our value and Mucke's
// differ on a model.
var ErrDifferentValues = errors.New("different values")

// muckeRun is one solver's run on a model.
type muckeRun struct {
	decided bool
	value   bool
	cpu     time.Duration
	wall    time.Duration
	peak    int64 // bytes
	why     string
}

// cells are the run's columns: the value (or why there is none), the CPU
// and wall seconds, the peak memory in MB.
func (r muckeRun) cells() [4]string {
	v := r.why
	if r.decided {
		v = fmt.Sprint(r.value)
	}
	return [4]string{v, fmt.Sprintf("%.2f", r.cpu.Seconds()), fmt.Sprintf("%.2f", r.wall.Seconds()), fmt.Sprintf("%.0f", float64(r.peak)/(1<<20))}
}

// Mucke writes (or reuses) every model of the set and solves each with
// boolprog mucke (a child process, so that its peak memory is its own)
// and with Mucke, one after the other, and writes a row per model on w as
// it is measured, then the ratios of the CPU times; on errw, the models it
// could not write. It returns ErrDifferentValues if the solvers disagree
// on a model.
func Mucke(ctx context.Context, w, errw io.Writer, o MuckeOptions) error {
	only, timeout := o.Only, o.Timeout
	root, err := moduleRoot()
	if err != nil {
		return optionError("--set mucke: %v", err)
	}
	peerDir := filepath.Join(root, "..", "shared", "peers")
	translator := peers.Find(root, "getafix")
	mucke := ""
	if !o.NoMucke {
		mucke = peers.Find(root, "mucke")
	}
	dir := o.Dir
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return optionError("--set mucke: no cache directory (%v): give --dir", err)
		}
		dir = filepath.Join(cache, "boolprog", "mucke-set")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return optionError("--set mucke: %v", err)
	}
	self := o.Self
	if self == "" {
		self, err = os.Executable()
	}
	if err != nil {
		return optionError("--set mucke: %v", err)
	}
	// One row per model as soon as it is measured (a run of the set
	// takes long): fixed-width columns rather than a tabwriter.
	row := "%-22s %-38s %6s | %-7s %7s %7s %7s | %-7s %7s %7s %7s | %s\n"
	fmt.Fprintf(w, row, "model", "formula", "KB", "ours", "CPU s", "wall s", "peak MB", "Mucke", "CPU s", "wall s", "peak MB", "CPU ratio")
	var ratios []float64 // Mucke's CPU / ours, where Mucke decides in over 1 s
	var slowest float64
	hard, hardOurs, disagree := 0, 0, 0
	for _, m := range muckeSet(root, peerDir) {
		if only != "" && !strings.Contains(m.name+" "+m.formula, only) {
			continue
		}
		model := filepath.Join(dir, modelFileName(m))
		if _, err := os.Stat(model); err != nil {
			if translator == "" {
				fmt.Fprintf(errw, "%s: no model in %s and no ../shared/peers/bin/getafix to write it\n", m.name, dir)
				continue
			}
			if err := translate(ctx, translator, peerDir, m, model); err != nil {
				fmt.Fprintf(errw, "%s with %s: %v\n", m.name, m.formula, err)
				continue
			}
		}
		st, err := os.Stat(model)
		if err != nil {
			fmt.Fprintf(errw, "%s: %v\n", m.name, err)
			continue
		}
		ours := runOurs(ctx, self, model, timeout)
		theirs := muckeRun{why: "-"}
		if mucke != "" {
			theirs = runPeerMucke(ctx, mucke, model, o.MuckeTimeout)
		}
		if err := interrupted(ctx); err != nil {
			return err
		}
		ratio := "-"
		if ours.decided && theirs.decided {
			r := theirs.cpu.Seconds() / max(ours.cpu.Seconds(), 0.001)
			ratio = fmt.Sprintf("%.1f", r)
			if theirs.value != ours.value {
				ratio += " DIFFERENT VALUES"
				disagree++
			}
			if theirs.cpu > time.Second {
				ratios = append(ratios, r)
			}
		}
		if mucke != "" && !theirs.decided {
			hard++
			if ours.decided {
				hardOurs++
			}
		}
		if ours.decided {
			slowest = max(slowest, ours.cpu.Seconds())
		}
		o, t := ours.cells(), theirs.cells()
		fmt.Fprintf(w, row, m.name, strings.TrimSuffix(strings.TrimPrefix(m.formula, "formula-"), ".mu"),
			fmt.Sprint(st.Size()/1024), o[0], o[1], o[2], o[3], t[0], t[1], t[2], t[3], ratio)
	}
	if len(ratios) > 0 {
		slices.Sort(ratios)
		fmt.Fprintf(w, "models Mucke decides in over 1 CPU s: %d; Mucke's CPU time / ours: min %.1f, median %.1f\n",
			len(ratios), ratios[0], ratios[len(ratios)/2])
	}
	if mucke != "" {
		fmt.Fprintf(w, "models Mucke does not decide within %v: %d; ours decides %d of them within %v\n", o.MuckeTimeout, hard, hardOurs, timeout)
	}
	if disagree > 0 {
		fmt.Fprintf(w, "DIFFERENT VALUES on %d models\n", disagree)
	}
	fmt.Fprintf(w, "models in %s; ours: boolprog mucke --timeout %v (CPU = user + system time of the process); %s\n",
		dir, timeout, machine())
	if disagree > 0 {
		return ErrDifferentValues
	}
	return nil
}

// modelFileName names a model's file after its program and formula.
func modelFileName(m muckeModel) string {
	name := strings.NewReplacer("(", "_", ")", "", ",", "_").Replace(m.name)
	return name + "." + strings.TrimSuffix(strings.TrimPrefix(m.formula, "formula-"), ".mu") + ".mu"
}

// translate writes the model: the program, then Getafix's translator on
// it (in a scratch directory: it writes debug_program_withpc.bp there).
func translate(ctx context.Context, translator, peerDir string, m muckeModel, model string) error {
	tmp, err := os.MkdirTemp("", "mucke-set")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	prog := filepath.Join(tmp, "prog.bp")
	if err := m.program(prog); err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, translator, "-i", prog, "-c", "4", "-l", m.label, "-f", filepath.Join(peerDir, "formulae", m.formula))
	cmd.Dir = tmp
	// The translator exits with status 1 after writing a model too: the
	// model is judged by its text.
	out, err := cmd.Output()
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if text := string(out); !strings.Contains(text, "mu bool") || strings.Contains(text, "syntax error") || strings.Contains(text, "not found") {
		return fmt.Errorf("translator (%v): no model: %.200q", err, text)
	}
	return os.WriteFile(model, out, 0o644)
}

// runOurs solves a model with boolprog mucke in a child process.
func runOurs(ctx context.Context, self, model string, timeout time.Duration) muckeRun {
	cmd := exec.CommandContext(ctx, self, "mucke", "--timeout", timeout.String(), model)
	t0 := time.Now()
	out, err := cmd.Output()
	r := muckeRun{wall: time.Since(t0)}
	r.cpu, r.peak = peers.Usage(cmd.ProcessState)
	text := strings.TrimSpace(string(out))
	switch {
	case err == nil && (text == "true" || text == "false"):
		r.decided, r.value = true, text == "true"
	case strings.Contains(text, "timeout"):
		r.why = "timeout"
	default:
		r.why = "error"
	}
	return r
}

// runPeerMucke solves a model with Mucke, its CPU time limited (a wall
// limit ten times as long stops a run the machine starves).
func runPeerMucke(ctx context.Context, bin, model string, timeout time.Duration) muckeRun {
	ctx, cancel := context.WithTimeout(ctx, 10*timeout)
	defer cancel()
	a, err := peers.Mucke(ctx, bin, model, timeout)
	r := muckeRun{cpu: a.CPU, wall: a.Wall, peak: a.PeakRSS}
	switch {
	case err == nil:
		r.decided, r.value = true, a.Value
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, peers.ErrCPULimit):
		r.why = "timeout"
	default:
		r.why = "error"
	}
	return r
}

// moduleRoot is the directory of the go.mod of boolprog, searched from
// the working directory up (the set's files are found from there).
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.HasPrefix(string(b), "module boolprog") {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("run it inside the boolprog repository")
		}
		dir = up
	}
}
