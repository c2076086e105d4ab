package playground

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"boolprog/gen"
	"boolprog/internal/cdp"
	"boolprog/playground/protocol"
)

var (
	measure    = flag.Bool("measure", false, "check every example in the browser and natively, and log the times and their ratio")
	screenshot = flag.String("screenshot", "", "write a PNG of the page after the checks to this file")
)

// The site is built once per test binary: compiling the module to
// WebAssembly is the cost of these tests.
var built struct {
	once sync.Once
	site *Site
	dir  string
	err  error
}

func buildSite(t *testing.T) *Site {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "boolprog-playground-test-")
		if built.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		built.site, built.err = Build(ctx, Config{Out: built.dir, Root: ".."})
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.site
}

func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// TestBrowser is the end-to-end test: it builds the site, serves it,
// starts a real headless Chromium, loads the page, picks examples, clicks
// Check as a user would, and checks the verdict, the trace and the source
// line highlighted as it steps through the trace.
func TestBrowser(t *testing.T) {
	chromium := cdp.ChromiumPath()
	if chromium == "" {
		msg := "NO CHROMIUM: the playground's browser test did not run (install Debian's chromium, or set BOOLPROG_CHROMIUM)"
		fmt.Fprintln(os.Stderr, "*** "+msg+" ***")
		t.Skip(msg)
	}
	site := buildSite(t)
	// The checker is held back until the test has seen the page while it
	// loads.
	gate := make(chan struct{})
	var gateOnce sync.Once
	openGate := func() { gateOnce.Do(func() { close(gate) }) }
	defer openGate()
	h := Handler(site.Dir)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, ".wasm") {
			select {
			case <-gate:
			case <-time.After(time.Minute):
			}
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()

	limit := 4 * time.Minute
	if *measure {
		limit = 30 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	b := cdp.Start(t, chromium)
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, srv.URL+"/index.html"); err != nil {
		t.Fatal(err)
	}
	// While the checker loads (after the first example is shown, whose
	// note must not hide it), the status says so and Check says why it
	// is disabled.
	if err := p.WaitFor(ctx, `document.getElementById("filename").textContent === "examples/bebop-fig1.bp"`, time.Minute); err != nil {
		t.Fatal(err)
	}
	expectText(ctx, t, p, `document.getElementById("status").textContent`, "loading the checker…")
	expectText(ctx, t, p, `String(document.getElementById("check").disabled) + ": " + document.getElementById("check").title`, "true: the checker is still loading")
	openGate()
	start := time.Now()
	// Loading: the page, then the worker fetches, compiles and starts the
	// checker, which lists the engines.
	if err := p.WaitFor(ctx, `document.body && document.body.dataset.ready === "true" && document.getElementById("engine").options.length > 5`, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := p.Eval(ctx, pageHelpers, nil); err != nil {
		t.Fatal(err)
	}
	var loadMs float64
	if err := p.Eval(ctx, `window.boolprogPlayground.timings.loadMs`, &loadMs); err != nil {
		t.Fatal(err)
	}
	t.Logf("wasm %.1f MiB; page to checker ready %v (the worker's fetch, compile and start: %.0f ms)", float64(site.WasmSize)/(1<<20), time.Since(start).Round(time.Millisecond), loadMs)

	t.Run("figure 1", func(t *testing.T) {
		// The page opens on Figure 1 with its target label.
		var target string
		if err := p.Eval(ctx, `pick("bebop-fig1.bp")`, &target); err != nil {
			t.Fatal(err)
		}
		if target != "R" {
			t.Fatalf("target %q after picking Figure 1, want R", target)
		}
		runCheck(ctx, t, p)
		expectText(ctx, t, p, `document.getElementById("verdict").textContent`, "VERIFICATION FAILED")
		expectText(ctx, t, p, `document.getElementById("verdict").textContent`, "label R reached at line 12 (main)")
		// The trace shows the error step, highlighted in the source.
		expectText(ctx, t, p, `document.getElementById("step-label").textContent`, "step 17 of 17")
		expectText(ctx, t, p, `document.getElementById("step-info").textContent`, "the error: Line 12 main: skip")
		expectText(ctx, t, p, `document.querySelector("#trace-view .line.current .ln").textContent`, "12")
		expectText(ctx, t, p, `document.querySelector("#trace-view .line.current .annot").textContent`, "g=1 h=0")
		expectText(ctx, t, p, `document.getElementById("steps").textContent`, "Line 21 A: A(a2, a1)  State g=1 a1=1 a2=0")
		// Step back to the start, then one step on.
		for _, id := range []string{"first", "next"} {
			if err := p.Click(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		expectText(ctx, t, p, `document.getElementById("step-info").textContent`, "Line 7 main: A(g, h)")
		expectText(ctx, t, p, `document.querySelector("#trace-view .line.current .ln").textContent`, "7")
		expectText(ctx, t, p, `document.getElementById("values").textContent`, "h0 (F)")
		expectText(ctx, t, p, `document.getElementById("output").textContent`, "examples/bebop-fig1.bp:12:8: error: label R reached")
		// The HTML report of the check (boolprog check --format html).
		if err := p.Click(ctx, "html-report"); err != nil {
			t.Fatal(err)
		}
		if err := p.WaitFor(ctx, `window.boolprogPlayground.lastHTMLSize > 10000`, time.Minute); err != nil {
			t.Error(err)
		}
	})

	t.Run("threads", func(t *testing.T) {
		if !hasExample(site, "Threads1") {
			t.Skip("no SATABS/Boppo suite beside the repository (../shared)")
		}
		if err := p.Eval(ctx, `pick("Threads1")`, nil); err != nil {
			t.Fatal(err)
		}
		runCheck(ctx, t, p)
		expectText(ctx, t, p, `document.getElementById("verdict").textContent`, "VERIFICATION FAILED")
		expectText(ctx, t, p, `document.getElementById("step-info").textContent`, "the error: <switch> Thread 2 Line 7 t2: assert(g0)")
	})

	t.Run("editing", func(t *testing.T) {
		// An edit makes the text the user's own program: Figure 1's file
		// name and target label R go with the example.
		if err := p.Eval(ctx, `pick("bebop-fig1.bp")`, nil); err != nil {
			t.Fatal(err)
		}
		edit := `(() => { const ta = document.getElementById("source"); ta.value = "decl g;\nvoid main() begin\n  g := T;\n  assert(g);\nend\n"; ta.dispatchEvent(new Event("input")); })()`
		if err := p.Eval(ctx, edit, nil); err != nil {
			t.Fatal(err)
		}
		expectText(ctx, t, p, `document.getElementById("filename").textContent + " target=[" + document.getElementById("target").value + "]"`, "input.bp target=[]")
		runCheck(ctx, t, p)
		expectText(ctx, t, p, `document.getElementById("verdict").textContent`, "VERIFICATION SUCCESSFUL")
		// Choosing "(your own program)" does the same, and keeps a
		// target the user typed.
		if err := p.Eval(ctx, `pick("bebop-fig1.bp")`, nil); err != nil {
			t.Fatal(err)
		}
		own := `(() => { const s = document.getElementById("example"); s.value = ""; s.dispatchEvent(new Event("change")); return document.getElementById("filename").textContent + " target=[" + document.getElementById("target").value + "]"; })()`
		expectText(ctx, t, p, own, "input.bp target=[]")
		typed := `(() => { pick("bebop-fig1.bp"); document.getElementById("target").value = "L"; const ta = document.getElementById("source"); ta.value += " "; ta.dispatchEvent(new Event("input")); return document.getElementById("target").value; })()`
		expectText(ctx, t, p, typed, "L")
		if err := p.Eval(ctx, `document.getElementById("target").value = ""`, nil); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("input error", func(t *testing.T) {
		set := `(() => { const ta = document.getElementById("source"); ta.value = "decl g;\nmain() begin\n  x := g;\nend\n"; ta.dispatchEvent(new Event("input")); })()`
		if err := p.Eval(ctx, set, nil); err != nil {
			t.Fatal(err)
		}
		runCheck(ctx, t, p)
		expectText(ctx, t, p, `document.getElementById("verdict").textContent`, "input error")
		expectText(ctx, t, p, `document.getElementById("diagnostics").textContent`, ":3:3: undeclared variable x")
		expectText(ctx, t, p, `document.querySelector("#gutter .bad").textContent`, "3")
	})

	t.Run("timeout", func(t *testing.T) {
		// A program whose search takes minutes: the page's
		// timeout ends it with UNKNOWN, although WebAssembly cannot
		// preempt the search (the context polls the clock).
		src := hardProgram(t)
		set := fmt.Sprintf(`(() => { const ta = document.getElementById("source"); ta.value = %q; ta.dispatchEvent(new Event("input")); document.getElementById("engine").value = "summary"; document.getElementById("timeout").value = "0.5"; })()`, src)
		if err := p.Eval(ctx, set, nil); err != nil {
			t.Fatal(err)
		}
		runCheck(ctx, t, p)
		expectText(ctx, t, p, `document.getElementById("verdict").textContent`, "VERIFICATION UNKNOWN: timeout (500ms)")
		if err := p.Eval(ctx, `(() => { document.getElementById("engine").value = ""; document.getElementById("timeout").value = "10"; })()`, nil); err != nil {
			t.Fatal(err)
		}
	})

	if *measure {
		measureExamples(ctx, t, p, site)
	}
	if *screenshot != "" {
		if err := p.Eval(ctx, `pick("bebop-fig1.bp")`, nil); err == nil {
			runCheck(ctx, t, p)
			p.Click(ctx, "first")
			p.Click(ctx, "next")
			p.Click(ctx, "next")
			p.Click(ctx, "next")
		}
		if err := p.Screenshot(ctx, *screenshot); err != nil {
			t.Error(err)
		}
	}
}

// The page's helpers for tests, defined in the page by eval: pick selects
// an example by name (as a user does with the select) and returns the
// target label it set.
const pageHelpers = `window.pick = (name) => {
  const s = document.getElementById("example");
  const o = [...s.options].find((o) => o.textContent.split(" ")[0] === name);
  if (!o) throw new Error("no example " + name);
  s.value = o.value;
  s.dispatchEvent(new Event("change"));
  return document.getElementById("target").value;
}`

// runCheck clicks Check and waits for the answer.
func runCheck(ctx context.Context, t *testing.T, p *cdp.Page) {
	t.Helper()
	var before int
	if err := p.Eval(ctx, `window.boolprogPlayground.timings.checks.length`, &before); err != nil {
		t.Fatal(err)
	}
	if err := p.Click(ctx, "check"); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitFor(ctx, fmt.Sprintf(`window.boolprogPlayground.timings.checks.length > %d`, before), 2*time.Minute); err != nil {
		t.Fatal(err)
	}
}

// expectText fails unless the string expr evaluates to contains want.
func expectText(ctx context.Context, t *testing.T, p *cdp.Page, expr, want string) {
	t.Helper()
	var got string
	if err := p.Eval(ctx, expr, &got); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got, want) {
		t.Errorf("%s = %q, want it to contain %q", expr, cdp.Tail(got, 500), want)
	}
}

func hasExample(site *Site, name string) bool {
	b, err := os.ReadFile(filepath.Join(site.Dir, "examples.json"))
	if err != nil {
		return false
	}
	var exs []Example
	json.Unmarshal(b, &exs)
	for _, ex := range exs {
		if ex.Name == name {
			return true
		}
	}
	return false
}

// hardProgram is a program that no engine decides in 30 s natively
// (bench/RESULTS.md: g20l12-s3 of gen.HardSet, unknown in every reordering
// mode).
func hardProgram(t *testing.T) string {
	for _, h := range gen.HardSet() {
		if h.Name == "g20l12-s3" {
			return h.Source()
		}
	}
	t.Fatal("no program g20l12-s3 in gen.HardSet")
	return ""
}

// measureExamples checks every example in the browser and natively (the
// same protocol.Check, in this process) and logs the times and ratios:
// the time of the check itself (Response.CheckMS in the browser), without
// the worker's messages.
func measureExamples(ctx context.Context, t *testing.T, p *cdp.Page, site *Site) {
	b, err := os.ReadFile(filepath.Join(site.Dir, "examples.json"))
	if err != nil {
		t.Fatal(err)
	}
	var exs []Example
	if err := json.Unmarshal(b, &exs); err != nil {
		t.Fatal(err)
	}
	var totalWasm, totalNative float64
	var ratios []float64
	for _, ex := range exs {
		req := protocol.Request{Source: ex.Source, Filename: ex.File, Target: ex.Target, TimeoutMS: 60000}
		reqJSON, _ := json.Marshal(req)
		expr := fmt.Sprintf(`(async () => { const r = await new Promise((res) => { const w = window.boolprogPlayground.worker; const id = 1e9 + Math.random(); const h = (e) => { if (e.data.id === id) { w.removeEventListener("message", h); res(e.data); } }; w.addEventListener("message", h); w.postMessage({id, request: %s}); }); return {ms: r.response.check_ms, exit_code: r.response.exit_code}; })()`, reqJSON)
		// The best of up to 3 runs on each side (1 for runs over a
		// second), on a machine shared with other work.
		nativeMs, wasmMs := math.Inf(1), math.Inf(1)
		var nativeExit, wasmExit int
		for run := 0; run < 3 && (run == 0 || nativeMs < 1000); run++ {
			t0 := time.Now()
			resp := protocol.Check(ctx, &req)
			nativeMs = min(nativeMs, float64(time.Since(t0).Microseconds())/1000)
			nativeExit = resp.ExitCode
			var out struct {
				Ms       float64 `json:"ms"`
				ExitCode int     `json:"exit_code"`
			}
			if err := p.Eval(ctx, expr, &out); err != nil {
				t.Fatal(err)
			}
			wasmMs = min(wasmMs, out.Ms)
			wasmExit = out.ExitCode
		}
		if wasmExit != nativeExit {
			t.Errorf("%s: exit %d in the browser, %d natively", ex.Name, wasmExit, nativeExit)
		}
		totalWasm += wasmMs
		totalNative += nativeMs
		if nativeMs >= 1 {
			ratios = append(ratios, wasmMs/nativeMs)
		}
		t.Logf("%-28s exit %2d  wasm %9.1f ms  native %9.1f ms  ratio %5.1f", ex.Name, wasmExit, wasmMs, nativeMs, wasmMs/max(nativeMs, 0.001))
	}
	sort.Float64s(ratios)
	med := 0.0
	if len(ratios) > 0 {
		med = ratios[len(ratios)/2]
	}
	t.Logf("%d examples: wasm %.0f ms, native %.0f ms in all (ratio %.1f); median ratio %.1f over the %d that take >= 1 ms natively",
		len(exs), totalWasm, totalNative, totalWasm/totalNative, med, len(ratios))
}
