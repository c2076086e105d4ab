package syntax

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// benchmarksDir is the shared folder of public Boolean programs, beside the
// repository as DEVELOPERS.md and CI lay it out.
const benchmarksDir = "../../shared/benchmarks"

// benchmarkFiles lists every .bp file of the shared benchmarks, or skips the
// test when the folder is not there.
func benchmarkFiles(t testing.TB) []string {
	t.Helper()
	files, err := benchmarkFilesForFuzz()
	if os.IsNotExist(err) {
		t.Skipf("%s not found: the repository must sit beside shared/ (see README)", benchmarksDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .bp files under %s", benchmarksDir)
	}
	return files
}

func benchmarkFilesForFuzz() ([]string, error) {
	var files []string
	err := filepath.WalkDir(benchmarksDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".bp") {
			files = append(files, path)
		}
		return nil
	})
	return files, err
}

// sameTree reports the first difference between two trees, ignoring
// positions and file names; "" means they are equal.
func sameTree(a, b *File) string {
	if len(a.Comments) != len(b.Comments) {
		return fmt.Sprintf("%d comments vs %d", len(a.Comments), len(b.Comments))
	}
	for i := range a.Comments {
		if a.Comments[i].Text != b.Comments[i].Text {
			return fmt.Sprintf("comment %d: %q vs %q", i, a.Comments[i].Text, b.Comments[i].Text)
		}
	}
	return diffValue("file", reflect.ValueOf(a.Globals), reflect.ValueOf(b.Globals)) +
		diffValue("file", reflect.ValueOf(a.Procs), reflect.ValueOf(b.Procs))
}

var posType = reflect.TypeOf(Pos{})

func diffValue(path string, a, b reflect.Value) string {
	if a.Kind() != b.Kind() {
		return path + ": kind differs"
	}
	switch a.Kind() {
	case reflect.Interface, reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil vs non-nil"
			}
			return ""
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return fmt.Sprintf("%s: %v vs %v", path, a.Elem().Type(), b.Elem().Type())
		}
		return diffValue(path, a.Elem(), b.Elem())
	case reflect.Struct:
		if a.Type() == posType {
			return ""
		}
		for i := 0; i < a.NumField(); i++ {
			if d := diffValue(path+"."+a.Type().Field(i).Name, a.Field(i), b.Field(i)); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: length %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diffValue(fmt.Sprintf("%s[%d]", path, i), a.Index(i), b.Index(i)); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
	}
	return ""
}

// roundTrip checks the printer's two promises on src: the printed text
// parses to the same tree, and printing that tree again changes nothing.
func roundTrip(t testing.TB, name string, src []byte, d Dialect) {
	t.Helper()
	f1, err := ParseFile(name, src, d)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var out1 bytes.Buffer
	if err := Fprint(&out1, f1); err != nil {
		t.Fatal(err)
	}
	// The printed form must mean the same in both dialects.
	for _, d2 := range []Dialect{CProver, Getafix} {
		f2, err := ParseFile(name, out1.Bytes(), d2)
		if err != nil {
			t.Fatalf("reparse (%v) of printed text: %v\n%s", d2, err, out1.String())
		}
		if diff := sameTree(f1, f2); diff != "" {
			t.Fatalf("tree changed through printing (%v): %s\n%s", d2, diff, out1.String())
		}
		var out2 bytes.Buffer
		if err := Fprint(&out2, f2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out1.Bytes(), out2.Bytes()) {
			t.Fatalf("printing is not idempotent (%v):\n--- first\n%s\n--- second\n%s", d2, out1.String(), out2.String())
		}
	}
}

func TestBenchmarksRoundTrip(t *testing.T) {
	for _, path := range benchmarkFiles(t) {
		t.Run(path[len(benchmarksDir)+1:], func(t *testing.T) {
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// Read in either precedence, the file prints to text that
			// both read back as that tree.
			roundTrip(t, path, src, CProver)
			roundTrip(t, path, src, Getafix)
			// The two trees are the same unless the file has
			// ambiguities, and in canonical form: no run keeps the
			// grouping the file wrote.
			c, _ := ParseFile(path, src, CProver)
			g, _ := ParseFile(path, src, Getafix)
			if diff := sameTree(c, g); diff != "" && len(c.Ambiguities()) == 0 {
				t.Errorf("the dialects read different trees, without ambiguity warnings: %s", diff)
			}
			for _, f := range []*File{c, g} {
				Inspect(f, func(n Node) bool {
					x, ok := n.(Expr)
					if !ok {
						return true
					}
					if diff := diffValue("x", reflect.ValueOf(canonical(x)), reflect.ValueOf(x)); diff != "" {
						t.Errorf("%v: %s is not in canonical form: %s", x.Pos(), ExprString(x), diff)
					}
					return false
				})
			}
		})
	}
}

// TestLayoutGolden checks the printer on testdata/layout/input.bp against
// testdata/layout/golden.bp (UPDATE_GOLDEN=1 rewrites it): a file's
// empty lines between top-level items are kept, none is added (`fmt -w
// examples/bebop-fig1.bp` put one after `decl g;`, shifting the lines the
// file's comment says match the paper's), and printing the golden file
// again changes nothing.
func TestLayoutGolden(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "layout", "input.bp"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Format("input.bp", src, CProver)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "layout", "golden.bp")
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("printed layout differs from %s (UPDATE_GOLDEN=1 to accept):\n--- got\n%s--- want\n%s", golden, got, want)
	}
	if again, err := Format("golden.bp", want, CProver); err != nil || !bytes.Equal(again, want) {
		t.Errorf("printing the golden file again: %v\n%s", err, again)
	}
	// The example whose comment cites the paper's line numbers keeps
	// every statement on its line.
	fig1, err := os.ReadFile(filepath.Join("..", "examples", "bebop-fig1.bp"))
	if err != nil {
		t.Fatal(err)
	}
	printed, err := Format("bebop-fig1.bp", fig1, CProver)
	if err != nil {
		t.Fatal(err)
	}
	in, out := strings.Split(string(fig1), "\n"), strings.Split(string(printed), "\n")
	if len(in) != len(out) {
		t.Fatalf("bebop-fig1.bp: %d lines, printed %d", len(in), len(out))
	}
	for i := range in {
		if a, b := strings.Fields(in[i]), strings.Fields(out[i]); len(a) > 0 && len(b) > 0 && a[0] != b[0] {
			t.Errorf("bebop-fig1.bp line %d: %q printed as %q", i+1, in[i], out[i])
		}
	}
}
