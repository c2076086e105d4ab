package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWriteBenchExec(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "bx")
	tasks := []Task{
		{File: filepath.Join(dir, "suite", "A", "main.bp"), Expect: ExpectUnsafe, Target: "MY_LABEL", Source: dir},
		{File: filepath.Join(dir, "suite", "B", "main.bp"), Expect: ExpectSafe, Engine: "explicit", Flags: []string{"--max-vars", "30"}, Source: "l.txt:2"},
		{File: filepath.Join(dir, "suite", "B", "main.bp"), Timeout: time.Second, Source: "l.txt:3"},
	}
	notes, err := WriteBenchExec(out, tasks, 90*time.Second, 2<<30)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], "l.txt:3: timeout=1s has no counterpart in BenchExec") {
		t.Errorf("notes %q", notes)
	}
	want := map[string]string{
		"A_main.yml": `# boolprog batch task 1 (` + dir + `)
format_version: '2.0'
input_files: "../suite/A/main.bp"
properties:
  - property_file: unreach-label.prp
    expected_verdict: false
options:
  target: "MY_LABEL"
`,
		"B_main.yml": `# boolprog batch task 2 (l.txt:2)
format_version: '2.0'
input_files: "../suite/B/main.bp"
properties:
  - property_file: unreach-label.prp
    expected_verdict: true
options:
  engine: "explicit"
  flags:
    - "--max-vars"
    - "30"
`,
		"B_main_2.yml": `# boolprog batch task 3 (l.txt:3)
format_version: '2.0'
input_files: "../suite/B/main.bp"
properties:
  - property_file: unreach-label.prp
`,
		"unreach-label.prp": LabelProperty,
	}
	for name, text := range want {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Error(err)
			continue
		}
		if string(got) != text {
			t.Errorf("%s:\n%s\nwant:\n%s", name, got, text)
		}
	}
	xml, err := os.ReadFile(filepath.Join(out, "boolprog.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`<benchmark tool="boolprog" timelimit="90 s" memlimit="2147483648 B" cpuCores="1">`, "<include>*.yml</include>", "<propertyfile>unreach-label.prp</propertyfile>"} {
		if !strings.Contains(string(xml), s) {
			t.Errorf("boolprog.xml lacks %q:\n%s", s, xml)
		}
	}
	entries, _ := os.ReadDir(out)
	if len(entries) != 5 {
		t.Errorf("%d files written, want 5", len(entries))
	}
}
