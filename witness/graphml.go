package witness

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"boolprog/syntax"
)

// The GraphML keys of a witness automaton, written with keyPrefix before
// each (as id and attr.name): boolprog's own keys, though many are named
// after SV-COMP's GraphML format 1.0 (witness-type, sourcecodelang,
// entry, violation, startline, assumption, control, enterFunction,
// threadId), whose meaning they share for Boolean programs. The prefix
// keeps a file from claiming SV-COMP's keys without SV-COMP's
// requirements (architecture, C specification, returnFromFunction
// edges); the legacy form without it is still read.
var graphmlKeys = []struct{ id, for_, typ, def string }{
	{"format-version", "graph", "string", ""},
	{"witness-type", "graph", "string", ""},
	{"sourcecodelang", "graph", "string", ""},
	{"producer", "graph", "string", ""},
	{"producerversion", "graph", "string", ""},
	{"producerconfiguration", "graph", "string", ""},
	{"specification", "graph", "string", ""},
	{"programfile", "graph", "string", ""},
	{"programhash", "graph", "string", ""},
	{"creationtime", "graph", "string", ""},
	{"uuid", "graph", "string", ""},
	{"entry", "node", "boolean", "false"},
	{"violation", "node", "boolean", "false"},
	{"waypoint", "edge", "string", ""},
	{"startline", "edge", "int", ""},
	{"startcolumn", "edge", "int", ""},
	{"assumption", "edge", "string", ""},
	{"assumption.scope", "edge", "string", ""},
	{"control", "edge", "string", ""},
	{"enterFunction", "edge", "string", ""},
	{"threadId", "edge", "int", ""},
}

// keyPrefix names boolprog's namespace of GraphML keys.
const keyPrefix = "boolprog."

// ErrGraphMLCorrectness is WriteGraphML's error for a correctness
// witness, which has no GraphML form.
var ErrGraphMLCorrectness = errors.New("a correctness witness has no GraphML form (its invariants are found by location, not by a run of an automaton): write it as YAML")

// WriteGraphML writes a violation witness as a GraphML witness automaton
// in boolprog's format (see the package doc): a path from the entry node
// to the violation node, one edge per waypoint (its line, column,
// function, and its assumption, control or entered function). A
// correctness witness gives ErrGraphMLCorrectness.
func (w *Witness) WriteGraphML(out io.Writer) error {
	if w.Kind == Correctness {
		return ErrGraphMLCorrectness
	}
	b := bufio.NewWriter(out)
	esc := func(s string) string {
		var x bytes.Buffer
		xml.EscapeText(&x, []byte(s))
		return x.String()
	}
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n")
	b.WriteString("<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\n")
	for _, k := range graphmlKeys {
		if k.def == "" {
			fmt.Fprintf(b, " <key attr.name=%q attr.type=%q for=%q id=%q/>\n", keyPrefix+k.id, k.typ, k.for_, keyPrefix+k.id)
			continue
		}
		fmt.Fprintf(b, " <key attr.name=%q attr.type=%q for=%q id=%q>\n  <default>%s</default>\n </key>\n", keyPrefix+k.id, k.typ, k.for_, keyPrefix+k.id, k.def)
	}
	b.WriteString(" <graph edgedefault=\"directed\">\n")
	data := func(indent, key, val string) {
		fmt.Fprintf(b, "%s<data key=%q>%s</data>\n", indent, keyPrefix+key, esc(val))
	}
	m := w.Metadata
	data("  ", "format-version", FormatVersion)
	data("  ", "witness-type", "violation_witness")
	data("  ", "sourcecodelang", m.Task.Language)
	data("  ", "producer", m.Producer.Name)
	data("  ", "producerversion", m.Producer.Version)
	if m.Producer.Configuration != "" {
		data("  ", "producerconfiguration", m.Producer.Configuration)
	}
	data("  ", "specification", m.Task.Specification)
	data("  ", "programfile", m.Task.InputFile)
	data("  ", "programhash", m.Task.InputFileHash)
	data("  ", "creationtime", m.CreationTime)
	data("  ", "uuid", m.UUID)
	var wps []Waypoint
	for _, s := range w.Segments {
		wps = append(wps, s.Waypoints...)
	}
	b.WriteString("  <node id=\"N0\">\n")
	data("   ", "entry", "true")
	b.WriteString("  </node>\n")
	for i, wp := range wps {
		fmt.Fprintf(b, "  <node id=\"N%d\">\n", i+1)
		if wp.Type == Target {
			data("   ", "violation", "true")
		}
		b.WriteString("  </node>\n")
		fmt.Fprintf(b, "  <edge source=\"N%d\" target=\"N%d\">\n", i, i+1)
		data("   ", "waypoint", wp.Type)
		data("   ", "startline", strconv.Itoa(wp.Location.Line))
		data("   ", "startcolumn", strconv.Itoa(wp.Location.Col))
		data("   ", "assumption.scope", wp.Location.Function)
		switch wp.Type {
		case Assumption:
			data("   ", "assumption", wp.Constraint)
		case Branching:
			data("   ", "control", wp.Constraint)
		case FunctionEnter:
			data("   ", "enterFunction", wp.Constraint)
		}
		if wp.Thread >= 0 {
			data("   ", "threadId", strconv.Itoa(wp.Thread))
		}
		b.WriteString("  </edge>\n")
	}
	b.WriteString(" </graph>\n</graphml>\n")
	return b.Flush()
}

// gelem is a node or edge of a parsed GraphML graph.
type gelem struct {
	id, source, target string
	data               map[string]string // by attr.name
	dataPos            map[string]syntax.Pos
	pos                syntax.Pos
}

// decodeGraphML reads a GraphML witness.
func decodeGraphML(src []byte) (*Witness, *syntax.Error) {
	// The offsets where lines start, for positions in time logarithmic
	// in the size of the file.
	starts := []int{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	posAt := func(off int64) syntax.Pos {
		o := int(min(off, int64(len(src))))
		line, _ := slices.BinarySearch(starts, o+1)
		return syntax.Pos{Offset: o, Line: line, Col: o - starts[line-1] + 1}
	}
	fail := func(pos syntax.Pos, format string, args ...any) (*Witness, *syntax.Error) {
		return nil, &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
	}
	dec := xml.NewDecoder(bytes.NewReader(src))
	keys := map[string]string{} // key id -> attr.name
	graph := &gelem{data: map[string]string{}, dataPos: map[string]syntax.Pos{}}
	var nodes, edges []*gelem
	var cur *gelem // the node or edge being read
	var dataKey string
	var dataPos syntax.Pos
	var text strings.Builder
	sawGraph := false
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return fail(syntax.Pos{Line: se.Line, Col: 1}, "%s", se.Msg)
			}
			return fail(posAt(dec.InputOffset()), "%v", err)
		}
		attr := func(e xml.StartElement, name string) string {
			for _, a := range e.Attr {
				if a.Name.Local == name {
					return a.Value
				}
			}
			return ""
		}
		pos := posAt(start)
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "key":
				name := attr(t, "attr.name")
				if name == "" {
					name = attr(t, "id")
				}
				// The legacy form's keys have no prefix.
				keys[attr(t, "id")] = strings.TrimPrefix(name, keyPrefix)
			case "graph":
				sawGraph = true
				cur = graph
			case "node", "edge":
				cur = &gelem{id: attr(t, "id"), source: attr(t, "source"), target: attr(t, "target"),
					data: map[string]string{}, dataPos: map[string]syntax.Pos{}, pos: pos}
				if t.Name.Local == "node" {
					if cur.id == "" {
						return fail(pos, "node without an id")
					}
					nodes = append(nodes, cur)
				} else {
					if cur.source == "" || cur.target == "" {
						return fail(pos, "edge without a source or target")
					}
					edges = append(edges, cur)
				}
			case "data":
				k := attr(t, "key")
				name, ok := keys[k]
				if !ok {
					return fail(pos, "data with undeclared key %q", k)
				}
				dataKey, dataPos = name, posAt(dec.InputOffset())
				text.Reset()
			}
		case xml.CharData:
			if dataKey != "" {
				text.Write(t)
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "data":
				if cur != nil && dataKey != "" {
					cur.data[dataKey] = strings.TrimSpace(text.String())
					cur.dataPos[dataKey] = dataPos
				}
				dataKey = ""
			case "node", "edge":
				cur = graph
			}
		}
	}
	if !sawGraph {
		return fail(syntax.Pos{Line: 1, Col: 1}, "no <graph> element")
	}
	w := &Witness{}
	g := graph.data
	switch g["witness-type"] {
	case "violation_witness":
		w.Kind = Violation
	case "correctness_witness":
		w.Kind = Correctness
	default:
		return fail(graph.dataPos["witness-type"], "unknown witness-type %q (want violation_witness or correctness_witness)", g["witness-type"])
	}
	version := g["format-version"]
	switch version {
	case FormatVersion:
	case "":
		version = legacyVersion
	default:
		return fail(graph.dataPos["format-version"], "unsupported format-version %q (want %q)", version, FormatVersion)
	}
	if w.Kind == Correctness && version == FormatVersion {
		return fail(graph.dataPos["witness-type"], "a %s GraphML witness is a violation witness: correctness witnesses are YAML", FormatVersion)
	}
	w.Metadata = Metadata{FormatVersion: version, UUID: g["uuid"], CreationTime: g["creationtime"],
		Producer: Producer{Name: g["producer"], Version: g["producerversion"], Configuration: g["producerconfiguration"]},
		Task:     Task{InputFile: g["programfile"], InputFileHash: g["programhash"], Specification: g["specification"], Language: g["sourcecodelang"]}}
	num := func(e *gelem, key string, need bool) (int, *syntax.Error) {
		s, ok := e.data[key]
		if !ok {
			if need {
				return 0, &syntax.Error{Pos: e.pos, Msg: fmt.Sprintf("missing data %q", key)}
			}
			return -1, nil
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return 0, &syntax.Error{Pos: e.dataPos[key], Msg: fmt.Sprintf("%s: expected a number, found %q", key, s)}
		}
		return n, nil
	}
	file := w.Metadata.Task.InputFile
	if w.Kind == Correctness {
		for _, n := range nodes {
			line, err := num(n, "location.line", false)
			if err != nil {
				return nil, err
			}
			col, err := num(n, "location.column", false)
			if err != nil {
				return nil, err
			}
			if _, ok := n.data["threads"]; ok {
				c := ConfigInvariant{Atomic: -1, Running: -1, Value: n.data["invariant"], Pos: n.pos, ValuePos: n.dataPos["invariant"], ThreadsPos: n.dataPos["threads"]}
				for _, text := range strings.Split(n.data["threads"], " | ") {
					st, err := ParseStack(text, file)
					if err != nil {
						return fail(n.dataPos["threads"], "%v", err)
					}
					c.Threads = append(c.Threads, st)
				}
				a, err := num(n, "atomic.owner", false)
				if err != nil {
					return nil, err
				}
				c.Atomic = a
				if c.Running, err = num(n, "running", false); err != nil {
					return nil, err
				}
				if c.Init, err = boolData(n, "init"); err != nil {
					return nil, err
				}
				w.Configurations = append(w.Configurations, c)
				continue
			}
			if text, ok := n.data["thread.stack"]; ok {
				st, err := ParseStack(text, file)
				if err != nil {
					return fail(n.dataPos["thread.stack"], "%v", err)
				}
				init, berr := boolData(n, "init")
				if berr != nil {
					return nil, berr
				}
				w.ThreadInvariants = append(w.ThreadInvariants, ThreadInvariant{Stack: st, Init: init, Value: n.data["invariant"], Pos: n.pos, ValuePos: n.dataPos["invariant"]})
				continue
			}
			switch {
			case n.data["contract.scope"] != "":
				c := Contract{Function: n.data["contract.scope"], Requires: n.data["requires"], Ensures: n.data["ensures"],
					Pos: n.pos, RequiresPos: n.dataPos["requires"], EnsuresPos: n.dataPos["ensures"]}
				c.Location = Location{File: file, Line: line, Col: col, Function: c.Function}
				w.Contracts = append(w.Contracts, c)
			case n.data["invariant"] != "":
				if line < 0 {
					return fail(n.pos, "invariant without location.line")
				}
				w.Invariants = append(w.Invariants, Invariant{Location: Location{File: file, Line: line, Col: max(col, 0), Function: n.data["invariant.scope"]},
					Value: n.data["invariant"], Pos: n.pos, ValuePos: n.dataPos["invariant"]})
			}
		}
		return w, nil
	}
	// A violation witness: the path from the entry node to a violation
	// node, one waypoint per edge.
	byID := map[string]*gelem{}
	var entry *gelem
	for _, n := range nodes {
		if byID[n.id] != nil {
			return fail(n.pos, "duplicate node id %q", n.id)
		}
		byID[n.id] = n
		if n.data["entry"] == "true" {
			if entry != nil {
				return fail(n.pos, "a second entry node %q", n.id)
			}
			entry = n
		}
	}
	if entry == nil {
		return fail(graph.pos, "no entry node")
	}
	out := map[string]*gelem{}
	for _, e := range edges {
		if byID[e.source] == nil || byID[e.target] == nil {
			return fail(e.pos, "edge between unknown nodes %q and %q", e.source, e.target)
		}
		if out[e.source] != nil {
			return fail(e.pos, "node %q has a second outgoing edge: only a path of waypoints is supported", e.source)
		}
		out[e.source] = e
	}
	seen := map[string]bool{}
	for n := entry; n.data["violation"] != "true"; {
		seen[n.id] = true
		e := out[n.id]
		if e == nil {
			return fail(n.pos, "node %q: the path from the entry node ends before a violation node", n.id)
		}
		line, err := num(e, "startline", true)
		if err != nil {
			return nil, err
		}
		col, err := num(e, "startcolumn", false)
		if err != nil {
			return nil, err
		}
		th, err := num(e, "threadId", false)
		if err != nil {
			return nil, err
		}
		wp := Waypoint{Action: "follow", Thread: th, Pos: e.pos,
			Location: Location{File: file, Line: line, Col: max(col, 0), Function: e.data["assumption.scope"]}}
		typ := e.data["waypoint"]
		switch {
		case typ == Assumption || typ == "" && e.data["assumption"] != "":
			wp.Type, wp.Constraint, wp.ValuePos = Assumption, e.data["assumption"], e.dataPos["assumption"]
		case typ == Branching || typ == "" && e.data["control"] != "":
			wp.Type, wp.Constraint, wp.ValuePos = Branching, e.data["control"], e.dataPos["control"]
		case typ == FunctionEnter || typ == "" && e.data["enterFunction"] != "":
			wp.Type, wp.Constraint, wp.ValuePos = FunctionEnter, e.data["enterFunction"], e.dataPos["enterFunction"]
		case typ == Target || typ == "" && byID[e.target].data["violation"] == "true":
			wp.Type = Target
		default:
			return fail(e.dataPos["waypoint"], "unknown waypoint type %q", typ)
		}
		w.Segments = append(w.Segments, Segment{Waypoints: []Waypoint{wp}})
		n = byID[e.target]
		if seen[n.id] {
			return fail(e.pos, "the path from the entry node loops back to node %q", n.id)
		}
	}
	return w, nil
}

// boolData returns the optional Boolean data key of a node.
func boolData(n *gelem, key string) (bool, *syntax.Error) {
	switch n.data[key] {
	case "true":
		return true, nil
	case "", "false":
		return false, nil
	}
	return false, &syntax.Error{Pos: n.dataPos[key], Msg: fmt.Sprintf("%s: expected true or false, found %q", key, n.data[key])}
}
