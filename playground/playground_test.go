package playground

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamples checks the examples the page offers: examples/ with their
// target labels, and the SATABS/Boppo suite with test.desc's.
func TestExamples(t *testing.T) {
	exs, err := Examples("..", filepath.Join("..", "..", "shared"))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Example{}
	for _, ex := range exs {
		byName[ex.Name] = ex
		if ex.Source == "" || ex.File == "" || ex.Group == "" {
			t.Errorf("incomplete example %+v", ex)
		}
	}
	for name, target := range map[string]string{"bebop-fig1.bp": "R", "bebop-t3.bp": "reach", "bluetooth/bluetooth_1_1.bp": ""} {
		ex, ok := byName[name]
		if !ok {
			t.Errorf("no example %s", name)
			continue
		}
		if ex.Target != target || ex.Group != GroupExamples {
			t.Errorf("%s: target %q group %s, want %q in %s", name, ex.Target, ex.Group, target, GroupExamples)
		}
	}
	if _, ok := byName["locking.bp"]; ok {
		t.Errorf("locking.bp needs its specification and is offered anyway")
	}
	if _, err := os.Stat(filepath.Join("..", "..", "shared", "benchmarks", "satabs-boppo")); err != nil {
		t.Skip("no SATABS/Boppo suite in ../shared")
	}
	if d := byName["Reachability1"]; d.Target != "MY_ERROR_LABEL" || d.Expect != "VERIFICATION FAILED" || d.Group != GroupSatabs {
		t.Errorf("Reachability1: %+v", d)
	}
	if d := byName["Arguments1"]; d.Expect != "VERIFICATION SUCCESSFUL" {
		t.Errorf("Arguments1: %+v", d)
	}
}

// TestHandler checks the MIME type of the checker, without which
// WebAssembly.instantiateStreaming refuses it.
func TestHandler(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{WasmFile: "\x00asm", "index.html": "<!DOCTYPE html>"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Handler(dir))
	defer srv.Close()
	for path, want := range map[string]string{"/" + WasmFile: "application/wasm", "/index.html": "text/html"} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, want) || resp.StatusCode != 200 {
			t.Errorf("%s: %d %q, want %s", path, resp.StatusCode, ct, want)
		}
	}
}
