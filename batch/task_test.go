package batch

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestParseList(t *testing.T) {
	engines := func(name string) error {
		if name != "summary" && name != "explicit" {
			return errUnknownEngine(name)
		}
		return nil
	}
	tests := []struct {
		name  string
		list  string
		tasks []Task
		errs  []string // file:line:col: message, in order
	}{
		{name: "empty and comments", list: "\n# a comment\n   \n\t# indented comment\n"},
		{name: "program only", list: "a.bp\n",
			tasks: []Task{{File: "d/a.bp", Source: "d/l.txt:1"}}},
		{name: "every key", list: "a.bp target=R expect=unsafe engine=explicit timeout=2s # why\n",
			tasks: []Task{{File: "d/a.bp", Target: "R", Expect: ExpectUnsafe, Engine: "explicit", Timeout: 2 * time.Second, Source: "d/l.txt:1"}}},
		{name: "label alias and verdict words", list: "a.bp label=ERR expect=SUCCESSFUL\nb.bp expect=failed\nc.bp expect=true\n",
			tasks: []Task{
				{File: "d/a.bp", Target: "ERR", Expect: ExpectSafe, Source: "d/l.txt:1"},
				{File: "d/b.bp", Expect: ExpectUnsafe, Source: "d/l.txt:2"},
				{File: "d/c.bp", Expect: ExpectSafe, Source: "d/l.txt:3"}}},
		{name: "absolute path and check flags", list: "/x/a.bp expect=safe -- --bound cs:2 --max-vars 30\n",
			tasks: []Task{{File: "/x/a.bp", Expect: ExpectSafe, Flags: []string{"--bound", "cs:2", "--max-vars", "30"}, Source: "d/l.txt:1"}}},
		{name: "quoted file", list: `"with space.bp" expect=unsafe` + "\n",
			tasks: []Task{{File: "d/with space.bp", Expect: ExpectUnsafe, Source: "d/l.txt:1"}}},
		{name: "CRLF line ends", list: "a.bp expect=safe\r\nb.bp\r\n",
			tasks: []Task{{File: "d/a.bp", Expect: ExpectSafe, Source: "d/l.txt:1"}, {File: "d/b.bp", Source: "d/l.txt:2"}}},
		{name: "JSON task", list: `  {"file": "j.bp", "target": "R", "expect": "unsafe", "engine": "summary", "timeout": "1m", "flags": ["--all"]}` + "\n",
			tasks: []Task{{File: "d/j.bp", Target: "R", Expect: ExpectUnsafe, Engine: "summary", Timeout: time.Minute, Flags: []string{"--all"}, Source: "d/l.txt:1"}}},

		{name: "unknown key", list: "a.bp expect=safe colour=red\n",
			errs: []string{`d/l.txt:1:18: unknown key "colour" (want target, expect, engine or timeout)`}},
		{name: "bad verdict", list: "a.bp\nb.bp expect=maybe\n",
			errs: []string{`d/l.txt:2:13: unknown expected verdict "maybe" (want safe or unsafe)`}},
		{name: "bad engine", list: "a.bp engine=bebob\n",
			errs: []string{`d/l.txt:1:13: unknown engine "bebob"`}},
		{name: "bad timeout", list: "a.bp timeout=soon\n",
			errs: []string{`d/l.txt:1:14: bad timeout "soon" (want a positive duration such as 30s or 2m)`}},
		{name: "empty value", list: "a.bp target=\n",
			errs: []string{"d/l.txt:1:13: target= without a value"}},
		{name: "key twice", list: "a.bp expect=safe expect=unsafe\n",
			errs: []string{"d/l.txt:1:18: expect given twice"}},
		{name: "word without key", list: "a.bp b.bp\n",
			errs: []string{`d/l.txt:1:6: want KEY=VALUE (target, expect, engine, timeout) or -- before check flags, not "b.bp"`}},
		{name: "key first", list: "expect=safe a.bp\n",
			errs: []string{`d/l.txt:1:1: a task starts with its program file, not "expect=safe"`}},
		{name: "reserved flags", list: "a.bp -- --format text -l R\n",
			errs: []string{"d/l.txt:1:9: --format is set by the batch (the batch reads check's JSON report)",
				"d/l.txt:1:23: -l is set by the batch (use target=LABEL)"}},
		{name: "second --", list: "a.bp -- --all -- b.bp\n",
			errs: []string{"d/l.txt:1:15: a second -- (one program per line)"}},
		{name: "unterminated quote", list: "a.bp\n\"b.bp expect=safe\n",
			errs: []string{"d/l.txt:2:1: unterminated or malformed quoted string"}},
		{name: "every bad line reported", list: "a.bp x\nb.bp\nc.bp expect=no\n",
			errs: []string{`d/l.txt:1:6: want KEY=VALUE (target, expect, engine, timeout) or -- before check flags, not "x"`,
				`d/l.txt:3:13: unknown expected verdict "no" (want safe or unsafe)`}},
		{name: "malformed JSON", list: `{"file": "a.bp",}` + "\n",
			errs: []string{"d/l.txt:1:17: malformed JSON task: invalid character '}' looking for beginning of object key string"}},
		{name: "JSON unknown key", list: `{"file": "a.bp", "colour": "red"}` + "\n",
			errs: []string{`d/l.txt:1:18: unknown key "colour" (want file, target, expect, engine, timeout, flags)`}},
		{name: "JSON without file", list: `{"expect": "safe"}` + "\n",
			errs: []string{`d/l.txt:1:1: the task has no "file"`}},
		{name: "JSON wrong type", list: `{"file": "a.bp", "flags": "--all"}` + "\n",
			errs: []string{"d/l.txt:1:18: flags: want an array of strings"}},
		{name: "JSON bad verdict", list: `{"file": "a.bp", "expect": "yes"}` + "\n",
			errs: []string{`d/l.txt:1:18: unknown expected verdict "yes" (want safe or unsafe)`}},
		{name: "JSON trailing text", list: `{"file": "a.bp"} x` + "\n",
			errs: []string{"d/l.txt:1:17: text after the JSON task"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tasks, err := ParseList("d/l.txt", strings.NewReader(tt.list), ListOptions{Engine: engines})
			var got []string
			if err != nil {
				got = strings.Split(err.Error(), "\n")
			}
			if len(got) != len(tt.errs) {
				t.Fatalf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.errs, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.errs[i]) {
					t.Errorf("error %d:\n got %s\nwant %s", i, got[i], tt.errs[i])
				}
			}
			if err == nil && !reflect.DeepEqual(tasks, tt.tasks) {
				t.Errorf("tasks:\n got %+v\nwant %+v", tasks, tt.tasks)
			}
		})
	}
}

type errUnknownEngine string

func (e errUnknownEngine) Error() string { return "unknown engine " + `"` + string(e) + `"` }

func TestParseListStdinPaths(t *testing.T) {
	tasks, err := ParseList("-", strings.NewReader("a/b.bp\n"), ListOptions{})
	if err != nil || len(tasks) != 1 || tasks[0].File != "a/b.bp" || tasks[0].Source != "<stdin>:1" {
		t.Fatalf("got %+v, %v", tasks, err)
	}
	_, err = ParseList("-", strings.NewReader("a.bp x=1\n"), ListOptions{})
	if err == nil || !strings.HasPrefix(err.Error(), "<stdin>:1:6: ") {
		t.Fatalf("error %v", err)
	}
}

func TestFromDir(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("suite/A/main.bp", "")
	write("suite/A/other.bp", "")
	write("suite/A/test.desc", "CORE\nmain.bp\n-l MY_LABEL --por\n^EXIT=10$\n^VERIFICATION FAILED$\n--\n")
	write("suite/B/main.bp", "")
	write("suite/B/test.desc", "CORE\nmain.bp\n\n^VERIFICATION SUCCESSFUL$\n")
	write("suite/C/main.bp", "")
	write("suite/C/test.desc", "KNOWNBUG\n") // too short: no expectation
	write("named/fib_3_safe.bp", "")
	write("named/fib_3_unsafe.bp", "")
	write("named/x_false-unreach-call.bp", "")
	write("named/notes.txt", "")
	write(".hidden/h.bp", "")
	tasks, err := FromDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	type short struct {
		file, target string
		expect       Expect
	}
	var got []short
	for _, task := range tasks {
		rel, _ := filepath.Rel(dir, task.File)
		got = append(got, short{filepath.ToSlash(rel), task.Target, task.Expect})
		if task.Source != dir {
			t.Errorf("%s: source %q", rel, task.Source)
		}
	}
	want := []short{
		{"named/fib_3_safe.bp", "", ExpectSafe},
		{"named/fib_3_unsafe.bp", "", ExpectUnsafe},
		{"named/x_false-unreach-call.bp", "", ExpectUnsafe},
		{"suite/A/main.bp", "MY_LABEL", ExpectUnsafe},
		{"suite/A/other.bp", "", ExpectNone},
		{"suite/B/main.bp", "", ExpectSafe},
		{"suite/C/main.bp", "", ExpectNone},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tasks:\n got %v\nwant %v", got, want)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "tasks.txt")
	if err := os.WriteFile(list, []byte("p.bp expect=safe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tasks, err := Load([]string{list, "missing.bp", "-"}, strings.NewReader("q.bp\n"), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	files := []string{tasks[0].File, tasks[1].File, tasks[2].File}
	if want := []string{filepath.Join(dir, "p.bp"), "missing.bp", "q.bp"}; !reflect.DeepEqual(files, want) {
		t.Errorf("files %v, want %v", files, want)
	}
	_, err = Load([]string{filepath.Join(dir, "nolist.txt")}, nil, ListOptions{})
	if err == nil || !strings.Contains(err.Error(), "nolist.txt: cannot read the task list: no such file or directory") {
		t.Errorf("missing list: %v", err)
	}
}

// A .bp given directly gets the expectation it has in its directory: of
// its name, or of a test.desc beside it.
func TestLoadProgramExpectation(t *testing.T) {
	dir := t.TempDir()
	desc := "CORE\nmain.bp\n--por -l R\n^VERIFICATION FAILED$\n"
	for name, text := range map[string]string{"x_unsafe.bp": "", "y_safe.bp": "", "main.bp": "", "test.desc": desc, "plain.bp": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name   string
		expect Expect
		target string
	}{{"x_unsafe.bp", ExpectUnsafe, ""}, {"y_safe.bp", ExpectSafe, ""}, {"main.bp", ExpectUnsafe, "R"}, {"plain.bp", ExpectNone, ""}} {
		path := filepath.Join(dir, tc.name)
		tasks, err := Load([]string{path}, nil, ListOptions{})
		if err != nil || len(tasks) != 1 || tasks[0].Expect != tc.expect || tasks[0].Target != tc.target || tasks[0].File != path {
			t.Errorf("%s: %+v, %v", tc.name, tasks, err)
		}
	}
}
