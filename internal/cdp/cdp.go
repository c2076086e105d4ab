// Package cdp is a minimal client of the Chrome DevTools Protocol for the
// browser tests (the playground's, the HTML report's): it starts a
// headless Chromium, opens pages, evaluates script, clicks, and takes
// screenshots, over the pipe that --remote-debugging-pipe opens (the
// browser reads commands on its file descriptor 3 and writes replies and
// events on 4, each message JSON followed by a NUL byte): no WebSocket, no
// driver, only the standard library.
package cdp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Browser is a running headless Chromium.
type Browser struct {
	cmd     *exec.Cmd
	toB     io.WriteCloser
	stderr  *bytes.Buffer
	mu      sync.Mutex
	nextID  int
	pending map[int]chan cdpMessage
	logs    []string // console messages and exceptions of the page
	done    chan struct{}
}

type cdpMessage struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// ChromiumPath returns the browser to test with: $BOOLPROG_CHROMIUM, or
// the first of the usual names found.
func ChromiumPath() string {
	if p := os.Getenv("BOOLPROG_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Start starts a headless Chromium with its own profile in a
// temporary directory.
func Start(t testing.TB, path string) *Browser {
	t.Helper()
	profile := t.TempDir()
	cmd := exec.Command(path,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--window-size=1280,900", "--remote-debugging-pipe",
		"--user-data-dir="+profile, "about:blank")
	toBrowserR, toBrowserW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromBrowserR, fromBrowserW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.ExtraFiles = []*os.File{toBrowserR, fromBrowserW} // fd 3 and 4
	b := &Browser{cmd: cmd, toB: toBrowserW, stderr: &bytes.Buffer{}, pending: map[int]chan cdpMessage{}, done: make(chan struct{})}
	cmd.Stderr = &lockedWriter{w: b.stderr, mu: &b.mu}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	toBrowserR.Close()
	fromBrowserW.Close()
	go b.read(fromBrowserR)
	t.Cleanup(func() {
		// Closing the pipe asks the browser to quit, which ends its
		// helper processes too; kill it if it has not within 10 s.
		b.toB.Close()
		exited := make(chan struct{})
		go func() { b.cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			b.cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			b.mu.Lock()
			t.Logf("chromium's stderr:\n%s\npage console:\n%s", Tail(b.stderr.String(), 4000), strings.Join(b.logs, "\n"))
			b.mu.Unlock()
		}
	})
	return b
}

// Logs returns the page console's messages and exceptions so far.
func (b *Browser) Logs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.logs...)
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Tail returns the last n bytes of s, marked with "..." when cut.
func Tail(s string, n int) string {
	if len(s) > n {
		return "..." + s[len(s)-n:]
	}
	return s
}

// read dispatches the browser's messages: replies to their callers,
// console and exception events to logs.
func (b *Browser) read(r io.Reader) {
	defer close(b.done)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m cdpMessage
		if json.Unmarshal(bytes.TrimSuffix(line, []byte{0}), &m) != nil {
			continue
		}
		b.mu.Lock()
		if m.ID != 0 {
			if ch, ok := b.pending[m.ID]; ok {
				delete(b.pending, m.ID)
				ch <- m
			}
		} else if m.Method == "Runtime.consoleAPICalled" || m.Method == "Runtime.exceptionThrown" {
			b.logs = append(b.logs, m.Method+": "+Tail(string(m.Params), 600))
		}
		b.mu.Unlock()
	}
}

// call sends a command (to a page's session, or to the browser when
// session is "") and decodes its result into out (if not nil).
func (b *Browser) call(ctx context.Context, session, method string, params, out any) error {
	p, err := json.Marshal(params)
	if err != nil {
		return err
	}
	ch := make(chan cdpMessage, 1)
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	b.pending[id] = ch
	b.mu.Unlock()
	msg, err := json.Marshal(cdpMessage{ID: id, Method: method, Params: p, SessionID: session})
	if err != nil {
		return err
	}
	if _, err := b.toB.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("%s: %v", method, err)
	}
	select {
	case m := <-ch:
		if m.Error != nil {
			return fmt.Errorf("%s: %s", method, m.Error.Message)
		}
		if out != nil {
			return json.Unmarshal(m.Result, out)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("%s: the browser closed its pipe", method)
	case <-ctx.Done():
		return fmt.Errorf("%s: %v", method, ctx.Err())
	}
}

// Page is a tab attached with a flat session.
type Page struct {
	b       *Browser
	session string
}

// NewPage opens a tab and attaches to it.
func (b *Browser) NewPage(ctx context.Context) (*Page, error) {
	var created struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &created); err != nil {
		return nil, err
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": created.TargetID, "flatten": true}, &attached); err != nil {
		return nil, err
	}
	// The page's HTML report is a download: keep it off the disk.
	if err := b.call(ctx, "", "Browser.setDownloadBehavior", map[string]any{"behavior": "deny"}, nil); err != nil {
		return nil, err
	}
	p := &Page{b: b, session: attached.SessionID}
	for _, m := range []string{"Runtime.enable", "Page.enable"} {
		if err := b.call(ctx, p.session, m, struct{}{}, nil); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// Navigate loads url in the page.
func (p *Page) Navigate(ctx context.Context, url string) error {
	var r struct {
		ErrorText string `json:"errorText"`
	}
	if err := p.b.call(ctx, p.session, "Page.navigate", map[string]any{"url": url}, &r); err != nil {
		return err
	}
	if r.ErrorText != "" {
		return fmt.Errorf("navigate %s: %s", url, r.ErrorText)
	}
	return nil
}

// Eval evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its value into out.
func (p *Page) Eval(ctx context.Context, expr string, out any) error {
	var r struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	err := p.b.call(ctx, p.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}, &r)
	if err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		return fmt.Errorf("evaluating %q: %s %s", expr, e.Text, e.Exception.Description)
	}
	if out == nil || len(r.Result.Value) == 0 {
		return nil
	}
	return json.Unmarshal(r.Result.Value, out)
}

// WaitFor evaluates expr every 50 ms until it is true, or fails after d.
// An evaluation that fails (the page is still loading, its context was
// replaced) counts as not yet.
func (p *Page) WaitFor(ctx context.Context, expr string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		var ok bool
		err := p.Eval(ctx, expr, &ok)
		if err == nil && ok {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			if err != nil {
				return fmt.Errorf("waited %v for %s: %v", d, expr, err)
			}
			return fmt.Errorf("waited %v for %s", d, expr)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Click clicks the middle of the element with the given id as a user
// does: mouse moved, pressed and released at its place on the screen.
func (p *Page) Click(ctx context.Context, id string) error {
	var box struct{ X, Y float64 }
	expr := fmt.Sprintf(`(() => { const e = document.getElementById(%q); e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect(); return {X: r.x + r.width / 2, Y: r.y + r.height / 2}; })()`, id)
	if err := p.Eval(ctx, expr, &box); err != nil {
		return err
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		ev := map[string]any{"type": typ, "x": box.X, "y": box.Y}
		if typ != "mouseMoved" {
			ev["button"], ev["clickCount"] = "left", 1
		}
		if err := p.b.call(ctx, p.session, "Input.dispatchMouseEvent", ev, nil); err != nil {
			return err
		}
	}
	return nil
}

// Screenshot writes a PNG of the page to path.
func (p *Page) Screenshot(ctx context.Context, path string) error {
	var r struct {
		Data []byte `json:"data"` // base64 in JSON, decoded by encoding/json
	}
	if err := p.b.call(ctx, p.session, "Page.captureScreenshot", map[string]any{"format": "png"}, &r); err != nil {
		return err
	}
	return os.WriteFile(filepath.Clean(path), r.Data, 0o644)
}
