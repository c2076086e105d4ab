package witness_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
	"boolprog/syntax"
	"boolprog/witness"
)

// concWitness returns the correctness witness of a concurrent program of
// testdata, computed by FromConcurrent, and the program.
func concWitness(t *testing.T, file string) (*ir.Program, []byte, *witness.Witness) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := testsuite.LowerFile(t, file, "")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	w, err := witness.FromConcurrent(ctx, p, witness.Meta(p, src, "test", "", stamp, witness.Correctness), 0)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return p, src, w
}

// TestConcurrentGolden writes the correctness witnesses of two concurrent
// programs in both formats, compares them with the golden files, and
// validates the golden files: testdata/conc.bp (a lock in an atomic
// section, a call inside a thread: configuration invariants with stacks
// and the atomic section's owner) and testdata/spawn.bp (threads started
// without end: thread invariants).
func TestConcurrentGolden(t *testing.T) {
	cases := []struct {
		name, file string
		configs    bool // configuration invariants, else thread invariants
	}{
		{"conc.correctness", "testdata/conc.bp", true},
		{"spawn.correctness", "testdata/spawn.bp", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, src, w := concWitness(t, c.file)
			if got := len(w.Configurations) > 0 && len(w.ThreadInvariants) == 0; got != c.configs {
				t.Fatalf("%d configuration invariants, %d thread invariants", len(w.Configurations), len(w.ThreadInvariants))
			}
			for _, f := range formatsOf(w) {
				name := c.name + "." + f.String()
				back, data := goldenRoundTrip(t, w, f, name)
				o := validate(t, p, src, back)
				if o.Verdict != witness.Confirmed {
					t.Errorf("%s: %s: %s", name, o.Verdict, o.Reason)
				}
				t.Logf("%s: %d bytes, %d checks", name, len(data), o.Work)
			}
		})
	}
}

// TestConcurrentRejected: a weakened or foreign concurrent correctness
// witness is rejected with a reason that names the tuple of stacks (or the
// thread's stack) and the offending configuration; one whose invariants
// admit too many configurations is rejected with the reason; a malformed
// one is an error at its file:line:col.
func TestConcurrentRejected(t *testing.T) {
	conc := goldenWitness(t, "conc.correctness.yaml")
	concG := goldenWitness(t, "legacy/conc.correctness.graphml")
	spawn := goldenWitness(t, "spawn.correctness.yaml")
	safe := goldenWitness(t, "safe.correctness.yaml")
	concP := testsuite.LowerFile(t, "testdata/conc.bp", "")
	concSrc, _ := os.ReadFile("testdata/conc.bp")
	spawnP := testsuite.LowerFile(t, "testdata/spawn.bp", "")
	spawnSrc, _ := os.ReadFile("testdata/spawn.bp")
	interfereP := testsuite.LowerFile(t, "testdata/interfere.bp", "")
	interfereSrc, _ := os.ReadFile("testdata/interfere.bp")
	// Thread invariants of testdata/interfere.bp, written by hand: main
	// at line 10 claims !g, but the thread it started may have set g.
	interfere := `- entry_type: invariant_set
  metadata:
    format_version: "boolprog-1"
    uuid: "0"
    creation_time: "2026-01-01T00:00:00Z"
    producer:
      name: "hand"
      version: "1"
    task:
      input_files:
        - "testdata/interfere.bp"
      input_file_hashes:
        "testdata/interfere.bp": "` + witness.Hash(interfereSrc) + `"
      specification: "no assertion fails and label SLIC_ERROR is not reached"
      language: "boolean_program"
  content:
    - invariant:
        type: thread_invariant
        stack: "setter 4:3"
        value: "T"
        format: boolprog_expression
    - invariant:
        type: thread_invariant
        stack: "main 10:3"
        value: "!g"
        format: boolprog_expression
    - invariant:
        type: thread_invariant
        stack: "main 8:3"
        value: "T"
        format: boolprog_expression
    - invariant:
        type: thread_invariant
        stack: "main 9:3"
        value: "!g"
        format: boolprog_expression
`
	safeP := testsuite.LowerFile(t, "testdata/safe.bp", "")
	safeSrc, _ := os.ReadFile("testdata/safe.bp")
	// The invariant where thread 1 is about to assert, and thread 2 has
	// not taken the lock.
	assertAt := "          - \"ended\"\n          - \"worker 19:3\"\n          - \"worker 14:3\"\n        value: \"inside & lock & t1.ok\""
	cases := []struct {
		name      string
		p         *ir.Program
		src       []byte
		text      string
		edit      [2]string
		opts      witness.Options
		want      []string
		malformed bool
	}{
		{name: "widened to T", p: concP, src: concSrc, text: conc,
			edit: [2]string{assertAt, strings.Replace(assertAt, `"inside & lock & t1.ok"`, `"T"`, 1)},
			want: []string{"the invariant at (t0: ended | t1: worker 19:3 | t2: worker 14:3) admits the configuration lock=0 inside=0 || t0: ended || t1: worker@19 ok=0 || t2: worker@14 ok=0", "assertion at worker 19:3 fails"}},
		{name: "a conjunct dropped", p: concP, src: concSrc, text: conc,
			edit: [2]string{assertAt, strings.Replace(assertAt, `"inside & lock & t1.ok"`, `"inside & lock"`, 1)},
			want: []string{"the invariant at (t0: ended | t1: worker 19:3 | t2: worker 14:3) admits the configuration lock=1 inside=1 || t0: ended || t1: worker@19 ok=0 || t2: worker@14 ok=0", "fails"}},
		{name: "a group left out", p: concP, src: concSrc, text: conc,
			edit: [2]string{assertAt, strings.Replace(assertAt, `"inside & lock & t1.ok"`, `"F"`, 1)},
			want: []string{"which is not admitted: the invariant at (t0: ended | t1: worker 19:3 | t2: worker 14:3) does not hold in it"}},
		{name: "another tuple", p: concP, src: concSrc, text: conc,
			edit: [2]string{"          - \"worker 19:3\"\n          - \"worker 14:3\"\n        value: \"inside & lock & t1.ok\"", "          - \"worker 19:3\"\n          - \"worker 20:3\"\n        value: \"inside & lock & t1.ok\""},
			want: []string{"no invariant is at (t0: ended | t1: worker 19:3 | t2: worker 14:3)"}},
		{name: "graphml widened", p: concP, src: concSrc, text: concG,
			edit: [2]string{`<data key="invariant">inside &amp; lock &amp; t1.ok</data>`, `<data key="invariant">inside | lock</data>`},
			want: []string{"admits the configuration lock=0 inside=1 || t0: main@27 || t1: worker@19 ok=0"}},
		{name: "too many configurations", p: concP, src: concSrc, text: conc, opts: witness.Options{MaxConfigs: 100},
			want: []string{"the invariants admit more than 100 configurations", "too many to check by enumeration"}},
		{name: "unknown local", p: concP, src: concSrc, text: conc,
			edit: [2]string{`"inside & lock & t1.ok"`, `"inside & lock & t2.free"`},
			want: []string{"invariant at (t0: main 27:3 | t1: worker 19:3): unknown variable t2.free"}},
		{name: "no such statement", p: concP, src: concSrc, text: conc,
			edit: [2]string{`- "worker 19:3"`, `- "worker 19:4"`},
			want: []string{"thread 1: worker has no statement at line 19, column 4"}},
		{name: "a caller not at a call", p: concP, src: concSrc, text: conc,
			edit: [2]string{`"worker 18:3 > enter 7:3"`, `"worker 17:3 > enter 7:3"`},
			want: []string{"worker 17:3: no call of enter there"}},
		{name: "formula", p: concP, src: concSrc, text: conc,
			edit: [2]string{`"inside & lock & t1.ok"`, `"inside & & t1.ok"`},
			want: []string{`expected expression, found '&'`}, malformed: true},
		{name: "thread invariant weakened", p: spawnP, src: spawnSrc, text: spawn,
			edit: [2]string{`value: "flag & t.mine"`, `value: "flag"`},
			want: []string{"the invariant at child 8:3 admits the thread state flag=1 | child@8 mine=0, whose step assert(mine) leads to an error: the thread's assertion at child 8:3 fails"}},
		{name: "thread invariant: an initial state left out", p: spawnP, src: spawnSrc, text: spawn,
			edit: [2]string{"stack: \"main 12:3\"\n        value: \"T\"", "stack: \"main 12:3\"\n        value: \"F\""},
			want: []string{"is not admitted: the invariant at main 12:3 does not hold in it"}},
		{name: "thread invariant: interference", p: interfereP, src: interfereSrc, text: interfere,
			want: []string{"the invariant at main 10:3 admits the thread state g=0 | main@10, which another thread's step from g=0 | setter@4 turns into g=1 | main@10, which is not admitted: the invariant at main 10:3 does not hold in it"}},
		{name: "a sequential witness", p: concP, src: concSrc, text: safe,
			want: []string{"the witness is for another program: its invariants and contracts speak of one thread"}},
		{name: "a concurrent witness of a sequential program", p: safeP, src: safeSrc, text: conc,
			want: []string{"the witness is for another program: its invariants speak of threads"}},
		{name: "another concurrent program", p: spawnP, src: spawnSrc, text: conc,
			want: []string{"the witness is for another program"}},
	}
	// Without the claims about g, testdata/interfere.bp's thread
	// invariants hold: the rejection above is theirs.
	fixed, err := witness.Parse("w.yaml", []byte(strings.ReplaceAll(interfere, `value: "!g"`, `value: "T"`)))
	if err != nil {
		t.Fatal(err)
	}
	if o := validate(t, interfereP, interfereSrc, fixed); o.Verdict != witness.Confirmed {
		t.Errorf("interfere.bp, invariants T: %s %s", o.Verdict, o.Reason)
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := c.text
			if c.edit[0] != "" {
				text = strings.Replace(text, c.edit[0], c.edit[1], 1)
				if text == c.text {
					t.Fatal("the edit did not apply")
				}
			}
			w, err := witness.Parse("w.yaml", []byte(text))
			if c.malformed && err != nil {
				if !strings.HasPrefix(err.Error(), "w.yaml:") || !strings.Contains(err.Error(), c.want[0]) {
					t.Errorf("error %q, want one at w.yaml:line:col with %q", err, c.want[0])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasPrefix(c.name, "a ") && strings.HasSuffix(c.name, "witness") || c.p == safeP {
				// Past the hash, to what else tells the programs apart.
				w.Metadata.Task.InputFileHash = ""
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			o := witness.Validate(ctx, c.p, c.src, w, c.opts)
			ok := o.Verdict == witness.Rejected && o.Malformed == c.malformed
			for _, s := range c.want {
				ok = ok && strings.Contains(o.Reason, s)
			}
			if !ok {
				t.Errorf("%s %q (malformed %v), want rejected with %q", o.Verdict, o.Reason, o.Malformed, c.want)
			}
		})
	}
}

// TestConcurrentMalformed: the concurrent invariants' own fields, when
// malformed, are errors at their file:line:col.
func TestConcurrentMalformed(t *testing.T) {
	conc := goldenWitness(t, "conc.correctness.yaml")
	concG := goldenWitness(t, "legacy/conc.correctness.graphml")
	spawn := goldenWitness(t, "spawn.correctness.yaml")
	cases := []struct {
		name, text, old, new, want string
	}{
		{"stack text", conc, `- "worker 19:3"`, `- "worker 19"`, `frame "worker 19": expected "function line:col"`},
		{"threads", conc, "        threads:\n          - \"main 25:3\"", "        threads: \"main 25:3\"", "threads: expected a list"},
		{"atomic owner", conc, "atomic_owner: 1", "atomic_owner: one", `atomic_owner: expected a number, found "one"`},
		{"no value", conc, "        value: \"T\"\n", "", `missing "value"`},
		{"running", conc, "        atomic_owner: 1\n", "        atomic_owner: 1\n        running: -1\n", `running: expected a number, found "-1"`},
		{"init", spawn, "        stack: \"main 12:3\"\n", "        stack: \"main 12:3\"\n        init: maybe\n", `init: expected true or false, found "maybe"`},
		{"thread stack", spawn, `stack: "main 12:3"`, `stack: "main 12:3 > "`, `expected "function line:col"`},
		{"graphml stack", concG, `<data key="threads">main 25:3</data>`, `<data key="threads">main</data>`, `frame "main": expected`},
		{"graphml atomic owner", concG, `<data key="atomic.owner">1</data>`, `<data key="atomic.owner">x</data>`, `atomic.owner: expected a number`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := strings.Replace(c.text, c.old, c.new, 1)
			if text == c.text {
				t.Fatal("the edit did not apply")
			}
			_, err := witness.Parse("w", []byte(text))
			if err == nil {
				t.Fatal("no error")
			}
			msg := err.Error()
			// w:line:col: message
			parts := strings.SplitN(msg, ":", 4)
			if len(parts) < 4 || parts[0] != "w" || parts[1] == "" || parts[2] == "" || !strings.Contains(msg, c.want) {
				t.Errorf("error %q, want one at w:line:col with %q", msg, c.want)
			}
		})
	}
}

// TestConcurrentTimeout: a validation whose context has ended answers
// Unknown, never a verdict.
func TestConcurrentTimeout(t *testing.T) {
	p, src, w := concWitness(t, "testdata/conc.bp")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if o := witness.Validate(ctx, p, src, w, witness.Options{}); o.Verdict != witness.Unknown {
		t.Errorf("%s: %s, want unknown", o.Verdict, o.Reason)
	}
	if _, err := witness.FromConcurrent(ctx, p, w.Metadata, 0); err == nil {
		t.Error("FromConcurrent ignored the ended context")
	}
}

// TestGetafix: safe programs of the Getafix convention get witnesses that
// validate in both formats: configuration invariants that say which
// thread ran last where the global atomic makes it matter (testGetafix,
// testGetafixAtomic), and thread invariants with init's states
// (testsyntax, whose configurations are too many).
func TestGetafix(t *testing.T) {
	dir := filepath.Join("..", "..", "shared", "benchmarks", "getafix")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal(err)
		}
		t.Skipf("shared benchmarks not found: %v", err)
	}
	cases := []struct {
		file    string
		running bool // some configuration invariant says which thread ran last
		threads bool // thread invariants, some of init
	}{
		{"testGetafix.bp", true, false},
		{"testGetafixAtomic.bp", true, false},
		{"testNewformula.bp", true, false},
		{"testsyntax.bp", false, true},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			file := filepath.Join(dir, c.file)
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p := testsuite.LowerFile(t, file, "")
			res := run(t, "explicit", p)
			if res.Verdict != result.Safe || res.Bound.Kind != result.Unbounded {
				t.Fatalf("%s %s: %s", res.Verdict, res.Bound, res.Reason)
			}
			w, err := witness.FromReachable(context.Background(), p, witness.Meta(p, src, "test", "engine explicit", stamp, witness.Correctness), engine.Query{})
			if err != nil {
				t.Fatal(err)
			}
			running, init := false, false
			for _, inv := range w.Configurations {
				running = running || inv.Running >= 0
			}
			for _, inv := range w.ThreadInvariants {
				init = init || inv.Init
			}
			if running != c.running || (len(w.ThreadInvariants) > 0) != c.threads || init != c.threads {
				t.Errorf("running stated %v, %d thread invariants (init %v)", running, len(w.ThreadInvariants), init)
			}
			for _, f := range formatsOf(w) {
				back, data := roundTrip(t, w, f)
				o := validate(t, p, src, back)
				if o.Verdict != witness.Confirmed {
					t.Fatalf("%s: %s: %s", f, o.Verdict, o.Reason)
				}
				t.Logf("%s: %d configuration, %d thread invariants, %d bytes, %d checks", f, len(back.Configurations), len(back.ThreadInvariants), len(data), o.Work)
			}
		})
	}
}

// TestRandomConcurrentCorrectness: on random concurrent programs (Getafix
// and SATABS styles, atomic sections, recursion in the threads) that the
// explicit engine proves safe without a bound, FromConcurrent's witness
// validates; on those it finds unsafe, FromConcurrent writes none (it
// finds the error too). -random-conc N runs N programs.
var randomConcN = flag.Int64("random-conc", 40, "random programs for TestRandomConcurrentCorrectness (8 with -short)")

func TestRandomConcurrentCorrectness(t *testing.T) {
	n := *randomConcN
	if testing.Short() {
		n = min(n, 15)
	}
	var safe, unsafe, configs, threads int
	for seed := int64(1); seed <= n; seed++ {
		src := []byte(gen.RandomConcurrent(seed, gen.ConcOptions{}))
		name := fmt.Sprintf("conc%d.bp", seed)
		p := testsuite.LowerDialect(t, name, string(src), syntax.Auto, "")
		// Programs that create threads without end, or recurse
		// without end, keep the search busy: those past a short limit
		// are left out.
		res := runExplicit(t, p, 150*time.Millisecond, engine.Query{})
		if res.Verdict == result.Unknown || res.Bound.Kind != result.Unbounded && res.Verdict == result.Safe {
			continue
		}
		meta := witness.Meta(p, src, "test", "", stamp, witness.Correctness)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		w, err := witness.FromConcurrent(ctx, p, meta, 1<<12)
		cancel()
		switch {
		case res.Verdict == result.Unsafe:
			unsafe++
			if err == nil {
				t.Errorf("%s: unsafe, but a correctness witness was written\n%s", name, src)
			}
			continue
		case res.Verdict != result.Safe || res.Bound.Kind != result.Unbounded:
			continue
		case err != nil:
			// Thread-modular invariants may fail where the
			// configurations are too many for this test's budget.
			t.Logf("%s: safe, no witness: %v", name, err)
			continue
		}
		safe++
		if len(w.Configurations) > 0 {
			configs++
		} else {
			threads++
		}
		back, _ := roundTrip(t, w, witness.YAML)
		if o := validate(t, p, src, back); o.Verdict != witness.Confirmed {
			t.Fatalf("%s: %s: %s\n%s", name, o.Verdict, o.Reason, src)
		}
	}
	t.Logf("%d programs: %d safe with a confirmed witness (%d of configuration, %d of thread invariants), %d unsafe without one", n, safe, configs, threads, unsafe)
	if safe == 0 || unsafe == 0 {
		t.Errorf("the random programs should include safe and unsafe ones")
	}
}

// BenchmarkConcurrentWitness: writing and validating p-peterson's
// correctness witness (2,432 configuration invariants, 9,844
// configurations).
func BenchmarkConcurrentWitness(b *testing.B) {
	var file string
	for _, c := range testsuite.SatabsBoppoOrSkip(b) {
		if c.Name == "p-peterson" {
			file = c.File
		}
	}
	src, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	p := testsuite.LowerFile(b, file, "SLIC_ERROR")
	meta := witness.Meta(p, src, "test", "", stamp, witness.Correctness)
	var w *witness.Witness
	b.Run("write", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if w, err = witness.FromConcurrent(context.Background(), p, meta, 0); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("validate", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if o := witness.Validate(context.Background(), p, src, w, witness.Options{}); o.Verdict != witness.Confirmed {
				b.Fatalf("%s: %s", o.Verdict, o.Reason)
			}
		}
	})
}
