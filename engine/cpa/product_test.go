package cpa_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"boolprog/cpa/observer"
	"boolprog/engine"
	cpaengine "boolprog/engine/cpa"
	"boolprog/engine/pushdown"
	"boolprog/engine/summary"
	"boolprog/gen"
	"boolprog/internal/testflags"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

// A property of the differential: an observer automaton and the same
// rule written into the program by hand (a global hlock, assertions and
// updates at the start of lock and unlock).
type handProperty struct {
	name, spec   string
	lock, unlock string // the hand-instrumented bodies' first statements
}

var handProperties = []handProperty{
	{
		name: "locking",
		spec: `property locking
states unlocked locked
on call lock: unlocked -> locked
on call lock: locked -> error "lock twice"
on call unlock: locked -> unlocked
on call unlock: unlocked -> error "unlock without lock"
`,
		lock:   "assert(!hlock); hlock := T;",
		unlock: "assert(hlock); hlock := F;",
	},
	{
		// A guarded transition: a second lock is allowed while g0 is
		// false.
		name: "guarded",
		spec: `property guarded
states unlocked locked
on call lock: unlocked -> locked
on call lock when !g0: locked -> locked
on call lock: locked -> error "lock twice with g0"
on call unlock: locked -> unlocked
on call unlock: unlocked -> error "unlock without lock"
`,
		lock:   "assert(!hlock | !g0); hlock := T;",
		unlock: "assert(hlock); hlock := F;",
	},
}

// lockingPrograms returns a random program (gen.Random without assertions
// and error labels, so that the only errors are the property's) with
// calls of lock() and unlock() inserted: mostly around a statement (a
// bracket that a call of a locking procedure inside it, a return or a
// goto breaks), sometimes alone; and its hand-instrumented twin.
func lockingPrograms(seed int64, hp handProperty) (plain, hand string) {
	src := gen.Random(seed, gen.Options{Omit: gen.Assert | gen.ErrorLabel | gen.Enforce})
	r := rand.New(rand.NewPCG(uint64(seed), 13))
	var out []string
	inMain := false
	for _, line := range strings.Split(src, "\n") {
		trim := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "void main()"):
			inMain = true
		case strings.HasPrefix(line, "void ") || strings.HasPrefix(line, "bool"):
			inMain = false
		}
		isStmt := strings.HasSuffix(trim, ";") && !strings.HasPrefix(trim, "decl ") && strings.HasPrefix(line, "  ")
		indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
		switch k := r.IntN(100); {
		case !isStmt:
			out = append(out, line)
		case k < 12:
			out = append(out, indent+"lock();", line, indent+"unlock();")
		case k < 13 && inMain:
			out = append(out, indent+"lock();", line)
		case k < 14:
			out = append(out, line, indent+"unlock();")
		default:
			out = append(out, line)
		}
	}
	body := strings.Join(out, "\n")
	plain = body + "\nvoid lock()\nbegin\n  skip;\nend\n\nvoid unlock()\nbegin\n  skip;\nend\n"
	// The hand version: hlock starts false (main's first statement, after
	// its declarations) and lock/unlock check and update it.
	var h []string
	inMain, placed := false, false
	for _, line := range strings.Split(body, "\n") {
		trim := strings.TrimSpace(line)
		if strings.HasPrefix(line, "void main()") {
			inMain = true
		}
		if inMain && !placed && strings.HasPrefix(line, "  ") && !strings.HasPrefix(trim, "decl ") {
			h = append(h, "  hlock := F;")
			placed = true
		}
		h = append(h, line)
	}
	hand = "decl hlock;\n" + strings.Join(h, "\n") +
		"\nvoid lock()\nbegin\n  " + hp.lock + "\nend\n\nvoid unlock()\nbegin\n  " + hp.unlock + "\nend\n"
	return plain, hand
}

// productEngine runs CheckProduct of a cpa engine through engine.Run.
type productEngine struct {
	eng  *cpaengine.Engine
	inst *observer.Instrumented
}

func (e productEngine) Name() string { return "cpa-product" }
func (e productEngine) Supports(_ *ir.Program, q engine.Query) error {
	return e.eng.SupportsProduct(e.inst, q)
}
func (e productEngine) Check(ctx context.Context, _ *ir.Program, q engine.Query) (*result.Result, error) {
	return e.eng.CheckProduct(ctx, e.inst, q)
}

// TestProductDifferential checks an observer automaton against the same
// rule instrumented by hand, on random programs with lock and unlock
// calls (seeds 1..8 per property; 1..4 with -short, 1..25 with -long,
// 1..300 with -full): the product
// (observer.Instrument) checked by the summary, post*, explicit and cpa
// engines, and by the cpa engine with the automaton as a component of its
// composite (CheckProduct), must give the verdict that the same engines
// give on the hand-instrumented program, and every trace replays on the
// program it is a trace of (testsuite.Check).
func TestProductDifferential(t *testing.T) {
	n := testflags.N(4, 8, 25, 300)
	engines := func() map[string]engine.Engine {
		return map[string]engine.Engine{
			"summary":        summary.New(summary.Options{}),
			"post*":          pushdown.New(pushdown.Forward),
			"explicit":       oracle(t),
			"model-checking": cpaengine.NewNamed("model-checking"),
		}
	}
	for _, hp := range handProperties {
		spec, err := observer.Parse(hp.name+".spec", hp.spec)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := cpaengine.ParseConfig("obs.cfg", "analyses = location, summary, explicitval, observer\nobserver.spec = "+hp.name+".spec\n")
		if err != nil {
			t.Fatal(err)
		}
		var safe, unsafe, unknown, checks int
		for seed := int64(1); seed <= int64(n); seed++ {
			plain, hand := lockingPrograms(seed, hp)
			p := testsuite.Lower(t, fmt.Sprintf("%s%d.bp", hp.name, seed), plain, "")
			inst, err := observer.Instrument(spec, p)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			handProg := testsuite.Lower(t, fmt.Sprintf("%s%d-hand.bp", hp.name, seed), hand, "")
			verdicts := make(map[string]result.Verdict)
			run := func(name string, eng engine.Engine, prog *ir.Program) {
				res := testsuite.Check(t, eng, prog, engine.Query{})
				checks++
				if res.Verdict == result.Unknown {
					unknown++
					return
				}
				verdicts[name] = res.Verdict
			}
			for name, eng := range engines() {
				run(name+" on the product", eng, inst.Prog)
				run(name+" by hand", eng, handProg)
			}
			run("cpa observer", productEngine{cpaengine.New(cfg), inst}, inst.Prog)
			var want result.Verdict
			for _, v := range verdicts {
				want = v
				break
			}
			for _, v := range verdicts {
				if v != want {
					t.Errorf("%s seed %d: verdicts differ: %v\n%s", hp.name, seed, verdicts, plain)
					break
				}
			}
			if want == result.Safe {
				safe++
			} else if want == result.Unsafe {
				unsafe++
			}
		}
		t.Logf("%s: %d programs (%d safe, %d unsafe), %d checks, %d unknown", hp.name, n, safe, unsafe, checks, unknown)
		if safe == 0 || unsafe == 0 {
			t.Errorf("%s: the programs are all safe or all unsafe (%d, %d): the differential shows little", hp.name, safe, unsafe)
		}
	}
}
