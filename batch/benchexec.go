package batch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// LabelProperty is the property file that WriteBenchExec writes: the
// reachability of the target label, in the form of SV-COMP's old
// unreach-label property. The tool-info module contrib/benchexec/boolprog.py
// reads the label from it (SLIC_ERROR, check's default, is not passed on).
const LabelProperty = "CHECK( init(main()), LTL(G ! label(SLIC_ERROR)) )\n"

// WriteBenchExec writes the tasks as a BenchExec benchmark into dir (made
// if needed): one task-definition file (format 2.0) per task, with the
// program, the property file unreach-label.prp with the task's expected
// verdict, and the task's target, engine and check flags as its options;
// and boolprog.xml, a benchmark definition of them all with the given
// limits (timeout 0 or memory 0: none). It returns notes about what
// BenchExec cannot express (a task's own time limit).
func WriteBenchExec(dir string, tasks []Task, timeout time.Duration, memory int64) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "unreach-label.prp"), []byte(LabelProperty), 0o644); err != nil {
		return nil, err
	}
	names := taskNames(tasks)
	var notes []string
	for i, t := range tasks {
		abs, err := filepath.Abs(t.File)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(absDir, abs)
		if err != nil {
			rel = abs
		}
		var b strings.Builder
		fmt.Fprintf(&b, "# boolprog batch task %d", i+1)
		if t.Source != "" {
			fmt.Fprintf(&b, " (%s)", t.Source)
		}
		fmt.Fprintf(&b, "\nformat_version: '2.0'\ninput_files: %s\nproperties:\n  - property_file: unreach-label.prp\n", yamlString(filepath.ToSlash(rel)))
		if t.Expect != ExpectNone {
			fmt.Fprintf(&b, "    expected_verdict: %t\n", t.Expect == ExpectSafe)
		}
		if t.Target != "" || t.Engine != "" || len(t.Flags) > 0 {
			b.WriteString("options:\n")
			if t.Target != "" {
				fmt.Fprintf(&b, "  target: %s\n", yamlString(t.Target))
			}
			if t.Engine != "" {
				fmt.Fprintf(&b, "  engine: %s\n", yamlString(t.Engine))
			}
			if len(t.Flags) > 0 {
				b.WriteString("  flags:\n")
				for _, f := range t.Flags {
					fmt.Fprintf(&b, "    - %s\n", yamlString(f))
				}
			}
		}
		if t.Timeout > 0 {
			notes = append(notes, fmt.Sprintf("%s: timeout=%v has no counterpart in BenchExec: the benchmark's time limit applies", sourceOf(t), t.Timeout))
		}
		if err := os.WriteFile(filepath.Join(dir, names[i]+".yml"), []byte(b.String()), 0o644); err != nil {
			return nil, err
		}
	}
	var limits strings.Builder
	if timeout > 0 {
		fmt.Fprintf(&limits, ` timelimit="%d s"`, int64((timeout+time.Second-1)/time.Second))
	}
	if memory > 0 {
		// BenchExec's units are SI; bytes are exact.
		fmt.Fprintf(&limits, ` memlimit="%d B"`, memory)
	}
	xml := `<?xml version="1.0"?>
<!DOCTYPE benchmark PUBLIC "+//IDN sosy-lab.org//DTD BenchExec benchmark 2.3//EN" "https://www.sosy-lab.org/benchexec/benchmark-2.3.dtd">
<!-- Written by boolprog batch --emit-benchexec; run with: benchexec boolprog.xml -->
<benchmark tool="boolprog"` + limits.String() + ` cpuCores="1">
  <rundefinition name="boolprog"/>
  <tasks name="tasks">
    <include>*.yml</include>
    <propertyfile>unreach-label.prp</propertyfile>
  </tasks>
</benchmark>
`
	return notes, os.WriteFile(filepath.Join(dir, "boolprog.xml"), []byte(xml), 0o644)
}

// taskNames returns a distinct file name (without extension) per task: the
// program's path below the tasks' common directory, with '/' as '_'.
func taskNames(tasks []Task) []string {
	paths := make([]string, len(tasks))
	for i, t := range tasks {
		abs, err := filepath.Abs(t.File)
		if err != nil {
			abs = t.File
		}
		paths[i] = filepath.ToSlash(strings.TrimSuffix(abs, filepath.Ext(abs)))
	}
	prefix := ""
	if len(paths) > 0 {
		prefix = paths[0][:strings.LastIndex(paths[0], "/")+1]
		for _, p := range paths[1:] {
			for !strings.HasPrefix(p, prefix) {
				prefix = prefix[:strings.LastIndex(strings.TrimSuffix(prefix, "/"), "/")+1]
			}
		}
	}
	seen := map[string]int{}
	names := make([]string, len(tasks))
	for i, p := range paths {
		name := strings.NewReplacer("/", "_", " ", "_").Replace(strings.TrimPrefix(p, prefix))
		seen[name]++
		if n := seen[name]; n > 1 {
			name = fmt.Sprintf("%s_%d", name, n)
		}
		names[i] = name
	}
	return names
}

// yamlString writes s as a YAML double-quoted scalar (JSON's string syntax
// is one).
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func sourceOf(t Task) string {
	if t.Source != "" {
		return t.Source
	}
	return t.File
}
