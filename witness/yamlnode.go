package witness

import (
	"fmt"
	"strconv"
	"strings"

	"boolprog/syntax"
)

// This file reads the subset of YAML that witnesses use: block mappings and
// block sequences by indentation, plain, single- and double-quoted scalars,
// comments, a leading "---", and the empty flow collections {} and []. It
// keeps every node's position for file:line:col messages.

// ynode is a YAML node: a mapping, a sequence or a scalar.
type ynode struct {
	kind   byte // 'm' mapping, 's' sequence, 'v' scalar
	keys   []string
	keyPos []syntax.Pos
	vals   []*ynode
	items  []*ynode
	value  string
	quoted bool // a quoted scalar: a string, whatever its text
	pos    syntax.Pos
}

// get returns the value of key in a mapping, or nil.
func (n *ynode) get(key string) *ynode {
	if n == nil || n.kind != 'm' {
		return nil
	}
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

type yline struct {
	indent int
	text   string // content after the indentation
	line   int
	col    int // column of text[0]
}

type yparser struct {
	lines []yline
	i     int
	err   *syntax.Error
}

func (yp *yparser) fail(pos syntax.Pos, format string, args ...any) {
	if yp.err == nil {
		yp.err = &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
}

// parseYAML parses a document; errors carry positions (no file name).
func parseYAML(data string) (*ynode, *syntax.Error) {
	yp := &yparser{}
	for n, raw := range strings.Split(data, "\n") {
		raw = strings.TrimRight(raw, "\r")
		if lead := raw[:len(raw)-len(strings.TrimLeft(raw, " \t"))]; strings.Contains(lead, "\t") {
			return nil, &syntax.Error{Pos: syntax.Pos{Line: n + 1, Col: strings.IndexByte(raw, '\t') + 1}, Msg: "tab in indentation"}
		}
		text := strings.TrimLeft(raw, " ")
		indent := len(raw) - len(text)
		if text == "" || text[0] == '#' || (n == 0 || len(yp.lines) == 0) && (text == "---" || strings.HasPrefix(text, "%")) {
			continue
		}
		if text == "..." {
			break
		}
		yp.lines = append(yp.lines, yline{indent: indent, text: strings.TrimRight(text, " "), line: n + 1, col: indent + 1})
	}
	if len(yp.lines) == 0 {
		return nil, &syntax.Error{Pos: syntax.Pos{Line: 1, Col: 1}, Msg: "empty witness"}
	}
	n := yp.node(yp.lines[0].indent)
	if yp.err == nil && yp.i < len(yp.lines) {
		l := yp.lines[yp.i]
		yp.fail(syntax.Pos{Line: l.line, Col: l.col}, "unexpected indentation")
	}
	if yp.err != nil {
		return nil, yp.err
	}
	return n, nil
}

func (l yline) pos() syntax.Pos { return syntax.Pos{Line: l.line, Col: l.col} }

func isSeqItem(text string) bool { return text == "-" || strings.HasPrefix(text, "- ") }

// node parses the node whose lines start at yp.i with the given indent.
func (yp *yparser) node(indent int) *ynode {
	l := yp.lines[yp.i]
	switch {
	case isSeqItem(l.text):
		return yp.seq(indent)
	case keyEnd(l.text) >= 0:
		return yp.mapping(indent)
	}
	yp.i++
	return yp.scalar(l.text, l.pos())
}

func (yp *yparser) seq(indent int) *ynode {
	n := &ynode{kind: 's', pos: yp.lines[yp.i].pos()}
	for yp.err == nil && yp.i < len(yp.lines) {
		l := yp.lines[yp.i]
		if l.indent != indent || !isSeqItem(l.text) {
			if l.indent > indent {
				yp.fail(l.pos(), "unexpected indentation")
			}
			break
		}
		rest := strings.TrimLeft(l.text[1:], " ")
		if rest == "" {
			yp.i++
			if yp.i >= len(yp.lines) || yp.lines[yp.i].indent <= indent {
				n.items = append(n.items, &ynode{kind: 'v', pos: l.pos()})
				continue
			}
			n.items = append(n.items, yp.node(yp.lines[yp.i].indent))
			continue
		}
		// "- key: value": the rest is a node at the column of key.
		off := len(l.text) - len(rest)
		yp.lines[yp.i] = yline{indent: indent + off, text: rest, line: l.line, col: l.col + off}
		n.items = append(n.items, yp.node(indent+off))
	}
	return n
}

// keyEnd returns the index of the ':' that ends a mapping key in text
// (followed by a space or the end), or -1.
func keyEnd(text string) int {
	if text == "" || text[0] == '{' || text[0] == '[' {
		return -1
	}
	i := 0
	if text[0] == '"' || text[0] == '\'' {
		q := text[0]
		i = 1
		for i < len(text) && text[i] != q {
			if q == '"' && text[i] == '\\' {
				i++
			}
			i++
		}
		i++
		if i < len(text) && text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ') {
			return i
		}
		return -1
	}
	for ; i < len(text); i++ {
		if text[i] == ':' && (i+1 == len(text) || text[i+1] == ' ') {
			return i
		}
		if text[i] == '#' && i > 0 && text[i-1] == ' ' {
			return -1
		}
	}
	return -1
}

func (yp *yparser) mapping(indent int) *ynode {
	n := &ynode{kind: 'm', pos: yp.lines[yp.i].pos()}
	for yp.err == nil && yp.i < len(yp.lines) {
		l := yp.lines[yp.i]
		if l.indent != indent || isSeqItem(l.text) {
			if l.indent > indent {
				yp.fail(l.pos(), "unexpected indentation")
			}
			break
		}
		k := keyEnd(l.text)
		if k < 0 {
			yp.fail(l.pos(), "expected \"key: value\"")
			break
		}
		keyNode := yp.scalar(l.text[:k], l.pos())
		for _, old := range n.keys {
			if old == keyNode.value {
				yp.fail(l.pos(), "duplicate key %q", old)
			}
		}
		n.keys = append(n.keys, keyNode.value)
		n.keyPos = append(n.keyPos, l.pos())
		rest := strings.TrimLeft(l.text[k+1:], " ")
		restCol := l.col + len(l.text) - len(rest)
		yp.i++
		if rest == "" || rest[0] == '#' {
			// The value is the block that follows: more indented, or a
			// sequence at the same indentation.
			if yp.i < len(yp.lines) {
				nl := yp.lines[yp.i]
				if nl.indent > indent || nl.indent == indent && isSeqItem(nl.text) {
					n.vals = append(n.vals, yp.node(nl.indent))
					continue
				}
			}
			n.vals = append(n.vals, &ynode{kind: 'v', pos: syntax.Pos{Line: l.line, Col: restCol}})
			continue
		}
		n.vals = append(n.vals, yp.scalar(rest, syntax.Pos{Line: l.line, Col: restCol}))
	}
	return n
}

// scalar decodes a one-line scalar (or an empty flow collection).
func (yp *yparser) scalar(text string, pos syntax.Pos) *ynode {
	n := &ynode{kind: 'v', pos: pos}
	switch {
	case text == "{}":
		n.kind = 'm'
	case text == "[]":
		n.kind = 's'
	case strings.HasPrefix(text, `"`):
		end := 1
		var b strings.Builder
		for ; end < len(text) && text[end] != '"'; end++ {
			c := text[end]
			if c != '\\' {
				b.WriteByte(c)
				continue
			}
			end++
			if end >= len(text) {
				break
			}
			switch text[end] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case '"', '\\', '/':
				b.WriteByte(text[end])
			case 'u':
				if end+4 < len(text) {
					if r, err := strconv.ParseUint(text[end+1:end+5], 16, 32); err == nil {
						b.WriteRune(rune(r))
						end += 4
						continue
					}
				}
				yp.fail(syntax.Pos{Line: pos.Line, Col: pos.Col + end}, "bad \\u escape")
			default:
				yp.fail(syntax.Pos{Line: pos.Line, Col: pos.Col + end}, "unknown escape \\%c", text[end])
			}
		}
		if end >= len(text) {
			yp.fail(pos, "unterminated string")
			return n
		}
		if tail := strings.TrimSpace(text[end+1:]); tail != "" && tail[0] != '#' {
			yp.fail(syntax.Pos{Line: pos.Line, Col: pos.Col + end + 1}, "unexpected text after the string")
		}
		n.value, n.quoted = b.String(), true
		n.pos.Col++ // the value starts after the quote
	case strings.HasPrefix(text, "'"):
		var b strings.Builder
		end := 1
		for ; end < len(text); end++ {
			if text[end] == '\'' {
				if end+1 < len(text) && text[end+1] == '\'' {
					b.WriteByte('\'')
					end++
					continue
				}
				break
			}
			b.WriteByte(text[end])
		}
		if end >= len(text) {
			yp.fail(pos, "unterminated string")
		}
		n.value, n.quoted = b.String(), true
		n.pos.Col++
	default:
		if i := strings.Index(text, " #"); i >= 0 {
			text = strings.TrimRight(text[:i], " ")
		}
		if strings.ContainsAny(text[:min(1, len(text))], "[{&*!|>%@`") {
			yp.fail(pos, "unsupported YAML construct %q (use a quoted string)", text)
		}
		n.value = text
	}
	return n
}

// yamlQuote returns s as a double-quoted YAML scalar.
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
