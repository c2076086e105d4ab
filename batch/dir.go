package batch

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"boolprog/internal/testdesc"
	"boolprog/syntax"
)

// FromDir returns a task for every .bp file below dir, in lexical order,
// with the expected verdict and target label that the benchmark
// collections record:
//
//   - a test.desc beside the program that names it on its second line
//     (the CProver regression format of SATABS/Boppo's suite): the
//     expected verdict from its line ^VERIFICATION SUCCESSFUL$ or
//     ^VERIFICATION FAILED$, the target from -l/--target LABEL among the
//     options of its third line (the other options, Boppo's --por, --tvs
//     and --compact-trace, do not change the verdict);
//   - otherwise the file name: a name ending in _safe or _unsafe (the
//     Getafix collection), or in SV-COMP's old _true-unreach-call or
//     _false-unreach-call.
//
// Other files have no expected verdict. Directories whose names start
// with '.' are skipped.
func FromDir(dir string) ([]Task, error) {
	var tasks []Task
	descs := map[string]map[string]descInfo{} // dir -> program base name -> info
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if filepath.Ext(path) != ".bp" {
			return nil
		}
		pdir := filepath.Dir(path)
		if _, ok := descs[pdir]; !ok {
			descs[pdir] = readDescs(pdir)
		}
		tasks = append(tasks, programTask(path, dir, descs[pdir]))
		return nil
	})
	return tasks, err
}

// programTask is the task of the program path, with the expected verdict
// and target of descs (the test.desc of its directory) or of its name.
func programTask(path, source string, descs map[string]descInfo) Task {
	t := Task{File: path, Source: source}
	name := filepath.Base(path)
	if info, ok := descs[name]; ok {
		t.Expect, t.Target = info.expect, info.target
	}
	if t.Expect == ExpectNone {
		t.Expect = expectFromName(name)
	}
	return t
}

// descInfo is what a test.desc says about its program.
type descInfo struct {
	expect Expect
	target string
}

// readDescs reads the test.desc of a directory, if any, keyed by the
// program it names. A test.desc that does not follow the format gives no
// expectation (the programs still run).
func readDescs(dir string) map[string]descInfo {
	out := map[string]descInfo{}
	d, err := testdesc.Read(filepath.Join(dir, "test.desc"))
	if err != nil {
		return out
	}
	info := descInfo{target: d.Target}
	switch d.Expect {
	case testdesc.Successful:
		info.expect = ExpectSafe
	case testdesc.Failed:
		info.expect = ExpectUnsafe
	}
	out[d.File] = info
	return out
}

// expectFromName reads an expected verdict from a program's file name.
func expectFromName(name string) Expect {
	base := strings.TrimSuffix(name, filepath.Ext(name))
	switch {
	case strings.HasSuffix(base, "_unsafe"), strings.HasSuffix(base, "_false-unreach-call"):
		return ExpectUnsafe
	case strings.HasSuffix(base, "_safe"), strings.HasSuffix(base, "_true-unreach-call"):
		return ExpectSafe
	}
	return ExpectNone
}

// Load returns the tasks of command-line arguments: a directory gives
// FromDir's tasks, a file ending in .bp one task with the expectation it
// has in FromDir's tasks of its directory (even if it does not exist:
// that is the task's error), any other file
// is a task list. A malformed list, or one that cannot be read, is an
// error (a syntax.ErrorList for a malformed list). The argument "-" is a
// task list read from stdin.
func Load(args []string, stdin io.Reader, opt ListOptions) ([]Task, error) {
	var tasks []Task
	var errs syntax.ErrorList
	for _, arg := range args {
		info, statErr := os.Stat(arg)
		switch {
		case statErr == nil && info.IsDir():
			ts, err := FromDir(arg)
			if err != nil {
				errs.Add(arg, syntax.Pos{}, err.Error())
				continue
			}
			tasks = append(tasks, ts...)
		case filepath.Ext(arg) == ".bp":
			// The expectation it would have in its directory.
			tasks = append(tasks, programTask(arg, arg, readDescs(filepath.Dir(arg))))
		case arg == "-":
			ts, err := ParseList("-", stdin, opt)
			if err != nil {
				errs = append(errs, err.(syntax.ErrorList)...)
				continue
			}
			tasks = append(tasks, ts...)
		default:
			f, err := os.Open(arg)
			if err != nil {
				errs.Add(arg, syntax.Pos{}, "cannot read the task list: "+unwrapPathError(err))
				continue
			}
			ts, err := ParseList(arg, f, opt)
			f.Close()
			if err != nil {
				errs = append(errs, err.(syntax.ErrorList)...)
				continue
			}
			tasks = append(tasks, ts...)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return tasks, nil
}

// unwrapPathError returns the reason of a *fs.PathError without the path,
// which the message names already.
func unwrapPathError(err error) string {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err.Error()
	}
	return err.Error()
}
