package htmlreport

import (
	"context"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boolprog/engine"
	"boolprog/internal/cdp"
	"boolprog/internal/testsuite"
	"boolprog/result"
)

var shots = flag.String("screenshots", filepath.Join(os.TempDir(), "boolprog-htmlreport-screenshots"), "the directory TestBrowser writes its screenshots of the pages to")

// longTrace is a program whose trace is long and whose main is a tall
// graph, under a tall state pane (30 globals): the current node of the
// last step is far below the first screenful of the side pane.
func longTrace() string {
	var b strings.Builder
	b.WriteString("decl")
	for i := range 30 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " g%d", i)
	}
	b.WriteString(";\nvoid main() begin\n")
	for i := range 60 {
		fmt.Fprintf(&b, "  g%d := !g%d;\n", i%30, (i+1)%30)
	}
	b.WriteString("  assert(F);\nend\n")
	return b.String()
}

// TestBrowser looks at the pages in a real browser (headless Chromium):
// each page loads without a script error, the SUCCESSFUL page shows its
// proof, a bounded concurrent FAILED page its bound line, the UNKNOWN page
// without a program says so under a heading of its own, and stepping to
// the end of a long trace scrolls the control-flow pane to the current
// node. The screenshots are written to -screenshots.
func TestBrowser(t *testing.T) {
	chromium := cdp.ChromiumPath()
	if chromium == "" {
		msg := "NO CHROMIUM: the HTML report's browser test did not run (install Debian's chromium, or set BOOLPROG_CHROMIUM)"
		fmt.Fprintln(os.Stderr, "*** "+msg+" ***")
		t.Skip(msg)
	}
	if err := os.MkdirAll(*shots, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	pages := map[string]*Page{}
	fig1, _ := check(t, examples[0])
	pages["fig1"] = fig1
	safe, _ := check(t, examples[1])
	safe.Proof = &Proof{Title: "the correctness witness (2 invariants and contracts)", Note: "The certificate that check --witness writes.",
		Items: []ProofItem{{Where: "main 5:3", Line: 5, Text: "(g = \\old(g))"}, {Where: "contract of main", Line: 3, Text: "requires T; ensures g"}}}
	pages["safe"] = safe
	pages["unknown"] = &Page{File: "big.bp", Result: result.NewUnknown("summary", "timeout (1s)")}
	conc := "decl g;\nvoid t() begin g := F; end\nvoid main() begin g := T; start_thread t(); assert(g); end\n"
	cp := testsuite.Lower(t, "c.bp", conc, "")
	cres := testsuite.Check(t, newEngine(t, "explicit"), cp, engine.Query{Bound: result.Bound{Kind: result.ContextSwitches, K: 2}})
	pages["bounded"] = &Page{File: "c.bp", Source: []byte(conc), Program: cp, Result: cres, Replayed: true}
	long := longTrace()
	lp := testsuite.Lower(t, "long.bp", long, "")
	lres := testsuite.Check(t, newEngine(t, "summary"), lp, engine.Query{})
	pages["long"] = &Page{File: "long.bp", Source: []byte(long), Program: lp, Result: lres, Replayed: true}
	for name, pg := range pages {
		if err := os.WriteFile(filepath.Join(dir, name+".html"), []byte(render(t, pg)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer srv.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	b := cdp.Start(t, chromium)
	p, err := b.NewPage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	open := func(t *testing.T, name string) {
		t.Helper()
		if err := p.Navigate(ctx, srv.URL+"/"+name+".html"); err != nil {
			t.Fatal(err)
		}
		if err := p.WaitFor(ctx, `document.readyState === "complete" && !!document.querySelector("footer")`, 30*time.Second); err != nil {
			t.Fatal(err)
		}
	}
	eval := func(t *testing.T, expr string, out any) {
		t.Helper()
		if err := p.Eval(ctx, expr, out); err != nil {
			t.Fatal(err)
		}
	}
	has := func(t *testing.T, sel, want string) {
		t.Helper()
		var got string
		eval(t, fmt.Sprintf(`(document.querySelector(%q) || {innerText: "(no %s)"}).innerText`, sel, sel), &got)
		if !strings.Contains(got, want) {
			t.Errorf("%s shows %q, want %q", sel, cdp.Tail(got, 400), want)
		}
	}
	shot := func(t *testing.T, name string) {
		t.Helper()
		path := filepath.Join(*shots, name+".png")
		if err := p.Screenshot(ctx, path); err != nil {
			t.Error(err)
		}
		t.Logf("screenshot: %s", path)
	}
	t.Run("failed", func(t *testing.T) {
		open(t, "fig1")
		has(t, "#pos", "step 1 of")
		shot(t, "fig1")
	})
	t.Run("successful", func(t *testing.T) {
		open(t, "safe")
		has(t, "#proof h2", "Proof: the correctness witness (2 invariants and contracts)")
		has(t, "#proof table", "main 5:3\t(g = \\old(g))")
		shot(t, "safe")
	})
	t.Run("bounded", func(t *testing.T) {
		open(t, "bounded")
		has(t, "header .bound", "bound: the error is reached within 2 context switches")
		shot(t, "bounded")
	})
	t.Run("unknown", func(t *testing.T) {
		open(t, "unknown")
		// The message sits in the source pane, under no empty heading:
		// the control-flow pane, with nothing to draw, is not there.
		has(t, "#source", "The program was not read.")
		var cfg bool
		eval(t, `!!document.getElementById("cfg")`, &cfg)
		if cfg {
			t.Error("an empty control-flow pane (a heading over nothing)")
		}
		var pad float64
		eval(t, `parseFloat(getComputedStyle(document.querySelector("#source .none")).paddingLeft)`, &pad)
		if pad < 8 {
			t.Errorf("the message is flush with the pane's edge (padding %vpx)", pad)
		}
		shot(t, "unknown")
	})
	t.Run("long trace", func(t *testing.T) {
		open(t, "long")
		if err := p.Click(ctx, "last"); err != nil {
			t.Fatal(err)
		}
		// The current node is within the visible part of its drawing
		// and of the side pane.
		var r struct {
			In  bool
			Why string
		}
		eval(t, `(() => {
  const n = document.querySelector(".cfa.show .node.cur");
  if (!n) return {In: false, Why: "no current node"};
  const nr = n.getBoundingClientRect();
  for (const c of [document.querySelector(".cfa.show"), document.querySelector("aside")]) {
    const cr = c.getBoundingClientRect();
    if (nr.top < cr.top || nr.bottom > cr.bottom) return {In: false, Why: "node " + nr.top + ".." + nr.bottom + " outside " + (c.className || c.tagName) + " " + cr.top + ".." + cr.bottom};
  }
  return {In: true};
})()`, &r)
		if !r.In {
			t.Errorf("the current node is not in view: %s", r.Why)
		}
		shot(t, "long")
	})
	if logs := b.Logs(); len(logs) > 0 {
		for _, l := range logs {
			if strings.Contains(l, "exceptionThrown") {
				t.Errorf("a script error: %s", l)
			}
		}
	}
}
