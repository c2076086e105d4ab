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

// graphML is a parsed GraphML graph: the graph's own data, its nodes and
// its edges in the order of the file.
type graphML struct {
	graph        *gelem
	nodes, edges []*gelem
}

// failAt is a decoding error at pos.
func failAt(pos syntax.Pos, format string, args ...any) *syntax.Error {
	return &syntax.Error{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// lineIndex finds the position of a byte offset in time logarithmic in
// the size of the file.
type lineIndex []int // the offsets where lines start

func newLineIndex(src []byte) lineIndex {
	starts := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// pos returns the position of offset off of a source of n bytes.
func (starts lineIndex) pos(off int64, n int) syntax.Pos {
	o := int(min(off, int64(n)))
	line, _ := slices.BinarySearch(starts, o+1)
	return syntax.Pos{Offset: o, Line: line, Col: o - starts[line-1] + 1}
}

// xmlAttr returns the value of e's attribute name, or "".
func xmlAttr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// readGraphML reads the graph of a GraphML file: each node's and edge's
// data by key name (attr.name), with positions.
func readGraphML(src []byte) (*graphML, *syntax.Error) {
	lines := newLineIndex(src)
	posAt := func(off int64) syntax.Pos { return lines.pos(off, len(src)) }
	dec := xml.NewDecoder(bytes.NewReader(src))
	keys := map[string]string{} // key id -> attr.name
	g := &graphML{graph: &gelem{data: map[string]string{}, dataPos: map[string]syntax.Pos{}}}
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
				return nil, failAt(syntax.Pos{Line: se.Line, Col: 1}, "%s", se.Msg)
			}
			return nil, failAt(posAt(dec.InputOffset()), "%v", err)
		}
		pos := posAt(start)
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "key":
				name := xmlAttr(t, "attr.name")
				if name == "" {
					name = xmlAttr(t, "id")
				}
				// The legacy form's keys have no prefix.
				keys[xmlAttr(t, "id")] = strings.TrimPrefix(name, keyPrefix)
			case "graph":
				sawGraph = true
				cur = g.graph
			case "node", "edge":
				cur = &gelem{id: xmlAttr(t, "id"), source: xmlAttr(t, "source"), target: xmlAttr(t, "target"),
					data: map[string]string{}, dataPos: map[string]syntax.Pos{}, pos: pos}
				if t.Name.Local == "node" {
					if cur.id == "" {
						return nil, failAt(pos, "node without an id")
					}
					g.nodes = append(g.nodes, cur)
				} else {
					if cur.source == "" || cur.target == "" {
						return nil, failAt(pos, "edge without a source or target")
					}
					g.edges = append(g.edges, cur)
				}
			case "data":
				k := xmlAttr(t, "key")
				name, ok := keys[k]
				if !ok {
					return nil, failAt(pos, "data with undeclared key %q", k)
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
				cur = g.graph
			}
		}
	}
	if !sawGraph {
		return nil, failAt(syntax.Pos{Line: 1, Col: 1}, "no <graph> element")
	}
	return g, nil
}

// decodeGraphML reads a GraphML witness.
func decodeGraphML(src []byte) (*Witness, *syntax.Error) {
	g, err := readGraphML(src)
	if err != nil {
		return nil, err
	}
	w := &Witness{}
	d := g.graph.data
	switch d["witness-type"] {
	case "violation_witness":
		w.Kind = Violation
	case "correctness_witness":
		w.Kind = Correctness
	default:
		return nil, failAt(g.graph.dataPos["witness-type"], "unknown witness-type %q (want violation_witness or correctness_witness)", d["witness-type"])
	}
	version := d["format-version"]
	switch version {
	case FormatVersion:
	case "":
		version = legacyVersion
	default:
		return nil, failAt(g.graph.dataPos["format-version"], "unsupported format-version %q (want %q)", version, FormatVersion)
	}
	if w.Kind == Correctness && version == FormatVersion {
		return nil, failAt(g.graph.dataPos["witness-type"], "a %s GraphML witness is a violation witness: correctness witnesses are YAML", FormatVersion)
	}
	w.Metadata = Metadata{FormatVersion: version, UUID: d["uuid"], CreationTime: d["creationtime"],
		Producer: Producer{Name: d["producer"], Version: d["producerversion"], Configuration: d["producerconfiguration"]},
		Task:     Task{InputFile: d["programfile"], InputFileHash: d["programhash"], Specification: d["specification"], Language: d["sourcecodelang"]}}
	if w.Kind == Correctness {
		err = g.correctness(w)
	} else {
		err = g.violation(w)
	}
	if err != nil {
		return nil, err
	}
	return w, nil
}

// num returns the number of data key of e: -1 if it is missing and not
// needed.
func (e *gelem) num(key string, need bool) (int, *syntax.Error) {
	s, ok := e.data[key]
	if !ok {
		if need {
			return 0, failAt(e.pos, "missing data %q", key)
		}
		return -1, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, failAt(e.dataPos[key], "%s: expected a number, found %q", key, s)
	}
	return n, nil
}

// correctness reads the nodes of a correctness witness into w: the
// configuration invariants of a concurrent program (data threads), the
// thread invariants (thread.stack), the contracts and the invariants.
func (g *graphML) correctness(w *Witness) *syntax.Error {
	file := w.Metadata.Task.InputFile
	for _, n := range g.nodes {
		line, err := n.num("location.line", false)
		if err != nil {
			return err
		}
		col, err := n.num("location.column", false)
		if err != nil {
			return err
		}
		if _, ok := n.data["threads"]; ok {
			c, err := configInvariant(n, file)
			if err != nil {
				return err
			}
			w.Configurations = append(w.Configurations, c)
			continue
		}
		if text, ok := n.data["thread.stack"]; ok {
			st, err := ParseStack(text, file)
			if err != nil {
				return failAt(n.dataPos["thread.stack"], "%v", err)
			}
			init, berr := boolData(n, "init")
			if berr != nil {
				return berr
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
				return failAt(n.pos, "invariant without location.line")
			}
			w.Invariants = append(w.Invariants, Invariant{Location: Location{File: file, Line: line, Col: max(col, 0), Function: n.data["invariant.scope"]},
				Value: n.data["invariant"], Pos: n.pos, ValuePos: n.dataPos["invariant"]})
		}
	}
	return nil
}

// configInvariant reads the configuration invariant of node n.
func configInvariant(n *gelem, file string) (ConfigInvariant, *syntax.Error) {
	c := ConfigInvariant{Atomic: -1, Running: -1, Value: n.data["invariant"], Pos: n.pos, ValuePos: n.dataPos["invariant"], ThreadsPos: n.dataPos["threads"]}
	for _, text := range strings.Split(n.data["threads"], " | ") {
		st, err := ParseStack(text, file)
		if err != nil {
			return c, failAt(n.dataPos["threads"], "%v", err)
		}
		c.Threads = append(c.Threads, st)
	}
	var err *syntax.Error
	if c.Atomic, err = n.num("atomic.owner", false); err != nil {
		return c, err
	}
	if c.Running, err = n.num("running", false); err != nil {
		return c, err
	}
	if c.Init, err = boolData(n, "init"); err != nil {
		return c, err
	}
	return c, nil
}

// violation reads a violation witness into w: the path from the entry node
// to a violation node, one waypoint per edge.
func (g *graphML) violation(w *Witness) *syntax.Error {
	byID := map[string]*gelem{}
	var entry *gelem
	for _, n := range g.nodes {
		if byID[n.id] != nil {
			return failAt(n.pos, "duplicate node id %q", n.id)
		}
		byID[n.id] = n
		if n.data["entry"] == "true" {
			if entry != nil {
				return failAt(n.pos, "a second entry node %q", n.id)
			}
			entry = n
		}
	}
	if entry == nil {
		return failAt(g.graph.pos, "no entry node")
	}
	out := map[string]*gelem{}
	for _, e := range g.edges {
		if byID[e.source] == nil || byID[e.target] == nil {
			return failAt(e.pos, "edge between unknown nodes %q and %q", e.source, e.target)
		}
		if out[e.source] != nil {
			return failAt(e.pos, "node %q has a second outgoing edge: only a path of waypoints is supported", e.source)
		}
		out[e.source] = e
	}
	file := w.Metadata.Task.InputFile
	seen := map[string]bool{}
	for n := entry; n.data["violation"] != "true"; {
		seen[n.id] = true
		e := out[n.id]
		if e == nil {
			return failAt(n.pos, "node %q: the path from the entry node ends before a violation node", n.id)
		}
		wp, err := waypoint(e, byID[e.target], file)
		if err != nil {
			return err
		}
		w.Segments = append(w.Segments, Segment{Waypoints: []Waypoint{wp}})
		n = byID[e.target]
		if seen[n.id] {
			return failAt(e.pos, "the path from the entry node loops back to node %q", n.id)
		}
	}
	return nil
}

// waypoint reads the waypoint of edge e into node to: its type from the
// data waypoint or, in SV-COMP's witnesses, from the data it has.
func waypoint(e, to *gelem, file string) (Waypoint, *syntax.Error) {
	line, err := e.num("startline", true)
	if err != nil {
		return Waypoint{}, err
	}
	col, err := e.num("startcolumn", false)
	if err != nil {
		return Waypoint{}, err
	}
	th, err := e.num("threadId", false)
	if err != nil {
		return Waypoint{}, err
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
	case typ == Target || typ == "" && to.data["violation"] == "true":
		wp.Type = Target
	default:
		return Waypoint{}, failAt(e.dataPos["waypoint"], "unknown waypoint type %q", typ)
	}
	return wp, nil
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
