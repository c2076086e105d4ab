// Package conc is the engines conc-eager and conc-lazy: context-bounded
// reachability of concurrent Boolean programs by the Lal–Reps reduction to
// sequential reachability (Lal's thesis, ch. 7). For a bound of K
// round-robin rounds, package conc builds a sequential program (Eager: K
// copies of the shared globals with guessed values and a checker; Lazy:
// no guesses, each context computed by running its thread again), any
// sequential engine (default summary) checks it, and an error's trace is
// mapped back to a trace of the concurrent program: each step with its
// thread, each context switch marked, accepted by interp.Replay.
//
// Answers are bounded, and a bound means what it says. A Rounds bound K
// asks about every run of at most K rounds. A ContextSwitches bound K is
// asked first as the fewest rounds that hold every run of K switches
// among the program's threads (K+1 at most, fewer for few threads: 2
// threads need 1+K-K/2, and K rounds hold K switches when one thread
// starts and creates the others), with slots only for the threads that
// can step within K switches (conc.Model.SwitchSlots), and some runs
// with more: a safe answer is then final, and so is an error whose trace
// has at most K switches; an error that needs more is asked again with the
// sequentialisation counting the non-empty contexts up to the error (at
// most K+1, conc.SeqOptions.Contexts), which keeps exactly the runs of at
// most K switches. So an Unsafe answer at K switches has a trace with at
// most K switches, and a Safe one names the bound it holds to. Without a
// bound, the engine deepens: 1, 2, ... rounds up to DefaultRounds; with
// --deepen and a bound, 1, 2, ... rounds or 0, 1, ... switches up to it:
// the bound of an error is the smallest at which it appears, and a safe
// answer says "safe up to K rounds" (or switches), never a proof for
// every run. A program that creates threads at run time is checked with
// at most --max-threads of them; if a run within the bound can create
// more, the answer is Unknown and says so (without --max-threads, the
// limit grows first, one thread at a time up to MaxMoreThreads more, at
// every bound, given or default, deepened or not).
// When the time runs out the answer is Unknown with the largest bound
// completed.
//
// On a sequential program the engines run the sequential engine itself.
package conc

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"strings"
	"time"

	"boolprog/conc"
	"boolprog/engine"
	"boolprog/ir"
	"boolprog/result"
)

// DefaultRounds is the bound of an unbounded query: the engines deepen up
// to it (package conc's, which conc-fix shares).
const DefaultRounds = conc.DefaultRounds

// MaxMoreThreads bounds how far the engines raise the thread limit of a
// program that creates threads in a loop or recursion when --max-threads
// is not given.
const MaxMoreThreads = 4

func init() {
	for _, lazy := range []bool{false, true} {
		lazy := lazy
		name, doc := "conc-eager", "concurrent programs: Lal–Reps eager sequentialisation (k copies of the globals, guesses checked at the end) for k round-robin rounds, checked by a sequential engine"
		if lazy {
			name, doc = "conc-lazy", "concurrent programs: lazy sequentialisation (contexts computed by running threads again: only reachable states) for k round-robin rounds, checked by a sequential engine"
		}
		engine.Register(engine.Info{
			Names:       []string{name},
			Doc:         doc,
			NodeLimited: true,
			Flags: func(fs *flag.FlagSet) func() (engine.Engine, error) {
				e := &Engine{Lazy: lazy}
				fs.IntVar(&e.Rounds, "rounds", 0, fmt.Sprintf("round-robin rounds to explore (same as --bound rounds:K); 0: deepen up to %d", DefaultRounds))
				fs.BoolVar(&e.Deepen, "deepen", false, "iterative deepening: 1, 2, ... rounds up to the bound; reports the smallest at which the error appears")
				fs.IntVar(&e.MaxThreads, "max-threads", 0, "concurrent programs: at most `n` threads, the initial ones included (0: one more per thread-creation site)")
				fs.StringVar(&e.SeqEngine, "seq-engine", "summary", "the sequential engine that checks the sequentialised program, with its own flags after its name (`'summary --order force'`; --order is declaration unless given, and for conc-lazy --worklist is callees)")
				return func() (engine.Engine, error) {
					if e.Rounds < 0 || e.MaxThreads < 0 {
						return nil, errors.New("--rounds and --max-threads must not be negative")
					}
					if _, err := e.seqEngine(); err != nil {
						return nil, fmt.Errorf("--seq-engine: %w", err)
					}
					return e, nil
				}
			},
		})
	}
}

// Engine is conc-eager or conc-lazy.
type Engine struct {
	Lazy       bool
	Rounds     int    // the bound in rounds; 0: from the query, or deepen to DefaultRounds
	Deepen     bool   // deepen from 1 round
	MaxThreads int    // at most this many threads, the initial ones included (as the explicit engine's --max-threads); 0: one more per creation site
	SeqEngine  string // the sequential engine and its flags ("summary --order force"; "" means summary)
}

// Name returns conc-eager or conc-lazy.
func (e *Engine) Name() string {
	if e.Lazy {
		return "conc-lazy"
	}
	return "conc-eager"
}

// seqEngine builds the sequential engine that SeqEngine names: its name,
// then its own flags ("summary --order declaration"), separated by
// spaces.
func (e *Engine) seqEngine() (engine.Engine, error) {
	words := strings.Fields(e.SeqEngine)
	if len(words) == 0 {
		words = []string{"summary"}
	}
	info, ok := engine.Lookup(words[0])
	if !ok {
		return nil, fmt.Errorf("unknown engine %q (have %s)", words[0], engine.NamesText())
	}
	if info.Name() == "conc-eager" || info.Name() == "conc-lazy" {
		return nil, fmt.Errorf("%s is not a sequential engine", info.Name())
	}
	var settings []engine.Setting
	fs, _ := info.FlagSet()
	if fs.Lookup("order") != nil {
		// conc declares the copies of the shared state in the order
		// that keeps the relations between them small (copy by copy,
		// the round and the flags first): see conc.Build. FORCE
		// placement mixes the copies variable by variable. The user's
		// own --order, set after it, overrides it.
		settings = append(settings, engine.Setting{Name: "order", Value: SeqOrder})
	}
	if e.Lazy && fs.Lookup("worklist") != nil {
		// See LazyWorklist; the user's own --worklist overrides it.
		settings = append(settings, engine.Setting{Name: "worklist", Value: LazyWorklist})
	}
	user, err := info.ParseSettings(words[1:])
	if err != nil {
		return nil, fmt.Errorf("%s: %w", info.Name(), err)
	}
	return info.Configure(append(settings, user...))
}

// SeqOrder is the BDD variable order the sequential engine is given
// (its --order flag, if it has one): the declaration order of the
// sequential program, which conc chooses. On the Bluetooth models at 3
// and 4 rounds the lazy programs took 1.1 to 2 times less CPU than under
// summary's default (FORCE placement); the eager ones about the same.
const SeqOrder = "declaration"

// LazyWorklist is the worklist order conc-lazy gives the sequential engine
// (its --worklist flag, if it has one). The lazy program's driver runs the
// threads again and again from the same contexts, so complete summaries of
// the thread procedures (callees first) pay for themselves; alternating
// with callers first pushes the driver on with partial ones. Measured
// (CPU s, callees / alternate): SATABS' Threads5 25.3 / 34.6, Bluetooth at
// cs:6 2+1 17.0 / 51.8 and 2+2 10.8 / 12.6, 1+1 5.5 / 5.7, 1+2 7.2 / 7.0.
// conc-eager keeps the summary engine's default, which alternates to the
// first error: there it was the other way round (Threads5 10.4 / 3.0;
// Bluetooth 1+1 at cs:6 a timeout at 60 s / 14.6).
const LazyWorklist = "callees"

// Supports refuses a query that gives the bound twice, differently.
func (e *Engine) Supports(p *ir.Program, q engine.Query) error {
	if e.Rounds > 0 && q.Bound.Kind != result.Unbounded && q.Bound != (result.Bound{Kind: result.Rounds, K: e.Rounds}) {
		return fmt.Errorf("--rounds %d and the bound %s contradict each other", e.Rounds, q.Bound)
	}
	if q.Bound.Kind != result.Unbounded && q.Bound.K == 0 && q.Bound.Kind == result.Rounds {
		return errors.New("a bound of 0 rounds allows no step")
	}
	return nil
}

// Check decides the program within the bound (see the package doc).
func (e *Engine) Check(ctx context.Context, p *ir.Program, q engine.Query) (*result.Result, error) {
	seqEng, err := e.seqEngine()
	if err != nil {
		return nil, err
	}
	if !p.Concurrent {
		if q.Bound.Kind != result.Unbounded || e.Rounds > 0 || e.Deepen {
			return result.NewUnknown(e.Name(), "a sequential program: a bound applies only to concurrent programs"), nil
		}
		res := engine.Run(ctx, seqEng, p, q)
		res.Engine = e.Name()
		return res, nil
	}
	// The bound: the levels to explore, each a number of rounds or of
	// context switches, and what a safe answer claims.
	maxK, deepen, switches := DefaultRounds, true, false
	switch {
	case q.Bound.Kind == result.Rounds:
		maxK, deepen = q.Bound.K, e.Deepen
	case q.Bound.Kind == result.ContextSwitches:
		maxK, deepen, switches = q.Bound.K, e.Deepen, true
	case e.Rounds > 0:
		maxK, deepen = e.Rounds, e.Deepen
	}
	claim := func(k int) result.Bound {
		if switches {
			return result.Bound{Kind: result.ContextSwitches, K: k}
		}
		return result.Bound{Kind: result.Rounds, K: k}
	}
	model, err := conc.NewModel(p, conc.Options{})
	if err == nil && e.MaxThreads > 0 {
		// --max-threads counts every thread; the model counts those
		// created at run time.
		created := e.MaxThreads - len(model.Static)
		if created < 1 || model.Convention != conc.Dynamic {
			return result.NewUnknown(e.Name(), fmt.Sprintf("--max-threads %d: the program starts with %d threads and creates %d more at most", e.MaxThreads, len(model.Static), max(created, 0))), nil
		}
		model, err = conc.NewModel(p, conc.Options{MaxThreads: created})
	}
	if err != nil {
		return result.NewUnknown(e.Name(), err.Error()), nil
	}
	if !p.HasErrorLocation() {
		// Nothing to reach, however many threads run and switch: a
		// proof, not a bound (SATABS' Threads4 has no assertion; the
		// sequential programs of its rounds took minutes to say less).
		res := &result.Result{Verdict: result.Safe, Engine: e.Name()}
		res.Stats.Set("no_error_location", 1)
		return res, nil
	}
	// The limit grows whether the bound is the default or given: a
	// bound counts rounds or switches, not threads, and --max-threads
	// is the user's way to fix the threads.
	growThreads := e.MaxThreads == 0 && model.Convention == conc.Dynamic
	res := &result.Result{Engine: e.Name()}
	done := -1        // the largest bound completed without an error
	overflow := false // a run within the bound creates more threads than allowed
	first := maxK
	if deepen {
		first = 1
		if switches {
			first = 0
		}
	}
	note := func(format string, args ...any) string {
		s := fmt.Sprintf(format, args...)
		if done >= 0 {
			s += fmt.Sprintf("; no error up to %s", claim(done))
		}
		if model.Convention == conc.Dynamic {
			s += fmt.Sprintf(" with at most %d threads", model.Slots())
		}
		return s
	}
	for k := first; k <= maxK; k++ {
		for {
			q.Report(result.PhaseReach, fmt.Sprintf("%s, %d threads", claim(k), model.Slots()))
			r, tr, err := e.level(ctx, seqEng, model, k, switches, conc.GoalError, q, res)
			if err != nil {
				return nil, err
			}
			switch r.Verdict {
			case result.Unsafe:
				res.Verdict, res.Bound = result.Unsafe, claim(k)
				res.Stats.Set(levelStat(switches), int64(k))
				if r.TraceCut {
					res.TraceCut, res.Reason = true, r.Reason
					return res, nil
				}
				res.Trace = tr
				return res, nil
			case result.Unknown:
				res.Verdict, res.Reason = result.Unknown, note("%s (at %s)", r.Reason, claim(k))
				if why := engine.StopReason(ctx); why != "" {
					res.Reason = note("%s (at %s)", why, claim(k))
				}
				return res, nil
			}
			if model.Convention != conc.Dynamic || overflow || !model.Cuts() {
				// No run creates more threads than the limit
				// (conc.Model.Creations), or that is known.
				break
			}
			// Safe with the threads allowed: could a run create more?
			r, _, err = e.level(ctx, seqEng, model, k, switches, conc.GoalOverflow, q, res)
			if err != nil {
				return nil, err
			}
			if r.Verdict == result.Unknown {
				res.Verdict, res.Reason = result.Unknown, note("%s (at %s, asking whether a run creates more threads)", r.Reason, claim(k))
				return res, nil
			}
			if r.Verdict == result.Safe {
				break
			}
			if !growThreads || model.MaxThreads >= len(model.Sites)+MaxMoreThreads {
				// Errors may still show at larger bounds; safety
				// can no longer be claimed.
				overflow = true
				break
			}
			model, err = conc.NewModel(p, conc.Options{MaxThreads: model.MaxThreads + 1})
			if err != nil {
				return nil, err
			}
		}
		done = k
		res.Stats.Set(levelStat(switches), int64(k))
	}
	if overflow {
		res.Verdict = result.Unknown
		res.Reason = fmt.Sprintf("no error up to %s with at most %d threads, but a run within the bound creates more (raise --max-threads)", claim(maxK), model.Slots())
		return res, nil
	}
	res.Verdict, res.Bound = result.Safe, claim(maxK)
	if model.Convention == conc.Dynamic {
		res.Stats.Set("max_threads", int64(model.Slots()))
	}
	return res, nil
}

// levelStat names the statistic of the largest level explored.
func levelStat(switches bool) string {
	if switches {
		return "context_switches"
	}
	return "rounds"
}

// level decides one level of the bound: k rounds, or (switches) k context
// switches, with the goal; an Unsafe answer of the goal error comes with
// the mapped trace (unless cut). k switches are first asked as
// switchRounds(k, threads) rounds, which contain every run of k switches
// (its k+1 contexts fit in k+1 rounds, and in fewer when the threads are
// few), and some with more: so a safe answer is final, and so is an error whose
// trace has at most k switches. Otherwise the error may need more, and
// the level is asked again with the non-empty contexts counted, at most
// k+1 (conc.SeqOptions.Contexts): exactly the runs of at most k switches.
func (e *Engine) level(ctx context.Context, seqEng engine.Engine, m *conc.Model, k int, switches bool, goal conc.Goal, q engine.Query, res *result.Result) (*result.Result, *result.Trace, error) {
	opt := conc.SeqOptions{Rounds: k, Goal: goal, Lazy: e.Lazy}
	if switches {
		// Only the threads that step in a run of k switches need
		// slots: the static ones and at most k created at run time
		// (conc.Model.SwitchSlots), however many the run creates.
		opt.Switches = k
		opt.Rounds = switchRounds(k, m.SwitchSlots(k), len(m.Static) == 1)
		if goal == conc.GoalOverflow {
			// No trace to count: ask exactly at once.
			opt.Contexts = k + 1
		}
	}
	for {
		r, seq, err := e.run(ctx, seqEng, m, opt, q, res)
		if err != nil || r.Verdict != result.Unsafe || goal != conc.GoalError {
			return r, nil, err
		}
		if r.TraceCut {
			if switches && opt.Contexts == 0 {
				return result.NewUnknown(e.Name(), fmt.Sprintf("an error within %d rounds, but %s before its trace showed whether it needs more than %d context switches", opt.Rounds, r.Reason, k)), nil, nil
			}
			return r, nil, nil
		}
		q.Report(result.PhaseTrace, "mapping the trace back")
		t := time.Now()
		tr, err := seq.Trace(r.Trace)
		res.Stats.AddPhase("map", time.Since(t))
		if err != nil {
			return nil, nil, err
		}
		if !switches {
			return r, tr, nil
		}
		n := tr.Switches()
		if n <= k {
			return r, tr, nil
		}
		if opt.Contexts > 0 {
			return nil, nil, fmt.Errorf("the sequentialisation with at most %d contexts gave a trace with %d context switches", opt.Contexts, n)
		}
		res.Stats.Add("context_limit_runs", 1)
		opt.Contexts = k + 1
	}
}

// switchRounds returns the fewest round-robin rounds that hold every run
// of at most k context switches among n threads: 1 plus the most descents
// (a switch to a thread of a smaller number, which starts a new round) in
// a sequence of k+1 contexts whose neighbours differ. At most n-1 descents
// come in a row (thread numbers fall from n-1 to 0 at most), so of k
// switches at most k - k/n descend: 2 rounds, not 3, hold 2 switches of 2
// threads (t0 t1 t0 and t1 t0 t1 alike), and the sequentialisation of
// fewer rounds is much smaller (lazy replays every thread once more per
// round). At most k+1. If every run starts with thread 0 (first0: the
// program starts with one thread, which creates the others), the first
// switch ascends, and at most k - ceil(k/n) of them descend: k rounds
// hold k switches (k >= 1) of SATABS' programs.
func switchRounds(k, n int, first0 bool) int {
	if n < 1 {
		return k + 1
	}
	if first0 {
		return 1 + k - (k+n-1)/n
	}
	return min(k+1, 1+k-k/n)
}

// run checks the sequentialisation opt with the sequential engine, adding
// its statistics to res.
func (e *Engine) run(ctx context.Context, seqEng engine.Engine, m *conc.Model, opt conc.SeqOptions, q engine.Query, res *result.Result) (*result.Result, *conc.Seq, error) {
	t := time.Now()
	seq, err := conc.Build(m, opt)
	if err != nil {
		return nil, nil, err
	}
	res.Stats.AddPhase("sequentialise", time.Since(t))
	edges := 0
	for _, pr := range seq.Prog.Procs {
		edges += len(pr.Edges)
	}
	res.Stats.Set("seq_globals", int64(len(seq.Prog.Globals)))
	res.Stats.Set("seq_procs", int64(len(seq.Prog.Procs)))
	res.Stats.Set("seq_edges", int64(edges))
	sq := engine.Query{MaxNodes: q.MaxNodes, Progress: q.Progress}
	r := engine.Run(ctx, seqEng, seq.Prog, sq)
	// Saturating: the sequential engine's count of path edges over the
	// copies of the globals overflows int64 on large bounds (summary
	// reports it negative).
	if n := r.Stats.States; n < 0 || res.Stats.States > math.MaxInt64-n {
		res.Stats.States = math.MaxInt64
	} else {
		res.Stats.States += n
	}
	for name, d := range r.Stats.Phases {
		res.Stats.AddPhase(name, d)
	}
	for name, n := range r.Stats.Counters {
		if n > res.Stats.Counters[name] {
			res.Stats.Set(name, n)
		}
	}
	if r.Verdict == result.Unknown && len(r.Reason) >= len(engine.InternalErrorPrefix) && r.Reason[:len(engine.InternalErrorPrefix)] == engine.InternalErrorPrefix {
		return nil, nil, fmt.Errorf("the sequential engine %s on %d rounds: %s", seqEng.Name(), opt.Rounds, r.Reason)
	}
	return r, seq, nil
}
