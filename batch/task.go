package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"boolprog/syntax"
)

// Expect is a task's expected verdict: "" (none), ExpectSafe or
// ExpectUnsafe.
type Expect string

// The expected verdicts.
const (
	ExpectNone   Expect = ""
	ExpectSafe   Expect = "safe"   // VERIFICATION SUCCESSFUL
	ExpectUnsafe Expect = "unsafe" // VERIFICATION FAILED
)

// ParseExpect reads an expected verdict: safe, successful or true, or
// unsafe, failed or false (any case).
func ParseExpect(s string) (Expect, bool) {
	switch strings.ToLower(s) {
	case "safe", "successful", "true":
		return ExpectSafe, true
	case "unsafe", "failed", "false":
		return ExpectUnsafe, true
	}
	return ExpectNone, false
}

// Task is one verification task: a `boolprog check` of one program.
type Task struct {
	// File is the program; relative paths are relative to the working
	// directory (a task list's relative paths are resolved against the
	// list's directory when it is read).
	File string
	// Target is the error label; "" is check's default (SLIC_ERROR,
	// which may be absent).
	Target string
	Expect Expect
	// Engine is the engine; "" is the batch's default, or check's.
	Engine string
	// Timeout replaces the batch's time limit for this task if not 0.
	Timeout time.Duration
	// Flags are more flags of `boolprog check`, passed on unchanged.
	Flags []string
	// Source says where the task comes from: "list.txt:3" for a task
	// list's line, the directory or file named on the command line
	// otherwise.
	Source string
}

// reservedFlags are the check flags that the batch sets itself: a task
// that sets one is refused, since its value would be overridden (a flag
// the user set is never silently ignored).
var reservedFlags = map[string]string{
	"format":     "the batch reads check's JSON report",
	"timeout":    "use timeout=D",
	"engine":     "use engine=NAME",
	"target":     "use target=LABEL",
	"l":          "use target=LABEL",
	"trace-file": "the batch keeps no traces",
	"q":          "the batch runs checks quietly",
	"v":          "the batch runs checks quietly",
	"memory":     "the batch's --memory is each task's",
}

// ListOptions tune ParseList.
type ListOptions struct {
	// Engine, if not nil, checks an engine name given in the list; its
	// error is reported at the name's position.
	Engine func(name string) error
}

// ParseList reads a task list (the format is in the package doc). name is
// the list's file name for messages ("-" or "" for standard input, whose
// relative paths stay relative to the working directory). All malformed
// lines are reported, as a syntax.ErrorList of file:line:col errors.
func ParseList(name string, r io.Reader, opt ListOptions) ([]Task, error) {
	dir := ""
	if name != "" && name != "-" {
		dir = filepath.Dir(name)
	}
	display := name
	if name == "" || name == "-" {
		display = "<stdin>"
	}
	p := &listParser{file: display, dir: dir, opt: opt}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	line := 0
	for sc.Scan() {
		line++
		p.line(line, sc.Text())
	}
	if err := sc.Err(); err != nil {
		p.errs.Add(display, syntax.Pos{Line: line + 1, Col: 1}, err.Error())
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return p.tasks, nil
}

type listParser struct {
	file, dir string
	opt       ListOptions
	tasks     []Task
	errs      syntax.ErrorList
}

func (p *listParser) errorf(line, col int, format string, args ...any) {
	p.errs.Add(p.file, syntax.Pos{Line: line, Col: col}, fmt.Sprintf(format, args...))
}

// token is a word of a task line and the column (1-based, in bytes) where
// it starts.
type token struct {
	text string
	col  int
}

func (p *listParser) line(n int, text string) {
	text = strings.TrimSuffix(text, "\r")
	trimmed := strings.TrimLeft(text, " \t")
	if trimmed == "" || trimmed[0] == '#' {
		return
	}
	if trimmed[0] == '{' {
		p.jsonLine(n, text, len(text)-len(trimmed))
		return
	}
	toks, ok := p.tokens(n, text)
	if !ok || len(toks) == 0 {
		return
	}
	t := Task{File: p.path(toks[0].text), Source: fmt.Sprintf("%s:%d", p.file, n)}
	if toks[0].text == "--" || strings.Contains(toks[0].text, "=") && !strings.HasPrefix(text[toks[0].col-1:], `"`) {
		p.errorf(n, toks[0].col, "a task starts with its program file, not %q", toks[0].text)
		return
	}
	seen := map[string]bool{}
	for i := 1; i < len(toks); i++ {
		tok := toks[i]
		if tok.text == "--" {
			t.Flags = p.flags(n, toks[i+1:])
			break
		}
		key, val, ok := strings.Cut(tok.text, "=")
		if !ok {
			p.errorf(n, tok.col, "want KEY=VALUE (target, expect, engine, timeout) or -- before check flags, not %q", tok.text)
			continue
		}
		valCol := tok.col + len(key) + 1
		if key == "label" {
			key = "target"
		}
		if seen[key] {
			p.errorf(n, tok.col, "%s given twice", key)
			continue
		}
		seen[key] = true
		p.set(&t, n, tok.col, valCol, key, val)
	}
	p.tasks = append(p.tasks, t)
}

// set sets a task's key; keyCol and valCol are the positions of the key
// and of its value, for errors.
func (p *listParser) set(t *Task, n, keyCol, valCol int, key, val string) {
	if val == "" {
		p.errorf(n, valCol, "%s= without a value", key)
		return
	}
	switch key {
	case "target":
		if strings.ContainsAny(val, " \t") {
			p.errorf(n, valCol, "a label has no blanks: %q", val)
			return
		}
		t.Target = val
	case "expect":
		e, ok := ParseExpect(val)
		if !ok {
			p.errorf(n, valCol, "unknown expected verdict %q (want safe or unsafe)", val)
			return
		}
		t.Expect = e
	case "engine":
		if p.opt.Engine != nil {
			if err := p.opt.Engine(val); err != nil {
				p.errorf(n, valCol, "%v", err)
				return
			}
		}
		t.Engine = val
	case "timeout":
		d, err := time.ParseDuration(val)
		if err != nil || d <= 0 {
			p.errorf(n, valCol, "bad timeout %q (want a positive duration such as 30s or 2m)", val)
			return
		}
		t.Timeout = d
	default:
		p.errorf(n, keyCol, "unknown key %q (want target, expect, engine or timeout)", key)
	}
}

// flags checks the check flags after "--": every flag the batch sets
// itself is refused.
func (p *listParser) flags(n int, toks []token) []string {
	var out []string
	for _, tok := range toks {
		if tok.text == "--" {
			p.errorf(n, tok.col, "a second -- (one program per line)")
			continue
		}
		if err := checkFlag(tok.text); err != nil {
			p.errorf(n, tok.col, "%v", err)
			continue
		}
		out = append(out, tok.text)
	}
	return out
}

// checkFlag refuses a check flag that the batch sets itself.
func checkFlag(arg string) error {
	if !strings.HasPrefix(arg, "-") || arg == "-" || arg == "--" {
		return nil
	}
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	if why, ok := reservedFlags[name]; ok {
		return fmt.Errorf("%s is set by the batch (%s)", arg, why)
	}
	return nil
}

// CheckFlags checks flags of `boolprog check` meant for every task (the
// command's --check-flags): "--" and the flags the batch sets itself are
// refused.
func CheckFlags(flags []string) error {
	for _, f := range flags {
		if f == "--" {
			return errors.New("-- has no place among check flags")
		}
		if err := checkFlag(f); err != nil {
			return err
		}
	}
	return nil
}

// tokens splits a line into blank-separated tokens; a token that starts
// with '"' is a Go string literal, a token that starts with '#' begins a
// comment.
func (p *listParser) tokens(n int, text string) ([]token, bool) {
	var toks []token
	i := 0
	for i < len(text) {
		c := text[i]
		if c == ' ' || c == '\t' {
			i++
			continue
		}
		if c == '#' {
			break
		}
		if c == '"' {
			lit, err := strconv.QuotedPrefix(text[i:])
			if err != nil {
				p.errorf(n, i+1, "unterminated or malformed quoted string")
				return nil, false
			}
			s, _ := strconv.Unquote(lit)
			toks = append(toks, token{s, i + 1})
			i += len(lit)
			if i < len(text) && text[i] != ' ' && text[i] != '\t' {
				p.errorf(n, i+1, "want a blank after the quoted string")
				return nil, false
			}
			continue
		}
		j := i
		for j < len(text) && text[j] != ' ' && text[j] != '\t' {
			j++
		}
		toks = append(toks, token{text[i:j], i + 1})
		i = j
	}
	return toks, true
}

// path resolves a program path of the list against the list's directory.
func (p *listParser) path(file string) string {
	if p.dir == "" || filepath.IsAbs(file) {
		return file
	}
	return filepath.Join(p.dir, file)
}

// jsonKeys are the keys of a JSON task line.
var jsonKeys = []string{"file", "target", "expect", "engine", "timeout", "flags"}

// jsonLine reads a task written as a JSON object; indent is the number of
// blanks before it.
func (p *listParser) jsonLine(n int, text string, indent int) {
	var fields map[string]json.RawMessage
	dec := json.NewDecoder(strings.NewReader(text))
	if err := dec.Decode(&fields); err != nil {
		col := indent + 1
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			col = int(se.Offset)
		case errors.As(err, &te):
			col = int(te.Offset)
		case errors.Is(err, io.ErrUnexpectedEOF):
			col = len(text) + 1
		}
		p.errorf(n, max(col, 1), "malformed JSON task: %v", err)
		return
	}
	if rest, _ := io.ReadAll(dec.Buffered()); len(bytes.TrimSpace(rest)) > 0 || dec.More() {
		p.errorf(n, int(dec.InputOffset())+1, "text after the JSON task")
		return
	}
	keyCol := func(key string) int {
		if i := strings.Index(text, strconv.Quote(key)); i >= 0 {
			return i + 1
		}
		return indent + 1
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return keyCol(names[i]) < keyCol(names[j]) })
	t := Task{Source: fmt.Sprintf("%s:%d", p.file, n)}
	bad := false
	for _, k := range names {
		raw := fields[k]
		if k == "flags" {
			var fl []string
			if err := json.Unmarshal(raw, &fl); err != nil {
				p.errorf(n, keyCol(k), "flags: want an array of strings")
				bad = true
				continue
			}
			toks := make([]token, len(fl))
			for i, f := range fl {
				toks[i] = token{f, keyCol(k)}
			}
			before := len(p.errs)
			t.Flags = p.flags(n, toks)
			bad = bad || len(p.errs) > before
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			p.errorf(n, keyCol(k), "%s: want a string", k)
			bad = true
			continue
		}
		switch k {
		case "file":
			if s == "" {
				p.errorf(n, keyCol(k), "file: empty")
				bad = true
			}
			t.File = p.path(s)
		case "target", "expect", "engine", "timeout":
			before := len(p.errs)
			p.set(&t, n, keyCol(k), keyCol(k), k, s)
			bad = bad || len(p.errs) > before
		default:
			p.errorf(n, keyCol(k), "unknown key %q (want %s)", k, strings.Join(jsonKeys, ", "))
			bad = true
		}
	}
	if _, ok := fields["file"]; !ok {
		p.errorf(n, indent+1, "the task has no \"file\"")
		return
	}
	if !bad {
		p.tasks = append(p.tasks, t)
	}
}
