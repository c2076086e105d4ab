package htmlreport

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	_ "boolprog/engine/conc"     // conc-eager, conc-lazy
	_ "boolprog/engine/concfix"  // conc-fix
	_ "boolprog/engine/cpa"      // cpa
	_ "boolprog/engine/explicit" // explicit
	_ "boolprog/engine/fixpoint" // ef, efopt
	_ "boolprog/engine/pushdown" // post*, pre*
	_ "boolprog/engine/summary"  // summary
	"boolprog/gen"
	"boolprog/internal/testsuite"
	"boolprog/ir"
	"boolprog/result"
)

var update = flag.Bool("update", false, "rewrite the golden pages in testdata/")

const threads3 = "../../shared/benchmarks/satabs-boppo/Threads3/main.bp"

// example is a program to report on.
type example struct {
	name   string // golden file name (without .html)
	path   string // the program
	shown  string // the file name the page shows
	target string
	engine string
	bound  result.Bound
}

var examples = []example{
	{"fig1", "../examples/bebop-fig1.bp", "examples/bebop-fig1.bp", "R", "summary", result.Bound{}},
	{"safe", "testdata/safe.bp", "testdata/safe.bp", "", "summary", result.Bound{}},
	{"threads3", threads3, "satabs-boppo/Threads3/main.bp", "", "conc-eager", result.Bound{}},
	{"escape", "testdata/escape.bp", "testdata/escape.bp", "", "summary", result.Bound{}},
}

// load reads and lowers a program; ok is false (and the test skipped)
// when it is one of the shared benchmarks and they are not there.
func load(t *testing.T, path, target string) ([]byte, *ir.Program) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		if strings.Contains(path, "shared/benchmarks") {
			t.Skipf("the shared benchmarks are not beside the repository: %v", err)
		}
		t.Fatal(err)
	}
	return src, testsuite.Lower(t, path, string(src), target)
}

func newEngine(t *testing.T, name string) engine.Engine {
	t.Helper()
	info, ok := engine.Lookup(name)
	if !ok {
		t.Fatalf("no engine %s", name)
	}
	eng, err := info.New()
	if err != nil {
		t.Fatal(err)
	}
	return eng
}

// check runs the engine and judges its answer as the CLI does (an unsafe
// trace replays), and returns the page for it with the statistics
// stripped of times, so that pages can be compared with goldens.
func check(t *testing.T, ex example) (*Page, *result.Result) {
	t.Helper()
	src, p := load(t, ex.path, ex.target)
	res := testsuite.Check(t, newEngine(t, ex.engine), p, engine.Query{Bound: ex.bound})
	res.Stats = result.Stats{States: res.Stats.States}
	return &Page{File: ex.shown, Source: src, Program: p, Result: res, Replayed: res.Verdict == result.Unsafe,
		Checked: "checked: as the example says"}, res
}

func render(t *testing.T, pg *Page) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, pg); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestGolden pins the pages of small examples: Figure 1 of the Bebop paper
// (label R), a safe program with a loop, a concurrent SATABS test, and a
// program whose names and comments need escaping.
func TestGolden(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			pg, _ := check(t, ex)
			if ex.name == "safe" {
				// What the root package lists from the correctness
				// witness (boolprog's html_test.go checks it's the
				// witness's).
				pg.Proof = &Proof{Title: "the correctness witness (2 invariants and contracts)", Note: "The certificate that check --witness FILE.yml writes.",
					Items: []ProofItem{{Where: "main 7:3", Line: 7, Text: "(x = \\old(x))"}, {Where: "contract of flip", Line: 15, Text: "requires T; ensures (x != \\old(x))"}}, Omitted: 3}
			}
			page := render(t, pg)
			if err := wellFormed(page); err != nil {
				t.Errorf("the page is not well-formed: %v", err)
			}
			// The goldens pin what the page says about the program; the
			// style sheet and the script are the same on every page.
			if !strings.Contains(page, pageCSS) || !strings.Contains(page, pageJS) {
				t.Fatal("the page does not hold page.css and page.js verbatim")
			}
			page = strings.Replace(page, pageCSS, "/* page.css */", 1)
			page = strings.Replace(page, pageJS, "/* page.js */", 1)
			golden := filepath.Join("testdata", ex.name+".html")
			if *update {
				if err := os.WriteFile(golden, []byte(page), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if page != string(want) {
				t.Errorf("the page differs from %s (go test -update rewrites it); first difference at line %d", golden, firstDiff(page, string(want)))
			}
		})
	}
}

func firstDiff(a, b string) int {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return i + 1
		}
	}
	return min(len(al), len(bl)) + 1
}

// TestTraceData checks that the trace embedded in the page is the replayed
// trace, step by step, and that callers and changed values are right.
func TestTraceData(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			pg, res := check(t, ex)
			d, err := Extract([]byte(render(t, pg)))
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != result.Unsafe {
				if len(d.Steps) != 0 {
					t.Errorf("a %s page with %d steps", res.Verdict, len(d.Steps))
				}
				return
			}
			want := res.Trace.Steps
			for i := range want {
				if want[i].Values == nil {
					want[i].Values = []result.Value{}
				}
			}
			got := d.Decode()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("the page's trace differs from the replayed one:\ngot  %+v\nwant %+v", got, want)
			}
			for i, s := range d.Steps {
				if s.Caller >= i || (s.Depth == 0) != (s.Caller < 0) {
					t.Errorf("step %d at depth %d has caller %d", i+1, s.Depth, s.Caller)
				}
				if s.Caller >= 0 && (d.Steps[s.Caller].Depth != s.Depth-1 || d.Steps[s.Caller].Thread != s.Thread) {
					t.Errorf("step %d: caller %d is not the call one level up in its thread", i+1, s.Caller+1)
				}
			}
		})
	}
	// Known changes: in Threads3, thread 1 sets g0 to F, which step 6
	// (thread 2, the same statement) sees changed; its local is fresh.
	pg, _ := check(t, examples[2])
	d, err := Extract([]byte(render(t, pg)))
	if err != nil {
		t.Fatal(err)
	}
	if got := changed(d, 5); !reflect.DeepEqual(got, []string{"g0"}) {
		t.Errorf("Threads3 step 6: changed %v, want [g0]", got)
	}
	if got := changed(d, 4); len(got) != 0 {
		t.Errorf("Threads3 step 5 (a fresh thread, g0 unchanged): changed %v, want none", got)
	}
	// Figure 1: step 6 (g := a2 in the inner A) ... step 7 returns to the
	// outer A with a1, a2 unchanged there; step 8 (main) sees g changed
	// only if it was.
	pg, _ = check(t, examples[0])
	d, err = Extract([]byte(render(t, pg)))
	if err != nil {
		t.Fatal(err)
	}
	if got := changed(d, 6); len(got) != 0 {
		t.Errorf("Figure 1 step 7: changed %v, want none (g := a2 assigned g its value)", got)
	}
}

// changed returns the names marked changed at step i.
func changed(d *TraceData, i int) []string {
	var out []string
	for _, v := range d.Steps[i].Values {
		if v&2 != 0 {
			out = append(out, d.Names[v/4])
		}
	}
	return out
}

// TestEscaping checks that the program's text, names and comments reach
// the page only escaped, in the source, the graphs and the trace data.
func TestEscaping(t *testing.T) {
	pg, _ := check(t, examples[3])
	page := render(t, pg)
	if err := wellFormed(page); err != nil {
		t.Fatal(err)
	}
	for _, raw := range []string{`<script>alert`, `</div> &`, `<b>not bold</b>`, `{a<b}`, `{c&d}`} {
		if strings.Contains(page, raw) {
			t.Errorf("the page contains %q unescaped", raw)
		}
	}
	for _, esc := range []string{`&lt;script&gt;alert(&#34;boo&#34;)&lt;/script&gt; &amp; &amp;amp;`, `{a&lt;b}`, `{c&amp;d}`} {
		if !strings.Contains(page, esc) {
			t.Errorf("the page lacks %q", esc)
		}
	}
	d, err := Extract([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	if d.Names[0] != "a<b" {
		t.Errorf("the trace data's first name is %q, want a<b", d.Names[0])
	}
}

// TestWellFormedRejects makes sure the checker of well-formedness can fail.
func TestWellFormedRejects(t *testing.T) {
	for _, bad := range []string{
		`<p>a < b</p>`, `<p>a & b</p>`, `<p><b>x</p></b>`, `<div>`, `<p title="a<b">x</p>`, `<script>x</p>`,
	} {
		if wellFormed(bad) == nil {
			t.Errorf("wellFormed accepts %q", bad)
		}
	}
	if err := wellFormed(`<!DOCTYPE html><p title="a &amp; b">x &lt; y<br><svg><path d="M0 0"/></svg></p><script>if (a < b) {}</script>`); err != nil {
		t.Errorf("wellFormed rejects a good page: %v", err)
	}
}

// TestEveryEngine writes the page of every registered engine on a
// sequential and a concurrent program: each is well-formed, and an unsafe
// page carries the trace.
func TestEveryEngine(t *testing.T) {
	progs := []example{
		{name: "fig1", path: "../examples/bebop-fig1.bp", target: "R"},
		{name: "safe", path: "testdata/safe.bp"},
		{name: "threads3", path: threads3},
	}
	for _, info := range engine.Engines() {
		for _, ex := range progs {
			t.Run(info.Name()+"/"+ex.name, func(t *testing.T) {
				src, p := load(t, ex.path, ex.target)
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				res := testsuite.CheckContext(ctx, t, newEngine(t, info.Name()), p, engine.Query{})
				page := render(t, &Page{File: ex.path, Source: src, Program: p, Result: res, Replayed: true})
				if err := wellFormed(page); err != nil {
					t.Fatalf("not well-formed: %v", err)
				}
				if !strings.Contains(page, "VERIFICATION "+map[result.Verdict]string{result.Safe: "SUCCESSFUL", result.Unsafe: "FAILED", result.Unknown: "UNKNOWN"}[res.Verdict]) {
					t.Errorf("the page lacks the verdict %s", res.Banner())
				}
				d, err := Extract([]byte(page))
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict == result.Unsafe && !res.TraceCut && len(d.Steps) != res.Trace.Len() {
					t.Errorf("the page has %d steps, the trace %d", len(d.Steps), res.Trace.Len())
				}
			})
		}
	}
}

// TestSatabsSuite writes the page of every program of the SATABS suite
// (explicit for the concurrent ones, which answers UNKNOWN for some, as
// the CLI's first try does; summary for the others): each is well-formed
// and carries the whole replayed trace.
func TestSatabsSuite(t *testing.T) {
	cases := testsuite.SatabsBoppoOrSkip(t)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			src, p := load(t, c.File, c.Target)
			name := "summary"
			if p.Concurrent {
				name = "explicit"
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			res := testsuite.CheckContext(ctx, t, newEngine(t, name), p, engine.Query{})
			page := render(t, &Page{File: c.File, Source: src, Program: p, Result: res, Replayed: true})
			if err := wellFormed(page); err != nil {
				t.Fatalf("not well-formed: %v", err)
			}
			d, err := Extract([]byte(page))
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict == result.Unsafe && len(d.Steps) != res.Trace.Len() {
				t.Errorf("%d steps on the page, %d in the trace", len(d.Steps), res.Trace.Len())
			}
		})
	}
}

// TestNoProgram: a run cut before the program was read still gets a page.
func TestNoProgram(t *testing.T) {
	page := render(t, &Page{File: "big.bp", Result: result.NewUnknown("summary", "timeout (1s)")})
	if err := wellFormed(page); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"UNKNOWN", "VERIFICATION UNKNOWN: timeout (1s)", `<main class="unread">`, "The program was not read."} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="cfg"`) {
		t.Error("a control-flow pane without a program")
	}
}

// TestTraceCut: an error established without a complete trace gets a
// page with the note, once, and no trace.
func TestTraceCut(t *testing.T) {
	src, p := load(t, "../examples/bebop-fig1.bp", "R")
	res := &result.Result{Verdict: result.Unsafe, Engine: "summary", TraceCut: true, Reason: "timeout",
		Property: result.PropertyAt(p, p.Procs[0], p.Procs[0].Labels["R"][0])}
	page := render(t, &Page{File: "fig1.bp", Source: src, Program: p, Result: res, Note: res.Note() + " (30s)"})
	if err := wellFormed(page); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(page, "the trace was cut: timeout"); n != 1 {
		t.Errorf("the note is on the page %d times, want once", n)
	}
	for _, want := range []string{"VERIFICATION FAILED", "label R reached at line 12", "No trace to show (see the note above)."} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if strings.Contains(page, `id="bar"`) {
		t.Error("a stepper without a trace")
	}
}

// TestLimits: the page of the Bebop template T(400) (5,205 locations, a
// trace of 13,204 steps) draws at most Limits.Nodes locations and says
// which procedures it left out; a procedure over Limits.ProcNodes is left
// out with a note.
func TestLimits(t *testing.T) {
	p := testsuite.Lower(t, "T400.bp", gen.BebopTemplate(400), "reach")
	src := []byte(gen.BebopTemplate(400))
	res := testsuite.Check(t, newEngine(t, "summary"), p, engine.Query{})
	start := time.Now()
	page := render(t, &Page{File: "T400.bp", Source: src, Program: p, Result: res, Replayed: true})
	t.Logf("T(400): %d locations, %d trace steps: page of %d bytes in %v", locations(p), res.Trace.Len(), len(page), time.Since(start))
	if n := strings.Count(page, `<g class="node`); n > DefaultLimits.Nodes || n == 0 {
		t.Errorf("%d locations drawn, want 1 to %d", n, DefaultLimits.Nodes)
	}
	if !strings.Contains(page, "Not drawn: ") || !strings.Contains(page, "the page draws at most 1500") {
		t.Errorf("no note on the graphs left out")
	}
	// The trace's procedures come first: main and level1 are drawn.
	for _, id := range []string{`id="cfa0"`, `id="cfa1"`} {
		if !strings.Contains(page, id) {
			t.Errorf("no %s: the trace's first procedures must be drawn", id)
		}
	}
	if len(page) > 4<<20 {
		t.Errorf("the page has %d bytes; keep it under 4 MiB", len(page))
	}
	if err := wellFormed(page); err != nil {
		t.Error(err)
	}

	pg, _ := check(t, examples[0])
	pg.Limits = Limits{Nodes: 100, ProcNodes: 8}
	page = render(t, pg)
	if !strings.Contains(page, "Not drawn, larger than 8 locations: main (") {
		t.Errorf("no note on main, larger than the limit")
	}
}

func locations(p *ir.Program) int {
	n := 0
	for _, pr := range p.Procs {
		n += len(pr.Locations)
	}
	return n
}

// TestLayout checks the drawings of many procedures: no two boxes overlap,
// no label covers a box or another label, everything lies inside the
// drawing, and every edge has a path.
func TestLayout(t *testing.T) {
	progs := map[string]*ir.Program{
		"fig1": testsuite.LowerFile(t, "../examples/bebop-fig1.bp", "R"),
		"safe": testsuite.LowerFile(t, "testdata/safe.bp", ""),
		"T(6)": testsuite.Lower(t, "T6.bp", gen.BebopTemplate(6), "reach"),
	}
	for seed := int64(1); seed <= 30; seed++ {
		progs[fmt.Sprintf("random %d", seed)] = testsuite.Lower(t, "r.bp", gen.Random(seed, gen.Default()), "")
	}
	if cases, err := testsuite.SatabsBoppo(); err == nil {
		for _, c := range cases {
			progs[c.Name] = testsuite.LowerFile(t, c.File, c.Target)
		}
	}
	procs := 0
	for name, p := range progs {
		for _, proc := range p.Procs {
			procs++
			if err := checkLayout(Layout(p, proc)); err != nil {
				t.Errorf("%s, procedure %s: %v", name, proc.Name, err)
			}
		}
	}
	t.Logf("%d procedures of %d programs laid out", procs, len(progs))
	// A straight line has no crossings, and a diamond neither.
	p := testsuite.Lower(t, "d.bp", "decl g;\nvoid main() begin\n if (g) then g := F; else g := T; fi\n g := !g;\nend\n", "")
	if g := Layout(p, p.Procs[0]); g.Crossings != 0 {
		t.Errorf("a diamond with %d crossings", g.Crossings)
	}
}

func checkLayout(g *Graph) error {
	type box struct {
		what           string
		x0, y0, x1, y1 float64
	}
	var boxes []box
	for i := range g.Nodes {
		n := &g.Nodes[i]
		x0, y0, x1, y1 := n.Box()
		boxes = append(boxes, box{fmt.Sprintf("location %d", n.Loc), x0, y0, x1, y1})
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		if !strings.HasPrefix(e.Path, "M") {
			return fmt.Errorf("edge %d has no path", e.ID)
		}
		if e.Text != "" {
			x0, y0, x1, y1 := e.LabelBox()
			boxes = append(boxes, box{fmt.Sprintf("label of edge %d", e.ID), x0, y0, x1, y1})
		}
	}
	for i, a := range boxes {
		if a.x0 < 0 || a.y0 < 0 || a.x1 > g.Width+0.01 || a.y1 > g.Height+0.01 {
			return fmt.Errorf("%s [%.1f,%.1f %.1f,%.1f] outside the drawing %.1f x %.1f", a.what, a.x0, a.y0, a.x1, a.y1, g.Width, g.Height)
		}
		for _, b := range boxes[i+1:] {
			if a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1 {
				return fmt.Errorf("%s [%.1f,%.1f %.1f,%.1f] overlaps %s [%.1f,%.1f %.1f,%.1f]", a.what, a.x0, a.y0, a.x1, a.y1, b.what, b.x0, b.y0, b.x1, b.y1)
			}
		}
	}
	return nil
}

// TestPropertyText: the page names the property violated as the text
// output's error line does; an observer's violation said "assertion lock()
// fails".
func TestPropertyText(t *testing.T) {
	obs := &result.Violation{Property: "locking", Spec: "locking.spec", SpecLine: 6, State: "locked", Message: "lock acquired twice without an unlock"}
	for _, c := range []struct {
		name string
		pr   *result.Property
		want string
	}{
		{"assertion", &result.Property{Kind: result.PropertyAssertion, Text: "assert(g)", Proc: "main", Line: 6, Col: 3},
			"assertion assert(g) fails at line 6, column 3 (main)"},
		{"label", &result.Property{Kind: result.PropertyLabel, Label: "R", Text: "skip", Proc: "main", Line: 12, Col: 8},
			"label R reached at line 12, column 8 (main)"},
		{"observer", &result.Property{Kind: result.PropertyObserver, Text: "lock()", Proc: "main", Line: 36, Col: 5, Observer: obs},
			"property locking violated: lock acquired twice without an unlock (observer locking in state locked, at lock(); locking.spec:6) at line 36, column 5 (main)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := &result.Result{Verdict: result.Unsafe, Engine: "summary", TraceCut: true, Reason: "timeout", Property: c.pr}
			page := render(t, &Page{File: "p.bp", Result: res})
			if err := wellFormed(page); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(page, c.want) {
				t.Errorf("the page lacks %q", c.want)
			}
			if c.pr.Kind != result.PropertyAssertion && strings.Contains(page, "fails at line") {
				t.Error("the page calls it a failing assertion")
			}
		})
	}
}
