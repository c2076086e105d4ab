package witness

import (
	"bytes"
	"fmt"
	"strings"

	"boolprog/syntax"
)

// Format is a witness file format.
type Format int

// The formats.
const (
	YAML Format = iota
	GraphML
)

// String returns "yaml" or "graphml".
func (f Format) String() string {
	if f == GraphML {
		return "graphml"
	}
	return "yaml"
}

// ParseFormat maps "yaml" (or "yml") and "graphml" to a Format.
func ParseFormat(s string) (Format, bool) {
	switch strings.ToLower(s) {
	case "yaml", "yml":
		return YAML, true
	case "graphml", "xml":
		return GraphML, true
	}
	return YAML, false
}

// FormatOf returns the format a file name's extension names: .graphml and
// .xml are GraphML, .yaml and .yml YAML; ok is false for any other.
func FormatOf(name string) (f Format, ok bool) {
	i := strings.LastIndexByte(name, '.')
	if i < 0 {
		return YAML, false
	}
	return ParseFormat(name[i+1:])
}

// Write writes the witness in format f.
func (w *Witness) Write(out interface{ Write([]byte) (int, error) }, f Format) error {
	if f == GraphML {
		return w.WriteGraphML(out)
	}
	return w.WriteYAML(out)
}

// Parse reads a witness in either format (GraphML if its first non-blank
// character is '<', else YAML). A malformed witness gives a *syntax.Error
// at its file:line:col.
func Parse(name string, data []byte) (*Witness, error) {
	var w *Witness
	var err *syntax.Error
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '<' {
		w, err = decodeGraphML(data)
	} else {
		var root *ynode
		if root, err = parseYAML(string(data)); err == nil {
			w, err = decodeYAML(root)
		}
	}
	if err != nil {
		err.Filename = name
		return nil, err
	}
	if err := w.checkShape(); err != nil {
		err.Filename = name
		return nil, err
	}
	return w, nil
}

// checkShape checks what every witness of its kind must have.
func (w *Witness) checkShape() *syntax.Error {
	if w.Kind == Violation {
		n := 0
		for _, s := range w.Segments {
			if len(s.Waypoints) == 0 {
				return &syntax.Error{Pos: syntax.Pos{Line: 1, Col: 1}, Msg: "a segment without waypoints"}
			}
			n += len(s.Waypoints)
		}
		if n == 0 {
			return &syntax.Error{Pos: syntax.Pos{Line: 1, Col: 1}, Msg: "a violation sequence without waypoints"}
		}
		k := 0
		for _, s := range w.Segments {
			for _, wp := range s.Waypoints {
				k++
				if (wp.Type == Target) != (k == n) {
					msg := "only the last waypoint may be the target"
					if k == n {
						msg = fmt.Sprintf("the last waypoint must be the target, not %s", wp.Type)
					}
					return &syntax.Error{Pos: wp.Pos, Msg: msg}
				}
			}
		}
	}
	return nil
}
