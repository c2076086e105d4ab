// Package playground builds the browser playground: the checker compiled to
// WebAssembly (package playground/wasm, over the root package boolprog),
// Go's wasm_exec.js, the static page (web/: an editor with line numbers,
// example programs, engine, target label, timeout and bound, the verdict,
// and the trace stepping over the source), and examples.json with the
// programs of examples/ and of the SATABS/Boppo suite.
//
//	go run ./playground/build -o DIR   # writes the site into DIR
//	go run ./playground/serve          # builds it and serves it on :8080
//
// The page runs the checker in a Web Worker, so that the page stays
// responsive during a check and Stop can end it; any static file server
// that serves .wasm as application/wasm serves the site.
package playground

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"boolprog/internal/testdesc"
)

//go:embed web
var web embed.FS

// Config says where Build finds its inputs and writes the site.
type Config struct {
	// Out is the directory the site is written to (created if needed;
	// files of the same names are replaced, others left alone).
	Out string
	// Root is the module's root directory (default: found from the working
	// directory with `go env GOMOD`).
	Root string
	// Shared is the directory that holds benchmarks/satabs-boppo (default:
	// ../shared beside Root). Without it the page has only examples/.
	Shared string
	// Go is the go command (default "go").
	Go string
	// Log, if set, is told what Build does.
	Log io.Writer
}

// Site describes a built site.
type Site struct {
	Dir      string
	WasmSize int64 // bytes of boolprog.wasm
	Examples int
}

// WasmFile is the name of the compiled checker in the site.
const WasmFile = "boolprog.wasm"

// Build compiles the checker to WebAssembly and writes the site into
// cfg.Out.
func Build(ctx context.Context, cfg Config) (*Site, error) {
	if cfg.Out == "" {
		return nil, errors.New("playground: no output directory")
	}
	if cfg.Go == "" {
		cfg.Go = "go"
	}
	logf := func(format string, args ...any) {
		if cfg.Log != nil {
			fmt.Fprintf(cfg.Log, format+"\n", args...)
		}
	}
	if cfg.Root == "" {
		gomod, err := goOutput(ctx, cfg.Go, "", nil, "env", "GOMOD")
		if err != nil {
			return nil, err
		}
		if gomod == "" || gomod == os.DevNull {
			return nil, errors.New("playground: not inside the boolprog module (go env GOMOD is empty); run from the repository")
		}
		cfg.Root = filepath.Dir(gomod)
	}
	if cfg.Shared == "" {
		cfg.Shared = filepath.Join(cfg.Root, "..", "shared")
	}
	if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
		return nil, err
	}
	out, err := filepath.Abs(cfg.Out)
	if err != nil {
		return nil, err
	}

	logf("compiling the checker to WebAssembly (GOOS=js GOARCH=wasm)")
	wasm := filepath.Join(out, WasmFile)
	env := []string{"GOOS=js", "GOARCH=wasm"}
	// -s -w: no symbol table or DWARF, which the browser does not use
	// (panics still print their Go stack).
	if _, err := goOutput(ctx, cfg.Go, cfg.Root, env, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, "./playground/wasm"); err != nil {
		return nil, err
	}
	info, err := os.Stat(wasm)
	if err != nil {
		return nil, err
	}

	goroot, err := goOutput(ctx, cfg.Go, "", nil, "env", "GOROOT")
	if err != nil {
		return nil, err
	}
	if err := copyWasmExec(goroot, filepath.Join(out, "wasm_exec.js")); err != nil {
		return nil, err
	}

	err = fs.WalkDir(web, "web", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := web.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, strings.TrimPrefix(path, "web/")), b, 0o644)
	})
	if err != nil {
		return nil, err
	}

	examples, err := Examples(cfg.Root, cfg.Shared)
	if err != nil {
		return nil, err
	}
	if !hasGroup(examples, GroupSatabs) {
		logf("warning: no SATABS/Boppo suite in %s: the page offers only examples/", cfg.Shared)
	}
	b, err := json.MarshalIndent(examples, "", " ")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(out, "examples.json"), b, 0o644); err != nil {
		return nil, err
	}
	logf("wrote %s: %s %.1f MiB, %d examples", out, WasmFile, float64(info.Size())/(1<<20), len(examples))
	return &Site{Dir: out, WasmSize: info.Size(), Examples: len(examples)}, nil
}

// goOutput runs the go command and returns its trimmed standard output;
// on failure the error holds its standard error.
func goOutput(ctx context.Context, goCmd, dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("playground: %s %s: %v\n%s", goCmd, strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(stdout.String()), nil
}

// copyWasmExec copies the JavaScript support of Go's js/wasm port, which
// must match the compiler that built the module: lib/wasm since Go 1.24,
// misc/wasm before.
func copyWasmExec(goroot, dst string) error {
	for _, dir := range []string{"lib/wasm", "misc/wasm"} {
		b, err := os.ReadFile(filepath.Join(goroot, dir, "wasm_exec.js"))
		if err == nil {
			return os.WriteFile(dst, b, 0o644)
		}
	}
	return fmt.Errorf("playground: no wasm_exec.js in %s/lib/wasm or %s/misc/wasm", goroot, goroot)
}

// Example is a program the page offers.
type Example struct {
	Group  string `json:"group"`            // GroupExamples or GroupSatabs
	Name   string `json:"name"`             // e.g. "bebop-fig1.bp", "Deep1"
	File   string `json:"file"`             // the name diagnostics give it
	Source string `json:"source"`           // the program
	Target string `json:"target,omitempty"` // the label to check ("" SLIC_ERROR)
	// Expect is the verdict line the suite expects ("VERIFICATION FAILED"),
	// "" when unknown.
	Expect string `json:"expect,omitempty"`
	Note   string `json:"note,omitempty"` // shown when the example is picked
}

// The groups of examples.
const (
	GroupExamples = "examples"
	GroupSatabs   = "satabs-boppo"
)

// exampleTargets are the target labels of the programs in examples/ whose
// first comment does not name one with -l.
var exampleTargets = map[string]string{"bebop-t3.bp": "reach"}

// exampleSkipped are programs of examples/ that the page cannot check as
// they are meant to be: they need a specification file beside them.
var exampleSkipped = map[string]bool{"locking.bp": true, "locking-ok.bp": true}

var targetFlag = regexp.MustCompile(`(?:-l|--target) ([A-Za-z_$][A-Za-z0-9_$]*)`)

// Examples returns the programs of root/examples (recursively), then
// those of shared/benchmarks/satabs-boppo with their test.desc's target and
// expected verdict (none if shared has no suite).
func Examples(root, shared string) ([]Example, error) {
	var out []Example
	dir := filepath.Join(root, "examples")
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".bp" || exampleSkipped[d.Name()] {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		ex := Example{Group: GroupExamples, Name: strings.TrimPrefix(rel, "examples/"), File: rel, Source: string(src), Target: exampleTargets[d.Name()]}
		if m := targetFlag.FindStringSubmatch(leadingComment(string(src))); m != nil && ex.Target == "" {
			ex.Target = m[1]
		}
		out = append(out, ex)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	suite := filepath.Join(shared, "benchmarks", "satabs-boppo")
	descs, err := filepath.Glob(filepath.Join(suite, "*", "test.desc"))
	if err != nil {
		return nil, err
	}
	sort.Strings(descs)
	for _, desc := range descs {
		ex, ok, err := satabsExample(desc)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, ex)
		}
	}
	return out, nil
}

// leadingComment returns the comment lines at the start of src.
func leadingComment(src string) string {
	var b strings.Builder
	for _, line := range strings.Split(src, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(line), "//") {
			break
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// satabsExample reads one test of the suite: line 2 of test.desc names
// the program, line 3 its options (-l LABEL), the rest the expected lines.
// A test whose program is missing is left out.
func satabsExample(desc string) (Example, bool, error) {
	d, err := testdesc.Read(desc)
	if err != nil {
		return Example{}, false, err
	}
	dir := filepath.Dir(desc)
	src, err := os.ReadFile(filepath.Join(dir, d.File))
	if errors.Is(err, fs.ErrNotExist) {
		return Example{}, false, nil
	}
	if err != nil {
		return Example{}, false, err
	}
	name := filepath.Base(dir)
	ex := Example{Group: GroupSatabs, Name: name, File: name + "/" + d.File, Source: string(src), Target: d.Target}
	switch d.Expect {
	case testdesc.Failed:
		ex.Expect = "VERIFICATION FAILED"
	case testdesc.Successful:
		ex.Expect = "VERIFICATION SUCCESSFUL"
	}
	ex.Note = "SATABS/Boppo regression test " + name
	if ex.Expect != "" {
		ex.Note += "; expected: " + ex.Expect
	}
	return ex, true, nil
}

func hasGroup(exs []Example, group string) bool {
	for _, ex := range exs {
		if ex.Group == group {
			return true
		}
	}
	return false
}
