package witness_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	_ "boolprog/engine/conc"
	_ "boolprog/engine/cpa"
	_ "boolprog/engine/explicit"
	_ "boolprog/engine/fixpoint"
	_ "boolprog/engine/pushdown"
	_ "boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
	"boolprog/witness"
)

// formatsOf returns the formats a witness has: both for a violation
// witness, YAML alone for a correctness witness.
func formatsOf(w *witness.Witness) []witness.Format {
	if w.Kind == witness.Correctness {
		return []witness.Format{witness.YAML}
	}
	return []witness.Format{witness.YAML, witness.GraphML}
}

// run checks p with the named engine.
func run(t *testing.T, name string, p *ir.Program) *result.Result {
	t.Helper()
	info, ok := engine.Lookup(name)
	if !ok {
		t.Fatalf("no engine %s", name)
	}
	eng, err := info.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return engine.Run(ctx, eng, p, engine.Query{})
}

// roundTrip writes w in format f and parses it back.
func roundTrip(t *testing.T, w *witness.Witness, f witness.Format) (*witness.Witness, []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := w.Write(&b, f); err != nil {
		t.Fatal(err)
	}
	checkFormat(t, f, b.Bytes())
	back, err := witness.Parse("w."+f.String(), b.Bytes())
	if err != nil {
		t.Fatalf("%s: the written witness does not parse: %v\n%s", f, err, b.String())
	}
	return back, b.Bytes()
}

func validate(t *testing.T, p *ir.Program, src []byte, w *witness.Witness) *witness.Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// A program that creates threads in a loop has infinitely many
	// configurations: a search for a tampered violation witness ends at
	// the budget. A correctness witness's invariants bound their own
	// enumeration: the default budget.
	opts := witness.Options{MaxConfigs: 5000}
	if w.Kind == witness.Correctness {
		opts.MaxConfigs = 0
	}
	return witness.Validate(ctx, p, src, w, opts)
}

const stamp = "2026-01-01T00:00:00Z"

// TestSuite: every answer of the satabs suite gives a witness that
// validates in both formats; a tampered violation witness and a weakened
// correctness witness are rejected. Concurrent unsafe ones give violation
// witnesses with thread ids, concurrent safe ones configuration or thread
// invariants (the explicit engine's answers, unbounded proofs). A safe
// result without a correctness witness fails the test.
func TestSuite(t *testing.T) {
	// By concurrency: the safe programs checked, and those whose
	// correctness witness was confirmed.
	safe, confirmed := map[bool]int{}, map[bool]int{}
	for _, c := range testsuite.SatabsBoppoOrSkip(t) {
		t.Run(c.Name, func(t *testing.T) {
			src, err := os.ReadFile(c.File)
			if err != nil {
				t.Fatal(err)
			}
			p := testsuite.LowerFile(t, c.File, c.Target)
			if p.Concurrent && testsuite.SlowConcurrent(c.Name) && !testflags.Long() {
				t.Skip("a slow concurrent benchmark: the long tier's")
			}
			eng := "summary"
			if p.Concurrent {
				eng = "explicit"
			}
			res := run(t, eng, p)
			if res.Verdict == result.Unknown && p.Concurrent {
				eng = "conc-eager"
				res = run(t, eng, p)
			}
			if want := map[bool]result.Verdict{true: result.Unsafe, false: result.Safe}[c.Failed]; res.Verdict != want {
				t.Fatalf("verdict %v, want %v (%s)", res.Verdict, want, res.Reason)
			}
			if res.Verdict == result.Unsafe {
				w, err := witness.FromTrace(p, res.Trace, witness.Meta(p, src, "test", "engine "+eng, stamp, witness.Violation))
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range formatsOf(w) {
					back, data := roundTrip(t, w, f)
					o := validate(t, p, src, back)
					if o.Verdict != witness.Confirmed {
						t.Fatalf("%s: %s: %s", f, o.Verdict, o.Reason)
					}
					tms := tamperings(p, back)
					t.Logf("%s %s: %d steps, %d waypoints, %d bytes, %d configurations, %d tamperings", eng, f, res.Trace.Len(), len(back.Segments), len(data), o.Work, len(tms))
					for _, tm := range tms {
						o := validate(t, p, src, tm.w)
						if o.Verdict == witness.Unknown && p.Concurrent {
							t.Logf("%s: tampered (%s): %s", f, tm.what, o.Reason)
							continue
						}
						if o.Verdict != witness.Rejected {
							t.Errorf("%s: tampered (%s): %s %s", f, tm.what, o.Verdict, o.Reason)
						}
					}
				}
				return
			}
			safe[p.Concurrent]++
			if res.Bound.Kind != result.Unbounded {
				t.Fatalf("safe up to %s only: no proof", res.Bound)
			}
			ctx := context.Background()
			w, err := witness.FromReachable(ctx, p, witness.Meta(p, src, "test", "engine "+eng, stamp, witness.Correctness), engine.Query{})
			if err != nil {
				t.Fatalf("a safe result without a correctness witness: %v", err)
			}
			for _, f := range formatsOf(w) {
				back, data := roundTrip(t, w, f)
				o := validate(t, p, src, back)
				if o.Verdict != witness.Confirmed {
					t.Fatalf("%s: %s: %s", f, o.Verdict, o.Reason)
				}
				wks := weakenings(p, back)
				if p.Concurrent && f == witness.YAML {
					// The weakened witnesses are the same in both
					// formats: they cost time to validate.
					wks = concWeakenings(p, back)
				} else if p.Concurrent {
					wks = nil
				}
				t.Logf("%s: %d invariants, %d contracts, %d configuration and %d thread invariants, %d bytes, %d checks, %d weakenings",
					f, len(back.Invariants), len(back.Contracts), len(back.Configurations), len(back.ThreadInvariants), len(data), o.Work, len(wks))
				for _, wk := range wks {
					o := validate(t, p, src, wk.w)
					if o.Verdict != witness.Rejected || !strings.Contains(o.Reason, wk.want) {
						t.Errorf("%s: weakened (%s): %s %s, want rejected with %q", f, wk.what, o.Verdict, o.Reason, wk.want)
					}
				}
			}
			confirmed[p.Concurrent]++
		})
	}
	// The suite's concurrent safe programs are Threads4, Threads7, p-conc
	// and p-peterson.
	for _, conc := range []bool{false, true} {
		if confirmed[conc] != safe[conc] {
			t.Errorf("concurrent %v: %d safe programs, %d confirmed correctness witnesses: every safe result must have one", conc, safe[conc], confirmed[conc])
		}
	}
	t.Logf("correctness witnesses confirmed: %d sequential, %d concurrent programs", confirmed[false], confirmed[true])
}

type variant struct {
	what string
	w    *witness.Witness
	want string // what the reason of its rejection must contain
}

func clone(w *witness.Witness) *witness.Witness {
	c := *w
	c.Segments = nil
	for _, s := range w.Segments {
		c.Segments = append(c.Segments, witness.Segment{Waypoints: append([]witness.Waypoint(nil), s.Waypoints...)})
	}
	c.Invariants = append([]witness.Invariant(nil), w.Invariants...)
	c.Contracts = append([]witness.Contract(nil), w.Contracts...)
	c.Configurations = append([]witness.ConfigInvariant(nil), w.Configurations...)
	c.ThreadInvariants = append([]witness.ThreadInvariant(nil), w.ThreadInvariants...)
	return &c
}

// tamperings returns violation witnesses that no execution follows: the
// target moved to a statement that is no error, the last assumption made
// contradictory, and another program's hash.
func tamperings(p *ir.Program, w *witness.Witness) []variant {
	var out []variant
	last := len(w.Segments) - 1
	target := w.Segments[last].Waypoints[0]
	proc := p.Proc(target.Location.Function)
	for _, loc := range proc.Locations {
		if loc.Kind != ir.StmtLoc || loc.Error || loc.Pos.Line == target.Location.Line {
			continue
		}
		fails := false
		for _, e := range loc.Out {
			fails = fails || proc.Locations[proc.Edges[e].To].Kind == ir.FailLoc
		}
		if fails {
			continue
		}
		c := clone(w)
		c.Segments[last].Waypoints[0].Location.Line, c.Segments[last].Waypoints[0].Location.Col = loc.Pos.Line, loc.Pos.Col
		out = append(out, variant{"target moved to a statement that is no error", c, ""})
		break
	}
	for i := last; i >= 0; i-- {
		if wp := w.Segments[i].Waypoints[0]; wp.Type == witness.Assumption && wp.Constraint != "T" {
			c := clone(w)
			c.Segments[i].Waypoints[0].Constraint = "!(" + wp.Constraint + ")"
			out = append(out, variant{"the last assumption negated", c, ""})
			break
		}
	}
	c := clone(w)
	c.Metadata.Task.InputFileHash = strings.Repeat("0", 64)
	out = append(out, variant{"another program's hash", c, ""})
	return out
}

// weakenings returns correctness witnesses whose invariant is weakened to
// T at a location from which an edge leads into an error (the error
// location's invariant, a labelled statement, or the assertion's), or at
// the exit of a function whose ensures is not T.
func weakenings(p *ir.Program, w *witness.Witness) []variant {
	var out []variant
	for i, inv := range w.Invariants {
		proc, _ := p.Proc(inv.Location.Function), 0
		for _, loc := range proc.Locations {
			if loc.Pos.Line != inv.Location.Line || loc.Pos.Col != inv.Location.Col || loc.Kind == ir.FailLoc {
				continue
			}
			intoError := loc.Error
			for _, e := range loc.Out {
				edge := proc.Edges[e]
				if a, ok := edge.Op.(*ir.Assume); ok && proc.Locations[edge.To].Kind == ir.FailLoc {
					// assert(c) with c not valid: T lets it fail.
					if c, ok := a.Cond.(*ir.Not); !ok || !isConst(c.X) {
						intoError = true
					}
				}
			}
			// The exit invariant of a function whose ensures is not
			// valid: T does not imply the ensures.
			strongEnsures := false
			for _, ct := range w.Contracts {
				strongEnsures = strongEnsures || loc.Exit && ct.Function == proc.Name && ct.Ensures != "T"
			}
			if (intoError || strongEnsures) && inv.Value != "T" {
				c := clone(w)
				c.Invariants[i].Value = "T"
				out = append(out, variant{"invariant at " + inv.Location.String() + " weakened to T", c, ""})
			}
		}
	}
	return out
}

func isConst(e ir.Expr) bool { _, ok := e.(*ir.Const); return ok }

// TestRandom: on random programs (recursion, calls with returned values,
// goto, constrain, schoose, enforce) every answer of the summary engine
// gives a witness that validates, and a correctness witness whose
// invariant at a location from which an assertion can fail is weakened to
// T is rejected.
var randomN = flag.Int64("random", 60, "random programs for TestRandom (15 with -short)")

func TestRandom(t *testing.T) {
	n := *randomN
	if testing.Short() {
		n = min(n, 15)
	}
	var safe, unsafe int
	for seed := int64(1); seed <= n; seed++ {
		src := []byte(gen.Random(seed, gen.Options{}))
		name := fmt.Sprintf("seed%d.bp", seed)
		p := testsuite.Lower(t, name, string(src), "")
		res := run(t, "summary", p)
		var w *witness.Witness
		var err error
		switch res.Verdict {
		case result.Unsafe:
			unsafe++
			w, err = witness.FromTrace(p, res.Trace, witness.Meta(p, src, "test", "", stamp, witness.Violation))
		case result.Safe:
			safe++
			w, err = witness.FromReachable(context.Background(), p, witness.Meta(p, src, "test", "", stamp, witness.Correctness), engine.Query{})
		default:
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		back, _ := roundTrip(t, w, witness.YAML)
		if o := validate(t, p, src, back); o.Verdict != witness.Confirmed {
			t.Fatalf("%s: %s witness: %s: %s\n%s", name, w.Kind, o.Verdict, o.Reason, src)
		}
		if w.Kind == witness.Correctness {
			for _, wk := range weakenings(p, back) {
				if o := validate(t, p, src, wk.w); o.Verdict != witness.Rejected {
					t.Errorf("%s: weakened (%s): %s %s", name, wk.what, o.Verdict, o.Reason)
				}
			}
		}
	}
	t.Logf("%d safe, %d unsafe programs: every witness confirmed", safe, unsafe)
}

// TestRandomConcurrent: the explicit interleaving search's traces of
// random concurrent programs (Getafix and SATABS styles, atomic sections,
// recursion in the threads) give violation witnesses with thread ids that
// validate.
func TestRandomConcurrent(t *testing.T) {
	n := int64(30)
	if testing.Short() {
		n = 8
	}
	unsafe := 0
	for seed := int64(1); seed <= n; seed++ {
		src := []byte(gen.RandomConcurrent(seed, gen.ConcOptions{}))
		name := fmt.Sprintf("conc%d.bp", seed)
		p := testsuite.LowerDialect(t, name, string(src), syntax.Auto, "")
		// Programs that create threads without end keep the search
		// busy: those past a short limit are left out.
		res := runExplicit(t, p, 300*time.Millisecond, engine.Query{Bound: result.Bound{Kind: result.ContextSwitches, K: 2}})
		if res.Verdict != result.Unsafe || res.Trace == nil {
			continue
		}
		unsafe++
		w, err := witness.FromTrace(p, res.Trace, witness.Meta(p, src, "test", "", stamp, witness.Violation))
		if err != nil {
			t.Fatal(err)
		}
		back, _ := roundTrip(t, w, witness.GraphML)
		if o := validate(t, p, src, back); o.Verdict != witness.Confirmed {
			t.Fatalf("%s: %s: %s\n%s", name, o.Verdict, o.Reason, src)
		}
	}
	t.Logf("%d unsafe programs of %d: every witness confirmed", unsafe, n)
}

// concWeakenings returns correctness witnesses of a concurrent program
// that must be rejected: an invariant left out (the first configuration
// or thread invariant whose stacks are not those of the start: a step from
// another leads there); and, at up to three tuples where a thread's next
// step is an assume into an error whose condition reads variables, the
// invariant widened to T and, separately, with the conjuncts that mention
// those variables dropped (an admitted configuration then takes the step).
func concWeakenings(p *ir.Program, w *witness.Witness) []variant {
	var out []variant
	for i := 1; i < len(w.Configurations); i++ {
		c := clone(w)
		inv := w.Configurations[i]
		c.Configurations = append(c.Configurations[:i:i], c.Configurations[i+1:]...)
		out = append(out, variant{"invariant at " + inv.Tuple() + " left out", c, "no invariant is at " + inv.Tuple()})
		break
	}
	for i := 1; i < len(w.ThreadInvariants); i++ {
		c := clone(w)
		inv := w.ThreadInvariants[i]
		c.ThreadInvariants = append(c.ThreadInvariants[:i:i], c.ThreadInvariants[i+1:]...)
		out = append(out, variant{"thread invariant at " + inv.Stack.String() + " left out", c, "no thread invariant is at " + inv.Stack.String()})
		break
	}
	n := 0
	for i, inv := range w.Configurations {
		if n == 3 || inv.Value == "T" {
			continue
		}
		names := guardNames(p, inv)
		if names == nil {
			continue
		}
		n++
		c := clone(w)
		c.Configurations[i].Value = "T"
		out = append(out, variant{"invariant at " + inv.Tuple() + " widened to T", c, "the invariant at " + inv.Tuple() + " admits the configuration"})
		if strings.Contains(inv.Value, "|") {
			continue
		}
		var keep []string
		for _, conj := range strings.Split(inv.Value, " & ") {
			mentions := false
			for _, tok := range strings.FieldsFunc(conj, func(r rune) bool { return strings.ContainsRune(" ()!=", r) }) {
				mentions = mentions || names[tok]
			}
			if !mentions {
				keep = append(keep, conj)
			}
		}
		if len(keep) == 0 {
			continue
		}
		c = clone(w)
		c.Configurations[i].Value = strings.Join(keep, " & ")
		out = append(out, variant{"invariant at " + inv.Tuple() + " without the conjuncts on " + fmt.Sprint(names), c, "the invariant at " + inv.Tuple() + " admits the configuration"})
	}
	return out
}

// guardNames returns the names (as the invariant's formula writes them) of
// the variables that the condition of an assume into an error reads, at a
// thread's top location in inv's tuple, if the thread may step (no other
// thread owns the atomic section) and the condition is not constant; nil
// if there is none.
func guardNames(p *ir.Program, inv witness.ConfigInvariant) map[string]bool {
	for t, st := range inv.Threads {
		if len(st) == 0 || inv.Atomic >= 0 && inv.Atomic != t {
			continue
		}
		top := st[len(st)-1]
		proc := p.Proc(top.Function)
		for _, loc := range proc.Locations {
			if loc.Pos.Line != top.Line || loc.Pos.Col != top.Col || loc.Kind == ir.FailLoc {
				continue
			}
			for _, id := range loc.Out {
				e := proc.Edges[id]
				to := proc.Locations[e.To]
				a, ok := e.Op.(*ir.Assume)
				if !ok || !(to.Error || to.Kind == ir.FailLoc) || isConst(a.Cond) {
					continue
				}
				names := map[string]bool{}
				for _, v := range ir.Reads(a) {
					if v.Global {
						names[p.Globals[v.Index]] = true
					} else {
						names[fmt.Sprintf("t%d.%s", t, proc.Locals[v.Index])] = true
					}
				}
				if len(names) > 0 {
					return names
				}
			}
		}
	}
	return nil
}

// runExplicit runs the explicit engine on p for at most limit.
func runExplicit(t *testing.T, p *ir.Program, limit time.Duration, q engine.Query) *result.Result {
	t.Helper()
	info, _ := engine.Lookup("explicit")
	eng, err := info.New()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	return engine.Run(ctx, eng, p, q)
}
