package ir_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boolprog/ir"
	"boolprog/sema"
	"boolprog/syntax"
)

// dump writes everything an engine reads of a program, in a fixed order
// (origins and the reason for concurrency aside, which are newer than the
// golden file).
func dump(p *ir.Program) string {
	var b strings.Builder
	fmt.Fprintf(&b, "file %s target %s globals %q main %d init %d threads %v concurrent %v\n",
		p.File, p.Target, p.Globals, p.Main, p.Init, p.Threads, p.Concurrent)
	for _, pr := range p.Procs {
		fmt.Fprintf(&b, "proc %s %d pos %v params %d locals %q returns %d entry %d exit %d\n",
			pr.Name, pr.Index, pr.Pos, pr.Params, pr.Locals, pr.Returns, pr.Entry, pr.Exit)
		if pr.Enforce != nil {
			fmt.Fprintf(&b, "  enforce %s\n", p.ExprString(pr, pr.Enforce))
		}
		for _, l := range pr.Locations {
			fmt.Fprintf(&b, "  loc %d kind %d pos %v text %q labels %q entry %v exit %v error %v out %v in %v\n",
				l.ID, l.Kind, l.Pos, l.Text, l.Labels, l.Entry, l.Exit, l.Error, l.Out, l.In)
		}
		for _, e := range pr.Edges {
			fmt.Fprintf(&b, "  edge %d %d->%d pos %v text %q op %s\n", e.ID, e.From, e.To, e.Pos, e.Text, p.OpString(pr, e.Op))
		}
	}
	return b.String()
}

// TestLoweringUnchanged lowers every .bp file of the shared benchmarks and
// the examples and compares a digest of each program with
// testdata/lowered.golden, which was written by the lowering as it was
// before it moved onto sema.Info and the Builder: the move changed nothing
// an engine reads.
func TestLoweringUnchanged(t *testing.T) {
	var report bytes.Buffer
	for _, root := range []string{"../../shared/benchmarks", "../examples"} {
		if _, err := os.Stat(root); err != nil {
			t.Fatalf("%s is needed (see README, \"Benchmarks\"): %v", root, err)
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(path) != ".bp" {
				return err
			}
			rel, _ := filepath.Rel("..", path)
			rel = filepath.ToSlash(rel)
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			f, err := syntax.ParseFile(rel, src, syntax.CProver)
			if err != nil {
				fmt.Fprintf(&report, "%s parse error\n", rel)
				return nil
			}
			info, errs, _ := sema.Check(f)
			if len(errs) > 0 {
				fmt.Fprintf(&report, "%s sema error\n", rel)
				return nil
			}
			p, err := ir.Lower(f, info, ir.Options{})
			if err != nil {
				fmt.Fprintf(&report, "%s lower error\n", rel)
				return nil
			}
			fmt.Fprintf(&report, "%s %x\n", rel, sha256.Sum256([]byte(dump(p))))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	golden := filepath.Join("testdata", "lowered.golden")
	if *update {
		if err := os.WriteFile(golden, report.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := report.String(); got != string(want) {
		t.Errorf("lowered programs differ from %s:\n--- got\n%s--- want\n%s", golden, got, want)
	}
}
