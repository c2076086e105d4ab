package boolprog_test

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"boolprog"
	"boolprog/htmlreport"
)

// TestWriteHTML checks the HTML page of an unsafe, a safe and an unknown
// result: the verdict, the source, and (unsafe) the trace the page's
// script steps through, which must be the result's trace.
func TestWriteHTML(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	const safe = "decl g;\nvoid main() begin g := T; assert(g); end\n"
	const conc = "decl g;\nvoid t() begin g := F; end\nvoid main() begin g := T; start_thread t(); assert(g); end\n"
	const concSafe = "decl g;\nvoid t() begin g := g; end\nvoid main() begin g := T; start_thread t(); assert(g); end\n"
	cs1 := boolprog.Bound{Kind: boolprog.ContextSwitches, K: 1}
	tests := []struct {
		name   string
		ctx    context.Context
		src    string
		opts   boolprog.Options
		banner string
		want   []string // on the page too
	}{
		{"unsafe", context.Background(), figure1, boolprog.Options{Filename: "fig1.bp", Target: "R"}, "VERIFICATION FAILED", nil},
		{"safe", context.Background(), safe, boolprog.Options{Filename: "s.bp"}, "VERIFICATION SUCCESSFUL",
			[]string{"Proof: the correctness witness (", `<a href="#L2">main 2:27</a></td><td><code>g</code>`, "contract of main"}},
		{"safe, the witness written", context.Background(), safe, boolprog.Options{Filename: "s.bp", Witness: t.TempDir() + "/w.yml"}, "VERIFICATION SUCCESSFUL",
			[]string{"Proof: the correctness witness ("}},
		{"safe from another engine", context.Background(), safe, boolprog.Options{Filename: "s.bp", Engine: "explicit"}, "VERIFICATION SUCCESSFUL",
			[]string{"the explicit engine has no reachable sets: the invariants come from the summary engine"}},
		{"concurrent safe", context.Background(), concSafe, boolprog.Options{Filename: "c.bp"}, "VERIFICATION SUCCESSFUL",
			[]string{"Proof: the correctness witness (", "configuration invariants)", "t0: main"}},
		{"bounded", context.Background(), concSafe, boolprog.Options{Filename: "c.bp", Engine: "explicit", Bound: cs1}, "VERIFICATION SUCCESSFUL up to 1 context switch",
			[]string{"No certificate: a bounded answer (up to 1 context switch) is no proof"}},
		{"concurrent unsafe, bounded", context.Background(), conc, boolprog.Options{Filename: "c.bp", Engine: "explicit", Bound: boolprog.Bound{Kind: boolprog.ContextSwitches, K: 2}}, "VERIFICATION FAILED",
			[]string{`<p class="bound">bound: the error is reached within 2 context switches (the trace makes 2)</p>`}},
		{"interrupted", cancelled, figure1, boolprog.Options{Filename: "fig1.bp", Timeout: time.Minute}, "VERIFICATION UNKNOWN: interrupted", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := boolprog.Check(tt.ctx, []byte(tt.src), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			var page bytes.Buffer
			if err := res.WriteHTML(&page); err != nil {
				t.Fatal(err)
			}
			html := page.String()
			if !strings.HasPrefix(html, "<!DOCTYPE html>") || !strings.Contains(html, tt.banner) {
				t.Errorf("page without %q:\n%.400s", tt.banner, html)
			}
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("page without %q:\n%s", w, html[:strings.Index(html, "<main>")]+html[strings.Index(html, "</main>"):min(len(html), strings.Index(html, "</main>")+3000)])
				}
			}
			if res.Verdict != boolprog.Unsafe || tt.src != figure1 {
				return
			}
			if !strings.Contains(html, "A(a2, a1);") {
				t.Errorf("page without the source")
			}
			data, err := htmlreport.Extract(page.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			if got := data.Decode(); !reflect.DeepEqual(got, res.Trace) {
				t.Errorf("the page's trace differs from the result's:\n%v\n%v", got, res.Trace)
			}
		})
	}
}
